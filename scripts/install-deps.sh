#!/usr/bin/env bash
# Installs the Debian 12 packages swarm needs that are missing, and nothing else.
#   scripts/install-deps.sh            build, test and benchmark dependencies (the tests run the
#                                      benchmark flow once: scripts/bench.sh --quick)
#   scripts/install-deps.sh --bench    the same (kept for existing scripts)
#   scripts/install-deps.sh --arm64    the same, plus what cross-building and testing for aarch64
#                                      needs (make test-arm64): the arm64 architecture in dpkg,
#                                      the cross compiler, qemu-user and the :arm64 libraries
set -euo pipefail

packages=(build-essential make cmake ccache pkg-config clang-format
          libopenmpi-dev openmpi-bin  # swarm-robots sharded over MPI ranks (mpirun)
          libhwy-dev libglm-dev libxxhash-dev libpng-dev catch2
          libopencv-imgproc-dev libopencv-core-dev python3-numpy libdlpack-dev
          clang libclang-rt-14-dev  # clang + its runtime: the libFuzzer build (make fuzz)
          python3-dev  # libpython3.11: numpy in the DLPack interop test, python_asan
          libsdl2-dev libsdl2-ttf-dev fonts-dejavu-core  # the particle demo's window and HUD
          xvfb xauth  # the particle demo's window test (xvfb-run)
          liburdfdom-dev libtinyxml2-dev  # URDF: the ROS parser; tinyxml2 for the tests' own reader
          libexpat1-dev  # URDF: the strict XML check before the parser
          liborocos-kdl-dev libkdl-parser-dev  # Orocos KDL: robot dynamics tests' second reference
          libbenchmark-dev python3-matplotlib  # the benchmarks and their charts
          libnanoflann-dev  # the neighbour benchmark's k-d tree peer
          libeigen3-dev python3-numexpr  # the tensor expression benchmark's peers
          libmujoco-dev)  # MuJoCo's mj_kinematics, the robot benchmark's peer
if [[ $# -gt 1 || ( $# -eq 1 && "$1" != "--bench" && "$1" != "--arm64" ) ]]; then
  echo "install-deps.sh: unknown arguments '$*' (only --bench or --arm64)" >&2
  exit 2
fi

sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
if [[ $# -eq 1 && "$1" == "--arm64" ]]; then
  # The libraries the aarch64 build links and its tests use, as :arm64 packages beside the x86
  # ones (Debian's multiarch); header-only packages (glm, dlpack) serve both. Not catch2:arm64:
  # it would replace the x86 catch2 (its prebuilt main is not multiarch); the arm64 tests compile
  # Catch2's header-only main themselves.
  packages+=(g++-aarch64-linux-gnu qemu-user
             libhwy-dev:arm64 libxxhash-dev:arm64 libpng-dev:arm64
             liburdfdom-dev:arm64 libexpat1-dev:arm64 libtinyxml2-dev:arm64
             libopencv-imgproc-dev:arm64 libopencv-core-dev:arm64
             libsdl2-dev:arm64 libsdl2-ttf-dev:arm64)
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    echo "install-deps: adding the arm64 architecture to dpkg"
    "${sudo[@]}" dpkg --add-architecture arm64
    "${sudo[@]}" apt-get update -qq
  fi
fi

# A package is present when installed for the architecture asked (name:arch), or else for this
# machine's own architecture or "all": with arm64 packages beside them, dpkg-query lists both.
native=$(dpkg --print-architecture)
missing=()
for package in "${packages[@]}"; do
  name=${package%%:*}
  wanted=$native
  [[ "$package" == *:* ]] && wanted=${package#*:}
  installed=$(dpkg-query -W -f='${Architecture} ${Status}\n' "$name" 2>/dev/null || true)
  if ! grep -Eq "^($wanted|all) install ok installed$" <<<"$installed"; then
    missing+=("$package")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
