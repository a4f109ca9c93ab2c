#!/usr/bin/env bash
# Strong and weak scaling of swarm-robots sharded over MPI ranks on this machine: UR5 reach runs
# as 1 rank of 1 thread, 2 ranks of 1 thread and 1 rank of 2 threads, for a fixed run of R robots
# (strong) and for R robots per rank (weak), R = 1e5 and 1e6. Prints robot-steps/s of stepping
# (the slowest rank's stepping time), the time rank 0 spends receiving recorded robots (1000 robots
# every 10 steps, the defaults) and the ranks' totals, and the speed-up against 1 rank of 1 thread.
# Then the gather's own cost: every robot recorded every 10 steps, so that half of each frame
# comes from rank 1 (q and end-effector pose: 13 floats, 52 bytes per robot).
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

echo
echo "recording every robot every 10 steps (52 bytes per robot and frame)"
printf "%-22s %9s %7s %11s %12s %10s %14s %10s\n" layout robots frames "MB/frame" \
  "recording s" "gather s" "ms per gather" "GB/s"
for robots in 100000 1000000; do
  for ranks in 1 2; do
    out=$("${mpirun[@]}" -np "$ranks" "$binary" --urdf "$urdf" --robots "$robots" \
      --steps "$steps" --threads 1 --no-progress --record-robots 0 --record-every 10 \
      --max-output 64G --out "$work/run.npy")
    frames=$(( steps / 10 + 1 ))
    recording=$(sed -n 's/^total: .*(recording \([0-9.]*\) s).*/\1/p' <<<"$out")
    gather=$(sed -n 's/^MPI gathers on rank 0: \([0-9.]*\) s receiving .*/\1/p' <<<"$out")
    [[ -z $gather ]] && gather=0
    # Rank 1's half of each frame crosses between the processes.
    awk -v layout="$ranks rank(s) x 1 thread(s)" -v r="$robots" -v f="$frames" \
        -v rec="$recording" -v g="$gather" -v ranks="$ranks" 'BEGIN {
      mb = r * 52 / 1e6; moved = (ranks > 1) ? mb / 2 * f / 1e3 : 0;
      rate = (ranks > 1 && g > 0) ? sprintf("%.2f", moved / g) : "-";
      printf "%-22s %9d %7d %11.1f %12.3f %10.3f %14.2f %10s\n", layout, r, f, mb, rec, g,
             1e3 * g / f, rate }'
  done
done
