# The two commands a new machine needs (see README.md):
#   make run    installs missing Debian packages, builds Release, runs the particle demo (a window,
#               or headless without a display) and writes its last frame to build/particles.png
#   make test   the same set-up, then the format check (.clang-format), the whole test suite
#               (Release, then ASan + UBSan) via ctest, then 20 seconds of fuzzing each reader of
#               untrusted input: .npy, URDF, MJCF, PNG and text expressions (`make fuzz` fuzzes for longer)
#   make test-arm64  the aarch64 cross build's suite under qemu (adds the arm64 architecture to
#               dpkg for its libraries, so it is a separate command; CI runs both)
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

.PHONY: deps run build test test-format format test-release test-sanitize test-arm64 test-arm64-full \
	arm64-build test-fuzz fuzz \
	fuzz-build bench clean

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

# aarch64: cross-built with Debian's toolchain (cmake/aarch64-linux-gnu.cmake; the packages come
# from `scripts/install-deps.sh --arm64`) into build/arm64, tested under qemu-aarch64
# (cmake/cross_run.cmake), each test under every target the emulated CPU offers. Only the
# emulator's CPU changes between runs (a re-configure), not the binaries. `make test-arm64`, which
# CI runs, fits the CI budget on two cores: the whole suite on an SVE2 CPU with 512-bit vectors
# (qemu's default; it offers the NEON target too), then the golden values, which compare every
# kernel family's bits with x86's, on a NEON-only CPU and with 128-bit (sve2_128), 256-bit
# (sve_256) and 2048-bit vectors. At those three vector lengths the robot batch's golden tests,
# which repeat each robot over batch sizes and thread counts (about half of each run), are left
# to the other runs: the robot kernels' golden values and swarm-robots' golden state hashes still
# run there. `make test-arm64-full` adds the whole suite on the NEON-only CPU and every kernel
# family's tests, the robot batch's golden tests among them, at the three other vector lengths
# (about twice as long).
ARM64_DIR := build/arm64
ARM64_NEON_CPU := max,sve=off
ARM64_VECTOR_LENGTH_CPUS := max,sve-default-vector-length=16 \
	max,sve-default-vector-length=32 max,sve-default-vector-length=256
ARM64_OTHER_CPUS := $(ARM64_NEON_CPU) $(ARM64_VECTOR_LENGTH_CPUS)
# arm64_ctest(cpu, what, ctest filter flags): one ctest run of build/arm64 on one emulated CPU.
arm64_ctest = echo "== qemu-aarch64 -cpu $(1): $(2)" && \
	cmake -DSWARM_QEMU_CPU=$(1) $(ARM64_DIR) >/dev/null && \
	ctest --test-dir $(ARM64_DIR) -j $(JOBS) --output-on-failure $(3)
arm64-build:
	scripts/install-deps.sh --arm64
	cmake -S . -B $(ARM64_DIR) --toolchain cmake/aarch64-linux-gnu.cmake \
	  -DCMAKE_BUILD_TYPE=Release -DSWARM_QEMU_CPU=max
	cmake --build $(ARM64_DIR) -j $(JOBS)

test-arm64: arm64-build
	$(call arm64_ctest,max,the whole suite,)
	$(call arm64_ctest,$(ARM64_NEON_CPU),golden values,-R golden)
	$(foreach cpu,$(ARM64_VECTOR_LENGTH_CPUS),$(call arm64_ctest,$(cpu),golden values,\
	  -R golden -E '^robots_batch_test:') &&) true
	cmake -DSWARM_QEMU_CPU=max $(ARM64_DIR) >/dev/null

test-arm64-full: test-arm64
	$(call arm64_ctest,$(ARM64_NEON_CPU),the whole suite,)
	$(foreach cpu,$(ARM64_VECTOR_LENGTH_CPUS),$(call arm64_ctest,$(cpu),kernel families,\
	  -R '^kernels_|^robots_batch_test:.*golden') &&) true
	cmake -DSWARM_QEMU_CPU=max $(ARM64_DIR) >/dev/null

# The readers of untrusted input under libFuzzer (clang, ASan + UBSan: tests/fuzz/): .npy, URDF,
# MJCF, PNG and text expressions, each for FUZZ_SECONDS seconds, e.g. `make fuzz FUZZ_SECONDS=1800`.
# Seeds come from tests/fuzz/make_seeds.py and each reader's regression inputs; what a fuzzer
# learns accumulates in build/fuzz/corpus-<reader>. A crash fails the run and leaves
# build/fuzz/crash-*: fix it, then keep the input among the reader's regression inputs (ctest
# replays them).
FUZZERS := npy urdf mjcf png expression
FUZZ_MAX_LEN_npy := 4096
FUZZ_MAX_LEN_urdf := 65536
FUZZ_MAX_LEN_mjcf := 65536
FUZZ_MAX_LEN_png := 16384
FUZZ_MAX_LEN_expression := 1024
FUZZ_REGRESSIONS_npy := tests/engine/tensor/npy_regressions
FUZZ_REGRESSIONS_urdf := tests/engine/robots/urdf_regressions
FUZZ_REGRESSIONS_png := tests/engine/vision/png_regressions
fuzz_run = $(FUZZ_DIR)/$(1)_fuzzer -max_len=$(FUZZ_MAX_LEN_$(1)) -timeout=10 -rss_limit_mb=1024 \
	-dict=tests/fuzz/$(1).dict -artifact_prefix=$(FUZZ_DIR)/$(1)- -print_final_stats=1 \
	-max_total_time=$(2) $(FUZZ_DIR)/corpus-$(1) $(FUZZ_DIR)/seeds-$(1)

# The readers' fuzzers, then the long random-torque fuzz of robot batches (every robot, ten seconds
# per case, four seeds: tests/engine/robots/robot_stability_test.cc).
fuzz: fuzz-build build
	$(foreach f,$(FUZZERS),$(call fuzz_run,$(f),$(FUZZ_SECONDS)) &&) true
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target robots_stability_test
	$(RELEASE_DIR)/tests/engine/robots/robots_stability_test "[fuzz]"

# The bounded pass that `make test` includes: 20 seconds per reader.
test-fuzz: fuzz-build
	$(foreach f,$(FUZZERS),$(call fuzz_run,$(f),20) &&) true

fuzz-build: deps
	cmake -S tests/fuzz -B $(FUZZ_DIR) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(FUZZ_DIR) -j $(JOBS)
	for f in $(FUZZERS); do \
	  rm -rf $(FUZZ_DIR)/seeds-$$f && mkdir -p $(FUZZ_DIR)/corpus-$$f && \
	  /usr/bin/python3 tests/fuzz/make_seeds.py $$f $(FUZZ_DIR)/seeds-$$f || exit 1; \
	done
	cp $(FUZZ_REGRESSIONS_npy)/*.npy $(FUZZ_DIR)/seeds-npy/
	cp $(FUZZ_REGRESSIONS_urdf)/*.urdf $(FUZZ_DIR)/seeds-urdf/
	cp $(FUZZ_REGRESSIONS_png)/*.png $(FUZZ_DIR)/seeds-png/

bench: deps
	scripts/bench.sh

clean:
	rm -rf build
