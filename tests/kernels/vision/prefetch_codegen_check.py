"""Checks that the built vision kernels still issue their row prefetches on every x86 target.

The prefetches in kernels/base/row_prefetch.h have no effect on results, so no kernel test can see
them go; yet GCC deletes a prefetch whose function it did not inline (a prefetch counts as
touching no memory, so the call looks free of side effects), which once left every smoothing
filter without its look-ahead. This disassembles libswarm_kernels.a and requires at least one
prefetch in each filter family's code for each Highway target compiled in.

usage: prefetch_codegen_check.py OBJDUMP LIBSWARM_KERNELS
"""
import re
import subprocess
import sys

# Family -> pattern of the functions its row loops end up in (the Impl entry point, or a clone
# of its row function that the compiler kept out of line).
FAMILIES = {
    "Gaussian f32": r"GaussianF32Impl",
    "Gaussian u8": r"GaussianU8Impl",
    "box f32": r"BoxF32Impl",
    "box u8": r"BoxU8Impl",
    "pyrDown": r"PyramidDownImpl",
    "gradient f32": r"Gradient(F32Impl|RowsF32)",
    "gradient u8": r"Gradient(U8Impl|RowsU8)",
}


def main():
    objdump, library = sys.argv[1], sys.argv[2]
    listing = subprocess.run([objdump, "-d", "-C", "--no-show-raw-insn", library],
                             check=True, capture_output=True, text=True).stdout
    # function name -> number of prefetch instructions in its body
    prefetches = {}
    function = None
    for line in listing.splitlines():
        header = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if header:
            function = header.group(1)
            prefetches.setdefault(function, 0)
        elif function is not None and re.search(r"\sprefetch\w*\s", line):
            prefetches[function] += 1
    targets = sorted({m.group(1) for name in prefetches
                      for m in [re.search(r"swarm::(N_\w+)::GaussianF32Impl", name)] if m})
    if not targets:
        sys.exit(f"no swarm::N_<target>::GaussianF32Impl in {library}: is it the kernels library?")
    missing = []
    for target in targets:
        for family, pattern in FAMILIES.items():
            regex = re.compile(rf"swarm::{target}::(void )?{pattern}|{pattern}.*swarm::{target}::")
            found = [name for name in prefetches if regex.search(name)]
            if not found:
                missing.append(f"{target} {family}: no function found")
            elif sum(prefetches[name] for name in found) == 0:
                missing.append(f"{target} {family}: no prefetch instruction")
    print(f"targets: {', '.join(targets)}; families: {len(FAMILIES)}")
    if missing:
        sys.exit("row prefetches missing from the built kernels:\n  " + "\n  ".join(missing))


if __name__ == "__main__":
    main()
