"""Shared set-up of the Python tests: the library path comes as the first command-line argument
(ctest passes $<TARGET_FILE:swarm_c>), the package is engine/c_api/python/swarm/ of this source
tree, used in place: its parent folder goes first on sys.path (the installed package is
tests/python/test_installed_package.py's)."""

import pathlib
import sys
import unittest

# The package's parent folder, engine/c_api/python.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "engine" / "c_api" / "python"))

import swarm  # noqa: E402

_LIBRARY = None

# A rod on a y-axis hinge: the smallest robot model the tests of handles and arguments need.
PENDULUM = """<robot name="pendulum">
  <link name="base"/>
  <link name="rod"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hinge" type="continuous"><parent link="base"/><child link="rod"/>
    <axis xyz="0 1 0"/></joint>
</robot>"""


def library():
    """The swarm.Library loaded from the path given on the command line (loaded once)."""
    global _LIBRARY
    if _LIBRARY is None:
        if len(sys.argv) < 2:
            sys.exit(f"usage: {sys.argv[0]} path/to/libswarm_c.so [unittest arguments]")
        _LIBRARY = swarm.load(sys.argv[1])
    return _LIBRARY


def main():
    library()
    unittest.main(argv=[sys.argv[0]] + sys.argv[2:], verbosity=2)
