# The two commands a new machine needs (see README.md):
#   make run    installs missing Debian packages, builds Release, runs the headless particle job
#   make test   the same set-up, then the whole test suite (Release, then ASan + UBSan) via ctest
# Everything else is plain CMake underneath; these targets only pick directories and flags.

JOBS ?= $(shell nproc)
# Let ccache reuse objects across checkouts in different folders (CI clones anew each run):
# paths below the repository root are hashed relative to it, debug info included.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
RELEASE_DIR := build/release
SANITIZE_DIR := build/sanitize
RUN_ARGS ?= --particles 1000000 --steps 300 --report-every 60

.PHONY: deps run build test test-release test-sanitize bench clean

deps:
	scripts/install-deps.sh

$(RELEASE_DIR)/CMakeCache.txt:
	cmake -S . -B $(RELEASE_DIR) -DCMAKE_BUILD_TYPE=Release

build: deps $(RELEASE_DIR)/CMakeCache.txt
	cmake --build $(RELEASE_DIR) -j $(JOBS)

run: deps $(RELEASE_DIR)/CMakeCache.txt
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target swarm-particles
	$(RELEASE_DIR)/demos/particles/swarm-particles $(RUN_ARGS)

test: test-release test-sanitize

test-release: build
	ctest --test-dir $(RELEASE_DIR) -j $(JOBS) --output-on-failure

# The suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
test-sanitize: deps
	cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWARM_SANITIZE=ON
	cmake --build $(SANITIZE_DIR) -j $(JOBS)
	ctest --test-dir $(SANITIZE_DIR) -j $(JOBS) --output-on-failure

bench:
	scripts/install-deps.sh --bench
	scripts/bench.sh

clean:
	rm -rf build
