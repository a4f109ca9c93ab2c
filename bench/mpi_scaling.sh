#!/usr/bin/env bash
# Strong and weak scaling of swarm-robots sharded over MPI ranks on this machine: UR5 reach runs
# as 1 rank of 1 thread, 2 ranks of 1 thread and 1 rank of 2 threads, for a fixed run of R robots
# (strong) and for R robots per rank (weak), R = 1e5 and 1e6. Prints robot-steps/s of stepping
# (the slowest rank's stepping time), the time rank 0 spends receiving recorded robots (1000 robots
# every 10 steps, the defaults) and the ranks' totals, and the speed-up against 1 rank of 1 thread.
#
#   bench/mpi_scaling.sh [build dir (default build/release)] [steps (default 100)]
set -euo pipefail
build=${1:-build/release}
steps=${2:-100}
binary=$build/demos/robots/swarm-robots
root=$(cd "$(dirname "$0")/.." && pwd)
urdf=$root/assets/robots/ur5.urdf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe --bind-to none)
[[ $(id -u) -eq 0 ]] && mpirun+=(--allow-run-as-root)

# run <label> <ranks> <threads> <robots>: one line of the table.
baseline=""
run() {
  local label=$1 ranks=$2 threads=$3 robots=$4
  local out
  out=$("${mpirun[@]}" -np "$ranks" "$binary" --urdf "$urdf" --robots "$robots" --steps "$steps" \
    --threads "$threads" --no-progress --out "$work/run.npy")
  local rate gather totals
  rate=$(sed -n 's/^stepping: \([0-9.]*\) s for \([0-9.e+]*\) robot-steps.*/\2 \1/p' <<<"$out" |
         awk '{printf "%.4g", $1 / $2}')
  gather=$(sed -n 's/^MPI gathers on rank 0: \([0-9.]*\) s receiving .*, \([0-9.]*\) s the .*/\1 \2/p' \
           <<<"$out")
  [[ -z $gather ]] && gather="- -"
  read -r gather totals <<<"$gather"
  [[ -z $baseline ]] && baseline=$rate
  printf "%-8s %-22s %9s %14s %8s %10s %10s\n" "$label" "$ranks rank(s) x $threads thread(s)" \
    "$robots" "$rate" "$(awk -v r="$rate" -v b="$baseline" 'BEGIN{printf "%.2f", r / b}')" \
    "$gather" "$totals"
}

echo "swarm-robots, UR5 reach, $steps steps; $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
printf "%-8s %-22s %9s %14s %8s %10s %10s\n" scaling layout robots "robot-steps/s" speed-up \
  "gather s" "totals s"
for per in 100000 1000000; do
  baseline=""
  run strong 1 1 $per
  run strong 2 1 $per
  run strong 1 2 $per
  baseline=""
  run weak 1 1 $per
  run weak 2 1 $((2 * per))
  run weak 1 2 $((2 * per))
done
