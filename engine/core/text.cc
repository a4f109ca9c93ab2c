#include "swarm/core/text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace swarm {
namespace {

template <typename T>
std::string ShortestText(T value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof(text), value);
  return error == std::errc() ? std::string(text, end) : std::string("?");
}

}  // namespace

std::string Quoted(std::string_view text, char quote, size_t limit) {
  std::string out(1, quote);
  for (size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c >= 0x7f || c == static_cast<unsigned char>(quote) || c == '\\') {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > limit) out += "...";
  return out + quote;
}

std::string NumberText(double value) { return ShortestText(value); }
std::string NumberText(float value) { return ShortestText(value); }

}  // namespace swarm
