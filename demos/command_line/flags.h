// Command-line flags for swarm's programs: `--name=value` or `--name value`, typed and
// range-checked, with a usage text generated from the declarations. Values are validated before
// any is stored, so a bad command line changes nothing and produces one message naming the flag,
// what it expects and what it got. (Configuration comes from flags and API arguments only, never
// from environment variables.)
//
// Strict on purpose, because a mistyped command line must not run with a surprising meaning:
// - `--name value` never takes another flag as its value: `--out --robots 10` is an error naming
//   --out (a value that starts with "--" is written `--out=--odd-name`);
// - a flag given twice is an error, except the ones declared with AllowRepeats (a pipeline's
//   stages), whose every occurrence is kept in parsed() in command-line order;
// - arguments without "--" are positionals only where the program declares one (AddPositional),
//   and at most as many as it declares.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
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
  // A positional argument (the input file of swarm-vision); required ones are checked by the
  // program after parsing, so --help works without them.
  void AddPositional(std::string name, std::string* value, std::string help);
  // `alias` (e.g. "-o") stands for --name.
  void AddAlias(std::string alias, std::string name);
  // --name may be given more than once; the stored value is the last one, parsed() has them all.
  void AllowRepeats(std::string_view name);

  struct ParsedFlag {
    std::string name;   // without the leading "--"
    std::string value;  // "" for switches
  };

  // Parses argv[1..argc). `--help` sets help_requested() and returns ok.
  Status Parse(int argc, const char* const* argv);
  bool help_requested() const { return help_requested_; }
  // Every flag of the last successful Parse in command-line order (not positionals).
  const std::vector<ParsedFlag>& parsed() const { return parsed_; }
  std::string Usage() const;

 private:
  struct Flag {
    std::string name;
    std::string help;
    std::string default_text;
    bool takes_value;
    // Validates `text` and returns a function that stores it (run only if every flag is valid).
    std::function<Result<std::function<void()>>(std::string_view text)> parse;
    bool repeatable = false;
  };
  struct Positional {
    std::string name;
    std::string help;
    std::string* value;
  };
  const Flag* Find(std::string_view name) const;
  // The flag an argument names: "--name", "--name=value" or an alias; nullptr if none.
  const Flag* FlagOf(std::string_view arg) const;

  std::string program_;
  std::string summary_;
  std::vector<Flag> flags_;
  std::vector<Positional> positionals_;
  std::vector<std::pair<std::string, std::string>> aliases_;  // alias, flag name
  std::vector<ParsedFlag> parsed_;
  bool help_requested_ = false;
};

}  // namespace swarm
