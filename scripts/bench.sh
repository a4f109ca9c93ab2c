#!/usr/bin/env bash
# Builds and runs swarm's integration benchmark, then charts it and prints the table.
#
#   scripts/bench.sh                      full suite (N = 16 .. 1e8, ~2-4 minutes)
#   scripts/bench.sh --quick              N <= 1e6, one round: a smoke run of the whole flow
#   scripts/bench.sh -- --rounds=5        flags after -- go to swarm-bench-integrate
#
# Flags: --build-dir DIR (default build-bench), --jobs N (default: all CPUs), --quick, --help.
# Writes bench/results/integrate.json (gitignored) and docs/bench-integrate.png. Configuration
# comes from these flags only; no environment variable changes what runs.
set -euo pipefail

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="build-bench"
jobs="$(nproc)"
quick=0
bench_flags=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_dir="${2:?--build-dir needs a directory}"; shift 2 ;;
    --build-dir=*) build_dir="${1#*=}"; shift ;;
    --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
    --jobs=*) jobs="${1#*=}"; shift ;;
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
if [[ $quick -eq 1 ]]; then
  bench_flags=(--max-count=1e6 --rounds=1 --memory-rounds=1 "${bench_flags[@]}")
fi

cd "$root"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DSWARM_BUILD_BENCH=ON \
  -DSWARM_BUILD_TESTS=OFF -DSWARM_BUILD_DEMOS=OFF >/dev/null
cmake --build "$build_dir" --target swarm-bench-integrate -j "$jobs"

mkdir -p bench/results docs
json="bench/results/integrate.json"
start=$(date +%s)
"$build_dir/bench/swarm-bench-integrate" "${bench_flags[@]}" \
  --benchmark_out="$json" --benchmark_out_format=json
seconds=$(( $(date +%s) - start ))

echo
/usr/bin/python3 scripts/plot_bench.py "$json" docs/bench-integrate.png
echo "suite run time: ${seconds} s (benchmark binary only)"
