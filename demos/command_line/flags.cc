#include "demos/command_line/flags.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "swarm/core/memory.h"
#include "swarm/core/text.h"

namespace swarm {
namespace {

std::string Quote(std::string_view text) {
  std::string quoted(1, '\'');
  quoted.append(text);
  quoted += '\'';
  return quoted;
}

// Parses a finite decimal number with an optional exponent, ignoring '_' digit separators.
bool ParseDouble(std::string_view text, double* out, std::string_view* rest) {
  std::string clean;
  for (char c : text) {
    if (c != '_') clean += c;
  }
  if (clean.empty()) return false;
  const char* begin = clean.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(begin, &end);
  if (end == begin || errno == ERANGE || !std::isfinite(value)) return false;
  // Hex floats, "inf" and "nan" are not accepted on a command line.
  for (const char* c = begin; c < end; ++c) {
    if (*c == 'x' || *c == 'X' || *c == 'n' || *c == 'N' || *c == 'i' || *c == 'I') return false;
  }
  *out = value;
  *rest = text.substr(text.size() - std::strlen(end));
  return true;
}

}  // namespace

Result<double> ParseNumber(std::string_view flag, std::string_view text, double min, double max) {
  double value = 0;
  std::string_view rest;
  if (!ParseDouble(text, &value, &rest) || !rest.empty()) {
    return InvalidArgument(std::string(flag) + ": expected a number, got " + Quote(text));
  }
  if (value < min || value > max) {
    return InvalidArgument(std::string(flag) + ": " + Quote(text) + " is out of range [" +
                           NumberText(min) + ", " + NumberText(max) + "]");
  }
  return value;
}

Result<uint64_t> ParseCount(std::string_view flag, std::string_view text, uint64_t min,
                            uint64_t max) {
  const auto out_of_range = [&] {
    return InvalidArgument(std::string(flag) + ": " + Quote(text) + " is out of range [" +
                           std::to_string(min) + ", " + std::to_string(max) + "]");
  };
  // Plain digits are read exactly: a double holds integers only up to 2^53, and 64-bit values
  // such as seeds need every bit.
  if (text.find_first_of("0123456789") != std::string_view::npos &&
      text.find_first_not_of("0123456789_") == std::string_view::npos) {
    uint64_t whole = 0;
    for (char c : text) {
      if (c == '_') continue;
      const uint64_t digit = static_cast<uint64_t>(c - '0');
      if (whole > (UINT64_MAX - digit) / 10) return out_of_range();
      whole = whole * 10 + digit;
    }
    if (whole < min || whole > max) return out_of_range();
    return whole;
  }
  double value = 0;
  std::string_view rest;
  if (!ParseDouble(text, &value, &rest) || !rest.empty() || value != std::floor(value) ||
      value < 0) {
    return InvalidArgument(std::string(flag) + ": expected a whole number, got " + Quote(text));
  }
  // 2^64 and above do not convert to uint64_t (undefined behaviour); below it the conversion of
  // a whole double is exact, so the range check is done on the integer.
  if (value >= 18446744073709551616.0) return out_of_range();
  const uint64_t whole = static_cast<uint64_t>(value);
  if (whole < min || whole > max) return out_of_range();
  return whole;
}

Result<size_t> ParseByteSize(std::string_view flag, std::string_view text) {
  double value = 0;
  std::string_view rest;
  if (!ParseDouble(text, &value, &rest) || value < 0) {
    return InvalidArgument(std::string(flag) + ": expected a size such as 96M, 1.5G or 4096, got " +
                           Quote(text));
  }
  double scale = 1;
  if (rest == "K" || rest == "k" || rest == "KiB") {
    scale = 1024.0;
  } else if (rest == "M" || rest == "m" || rest == "MiB") {
    scale = 1024.0 * 1024.0;
  } else if (rest == "G" || rest == "g" || rest == "GiB") {
    scale = 1024.0 * 1024.0 * 1024.0;
  } else if (rest == "T" || rest == "t" || rest == "TiB") {
    scale = 1024.0 * 1024.0 * 1024.0 * 1024.0;
  } else if (!rest.empty() && rest != "B") {
    return InvalidArgument(std::string(flag) + ": unknown size unit " + Quote(rest) + " in " +
                           Quote(text) + " (use K, M, G or T)");
  }
  const double bytes = value * scale;
  if (bytes >= 18446744073709551615.0) {
    return InvalidArgument(std::string(flag) + ": " + Quote(text) + " is too large");
  }
  return static_cast<size_t>(bytes);
}

FlagSet::FlagSet(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

void FlagSet::AddCount(std::string name, uint64_t* value, uint64_t min, uint64_t max,
                       std::string help) {
  const std::string flag = "--" + name;
  flags_.push_back({std::move(name), std::move(help), std::to_string(*value), true,
                    [=](std::string_view text) -> Result<std::function<void()>> {
                      Result<uint64_t> parsed = ParseCount(flag, text, min, max);
                      if (!parsed.ok()) return parsed.status();
                      return std::function<void()>([=, v = parsed.value()] { *value = v; });
                    }});
}

void FlagSet::AddNumber(std::string name, double* value, double min, double max, std::string help) {
  const std::string flag = "--" + name;
  flags_.push_back({std::move(name), std::move(help), NumberText(*value), true,
                    [=](std::string_view text) -> Result<std::function<void()>> {
                      Result<double> parsed = ParseNumber(flag, text, min, max);
                      if (!parsed.ok()) return parsed.status();
                      return std::function<void()>([=, v = parsed.value()] { *value = v; });
                    }});
}

void FlagSet::AddBytes(std::string name, size_t* value, std::string help) {
  const std::string flag = "--" + name;
  flags_.push_back({std::move(name), std::move(help),
                    *value == kNoBudget ? "none" : FormatBytes(*value), true,
                    [=](std::string_view text) -> Result<std::function<void()>> {
                      Result<size_t> parsed = ParseByteSize(flag, text);
                      if (!parsed.ok()) return parsed.status();
                      return std::function<void()>([=, v = parsed.value()] { *value = v; });
                    }});
}

void FlagSet::AddString(std::string name, std::string* value, std::string help) {
  flags_.push_back({std::move(name), std::move(help), *value, true,
                    [=](std::string_view text) -> Result<std::function<void()>> {
                      return std::function<void()>([=, v = std::string(text)] { *value = v; });
                    }});
}

void FlagSet::AddSwitch(std::string name, bool* value, std::string help) {
  flags_.push_back({std::move(name), std::move(help), *value ? "on" : "off", false,
                    [=](std::string_view) -> Result<std::function<void()>> {
                      return std::function<void()>([=] { *value = true; });
                    }});
}

void FlagSet::AddPositional(std::string name, std::string* value, std::string help) {
  positionals_.push_back({std::move(name), std::move(help), value});
}

void FlagSet::AddAlias(std::string alias, std::string name) {
  SWARM_ASSERT(Find(name) != nullptr);
  aliases_.emplace_back(std::move(alias), std::move(name));
}

void FlagSet::AllowRepeats(std::string_view name) {
  for (Flag& flag : flags_) {
    if (flag.name == name) flag.repeatable = true;
  }
}

const FlagSet::Flag* FlagSet::Find(std::string_view name) const {
  for (const Flag& flag : flags_) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

const FlagSet::Flag* FlagSet::FlagOf(std::string_view arg) const {
  for (const auto& [alias, name] : aliases_) {
    if (arg == alias) return Find(name);
  }
  if (!arg.starts_with("--")) return nullptr;
  const size_t equals = arg.find('=');
  return Find(
      arg.substr(2, equals == std::string_view::npos ? std::string_view::npos : equals - 2));
}

Status FlagSet::Parse(int argc, const char* const* argv) {
  std::vector<std::function<void()>> stores;
  std::vector<ParsedFlag> parsed;
  std::vector<std::string> seen;  // flags given so far, for the repeat check
  size_t positionals = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      help_requested_ = true;
      continue;
    }
    const Flag* flag = FlagOf(arg);
    if (flag == nullptr && !arg.starts_with("-")) {
      if (positionals < positionals_.size()) {
        const Positional& positional = positionals_[positionals++];
        stores.push_back([value = positional.value, text = std::string(arg)] { *value = text; });
        continue;
      }
      if (!positionals_.empty()) {
        return InvalidArgument("unexpected argument " + Quote(arg) + " (" + program_ +
                               " takes one " + positionals_.back().name + "; see " + program_ +
                               " --help)");
      }
      return InvalidArgument("unexpected argument " + Quote(arg) + " (flags start with --; see " +
                             program_ + " --help)");
    }
    if (flag == nullptr) {
      if (arg.size() < 3 || !arg.starts_with("--")) {
        return InvalidArgument("unexpected argument " + Quote(arg) + " (flags start with --; see " +
                               program_ + " --help)");
      }
      const size_t equals = arg.find('=');
      return InvalidArgument("unknown flag " + std::string(arg.substr(0, equals)) + " (see " +
                             program_ + " --help)");
    }
    const std::string spelled = "--" + flag->name;
    if (!flag->repeatable && std::find(seen.begin(), seen.end(), flag->name) != seen.end()) {
      return InvalidArgument(spelled + " is given more than once (" + Quote(arg) +
                             " repeats it; give each flag once)");
    }
    seen.push_back(flag->name);
    const size_t equals = arg.starts_with("--") ? arg.find('=') : std::string_view::npos;
    std::string_view text;
    if (equals != std::string_view::npos) {
      if (!flag->takes_value)
        return InvalidArgument(spelled + " takes no value, got " + Quote(arg));
      text = arg.substr(equals + 1);
    } else if (flag->takes_value) {
      if (i + 1 >= argc) return InvalidArgument(spelled + " needs a value");
      const std::string_view next = argv[i + 1];
      // The next argument is another flag, not this one's value: `--out --robots 10` must not
      // write a file named "--robots".
      if (next.starts_with("--") || FlagOf(next) != nullptr) {
        return InvalidArgument(spelled + " needs a value, got the flag " + Quote(next) +
                               " (a value that starts with -- is written " + spelled + "=VALUE)");
      }
      text = next;
      ++i;
    }
    Result<std::function<void()>> store = flag->parse(text);
    if (!store.ok()) return store.status();
    stores.push_back(std::move(store).value());
    parsed.push_back({flag->name, std::string(text)});
  }
  for (const std::function<void()>& store : stores) store();
  parsed_ = std::move(parsed);
  return {};
}

std::string FlagSet::Usage() const {
  std::string text = "usage: " + program_;
  for (const Positional& positional : positionals_) text += " " + positional.name;
  text += " [flags]\n" + summary_ + "\n\n";
  for (const Positional& positional : positionals_) {
    std::string left = "  " + positional.name;
    left.resize(std::max<size_t>(left.size() + 1, 26), ' ');
    text += left + positional.help + "\n";
  }
  text += "flags:\n";
  for (const Flag& flag : flags_) {
    std::string left = "  --" + flag.name + (flag.takes_value ? "=VALUE" : "");
    for (const auto& [alias, name] : aliases_) {
      if (name == flag.name) left += ", " + alias;
    }
    left.resize(std::max<size_t>(left.size() + 1, 26), ' ');
    text += left + flag.help + " (default: " + flag.default_text + ")\n";
  }
  return text;
}

}  // namespace swarm
