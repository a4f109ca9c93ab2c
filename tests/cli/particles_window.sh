#!/usr/bin/env bash
# swarm-particles in a real window under Xvfb: the window mode runs a few frames and exits 0,
# and its read-back screenshot (--no-hud) equals the headless frame after the same number of
# simulation steps, so the particles are where the physics puts them. With the HUD the
# screenshot differs; with a missing font the HUD is off after one warning line. Exits 77
# (skipped) when xvfb-run is missing.
#
#   particles_window.sh <swarm-particles> <particles_png_compare> <work dir>
set -uo pipefail

binary=$1
compare=$2
work=$3
if ! command -v xvfb-run >/dev/null; then
  echo "xvfb-run is not installed (Debian xvfb): skipped"
  exit 77
fi
mkdir -p "$work"
common=(--particles 20000 --width 320 --height 180 --seed 5 --scene explosion)

fail() {
  echo "FAILED: $*" >&2
  exit 1
}

# run_window <name> <flag>...: one window run; its stdout in $work/<name>.txt, stderr in .err.
run_window() {
  local name=$1
  shift
  xvfb-run -a -s "-screen 0 1280x720x24" "$binary" "${common[@]}" "$@" \
    >"$work/$name.txt" 2>"$work/$name.err"
  local status=$?
  cat "$work/$name.txt" "$work/$name.err"
  [[ $status -eq 0 ]] || fail "$name: exit status $status"
  grep -q "^swarm-particles: window," "$work/$name.txt" || fail "$name: no window was opened"
}

# steps_of <name>: the simulation steps the window took ("N frames, S steps").
steps_of() {
  sed -n 's/^[0-9]* frames, \([0-9]*\) steps$/\1/p' "$work/$1.txt"
}

# headless_frame <steps> <png>: the headless frame after that many steps (one step per frame).
headless_frame() {
  "$binary" "${common[@]}" --headless --frames "$1" --out "$2" >"$work/headless-$1.txt" 2>&1 ||
    fail "headless run of $1 steps: $(cat "$work/headless-$1.txt")"
}

run_window plain --no-hud --frames 6 --out "$work/window.png"
steps=$(steps_of plain)
[[ -n $steps && $steps -ge 1 ]] || fail "no step count in the window's summary"
headless_frame "$steps" "$work/headless.png"
if cmp -s "$work/window.png" "$work/headless.png"; then
  echo "window and headless PNGs are byte-identical after $steps steps"
fi
"$compare" "$work/window.png" "$work/headless.png" 2 0.001 0.01 ||
  fail "the window's frame differs from the headless frame after $steps steps"

echo "with the HUD the screenshot must differ from the bare frame:"
run_window hud --frames 6 --out "$work/window-hud.png"
headless_frame "$(steps_of hud)" "$work/headless-hud.png"
if "$compare" "$work/window-hud.png" "$work/headless-hud.png" 0 0 0; then
  fail "the screenshot with the HUD shows no HUD"
fi

run_window no-font --frames 4 --font "$work/no-such-font.ttf" --out "$work/window-no-font.png"
[[ $(grep -c "warning" "$work/no-font.err") -eq 1 ]] || fail "expected one warning line"
grep -q "no HUD.*no-such-font\.ttf" "$work/no-font.err" || fail "the warning names no font"
headless_frame "$(steps_of no-font)" "$work/headless-no-font.png"
"$compare" "$work/window-no-font.png" "$work/headless-no-font.png" 2 0.001 0.01 ||
  fail "without a font the window should show the bare frame"
echo "ok"
