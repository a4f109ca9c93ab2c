#!/usr/bin/env python3
"""check_layout.py finds what it promises to find: each kind of problem, planted in a small git
tree of its own, fails the check, and the same tree without it passes."""
import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check_layout.py')
GOOD = {
    'include/swarm/core/memory.h': '#pragma once\n',
    'engine/core/memory.cc': '#include "swarm/core/memory.h"\n#include "engine/core/detail.h"\n',
    'engine/core/detail.h': '// See swarm/core/memory.h and engine/core/memory.cc.\n#pragma once\n',
    'kernels/base/loop-inl.h': '#include "hwy/highway.h"\n',
    'kernels/base/loop.cc':
        '#define HWY_TARGET_INCLUDE "kernels/base/loop-inl.h"\n#include <vector>\n',
}


def run(files, symlink=None):
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), 'w') as f:
                f.write(text)
        if symlink:
            os.symlink(symlink[1], os.path.join(root, symlink[0]))
        subprocess.run(['git', 'init', '-q', root], check=True)
        subprocess.run(['git', '-C', root, 'add', '-A'], check=True)
        result = subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)
        return result.returncode, result.stdout


def expect(name, files, fails, needle=None, symlink=None):
    code, out = run(files, symlink)
    ok = (code != 0) == fails and (needle is None or needle in out)
    print(('ok   ' if ok else 'FAIL ') + name + ('' if ok else '\n' + out))
    return ok


def with_change(path, text):
    files = dict(GOOD)
    files[path] = text
    return files


results = [
    expect('a tree whose paths are real passes', GOOD, fails=False),
    expect('a public include that is not under include/',
           with_change('engine/core/memory.cc', '#include "swarm/core/missing.h"\n'), True,
           'swarm/core/missing.h'),
    expect('an internal include that is not under the source root',
           with_change('engine/core/memory.cc', '#include "engine/core/gone.h"\n'), True,
           'engine/core/gone.h'),
    expect('a HWY_TARGET_INCLUDE that names no file',
           with_change('kernels/base/loop.cc', '#define HWY_TARGET_INCLUDE "kernels/loop-inl.h"\n'),
           True, 'kernels/loop-inl.h'),
    expect('an include relative to its own folder',
           with_change('engine/core/memory.cc', '#include "detail.h"\n'), True,
           'relative to its folder'),
    expect('a comment naming a file that does not exist',
           with_change('engine/core/detail.h', '// Built by engine/robots/dynamics_tree.h.\n'),
           True, 'engine/robots/dynamics_tree.h'),
    expect('a citation of a design document outside the repository',
           with_change('engine/core/detail.h', '// As DESIGN.md says.\n'), True, 'DESIGN.md'),
    expect('a basename that means two things',
           dict(GOOD, **{'kernels/core/memory.cc': '\n'}), True, 'memory.cc means two things'),
    expect('a symbolic link in the tree', GOOD, True, 'symbolic link',
           symlink=('include/swarm/kernels', '../../kernels')),
    expect('an umbrella header that leaves out a public header',
           dict(GOOD, **{'include/swarm/swarm.h': '#pragma once\n',
                         'include/swarm/core/text.h': '#pragma once\n'}), True,
           'does not include swarm/core/text.h'),
    expect('an umbrella header that includes every public header',
           dict(GOOD, **{'include/swarm/swarm.h': '#include "swarm/core/memory.h"\n'}), False),
    expect('a CMake file that makes a link',
           dict(GOOD, **{'CMakeLists.txt': 'file(CREATE_LINK a b SYMBOLIC)\n'}), True,
           'makes a symbolic link'),
]
print(f'{sum(results)} passed, {len(results) - sum(results)} failed')
sys.exit(0 if all(results) else 1)
