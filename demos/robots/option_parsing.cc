#include "demos/robots/option_parsing.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "swarm/core/text.h"

namespace swarm {

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  if (text.empty()) return parts;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

Status ParseFrom(FlagSet& flags, int argc, const char* const* argv, int first) {
  return flags.Parse(argc - first + 1, argv + first - 1);
}

Result<std::vector<double>> ParseNumberList(const std::string& text, double max_magnitude) {
  std::vector<double> values;
  for (const std::string& part : SplitCommas(text)) {
    char* end = nullptr;
    const double value = std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size() || !std::isfinite(value) ||
        std::fabs(value) > max_magnitude) {
      return InvalidArgument("expected comma-separated finite numbers (|x| <= " +
                             NumberText(max_magnitude) + "), got '" + part + "' in '" + text + "'");
    }
    values.push_back(value);
  }
  return values;
}

Status ParseVector3(const std::string& text, double out[3]) {
  Result<std::vector<double>> values = ParseNumberList(text, 1e6);
  if (!values.ok()) return values.status();
  if (values->size() != 3) {
    return InvalidArgument("expected three numbers gx,gy,gz, got '" + text + "'");
  }
  std::copy(values->begin(), values->end(), out);
  return {};
}

}  // namespace swarm
