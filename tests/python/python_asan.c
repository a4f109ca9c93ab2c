/* python_asan: Debian's python3 interpreter embedded in a program built with swarm's sanitizers,
 * so that the Python tests run under AddressSanitizer in the sanitized tree. An instrumented
 * libswarm_c.so cannot load into /usr/bin/python3: the ASan runtime must be the first library of
 * the process. Linked with -fsanitize=address, this program's main brings it first; the
 * interpreter, numpy and the tests then run unchanged (`python_asan script.py args`), and numpy
 * arrays over swarm memory are checked like swarm's own accesses.
 *
 * The interpreter finds its standard library and /usr/lib/python3/dist-packages (numpy) from its
 * compiled-in prefix, /usr, as /usr/bin/python3 does: this program lives in the build tree,
 * where no lib/python3.x folder leads the search elsewhere. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* CPython leaves its interned objects and module state allocated at exit by design: they are not
 * swarm's leaks, and swarm's own are found by the C++ tests under LeakSanitizer. */
const char* __asan_default_options(void);
const char* __asan_default_options(void) { return "detect_leaks=0"; }

int main(int argc, char** argv) { return Py_BytesMain(argc, argv); }
