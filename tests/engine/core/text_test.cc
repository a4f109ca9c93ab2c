// Tests for swarm/core/text.h: quoting of untrusted text and the shortest round-trip numbers of
// error messages, against strings worked out by hand and against strtod/strtof read-back.
#include "swarm/core/text.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace swarm {
namespace {

TEST_CASE("Quoted wraps plain text in the quote character") {
  CHECK(Quoted("ur5") == "'ur5'");
  CHECK(Quoted("") == "''");
  CHECK(Quoted("descr", '"') == "\"descr\"");
}

TEST_CASE("Quoted escapes control bytes, non-ASCII, the quote and backslash") {
  CHECK(Quoted(std::string("a\nb")) == "'a\\nb'");
  CHECK(Quoted(std::string("\x93NUMPY"), '"') == "\"\\x93NUMPY\"");
  CHECK(Quoted(std::string("a\0b", 3)) == "'a\\x00b'");
  CHECK(Quoted("it's") == "'it\\x27s'");
  CHECK(Quoted("say \"hi\"", '"') == "\"say \\x22hi\\x22\"");
  CHECK(Quoted("back\\slash") == "'back\\x5cslash'");
  CHECK(Quoted(std::string("\x7f")) == "'\\x7f'");
}

TEST_CASE("Quoted cuts after the limit and says so") {
  CHECK(Quoted("abcdef", '\'', 3) == "'abc...'");
  CHECK(Quoted("abc", '\'', 3) == "'abc'");
  CHECK(Quoted("abc", '\'', 0) == "'...'");
}

TEST_CASE("NumberText prints special values and short decimals") {
  CHECK(NumberText(-1.0) == "-1");
  CHECK(NumberText(0.02) == "0.02");
  CHECK(NumberText(0.1f) == "0.1");  // as float: not 0.10000000149011612
  CHECK(NumberText(1e-7f) == "1e-07");
  CHECK(NumberText(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(NumberText(std::numeric_limits<float>::infinity()) == "inf");
  CHECK(NumberText(-std::numeric_limits<double>::infinity()) == "-inf");
}

TEST_CASE("NumberText reads back as the same value (strtod, strtof)") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t bits = rng();
    double d;
    static_assert(sizeof(d) == sizeof(bits));
    std::memcpy(&d, &bits, sizeof(d));
    if (!std::isfinite(d)) continue;
    const std::string text = NumberText(d);
    INFO(text);
    REQUIRE(std::strtod(text.c_str(), nullptr) == d);
    const float f = static_cast<float>(d);
    if (!std::isfinite(f)) continue;
    const std::string float_text = NumberText(f);
    INFO(float_text);
    REQUIRE(std::strtof(float_text.c_str(), nullptr) == f);
    REQUIRE(float_text.size() <= 15);  // at most 9 significant digits, sign, point, exponent
  }
}

}  // namespace
}  // namespace swarm
