# Running cross-built programs on the build machine (cmake/aarch64-linux-gnu.cmake): every test
# goes through one script in the build tree, run-under-qemu, that starts qemu-aarch64 with the CPU
# model SWARM_QEMU_CPU. Re-configuring with another value rewrites only that script, so the same
# binaries are tested as a NEON-only CPU or as SVE at any vector length without a rebuild:
#   cmake -DSWARM_QEMU_CPU=max,sve=off build/arm64                       NEON (and scalar)
#   cmake -DSWARM_QEMU_CPU=max,sve-default-vector-length=16 build/arm64  SVE2 with 128-bit vectors
#   cmake -DSWARM_QEMU_CPU=max build/arm64                               SVE2 with 512-bit vectors
# (the vector length is in bytes; qemu's "max" CPU has SVE2 and defaults to 64 bytes).
set(SWARM_QEMU_CPU "max" CACHE STRING "qemu-aarch64 -cpu model the cross-built tests run on")
# The aarch64 programs start with the dynamic loader of libc6:arm64 (/lib/ld-linux-aarch64.so.1,
# installed beside the other :arm64 packages), so loader and C library always come from the same
# package. The cross toolchain's own copy (libc6-arm64-cross, in /usr/aarch64-linux-gnu) can be
# an older point release than libc6:arm64; with its loader and the newer libc.so.6 the first
# pthread_create spins forever (seen with 2.36-8cross1 beside 2.36-9+deb12u14).
set(SWARM_QEMU_SYSROOT / CACHE PATH
  "where qemu-aarch64 finds the aarch64 dynamic loader and libraries (-L)")
if(NOT EXISTS ${SWARM_QEMU_SYSROOT}/lib/ld-linux-aarch64.so.1)
  message(FATAL_ERROR "no aarch64 dynamic loader in ${SWARM_QEMU_SYSROOT}/lib: install libc6:arm64 "
    "(scripts/install-deps.sh --arm64) or pass -DSWARM_QEMU_SYSROOT=<folder holding "
    "lib/ld-linux-aarch64.so.1>")
endif()
find_program(SWARM_QEMU qemu-aarch64 REQUIRED)
set(SWARM_RUN ${PROJECT_BINARY_DIR}/run-under-qemu)
file(CONFIGURE OUTPUT ${SWARM_RUN} CONTENT
  "#!/bin/sh\n# Written by CMake (cmake/cross_run.cmake): runs an aarch64 program under qemu.\nexec \"${SWARM_QEMU}\" -L \"${SWARM_QEMU_SYSROOT}\" -cpu \"${SWARM_QEMU_CPU}\" \"$@\"\n"
  @ONLY)
file(CHMOD ${SWARM_RUN} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
  GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CMAKE_CROSSCOMPILING_EMULATOR ${SWARM_RUN})
message(STATUS "Cross-built tests run under qemu-aarch64 -cpu ${SWARM_QEMU_CPU}")
