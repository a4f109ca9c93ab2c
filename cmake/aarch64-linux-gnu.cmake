# Cross-compiling swarm for 64-bit Arm Linux (Raspberry Pi OS / Debian arm64, Jetson, Graviton)
# from x86 with Debian's cross toolchain (g++-aarch64-linux-gnu) and the :arm64 library packages
# (scripts/install-deps.sh --arm64):
#   cmake -S . -B build/arm64 --toolchain cmake/aarch64-linux-gnu.cmake
# Test programs run under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR), so ctest works unchanged.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# Headers are shared between architectures in /usr/include; libraries and pkg-config files come
# from /usr/lib/aarch64-linux-gnu, never from the build machine's directories.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)

# -L /: the dynamic loader and C library of the :arm64 packages (libc6:arm64, which the libraries
# above were built against), not the cross toolchain's copy (cmake/cross_run.cmake says why).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/)
