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
#   scripts/bench.sh --quick                 N <= 1e6, one round: a smoke run of the whole flow
#   scripts/bench.sh --suite integrate -- --rounds=5   flags after -- go to each suite's binary
#
# Flags: --suite all|integrate|transform|vision|tensor|particles|robots (default all),
# --build-dir DIR (default build-bench), --jobs N (default: all CPUs), --quick, --help. Writes
# bench/results/{integrate,transform,transform_numpy,vision,tensor,tensor_numpy,particles,robots}
# .json (gitignored) and docs/bench-{integrate,transform}.png.
# Configuration comes from these flags only; no environment variable changes what runs. (The
# numpy peers run with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed from their environment, so
# that numpy's BLAS picks its own kernels; bench/results/transform_numpy.json records which BLAS
# it loaded.)
set -euo pipefail

usage() { sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="build-bench"
jobs="$(nproc)"
quick=0
suite="all"
bench_flags=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_dir="${2:?--build-dir needs a directory}"; shift 2 ;;
    --build-dir=*) build_dir="${1#*=}"; shift ;;
    --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
    --jobs=*) jobs="${1#*=}"; shift ;;
    --suite)
      suite="${2:?--suite needs all, integrate, transform, vision, tensor, particles or robots}"
      shift 2 ;;
    --suite=*) suite="${1#*=}"; shift ;;
    --quick) quick=1; shift ;;
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
  all) suites=(integrate transform vision tensor particles robots) ;;
  integrate|transform|vision|tensor|particles|robots) suites=("$suite") ;;
  *) echo "bench.sh: --suite expects all, integrate, transform, vision, tensor, particles or" \
       "robots, got '$suite'" >&2
     exit 2 ;;
esac
quick_flags=()
numpy_flags=()
if [[ $quick -eq 1 ]]; then
  quick_flags=(--max-count=1e6 --rounds=1 --memory-rounds=1)
  numpy_flags=(--max-count 1e6 --repeats 1)
fi
for flag in "${bench_flags[@]}"; do
  if [[ "$flag" == --max-count=* ]]; then numpy_flags+=(--max-count "${flag#*=}"); fi
done

cd "$root"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSWARM_BUILD_BENCH=ON \
  -DSWARM_BUILD_TESTS=OFF -DSWARM_BUILD_DEMOS=OFF >/dev/null
targets=()
for name in "${suites[@]}"; do targets+=(--target "swarm-bench-$name"); done
cmake --build "$build_dir" "${targets[@]}" -j "$jobs"

mkdir -p bench/results docs
summary=()
for name in "${suites[@]}"; do
  json="bench/results/$name.json"
  start=$(date +%s)
  if [[ "$name" == vision ]]; then
    # The vision binary prints its own table (best round, ratios, targets) after the runs.
    vision_flags=()
    if [[ $quick -eq 1 ]]; then vision_flags=(--quick --rounds=1); fi
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
  if [[ "$name" == tensor ]]; then
    # numpy runs right after the binary, then one table compares both (bench/numpy_tensor.py).
    "$build_dir/bench/swarm-bench-tensor" "${quick_flags[@]}" "${bench_flags[@]}" \
      --benchmark_out="$json" --benchmark_out_format=json
    /usr/bin/python3 bench/numpy_tensor.py "${numpy_flags[@]}" > bench/results/tensor_numpy.json
    summary+=("tensor suite run time: $(( $(date +%s) - start )) s (benchmark binary and numpy)")
    echo
    /usr/bin/python3 bench/numpy_tensor.py --table "$json" bench/results/tensor_numpy.json
    echo
    continue
  fi
  "$build_dir/bench/swarm-bench-$name" "${quick_flags[@]}" "${bench_flags[@]}" \
    --benchmark_out="$json" --benchmark_out_format=json
  if [[ "$name" == transform ]]; then
    # numpy runs right after, in the same invocation, so the table compares one machine state.
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench/numpy_transform.py \
      "${numpy_flags[@]}" > bench/results/transform_numpy.json
    seconds=$(( $(date +%s) - start ))
    echo
    /usr/bin/python3 scripts/plot_transform.py "$json" bench/results/transform_numpy.json \
      docs/bench-transform.png
  else
    seconds=$(( $(date +%s) - start ))
    echo
    /usr/bin/python3 scripts/plot_bench.py "$json" docs/bench-integrate.png
  fi
  summary+=("$name suite run time: ${seconds} s (benchmark binary$([[ "$name" == transform ]] &&
    echo ' and numpy'))")
  echo
done
printf '%s\n' "${summary[@]}"
