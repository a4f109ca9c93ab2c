// Catch2's main, compiled from its header for builds that cannot link Debian's prebuilt
// libCatch2WithMain.a: that archive is built for the machine's own architecture and is not
// multiarch, so a cross build (aarch64, cmake/aarch64-linux-gnu.cmake) compiles this instead.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
