// Waiting for the other end of a FIFO without hanging: the input and output files open FIFOs
// without blocking and poll for the writer or reader, up to a bound, instead of blocking in
// open(2) forever. Internal to engine/core.
#pragma once

#include <chrono>
#include <optional>
#include <thread>

namespace swarm {

// Calls attempt() every 10 ms until it returns a value (std::optional holding it) or
// `milliseconds` have passed; std::nullopt then. attempt() is called at least once.
template <class Attempt>
auto PollFor(int milliseconds, const Attempt& attempt) -> decltype(attempt()) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds);
  while (true) {
    if (auto result = attempt()) return result;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace swarm
