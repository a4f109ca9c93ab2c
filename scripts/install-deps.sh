#!/usr/bin/env bash
# Installs the Debian 12 packages swarm needs that are missing, and nothing else.
#   scripts/install-deps.sh            build, test and benchmark dependencies (the tests run the
#                                      benchmark flow once: scripts/bench.sh --quick)
#   scripts/install-deps.sh --bench    the same (kept for existing scripts)
set -euo pipefail

packages=(build-essential make cmake ccache pkg-config clang-format
          libhwy-dev libglm-dev libxxhash-dev libpng-dev catch2
          libopencv-imgproc-dev libopencv-core-dev python3-numpy libdlpack-dev
          clang libclang-rt-14-dev  # clang + its runtime: the libFuzzer build (make fuzz)
          python3-dev  # embeds numpy in the DLPack interop test
          libsdl2-dev libsdl2-ttf-dev fonts-dejavu-core  # the particle demo's window and HUD
          xvfb xauth  # the particle demo's window test (xvfb-run)
          liburdfdom-dev libtinyxml2-dev  # URDF: the ROS parser; tinyxml2 for the tests' own reader
          libexpat1-dev  # URDF: the strict XML check before the parser
          libbenchmark-dev python3-matplotlib  # the benchmarks and their charts
          libmujoco-dev)  # MuJoCo's mj_kinematics, the robot benchmark's peer
if [[ $# -gt 1 || ( $# -eq 1 && "$1" != "--bench" ) ]]; then
  echo "install-deps.sh: unknown arguments '$*' (only --bench)" >&2
  exit 2
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
