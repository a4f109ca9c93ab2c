#!/usr/bin/env bash
# swarm-robots runs are bitwise identical on every SIMD target this CPU supports, on 1, 2 and 3
# threads, and for any batch size (robot r's recorded trajectory is the same among 40 or 333
# robots): the sha256 of run.npy and run_ee.npy and the state hash (for equal batch sizes) must
# agree, per task. Tasks must differ from each other (so identical empty outputs cannot pass).
#
#   robots_determinism.sh <swarm-robots> <urdf> <work dir> [--sanitized] [--tasks "t1 t2"]
#       [run flags...]
# The tasks default to reach, track and random; the run flags (e.g. --control torque) are added
# to every run. --sanitized (the ASan + UBSan tree, whose runs are ten times slower) runs 1 and 3
# threads only and not "auto": every target's code still runs single- and multi-threaded, and
# the Release tree checks every combination.
set -euo pipefail

binary=$1
urdf=$2
work=$3
shift 3
thread_counts=(1 2 3)
run_auto=1
if [[ ${1:-} == --sanitized ]]; then
  thread_counts=(1 3)
  run_auto=0
  shift
fi
tasks=(reach track random)
if [[ ${1:-} == --tasks ]]; then
  read -r -a tasks <<<"$2"
  shift 2
fi
mkdir -p "$work"
common=(--urdf "$urdf" --dt 0.002 --seed 9 --record-every 8 --record-robots 40 --no-progress "$@")

"$binary" "${common[@]}" --robots 16 --steps 1 >"$work/probe.txt"
common+=(--steps 40)
targets=$(sed -n 's/^SIMD targets this CPU supports: //p' "$work/probe.txt" | tr -d ',')
read -r -a targets <<<"$targets"
if [[ ${#targets[@]} -lt 2 ]]; then
  echo "FAILED: expected at least two SIMD targets, got '${targets[*]}'" >&2
  exit 1
fi
if [[ $run_auto -eq 1 ]]; then targets+=(auto); fi
echo "targets: ${targets[*]}"

failed=0
declare -A task_digest
for task in "${tasks[@]}"; do
  reference=""
  reference_hash=""
  for target in "${targets[@]}"; do
    for threads in "${thread_counts[@]}"; do
      for robots in 40 333; do
        name="$task-$target-$threads-$robots"
        if ! "$binary" "${common[@]}" --task "$task" --simd "$target" --threads "$threads" \
            --robots "$robots" --out "$work/$name.npy" >"$work/$name.txt" 2>&1; then
          echo "FAILED: $name:" >&2
          cat "$work/$name.txt" >&2
          exit 1
        fi
        if [[ $target != auto ]] && ! grep -q "SIMD $target (" "$work/$name.txt"; then
          echo "FAILED: $name did not run $target" >&2
          exit 1
        fi
        digest=$(cat "$work/$name.npy" "$work/${name}_ee.npy" | sha256sum | cut -d' ' -f1)
        hash=$(sed -n 's/^state hash \([0-9a-f]*\) after.*/\1/p' "$work/$name.txt")
        echo "$name: $digest state $hash"
        if [[ -z $reference ]]; then
          reference=$digest
        elif [[ $digest != "$reference" ]]; then
          echo "FAILED: $name: outputs differ from the first run" >&2
          failed=1
        fi
        if [[ $robots == 333 ]]; then
          if [[ -z $reference_hash ]]; then
            reference_hash=$hash
          elif [[ $hash != "$reference_hash" ]]; then
            echo "FAILED: $name: state hash differs from the first 333-robot run" >&2
            failed=1
          fi
        fi
      done
    done
  done
  for other in "${!task_digest[@]}"; do
    if [[ ${task_digest[$other]} == "$reference" ]]; then
      echo "FAILED: tasks $task and $other wrote the same outputs" >&2
      failed=1
    fi
  done
  task_digest[$task]=$reference
done
exit $failed
