// Error values for swarm's boundaries (files, shapes, budgets, command-line values). Kernels
// never fail; everything that validates user input returns a Status or a Result<T> whose message
// says what was wrong, where, and what was expected versus what was given.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "swarm/kernels/base/assert.h"

namespace swarm {

enum class ErrorCode {
  kOk = 0,
  kInvalidArgument,  // a value or shape the operation cannot accept
  kOverBudget,       // the memory budget would be exceeded
  kOutOfMemory,      // the operating system refused the allocation
  kUnavailable,      // e.g. a SIMD target this CPU or build does not have
};

const char* ErrorCodeName(ErrorCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // success
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string message) {
  return {ErrorCode::kInvalidArgument, std::move(message)};
}

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : state_(std::move(status)) {  // NOLINT: implicit by design
    SWARM_ASSERT(!std::get<Status>(state_).ok());
  }

  bool ok() const { return std::holds_alternative<T>(state_); }
  const Status& status() const {
    static const Status kSuccess;
    return ok() ? kSuccess : std::get<Status>(state_);
  }
  T& value() & {
    SWARM_ASSERT(ok());
    return std::get<T>(state_);
  }
  T&& value() && {
    SWARM_ASSERT(ok());
    return std::get<T>(std::move(state_));
  }
  T* operator->() { return &value(); }
  T& operator*() & { return value(); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace swarm
