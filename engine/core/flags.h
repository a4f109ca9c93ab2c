// Command-line flags for swarm's programs: `--name=value` or `--name value`, typed and
// range-checked, with a usage text generated from the declarations. Values are validated before
// any is stored, so a bad command line changes nothing and produces one message naming the flag,
// what it expects and what it got. (Configuration comes from flags and API arguments only, never
// from environment variables.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "swarm/core/status.h"

namespace swarm {

// "96M", "1.5G", "4096", "512K": binary units (K = 1024). Errors name `flag`.
Result<size_t> ParseByteSize(std::string_view flag, std::string_view text);
// "1000000", "1e6", "1_000_000" within [min, max].
Result<uint64_t> ParseCount(std::string_view flag, std::string_view text, uint64_t min,
                            uint64_t max);
Result<double> ParseNumber(std::string_view flag, std::string_view text, double min, double max);

class FlagSet {
 public:
  explicit FlagSet(std::string program, std::string summary);

  void AddCount(std::string name, uint64_t* value, uint64_t min, uint64_t max, std::string help);
  void AddNumber(std::string name, double* value, double min, double max, std::string help);
  void AddBytes(std::string name, size_t* value, std::string help);
  void AddString(std::string name, std::string* value, std::string help);
  void AddSwitch(std::string name, bool* value, std::string help);

  // Parses argv[1..argc). `--help` sets help_requested() and returns ok.
  Status Parse(int argc, const char* const* argv);
  bool help_requested() const { return help_requested_; }
  std::string Usage() const;

 private:
  struct Flag {
    std::string name;
    std::string help;
    std::string default_text;
    bool takes_value;
    // Validates `text` and returns a function that stores it (run only if every flag is valid).
    std::function<Result<std::function<void()>>(std::string_view text)> parse;
  };
  const Flag* Find(std::string_view name) const;

  std::string program_;
  std::string summary_;
  std::vector<Flag> flags_;
  bool help_requested_ = false;
};

}  // namespace swarm
