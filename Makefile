# The two commands a new machine needs (see README.md):
#   make run    installs missing Debian packages, builds Release, runs the particle demo (a window,
#               or headless without a display) and writes its last frame to build/particles.png
#   make test   the same set-up, then the format check (.clang-format), the whole test suite
#               (Release, then ASan + UBSan) via ctest, then 20 seconds of fuzzing the .npy
#               reader (`make fuzz` fuzzes for longer)
# Everything else is plain CMake underneath; these targets only pick directories and flags.

JOBS ?= $(shell nproc)
# Let ccache reuse objects across checkouts in different folders (CI clones anew each run):
# paths below the repository root are hashed relative to it, debug info included.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
RELEASE_DIR := build/release
SANITIZE_DIR := build/sanitize
# The demo's flags (swarm-particles --help), e.g. RUN_ARGS="--scene galaxy --threads 2 --out x.png".
RUN_ARGS ?= --out build/particles.png

FUZZ_DIR := build/fuzz
FUZZ_SECONDS ?= 60

.PHONY: deps run build test test-format format test-release test-sanitize test-fuzz fuzz fuzz-build \
	bench clean

deps:
	scripts/install-deps.sh

# The benchmark programs build in the Release tree too: the tests run their whole flow once
# (scripts/bench.sh --quick), and `make run` builds only the demo's targets.
$(RELEASE_DIR)/CMakeCache.txt:
	cmake -S . -B $(RELEASE_DIR) -DCMAKE_BUILD_TYPE=Release -DSWARM_BUILD_BENCH=ON

build: deps $(RELEASE_DIR)/CMakeCache.txt
	cmake --build $(RELEASE_DIR) -j $(JOBS)

run: deps $(RELEASE_DIR)/CMakeCache.txt
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target swarm-particles
	$(RELEASE_DIR)/demos/particles/swarm-particles $(RUN_ARGS)

test: test-format test-release test-sanitize test-fuzz

# Every C++ file formatted by .clang-format (check mode; `make format` applies it).
test-format: deps
	scripts/check-format.sh

format: deps
	scripts/check-format.sh --fix

test-release: build
	ctest --test-dir $(RELEASE_DIR) -j $(JOBS) --output-on-failure

# The suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
test-sanitize: deps
	cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWARM_SANITIZE=ON
	cmake --build $(SANITIZE_DIR) -j $(JOBS)
	ctest --test-dir $(SANITIZE_DIR) -j $(JOBS) --output-on-failure

# The .npy reader under libFuzzer (clang, ASan + UBSan: tests/fuzz/) for FUZZ_SECONDS seconds,
# e.g. `make fuzz FUZZ_SECONDS=600`. Seeds: numpy-written files of every dtype plus
# tests/engine/tensor/npy_regressions/; what the fuzzer learns accumulates in build/fuzz/corpus. A crash
# fails the run and leaves build/fuzz/crash-*: fix it, then keep the input in npy_regressions/.
FUZZ_RUN = $(FUZZ_DIR)/npy_fuzzer -max_len=4096 -timeout=10 -dict=tests/fuzz/npy.dict \
	-artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds

fuzz: fuzz-build
	$(FUZZ_RUN) -max_total_time=$(FUZZ_SECONDS)

# The bounded pass that `make test` includes.
test-fuzz: fuzz-build
	$(FUZZ_RUN) -max_total_time=20

fuzz-build: deps
	cmake -S tests/fuzz -B $(FUZZ_DIR) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(FUZZ_DIR) -j $(JOBS)
	rm -rf $(FUZZ_DIR)/seeds
	/usr/bin/python3 tests/fuzz/make_seeds.py $(FUZZ_DIR)/seeds
	cp tests/engine/tensor/npy_regressions/*.npy $(FUZZ_DIR)/seeds/
	mkdir -p $(FUZZ_DIR)/corpus

bench: deps
	scripts/bench.sh

clean:
	rm -rf build
