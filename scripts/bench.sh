#!/usr/bin/env bash
# Builds and runs swarm's benchmarks, then charts them and prints their tables.
#
#   scripts/bench.sh                         all suites (~14 minutes)
#   scripts/bench.sh --suite transform       one suite: integrate (Euler, N = 16 .. 1e8, ~2-4
#                                            min) or transform (matrices, quaternions and numpy,
#                                            N = 1e3 .. 1e7, ~2-3 min) or vision (filters vs
#                                            OpenCV, 1080p and 4K, f32 and u8, ~2 min; prints a
#                                            table with the issue's targets) or tensor (sum and
#                                            mean vs a read pass and numpy, N = 1e3 .. 1e8, adds,
#                                            FormatTensor, ~1 min; prints a table with targets)
#                                            or particles (ParticleSystem::Step vs STREAM triad,
#                                            N = 1e4 .. 1e8, 1 and 2 threads, ~2 min; prints
#                                            ms/step, GB/s and the step/triad ratio) or robots
#                                            (UR5 forward kinematics vs a per-robot loop and
#                                            MuJoCo, R = 1 .. 1e6, control and IK steps of 1e5
#                                            robots, 1 and 2 threads, ~3 min; prints M evals/s,
#                                            ratios, ms/step, memory per robot and the targets)
#                                            or dynamics (RNEA, CRBA + LTDL and ABA of the UR5,
#                                            the Panda and the floating quadruped vs the double
#                                            reference and MuJoCo, R = 1 .. 1e6, 1 and 2
#                                            threads, ~5 min; prints M evals/s, ratios, targets)
#                                            or torque (whole torque-controlled steps of 1e5
#                                            Pandas, UR5s and Solo12s standing on ground
#                                            contacts, 1 and 2 threads, ~1 min; prints ms/step,
#                                            M robot-steps/s, memory per robot and the target)
#                                            or neighbors (every point's neighbour list rebuilt
#                                            from scratch vs nanoflann and a scalar grid,
#                                            N = 1e4 .. 1e6, 1 and 2 threads, ~2 min; prints
#                                            M particles/s, ratios and bytes per particle) or
#                                            interactions (one step of the demo's granular,
#                                            fluid and flock scenes, N = 1e4 .. 2.5e5, 1 and 2
#                                            threads, ~4 min; prints ms per step and bytes per
#                                            particle)
#   scripts/bench.sh --quick                 N <= 1e6, one round: a smoke run of the whole flow
#   scripts/bench.sh --suite integrate -- --rounds=5   flags after -- go to each suite's binary
#
# Flags: --suite all|integrate|transform|vision|tensor|particles|robots|dynamics|torque|neighbors|
# interactions (default all),
# --build-dir DIR (default build-bench), --jobs N (default: all CPUs), --quick, --help,
# --configured (DIR is an already configured tree with -DSWARM_BUILD_BENCH=ON, e.g. the test
# build's: build the suites' targets there, configure nothing), --results-dir DIR (default
# bench/results; with it the charts go to DIR too instead of docs/). Writes
# {integrate,transform,transform_numpy,vision,tensor,tensor_numpy,particles,robots,torque,
# neighbors,interactions}.json
# and dynamics_{ur5,panda_arm,quadruped}.json to the
# results folder (bench/results is gitignored) and docs/bench-{integrate,transform}.png.
# Configuration comes from these flags only; no environment variable changes what runs. (The
# numpy peers run with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed from their environment, so
# that numpy's BLAS picks its own kernels; bench/results/transform_numpy.json records which BLAS
# it loaded.)
set -euo pipefail

usage() { sed -n '2,51p' "$0" | sed 's/^# \{0,1\}//'; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="build-bench"
jobs="$(nproc)"
quick=0
configured=0
results_dir=""
suite="all"
bench_flags=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_dir="${2:?--build-dir needs a directory}"; shift 2 ;;
    --build-dir=*) build_dir="${1#*=}"; shift ;;
    --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
    --jobs=*) jobs="${1#*=}"; shift ;;
    --suite)
      suite="${2:?--suite needs all, integrate, transform, vision, tensor, particles, robots, dynamics, torque, neighbors or interactions}"
      shift 2 ;;
    --suite=*) suite="${1#*=}"; shift ;;
    --quick) quick=1; shift ;;
    --configured) configured=1; shift ;;
    --results-dir) results_dir="${2:?--results-dir needs a directory}"; shift 2 ;;
    --results-dir=*) results_dir="${1#*=}"; shift ;;
    --help|-h) usage; exit 0 ;;
    --) shift; bench_flags+=("$@"); break ;;
    *) echo "bench.sh: unknown flag '$1' (try --help)" >&2; exit 2 ;;
  esac
done
if [[ ! "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "bench.sh: --jobs expects a positive integer, got '$jobs'" >&2
  exit 2
fi
case "$suite" in
  all) suites=(integrate transform vision tensor particles robots dynamics torque neighbors
            interactions) ;;
  integrate|transform|vision|tensor|particles|robots|dynamics|torque|neighbors|interactions)
    suites=("$suite") ;;
  *) echo "bench.sh: --suite expects all, integrate, transform, vision, tensor, particles," \
       "robots, dynamics, torque, neighbors or interactions, got '$suite'" >&2
     exit 2 ;;
esac
quick_flags=()
numpy_flags=()
if [[ $quick -eq 1 ]]; then
  quick_flags=(--max-count=1e6 --rounds=1 --memory-rounds=1 --min-time=0.02)
  numpy_flags=(--max-count 1e6 --repeats 1)
fi
for flag in "${bench_flags[@]}"; do
  if [[ "$flag" == --max-count=* ]]; then numpy_flags+=(--max-count "${flag#*=}"); fi
done

# Results and charts: bench/results and docs/, or both in --results-dir (absolute, so it still
# names the same folder after the cd below).
if [[ -n "$results_dir" ]]; then
  mkdir -p "$results_dir"
  results_dir="$(cd "$results_dir" && pwd)"
  charts_dir="$results_dir"
else
  results_dir="$root/bench/results"
  charts_dir="$root/docs"
fi

cd "$root"
if [[ $configured -eq 0 ]]; then
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSWARM_BUILD_BENCH=ON \
    -DSWARM_BUILD_TESTS=OFF -DSWARM_BUILD_DEMOS=OFF >/dev/null
elif [[ ! -f "$build_dir/CMakeCache.txt" ]] ||
     ! grep -q '^SWARM_BUILD_BENCH:BOOL=ON' "$build_dir/CMakeCache.txt"; then
  echo "bench.sh: --configured needs a build tree configured with -DSWARM_BUILD_BENCH=ON," \
    "and '$build_dir' is not one" >&2
  exit 2
fi
targets=()
for name in "${suites[@]}"; do targets+=(--target "swarm-bench-$name"); done
cmake --build "$build_dir" "${targets[@]}" -j "$jobs"

mkdir -p "$results_dir" "$charts_dir"
summary=()
for name in "${suites[@]}"; do
  json="$results_dir/$name.json"
  start=$(date +%s)
  if [[ "$name" == vision ]]; then
    # The vision binary prints its own table (best round, ratios, targets) after the runs.
    vision_flags=()
    if [[ $quick -eq 1 ]]; then vision_flags=(--quick --rounds=1 --min-time=0.02); fi
    "$build_dir/bench/swarm-bench-vision" "${vision_flags[@]}" "${bench_flags[@]}" \
      --benchmark_out="$json" --benchmark_out_format=json
    summary+=("vision suite run time: $(( $(date +%s) - start )) s (benchmark binary)")
    echo
    continue
  fi
  if [[ "$name" == particles ]]; then
    # The binary prints its own table (best round, ms/step, GB/s, step/triad) after the runs.
    particles_flags=()
    if [[ $quick -eq 1 ]]; then particles_flags=(--max-particles=1e6 --rounds=1 --memory-rounds=1); fi
    "$build_dir/bench/swarm-bench-particles" "${particles_flags[@]}" "${bench_flags[@]}" \
      --benchmark_out="$json" --benchmark_out_format=json
    summary+=("particles suite run time: $(( $(date +%s) - start )) s (benchmark binary)")
    echo
    continue
  fi
  if [[ "$name" == robots ]]; then
    # The binary prints its own tables (best round, M evals/s, ratios, ms/step, memory, targets).
    robots_flags=()
    if [[ $quick -eq 1 ]]; then robots_flags=(--max-robots=1e5 --rounds=1 --memory-rounds=1); fi
    "$build_dir/bench/swarm-bench-robots" "${robots_flags[@]}" "${bench_flags[@]}" \
      --benchmark_out="$json" --benchmark_out_format=json
    summary+=("robots suite run time: $(( $(date +%s) - start )) s (benchmark binary)")
    echo
    continue
  fi
  if [[ "$name" == dynamics ]]; then
    # One run per robot; each prints its own tables (best round, M evals/s, ratios, targets).
    dynamics_flags=()
    if [[ $quick -eq 1 ]]; then
      dynamics_flags=(--max-robots=1e4 --rounds=1 --memory-rounds=1 --min-time=0.02)
    fi
    for robot in ur5 panda_arm quadruped; do
      robot_flags=(--urdf="$root/assets/robots/$robot.urdf")
      if [[ $robot == quadruped ]]; then robot_flags+=(--floating-base); fi
      "$build_dir/bench/swarm-bench-dynamics" "${robot_flags[@]}" "${dynamics_flags[@]}" \
        "${bench_flags[@]}" --benchmark_out="$results_dir/dynamics_$robot.json" \
        --benchmark_out_format=json
    done
    summary+=("dynamics suite run time: $(( $(date +%s) - start )) s (benchmark binary, 3 robots)")
    echo
    continue
  fi
  if [[ "$name" == torque ]]; then
    # The binary prints its own table (ms/step, M robot-steps/s, memory per robot, the target).
    torque_flags=()
    if [[ $quick -eq 1 ]]; then
      torque_flags=(--robots=1e3 --rounds=1 --memory-rounds=1 --min-time=0.01)
    fi
    "$build_dir/bench/swarm-bench-torque" "${torque_flags[@]}" "${bench_flags[@]}" \
      --benchmark_out="$json" --benchmark_out_format=json
    summary+=("torque suite run time: $(( $(date +%s) - start )) s (benchmark binary)")
    echo
    continue
  fi
  if [[ "$name" == neighbors ]]; then
    # The binary prints its own table (M particles/s, ratios, bytes per particle, the targets).
    neighbors_flags=()
    if [[ $quick -eq 1 ]]; then neighbors_flags=(--max-particles=1e5 --rounds=1 --memory-rounds=1); fi
    "$build_dir/bench/swarm-bench-neighbors" "${neighbors_flags[@]}" "${bench_flags[@]}" \
      --benchmark_out="$json" --benchmark_out_format=json
    summary+=("neighbors suite run time: $(( $(date +%s) - start )) s (benchmark binary)")
    echo
    continue
  fi
  if [[ "$name" == interactions ]]; then
    # The binary prints its own table (ms per step on 1 and 2 threads, bytes per particle).
    interactions_flags=()
    if [[ $quick -eq 1 ]]; then interactions_flags=(--max-particles=1e4 --rounds=1 --min-time=0.05); fi
    "$build_dir/bench/swarm-bench-interactions" "${interactions_flags[@]}" "${bench_flags[@]}" \
      --benchmark_out="$json" --benchmark_out_format=json
    summary+=("interactions suite run time: $(( $(date +%s) - start )) s (benchmark binary)")
    echo
    continue
  fi
  if [[ "$name" == tensor ]]; then
    # numpy runs right after the binary, then one table compares both (bench/numpy_tensor.py).
    "$build_dir/bench/swarm-bench-tensor" "${quick_flags[@]}" "${bench_flags[@]}" \
      --benchmark_out="$json" --benchmark_out_format=json
    /usr/bin/python3 bench/numpy_tensor.py "${numpy_flags[@]}" > "$results_dir/tensor_numpy.json"
    summary+=("tensor suite run time: $(( $(date +%s) - start )) s (benchmark binary and numpy)")
    echo
    /usr/bin/python3 bench/numpy_tensor.py --table "$json" "$results_dir/tensor_numpy.json"
    echo
    continue
  fi
  "$build_dir/bench/swarm-bench-$name" "${quick_flags[@]}" "${bench_flags[@]}" \
    --benchmark_out="$json" --benchmark_out_format=json
  if [[ "$name" == transform ]]; then
    # numpy runs right after, in the same invocation, so the table compares one machine state.
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench/numpy_transform.py \
      "${numpy_flags[@]}" > "$results_dir/transform_numpy.json"
    seconds=$(( $(date +%s) - start ))
    echo
    /usr/bin/python3 scripts/plot_transform.py "$json" "$results_dir/transform_numpy.json" \
      "$charts_dir/bench-transform.png"
  else
    seconds=$(( $(date +%s) - start ))
    echo
    /usr/bin/python3 scripts/plot_bench.py "$json" "$charts_dir/bench-integrate.png"
  fi
  # A plain if: under set -e, `$([[ ... ]] && echo ...)` inside an assignment fails the script
  # whenever the test is false.
  measured="benchmark binary"
  if [[ "$name" == transform ]]; then measured="benchmark binary and numpy"; fi
  summary+=("$name suite run time: ${seconds} s ($measured)")
  echo
done
printf '%s\n' "${summary[@]}"
