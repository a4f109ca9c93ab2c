#!/usr/bin/env python3
"""The source tree's paths mean what they say (docs/design.md, "Include paths").

Fails, naming each file and line, when:
  - an #include (or HWY_TARGET_INCLUDE) of a swarm header does not name a real file: `swarm/...`
    must be a file under include/, and paths that start with a top-level folder of the project
    (engine/, kernels/, demos/, bench/, tests/) a file under the source root;
  - a quoted include names a project file relative to the including file's folder instead of by
    its path from an include directory;
  - the repository holds a symbolic link, or a CMake file makes one (the build needs none);
  - a comment or document names a project file that does not exist (`kernels/.../x.h`,
    `swarm/.../x.h`, `docs/x.md`, ...), or a design document outside the repository (DESIGN.md);
  - a basename of a source file means two things: the same file name in two folders of engine/,
    kernels/ and include/swarm/;
  - the umbrella include/swarm/swarm.h leaves out a public header other than the scalar
    references (*_reference.h) and the C API (swarm/c_api/).

usage: check_layout.py <source root>
"""
import os
import re
import subprocess
import sys

TOP_FOLDERS = ('engine', 'kernels', 'demos', 'bench', 'tests', 'include', 'docs', 'scripts',
               'cmake', 'assets')
INCLUDE_FOLDERS = ('engine', 'kernels', 'demos', 'bench', 'tests')
SOURCE_SUFFIXES = ('.h', '.cc', '.c', '.hpp', '.cpp')
TEXT_SUFFIXES = SOURCE_SUFFIXES + ('.py', '.sh', '.md', '.txt', '.cmake', '.in', '.exs', '.ex')

INCLUDE = re.compile(r'^\s*#\s*(?:include\s*[<"]([^>"]+)[>"]|define\s+HWY_TARGET_INCLUDE\s+"([^"]+)")')
# A path a reader would open: a top-level folder or swarm/, then path characters, then a suffix.
MENTION = re.compile(r'(?<![\w./-])((?:' + '|'.join(TOP_FOLDERS) + r'|swarm)/[\w./-]*?\.'
                     r'(?:h|cc|c|py|sh|md|cmake|txt|in|json))(?![\w-])')


def tracked_files(root):
    out = subprocess.run(['git', '-C', root, 'ls-files', '-s'], check=True, capture_output=True,
                         text=True).stdout
    files, links = [], []
    for line in out.splitlines():
        mode, _, _, path = line.split(maxsplit=3)
        (links if mode == '120000' else files).append(path)
    return files, links


def main():
    root = os.path.abspath(sys.argv[1])
    files, links = tracked_files(root)
    problems = [f'{path}: a symbolic link (the source tree needs none)' for path in links]
    include_dir = os.path.join(root, 'include')

    def exists(path):
        return os.path.isfile(os.path.join(root, path))

    for path in files:
        if not path.endswith(TEXT_SUFFIXES) and os.path.basename(path) != 'CMakeLists.txt' \
                and os.path.basename(path) != 'Makefile':
            continue
        # Fuzz regressions are hostile inputs; the checker and its test spell out bad paths.
        if '_regressions/' in path or path.startswith('tests/layout/'):
            continue
        if not os.path.isfile(os.path.join(root, path)):  # deleted in the work tree
            continue
        with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
            lines = f.read().split('\n')
        folder = os.path.dirname(path)
        for number, line in enumerate(lines, 1):
            where = f'{path}:{number}'
            match = INCLUDE.match(line) if path.endswith(SOURCE_SUFFIXES) else None
            if match:
                name = match.group(1) or match.group(2)
                first = name.split('/')[0]
                if first == 'swarm':
                    if not os.path.isfile(os.path.join(include_dir, name)):
                        problems.append(f'{where}: #include "{name}" is not a file under include/')
                elif first in INCLUDE_FOLDERS:
                    if not exists(name):
                        problems.append(f'{where}: #include "{name}" is not a file under the '
                                        'source root')
                elif '"' in line and exists(os.path.join(folder, name)):
                    problems.append(f'{where}: #include "{name}" is relative to its folder; name '
                                    f'it from the source root ("{os.path.join(folder, name)}")')
                continue
            if 'CMake' in path or path.endswith('.cmake'):
                if re.search(r'CREATE_LINK|create_symlink', line):
                    problems.append(f'{where}: makes a symbolic link')
            if re.search(r'(?<![\w/])DESIGN\.md', line):
                problems.append(f'{where}: cites DESIGN.md, which is not in the repository '
                                '(docs/design.md is)')
            for mention in MENTION.findall(line):
                name = mention.rstrip('.')
                if name.startswith('swarm/'):
                    ok = os.path.isfile(os.path.join(include_dir, name))
                else:
                    ok = exists(name) or os.path.isdir(os.path.join(root, name))
                # Generated files: benchmark results and configured templates (x from x.in).
                generated = name.startswith('bench/results/') or exists(name + '.in')
                if not ok and not generated:
                    problems.append(f'{where}: names {name}, which does not exist')

    # The umbrella header includes every public header but the scalar references and the C API.
    umbrella_path = os.path.join(include_dir, 'swarm', 'swarm.h')
    if os.path.isfile(umbrella_path):
        with open(umbrella_path, encoding='utf-8') as f:
            umbrella = f.read()
        for path in files:
            if not path.startswith('include/swarm/') or path == 'include/swarm/swarm.h':
                continue
            name = path[len('include/'):]
            if name.endswith('_reference.h') or name.startswith('swarm/c_api/'):
                continue
            if f'#include "{name}"' not in umbrella:
                problems.append(f'include/swarm/swarm.h: does not include {name} (add it, or '
                                'say in its comment why it is left out and leave it out here)')

    seen = {}
    for path in files:
        if path.startswith(('engine/', 'kernels/', 'include/swarm/')) and \
                path.endswith(SOURCE_SUFFIXES):
            seen.setdefault(os.path.basename(path), []).append(path)
    for name, paths in sorted(seen.items()):
        if len(paths) > 1:
            problems.append(f'{name} means two things: {", ".join(paths)}')

    for problem in problems:
        print(problem)
    print(f'{len(files)} files checked, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
