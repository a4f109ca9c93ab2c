#!/usr/bin/env bash
# swarm-particles' frames are bitwise identical on every SIMD target this CPU supports and every
# thread count: runs the headless demo with one seed per (scene, target, threads) and requires
# the same PNG bytes (sha256) and state hash within each scene. Scenes must differ from each
# other (so identical blank frames cannot pass).
#
#   particles_determinism.sh <swarm-particles> <work dir> <scene>:<frames>[:<particles>]...
# (20,000 particles unless a run names its count.)
set -euo pipefail

binary=$1
work=$2
shift 2
runs=("$@")
mkdir -p "$work"
common=(--headless --width 320 --height 180 --seed 7)

# The summary names the targets this CPU supports: "SIMD targets this CPU supports: avx512, ...".
"$binary" "${common[@]}" --particles 20000 --frames 1 >"$work/probe.txt"
targets=$(sed -n 's/^SIMD targets this CPU supports: //p' "$work/probe.txt" | tr -d ',')
read -r -a targets <<<"$targets"
if [[ ${#targets[@]} -lt 2 ]]; then
  echo "FAILED: expected at least two SIMD targets, got '${targets[*]}'" >&2
  exit 1
fi
echo "targets: ${targets[*]}"

failed=0
declare -A scene_digest
for run in "${runs[@]}"; do
  IFS=: read -r scene frames particles <<<"$run"
  particles=${particles:-20000}
  reference=""
  for target in "${targets[@]}"; do
    for threads in 1 2 3; do
      png="$work/$scene-$target-$threads.png"
      log="$work/$scene-$target-$threads.txt"
      if ! "$binary" "${common[@]}" --particles "$particles" --scene "$scene" --frames "$frames" \
          --simd "$target" --threads "$threads" --out "$png" >"$log" 2>&1; then
        echo "FAILED: $scene on $target with $threads thread(s):" >&2
        cat "$log" >&2
        exit 1
      fi
      grep -q "SIMD $target (" "$log" || { echo "FAILED: $log did not run $target" >&2; exit 1; }
      hash=$(sed -n 's/^state hash \([0-9a-f]*\) after.*/\1/p' "$log")
      digest="$(sha256sum <"$png" | cut -d' ' -f1) $hash"
      echo "$scene $target threads=$threads: $digest"
      if [[ -z $reference ]]; then
        reference=$digest
      elif [[ $digest != "$reference" ]]; then
        echo "FAILED: $scene on $target with $threads thread(s) differs from the first run" >&2
        failed=1
      fi
    done
  done
  for other in "${!scene_digest[@]}"; do
    if [[ ${scene_digest[$other]} == "$reference" ]]; then
      echo "FAILED: scenes $scene and $other gave the same frame" >&2
      failed=1
    fi
  done
  scene_digest[$scene]=$reference
done
exit $failed
