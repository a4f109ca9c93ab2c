// Tests for the C API's contexts (engine/c_api/c_api_core.cc): references (swarm_context_retain,
// swarm_context_destroy releasing one), calls running in one thread while another releases its
// reference, objects that outlive the handle, and a context whose threads the system cannot
// start (SWARM_UNAVAILABLE with the reason, nothing left running).
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "swarm/c_api/swarm_c.h"
#include "tests/engine/c_api/c_api_test_support.h"
#include "tests/support/address_space_limit.h"

namespace swarm::test {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

TEST_CASE("a context handle lives until its last reference is released") {
  swarm_context context = nullptr;
  REQUIRE(swarm_context_create(nullptr, &context) == SWARM_OK);
  REQUIRE(swarm_context_retain(context) == SWARM_OK);
  REQUIRE(swarm_context_retain(context) == SWARM_OK);
  swarm_context_destroy(context);
  swarm_context_destroy(context);
  // One reference left: the handle still works (ASan would report a use after free otherwise).
  swarm_buffer buffer = nullptr;
  REQUIRE(swarm_buffer_create_f32_array(context, 100, &buffer) == SWARM_OK);
  size_t bytes = 0;
  REQUIRE(swarm_context_bytes_in_use(context, &bytes) == SWARM_OK);
  CHECK(bytes > 0);
  swarm_context_destroy(context);
  // The buffer keeps the context's accountant: releasing it after the handle is fine.
  swarm_buffer_release(buffer);
  CHECK(swarm_context_retain(nullptr) == SWARM_INVALID_ARGUMENT);
  CHECK(LastError() == "swarm_context_retain: context is null");
  swarm_context_destroy(nullptr);
}

// The documented rule: a thread that may outlive another's reference takes its own. Thread B
// evaluates on the context's four threads again and again while the creating thread releases its
// reference; B's calls keep running on the pool, and the pool stops with B's release. Under ASan
// and with the pool's condition variables destroyed under B, this hung or aborted before.
TEST_CASE("calls in flight on another thread survive the release of the creator's reference") {
  const swarm_context_desc desc{0, 4};
  swarm_context context = nullptr;
  REQUIRE(swarm_context_create(&desc, &context) == SWARM_OK);
  BufferPtr a = MakeTensorBuffer(context, SWARM_F32, {256, 1024});
  BufferPtr out = MakeTensorBuffer(context, SWARM_F32, {256, 1024});
  TensorPtr a_view = ViewOf(a.get());
  TensorPtr out_view = ViewOf(out.get());
  REQUIRE(swarm_context_retain(context) == SWARM_OK);  // thread B's reference
  std::atomic<bool> started{false};
  std::atomic<int> failures{0};
  std::thread worker([&, context] {
    const char* names[] = {"a"};
    const swarm_tensor tensors[] = {a_view.get()};
    for (int round = 0; round < 200; ++round) {
      if (swarm_evaluate(context, "a * 2 + 1", names, tensors, 1, out_view.get()) != SWARM_OK) {
        failures.fetch_add(1);
      }
      started.store(true);
    }
    swarm_context_destroy(context);
  });
  while (!started.load()) std::this_thread::yield();
  swarm_context_destroy(context);  // the creator's reference, while B's calls run
  worker.join();
  CHECK(failures.load() == 0);
  const swarm_tensor_info out_info = Info(out_view.get());
  CHECK(*ElementOf<float>(out_info, {255, 1023}) == 1.0f);  // a is zero: 0 * 2 + 1
}

// [native]: under qemu-user the address-space limit is the emulator's to keep (it accepts the
// call without applying it), and a thousand emulated threads spinning take minutes.
TEST_CASE("a context whose threads cannot start is SWARM_UNAVAILABLE and names the reason",
          "[native]") {
  if (kUnderAddressSanitizer) {
    SUCCEED("skipped: an address-space limit breaks AddressSanitizer's shadow memory");
    return;
  }
  // 1024 threads of 8 MiB stacks need 8 GiB of address space; the limit is 4 GiB.
  const ChildOutcome outcome = RunUnderAddressSpaceLimit(size_t{4} << 30, [] {
    const swarm_context_desc desc{0, 1024};
    swarm_context context = Sentinel<swarm_context>();
    const swarm_status status = swarm_context_create(&desc, &context);
    std::string report = std::string(swarm_status_name(status)) + ": " + swarm_last_error();
    if (context != Sentinel<swarm_context>()) report += " (out was written)";
    // Nothing is left half-built: a small context still works in the same process.
    const swarm_context_desc small{0, 2};
    swarm_context working = nullptr;
    if (swarm_context_create(&small, &working) == SWARM_OK) {
      report += "; a context of 2 threads works";
      swarm_context_destroy(working);
    }
    return report;
  });
  CHECK(outcome.exit_status == 0);
  CHECK_THAT(outcome.report,
             StartsWith("unavailable: swarm_context_create: could not start a pool of 1024 "
                        "threads: thread "));
  CHECK_THAT(outcome.report, Contains("failed to start: Resource temporarily unavailable"));
  CHECK_THAT(outcome.report, !Contains("out was written"));
  CHECK_THAT(outcome.report, Contains("; a context of 2 threads works"));
}

}  // namespace
}  // namespace swarm::test
