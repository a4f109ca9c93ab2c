"""The installed Python package: `cmake --install` of this build tree's c_api and python components
into a fresh temporary prefix, then /usr/bin/python3 imports swarm from there alone (isolated
mode, from a folder outside the source tree) and swarm.load() finds the prefix's libswarm_c.so
without a path: the package is the installed copy, one operation (Euler integration of a vec4
buffer) matches numpy, an explicit path still loads, a copy of the prefix elsewhere finds its own
library (the path is relative), and a package with no library beside it raises
LibraryNotFoundError naming where it looked.

It also checks that the configured prefix's package folder is on /usr/bin/python3's path when
that prefix is /usr/local or /usr, so that a real `cmake --install` needs no PYTHONPATH.

usage: test_installed_package.py CMAKE BUILD_DIR CONFIG INSTALL_PREFIX PYTHON_INSTALL_DIR LIBDIR
       SOURCE_ROOT [unittest arguments]
(INSTALL_PREFIX is CMAKE_INSTALL_PREFIX; PYTHON_INSTALL_DIR and LIBDIR are relative to a prefix,
as SWARM_PYTHON_INSTALL_DIR and CMAKE_INSTALL_LIBDIR)"""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

if len(sys.argv) < 8:
    sys.exit(f"usage: {sys.argv[0]} CMAKE BUILD_DIR CONFIG INSTALL_PREFIX PYTHON_INSTALL_DIR "
             "LIBDIR SOURCE_ROOT [unittest arguments]")
CMAKE, BUILD_DIR, CONFIG, INSTALL_PREFIX, PYTHON_DIR, LIBDIR, SOURCE_ROOT = sys.argv[1:8]
del sys.argv[1:8]
SOURCE_PACKAGE = pathlib.Path(SOURCE_ROOT) / "engine" / "c_api" / "python" / "swarm"

# Run by `python3 -I -B -c`: the isolated interpreter's path has no current folder, script folder,
# PYTHONPATH or user site; the package comes from the folder given first.
PROGRAM = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import swarm
lib = swarm.load()
context = lib.context(threads=2)
positions, velocities = context.vec4(5), context.vec4(5)
velocities.numpy()[:, 1] = np.arange(5, dtype=np.float32)
lib.integrate_euler(positions, velocities, gravity=(0, -9.81, 0), drag=0.0, dt=0.5)
explicit = swarm.load(sys.argv[2])
print(json.dumps({"module": swarm.__file__, "library": lib.path,
                  "positions": positions.numpy().tolist(),
                  "velocities": velocities.numpy().tolist(),
                  "explicit": explicit.path, "explicit_simd": explicit.simd_target()}))
"""

NOT_FOUND_PROGRAM = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import swarm
try:
    lib = swarm.load()
except swarm.LibraryNotFoundError as error:
    print(json.dumps({"message": str(error), "status": error.status,
                      "os_error": isinstance(error, OSError),
                      "swarm_error": isinstance(error, swarm.SwarmError)}))
else:
    print(json.dumps({"loaded": lib.path}))
"""


def run_python(program, *args, cwd):
    """/usr/bin/python3 (this interpreter) on `program` in isolated mode; its stdout as JSON."""
    result = subprocess.run([sys.executable, "-I", "-B", "-c", program, *map(str, args)],
                            cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"python3 -c failed ({result.returncode}):\n{result.stderr}")
    return json.loads(result.stdout)


def inside(path, folder):
    return pathlib.Path(path).resolve().is_relative_to(pathlib.Path(folder).resolve())


class InstalledPackageTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = pathlib.Path(tempfile.mkdtemp(prefix="swarm-python-install-"))
        cls.prefix = cls.work / "prefix"
        for component in ("c_api", "python"):
            result = subprocess.run(
                [CMAKE, "--install", BUILD_DIR, "--prefix", str(cls.prefix), "--config", CONFIG,
                 "--component", component], capture_output=True, text=True)
            if result.returncode != 0:
                shutil.rmtree(cls.work)
                raise AssertionError(f"cmake --install --component {component} failed:\n"
                                     f"{result.stdout}{result.stderr}")
        cls.outside = cls.work / "elsewhere"  # the working folder of the imports
        cls.outside.mkdir()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work)

    def site(self, prefix):
        return prefix / PYTHON_DIR

    def library_of(self, prefix):
        return prefix / LIBDIR / "libswarm_c.so"

    def test_the_configured_prefix_installs_on_the_interpreters_path(self):
        if INSTALL_PREFIX not in ("/usr/local", "/usr"):
            self.skipTest(f"the prefix {INSTALL_PREFIX} is not one /usr/bin/python3 searches")
        path = run_python("import json, sys; print(json.dumps(sys.path))", cwd=self.outside)
        self.assertIn(os.path.join(INSTALL_PREFIX, PYTHON_DIR), path,
                      f"{sys.executable} does not import from {INSTALL_PREFIX}/{PYTHON_DIR}")

    def test_the_prefix_and_the_working_folder_are_outside_the_source_tree(self):
        self.assertFalse(inside(self.work, SOURCE_ROOT), f"{self.work} is inside {SOURCE_ROOT}")

    def test_the_package_is_installed_as_in_the_source_tree(self):
        installed = self.site(self.prefix) / "swarm"
        sources = sorted(path.name for path in SOURCE_PACKAGE.glob("*.py"))
        self.assertEqual(sorted(path.name for path in installed.iterdir()),
                         sorted(sources + ["_install_paths.py"]))
        for name in sources:
            self.assertEqual((installed / name).read_bytes(), (SOURCE_PACKAGE / name).read_bytes(),
                             f"the installed {name} differs from the source tree's")
        self.assertTrue(self.library_of(self.prefix).is_file())

    def check_load(self, prefix):
        """Imports the package of `prefix` from outside it and loads the library without a path;
        returns what the program reported."""
        report = run_python(PROGRAM, self.site(prefix), self.library_of(prefix),
                            cwd=self.outside)
        self.assertTrue(inside(report["module"], self.site(prefix) / "swarm"),
                        f"swarm was imported from {report['module']}, not from {prefix}")
        self.assertFalse(inside(report["module"], SOURCE_ROOT))
        self.assertEqual(pathlib.Path(report["library"]).resolve(),
                         self.library_of(prefix).resolve(),
                         "swarm.load() did not load the library installed beside the package")
        return report

    def test_load_finds_the_installed_library_and_computes(self):
        report = self.check_load(self.prefix)
        # v += g dt; p += v dt on lanes x, y, z, in float32 (no drag).
        dt = np.float32(0.5)
        velocity = np.zeros((5, 4), np.float32)
        velocity[:, 1] = np.arange(5, dtype=np.float32) + np.float32(-9.81) * dt
        np.testing.assert_allclose(np.array(report["velocities"], np.float32), velocity,
                                   rtol=1e-6)
        np.testing.assert_allclose(np.array(report["positions"], np.float32), velocity * dt,
                                   rtol=1e-6)
        self.assertEqual(report["explicit"], str(self.library_of(self.prefix)))
        self.assertTrue(report["explicit_simd"])

    def test_a_moved_prefix_finds_its_own_library(self):
        moved = self.work / "moved" / "somewhere"
        shutil.copytree(self.prefix, moved, symlinks=True)
        try:
            self.check_load(moved)
        finally:
            shutil.rmtree(self.work / "moved")

    def test_a_package_without_its_library_says_where_it_looked(self):
        lonely = self.work / "no-library" / "a" / "b" / "c" / "d" / "e" / "f"
        shutil.copytree(self.site(self.prefix) / "swarm", lonely / "swarm")
        try:
            expected = os.path.normpath(lonely / "swarm" / _install_paths_value(lonely))
            self.assertFalse(os.path.exists(expected))
            probe = subprocess.run(
                [sys.executable, "-I", "-c", "import ctypes, ctypes.util\n"
                 "try:\n    ctypes.CDLL('libswarm_c.so')\nexcept OSError:\n"
                 "    raise SystemExit(0 if ctypes.util.find_library('swarm_c') is None else 1)\n"
                 "raise SystemExit(1)"], cwd=self.outside)
            if probe.returncode != 0:
                self.skipTest("this machine's dynamic loader finds a libswarm_c.so")
            report = run_python(NOT_FOUND_PROGRAM, lonely, cwd=self.outside)
            self.assertNotIn("loaded", report, "swarm.load() found a library")
            self.assertTrue(report["os_error"] and report["swarm_error"])
            self.assertEqual(report["status"], "not found")
            self.assertIn(expected, report["message"])
            self.assertIn("dynamic loader", report["message"])
            self.assertIn("find_library", report["message"])
        finally:
            shutil.rmtree(self.work / "no-library")


def _install_paths_value(site):
    """LIBRARY of the installed _install_paths.py below `site`."""
    namespace = {}
    exec((site / "swarm" / "_install_paths.py").read_text(), namespace)
    return namespace["LIBRARY"]


if __name__ == "__main__":
    unittest.main(verbosity=2)
