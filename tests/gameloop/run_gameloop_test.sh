#!/usr/bin/env bash
# The installed-package test (tests/gameloop/CMakeLists.txt runs it through ctest):
#   1. install swarm from an already-built build tree into a fresh staging prefix;
#   2. configure and build demos/gameloop, a separate CMake project, against that prefix only;
#   3. run the game loop and check its exit status, its output and the invariants it reports,
#      recomputing the step count from the printed simulated time;
#   4. compile a one-file program with `c++ $(pkg-config --cflags --libs swarm)` against the
#      staged swarm.pc and run it.
#
# usage: run_gameloop_test.sh CMAKE BUILD_DIR DEMO_SOURCE_DIR WORK_DIR CXX LAUNCHER PKG_CONFIG
#                             CONFIG EXTRA_FLAGS
# LAUNCHER (e.g. ccache) and EXTRA_FLAGS (e.g. sanitizer flags the libraries were built with)
# may be empty.
set -euo pipefail

if [[ $# -ne 9 ]]; then
  echo "usage: $0 CMAKE BUILD_DIR DEMO_SOURCE_DIR WORK_DIR CXX LAUNCHER PKG_CONFIG CONFIG" \
    "EXTRA_FLAGS" >&2
  exit 2
fi
cmake=$1 build_dir=$2 demo_dir=$3 work=$4 cxx=$5 launcher=$6 pkg_config=$7 config=$8
read -r -a extra_flags <<<"$9"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_root=$(cd "$demo_dir/../.." && pwd)
stage=$work/stage
consumer=$work/consumer-build
frames=400
hitch_every=150

fail() {
  echo "gameloop test FAILED: $*" >&2
  exit 1
}
step() { echo "== $*"; }
# Runs a command with its output in a log file, printing the log only if the command fails.
logged() {
  local log=$1
  shift
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "command failed: $*"
  fi
}

# A fresh prefix and consumer build every time, so a file that is no longer installed, or a
# stale cache entry, cannot make the test pass.
rm -rf "$stage" "$consumer"
mkdir -p "$work"

step "install $build_dir into $stage"
logged "$work/install.log" "$cmake" --install "$build_dir" --prefix "$stage" --config "$config"
for file in include/swarm/swarm.h include/swarm/particles/particle_system.h \
            include/swarm/kernels/particles/integrate.h include/swarm/c_api/swarm_c.h; do
  [[ -f $stage/$file ]] || fail "$file was not installed"
done
for pattern in libswarm_core.a libswarm_tensor.a libswarm_vision.a libswarm_particles.a \
               libswarm_render.a libswarm_robots.a libswarm_kernels.a libswarm_c.so \
               swarmConfig.cmake swarmConfigVersion.cmake swarmTargets.cmake swarm.pc; do
  [[ -n $(find "$stage" -name "$pattern") ]] || fail "$pattern was not installed"
done

step "exactly the public headers are installed, and each compiles on its own"
# Internal headers by name: per-target code, helpers of one room, and the files docs/design.md and the
# rooms' CMakeLists.txt call internal. None may be installed, whatever the public list says.
internal=$(cd "$stage/include" && find . -type f \( -name '*-inl.h' -o -name '*_checks.h' \
  -o -name '*_internal.h' -o -name row_prefetch.h -o -name robot_joint_plan.h \
  -o -name palette.h -o -name urdf_xml_outline.h \)) || true
[[ -z $internal ]] || fail "internal headers were installed: $internal"
# Headers live under include/swarm/ only: nothing else of swarm's lands in include/.
stray=$(cd "$stage/include" && find . -type f ! -path './swarm/*') || true
[[ -z $stray ]] || fail "files installed outside include/swarm: $stray"
installed=$(cd "$stage/include/swarm" && find . -type f | sed 's|^\./||' | sort)
listed=$(sort "$build_dir/swarm_public_headers.txt")
[[ $installed == "$listed" ]] || fail "installed headers differ from the public list:
$(diff <(echo "$listed") <(echo "$installed"))"
# The installed headers are the source tree's include/swarm/ files, byte for byte: consumers and
# the project's own code read the same text (docs/design.md, "Include paths").
for header in $installed; do
  cmp -s "$stage/include/swarm/$header" "$source_root/include/swarm/$header" ||
    fail "installed swarm/$header differs from include/swarm/$header"
done
# One translation unit per header, against the staged prefix and system headers only, so a public
# header that includes an internal one, or leans on an include it does not make, fails here.
compile_header() {
  local header=$1
  local log=$work/headers/${header//\//_}.log
  echo "#include <swarm/$header>" |
    "$cxx" -std=c++20 -fsyntax-only -Wall -I"$stage/include" -x c++ - >"$log" 2>&1 ||
    { cat "$log" >&2; echo "FAILED: <swarm/$header> on its own" >&2; return 1; }
}
export -f compile_header
export cxx stage work
mkdir -p "$work/headers"
xargs -P 2 -I{} bash -c 'compile_header "$1"' _ {} <<<"$installed" ||
  fail "an installed header does not compile on its own"

step "configure $demo_dir against the staged prefix"
configure_args=(-S "$demo_dir" -B "$consumer" -DCMAKE_PREFIX_PATH="$stage"
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
[[ -n $launcher ]] && configure_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
if [[ ${#extra_flags[@]} -gt 0 ]]; then
  configure_args+=(-DCMAKE_CXX_FLAGS="${extra_flags[*]}"
    -DCMAKE_EXE_LINKER_FLAGS="${extra_flags[*]}")
fi
logged "$work/configure.log" "$cmake" "${configure_args[@]}"
grep -q "Found swarm 0.1.0 in $stage/" "$work/configure.log" ||
  { cat "$work/configure.log"; fail "find_package(swarm) did not use the staged prefix"; }

step "build the consumer"
logged "$work/build.log" "$cmake" --build "$consumer" -j 2
# Every swarm header must come from the prefix, none from the source tree.
grep -q -- "$stage/include" "$consumer/compile_commands.json" ||
  fail "the consumer was not compiled against $stage/include"
if grep -Eq -- "(-I|-isystem )($source_root(/engine|/kernels)?|$build_dir/include)[ \"]" \
     "$consumer/compile_commands.json"; then
  fail "the consumer saw swarm's source tree or its build tree's include root"
fi
# Only the include root: a folder of swarm's own on the path would let `#include "core/x.h"`
# resolve, and swarm's rooms would shadow the game's folders of the same name.
if grep -Eq -- "(-I|-isystem )$stage/include/swarm" "$consumer/compile_commands.json"; then
  fail "the consumer's include path has $stage/include/swarm, not only $stage/include"
fi

step "the game loop loads neither libpng nor urdfdom (it links swarm::particles only)"
libraries=$(ldd "$consumer/swarm-gameloop") || fail "ldd swarm-gameloop failed"
echo "$libraries"
if grep -Eq 'lib(png|urdfdom|tinyxml|console_bridge|expat)' <<<"$libraries"; then
  fail "swarm-gameloop loads a library of the vision or robots room"
fi

run_loop() {
  "$consumer/swarm-gameloop" --particles 20000 --frames "$frames" --hitch-every "$hitch_every" "$@"
}

step "run swarm-gameloop (auto SIMD, 2 threads)"
output=$(run_loop --threads 2 --simd auto) ||
  { status=$?; echo "$output"; fail "swarm-gameloop exited $status"; }
echo "$output"
summary=$(grep '^summary ' <<<"$output") || fail "no summary line"
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
steps=$(field steps "$summary")
simulated_ns=$(field simulated_ns "$summary")
[[ -n $steps && -n $simulated_ns ]] || fail "summary lacks steps or simulated_ns"
# The loop steps at exactly 1/120 s: the steps taken must be floor(simulated time / dt).
expected_steps=$((simulated_ns * 120 / 1000000000))
[[ $steps -eq $expected_steps ]] ||
  fail "$steps physics steps for ${simulated_ns} ns; floor(t / dt) = $expected_steps"
# Every simulated frame adds at least 4 ms and at most the 250 ms clamp.
((simulated_ns >= frames * 4000000 && simulated_ns <= frames * 250000000)) ||
  fail "simulated time ${simulated_ns} ns is impossible for $frames clamped frames"
# Each hitch (400 ms) is clamped, and the clamp bounds the steps per frame to 30.
[[ $(field clamped_frames "$summary") -eq $((frames / hitch_every)) ]] ||
  fail "expected $((frames / hitch_every)) clamped frames: $summary"
(($(field max_steps_per_frame "$summary") <= 30)) || fail "more than 30 steps in a frame"
awk -v lo="$(field alpha_min "$summary")" -v hi="$(field alpha_max "$summary")" \
  -v mean="$(field mean_alpha "$summary")" \
  'BEGIN { exit !(lo != "" && hi != "" && lo >= 0 && hi < 1 && lo <= mean && mean <= hi) }' ||
  fail "interpolation alpha outside [0, 1): $summary"
[[ $(field loop_allocations "$summary") -eq 0 ]] || fail "the loop allocated"
for line in "invariant steps == floor(simulated / dt): ok" "invariant 0 <= alpha < 1: ok" \
            "invariant steps per frame <= 30: ok" "invariant no allocation in the loop: ok" \
            "swarm memory" "  particles "; do
  grep -qF -- "$line" <<<"$output" || fail "missing output line: $line"
done
grep -Eq '^swarm-gameloop: 20000 particles, 400 frames, .* 2 thread\(s\), SIMD [a-z0-9]+ ' \
  <<<"$output" || fail "missing header line with the SIMD target"
[[ $(grep -c '^frames=' <<<"$output") -eq $((frames / 100)) ]] ||
  fail "expected one report per 100 frames"

step "determinism: scalar SIMD, 1 thread gives the same interpolated checksum and state"
scalar_output=$(run_loop --threads 1 --simd scalar) ||
  { status=$?; echo "$scalar_output"; fail "swarm-gameloop --simd scalar exited $status"; }
scalar_summary=$(grep '^summary ' <<<"$scalar_output") || fail "no summary line (scalar run)"
for key in steps checksum state_hash; do
  [[ $(field $key "$summary") == $(field $key "$scalar_summary") ]] ||
    fail "$key differs between SIMD targets / thread counts:
  $summary
  $scalar_summary"
done
echo "checksum $(field checksum "$summary") on $(field simd "$summary") and scalar"

step "a bad flag exits 2 with a message"
status=0
bad_output=$("$consumer/swarm-gameloop" --frames 0 2>&1) || status=$?
[[ $status -eq 2 && $bad_output == *--frames* ]] ||
  fail "--frames 0 gave status $status: $bad_output"

step "run swarm-gameloop-kernels (swarm::kernels alone)"
kernels_output=$("$consumer/swarm-gameloop-kernels") ||
  { status=$?; echo "$kernels_output"; fail "swarm-gameloop-kernels exited $status"; }
echo "$kernels_output"
grep -q "match the scalar reference" <<<"$kernels_output" || fail "unexpected kernels-only output"

step "pkg-config: compile a one-file program against the staged swarm.pc"
pc_file=$(find "$stage" -name swarm.pc | head -n 1)
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc_file")
[[ $("$pkg_config" --modversion swarm) == 0.1.0 ]] || fail "pkg-config --modversion swarm"
[[ -f $("$pkg_config" --variable=includedir swarm)/swarm/swarm.h ]] ||
  fail "swarm.pc's includedir does not point into the staged prefix"
pc_cflags=$("$pkg_config" --cflags swarm)
if grep -Eq -- '-I[^ ]*/include/swarm( |$)' <<<"$pc_cflags"; then
  fail "pkg-config --cflags swarm adds include/swarm: $pc_cflags"
fi
read -r -a pc_flags <<<"$("$pkg_config" --cflags --libs swarm)"
echo "pkg-config --cflags --libs swarm: ${pc_flags[*]}"
compiler=("$cxx")
[[ -n $launcher ]] && compiler=("$launcher" "$cxx")
logged "$work/pkgconfig_compile.log" "${compiler[@]}" "${extra_flags[@]}" -O1 \
  "$here/pkgconfig_check.cc" "${pc_flags[@]}" -o "$work/pkgconfig_check"
pc_output=$("$work/pkgconfig_check") ||
  { status=$?; echo "$pc_output"; fail "pkgconfig_check exited $status"; }
echo "$pc_output"
grep -q "^pkg-config consumer: 60 steps on " <<<"$pc_output" ||
  fail "unexpected pkgconfig_check output"

echo "gameloop test passed"
