// The text pieces of swarm's error messages, written once so that every boundary quotes names
// and prints numbers the same way.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace swarm {

// `text` between two `quote` characters, cut after `limit` bytes (then "..." follows), with every
// byte that is not printable ASCII (and the quote and backslash) written as \xNN and newlines as
// \n: messages quote untrusted file contents and names, which must not garble a terminal.
std::string Quoted(std::string_view text, char quote = '\'', size_t limit = std::string_view::npos);

// The shortest decimal text that reads back as the same value ("-1", "0.02", "1e-07", "nan",
// "inf", "-inf"): the float overload rounds as float, so 0.1f prints as "0.1".
std::string NumberText(double value);
std::string NumberText(float value);

}  // namespace swarm
