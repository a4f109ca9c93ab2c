// Tests for demos/command_line/flags.h: byte sizes and counts as typed on a command line, and
// FlagSet's parsing (both --name=value and --name value, unknown flags, missing values, --help)
// with its validate-then-store promise: a bad command line changes none of the target variables.
#include "demos/command_line/flags.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "swarm/core/memory.h"

namespace swarm {
namespace {

Status Parse(FlagSet& flags, std::vector<const char*> args) {
  args.insert(args.begin(), "program");
  return flags.Parse(static_cast<int>(args.size()), args.data());
}

TEST_CASE("ParseByteSize reads binary units") {
  const auto bytes = [](const char* text) {
    Result<size_t> parsed = ParseByteSize("--memory-limit", text);
    INFO(text << ": " << parsed.status().message());
    REQUIRE(parsed.ok());
    return parsed.value();
  };
  CHECK(bytes("96M") == size_t{96} << 20);
  CHECK(bytes("1.5G") == size_t{3} << 29);
  CHECK(bytes("4096") == 4096);
  CHECK(bytes("512K") == 512 * 1024);
  CHECK(bytes("512k") == 512 * 1024);
  CHECK(bytes("2T") == size_t{2} << 40);
  CHECK(bytes("64MiB") == size_t{64} << 20);
  CHECK(bytes("100B") == 100);
  CHECK(bytes("0") == 0);
  CHECK(bytes("1_000") == 1000);
}

TEST_CASE("ParseByteSize errors name the flag and the text") {
  for (const char* bad : {"12Q", "-5M", "abc", "", "M", "1.5GB", "nan", "infM", "0x10"}) {
    INFO("text '" << bad << "'");
    Result<size_t> parsed = ParseByteSize("--memory-limit", bad);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(parsed.status().message(), Catch::Contains("--memory-limit"));
    // Appended piecewise: GCC 12 warns falsely (-Wrestrict, bug 105329) on "'" + std::string.
    std::string quoted(1, '\'');
    quoted.append(bad).push_back('\'');
    CHECK_THAT(parsed.status().message(), Catch::Contains(quoted));
  }
  CHECK_THAT(ParseByteSize("--memory-limit", "12Q").status().message(),
             Catch::Contains("unit 'Q'"));
  Result<size_t> huge = ParseByteSize("--memory-limit", "17000000T");  // > 2^64 bytes
  REQUIRE_FALSE(huge.ok());
  CHECK_THAT(huge.status().message(), Catch::Contains("too large"));
}

TEST_CASE("ParseCount accepts plain, exponent and digit-separated whole numbers") {
  const auto count = [](const char* text, uint64_t min, uint64_t max) {
    Result<uint64_t> parsed = ParseCount("--particles", text, min, max);
    INFO(text << ": " << parsed.status().message());
    REQUIRE(parsed.ok());
    return parsed.value();
  };
  CHECK(count("1e6", 0, 10'000'000) == 1'000'000);
  CHECK(count("1_000_000", 0, 10'000'000) == 1'000'000);
  CHECK(count("1000000", 0, 10'000'000) == 1'000'000);
  CHECK(count("2.5e3", 0, 10'000) == 2500);  // whole after scaling
  CHECK(count("0", 0, 10) == 0);
  CHECK(count("10", 0, 10) == 10);  // bounds are inclusive
  CHECK(count("1", 1, 256) == 1);
}

TEST_CASE("ParseCount is exact for 64-bit values such as seeds") {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  Result<uint64_t> largest = ParseCount("--seed", "18446744073709551615", 0, max);
  REQUIRE(largest.ok());
  CHECK(largest.value() == max);
  // 2^53 + 1 is the first integer a double cannot hold.
  Result<uint64_t> odd = ParseCount("--seed", "9007199254740993", 0, max);
  REQUIRE(odd.ok());
  CHECK(odd.value() == 9007199254740993u);
  Result<uint64_t> beyond = ParseCount("--seed", "18446744073709551616", 0, max);
  REQUIRE_FALSE(beyond.ok());
  CHECK_THAT(beyond.status().message(), Catch::Contains("--seed"));
}

TEST_CASE("ParseCount rejects fractions, negatives and out-of-range values, naming them") {
  for (const char* bad : {"1.5", "-1", "abc", "", "1e", "inf", "nan", "0x10", "5 "}) {
    INFO("text '" << bad << "'");
    Result<uint64_t> parsed = ParseCount("--particles", bad, 0, 1000);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(parsed.status().message(),
               Catch::Contains("--particles") && Catch::Contains("whole number"));
  }
  Result<uint64_t> high = ParseCount("--threads", "300", 1, 256);
  REQUIRE_FALSE(high.ok());
  CHECK_THAT(high.status().message(), Catch::Contains("--threads") && Catch::Contains("'300'") &&
                                          Catch::Contains("[1, 256]"));
  Result<uint64_t> low = ParseCount("--threads", "0", 1, 256);
  REQUIRE_FALSE(low.ok());
  CHECK_THAT(low.status().message(), Catch::Contains("[1, 256]"));
  CHECK_FALSE(ParseCount("--particles", "1e30", 0, std::numeric_limits<uint64_t>::max()).ok());
}

TEST_CASE("ParseNumber reads finite decimals within a range") {
  Result<double> dt = ParseNumber("--dt", "0.0166", 1e-6, 1.0);
  REQUIRE(dt.ok());
  CHECK(dt.value() == 0.0166);
  Result<double> out = ParseNumber("--dt", "2", 1e-6, 1.0);
  REQUIRE_FALSE(out.ok());
  CHECK_THAT(out.status().message(), Catch::Contains("--dt") && Catch::Contains("[1e-06, 1]"));
  for (const char* bad : {"nan", "inf", "-inf", "1/60", ""}) {
    INFO("text '" << bad << "'");
    CHECK_FALSE(ParseNumber("--dt", bad, -1e9, 1e9).ok());
  }
}

// The demo's flag set, with recognisable starting values.
struct Targets {
  uint64_t particles = 111;
  uint64_t threads = 1;
  double dt = 0.25;
  size_t memory_limit = kNoBudget;
  std::string simd = "auto";
  bool attractor = false;
};

FlagSet MakeFlags(Targets& targets) {
  FlagSet flags("swarm-test", "Flags under test.");
  flags.AddCount("particles", &targets.particles, 0, 1'000'000, "particles");
  flags.AddCount("threads", &targets.threads, 1, 256, "threads");
  flags.AddNumber("dt", &targets.dt, 1e-6, 1.0, "step");
  flags.AddBytes("memory-limit", &targets.memory_limit, "budget");
  flags.AddString("simd", &targets.simd, "target");
  flags.AddSwitch("attractor", &targets.attractor, "attractor");
  return flags;
}

bool Unchanged(const Targets& t) {
  const Targets initial;
  return t.particles == initial.particles && t.threads == initial.threads && t.dt == initial.dt &&
         t.memory_limit == initial.memory_limit && t.simd == initial.simd &&
         t.attractor == initial.attractor;
}

TEST_CASE("FlagSet accepts --name=value and --name value forms") {
  Targets targets;
  FlagSet flags = MakeFlags(targets);
  REQUIRE(Parse(flags, {"--particles=1e3", "--threads", "4", "--dt=0.5", "--memory-limit", "96M",
                        "--simd=sse4", "--attractor"})
              .ok());
  CHECK(targets.particles == 1000);
  CHECK(targets.threads == 4);
  CHECK(targets.dt == 0.5);
  CHECK(targets.memory_limit == size_t{96} << 20);
  CHECK(targets.simd == "sse4");
  CHECK(targets.attractor);
  CHECK_FALSE(flags.help_requested());
}

TEST_CASE("FlagSet with no arguments changes nothing") {
  Targets targets;
  FlagSet flags = MakeFlags(targets);
  REQUIRE(Parse(flags, {}).ok());
  CHECK(Unchanged(targets));
}

TEST_CASE("FlagSet errors name the flag and leave every target unchanged") {
  Targets targets;
  FlagSet flags = MakeFlags(targets);
  struct Case {
    std::vector<const char*> args;
    const char* expected;
  };
  const Case cases[] = {
      // A bad value in the middle: the valid flags before and after it are not stored either.
      {{"--particles=500", "--simd=avx2", "--threads=0", "--attractor", "--dt=0.5"}, "--threads"},
      {{"--particles", "500", "--memory-limit=12Q", "--simd", "scalar"}, "--memory-limit"},
      {{"--particles=500", "--frobnicate", "--attractor"}, "unknown flag --frobnicate"},
      {{"--attractor", "--frobnicate=3"}, "unknown flag --frobnicate"},
      {{"--particles=500", "--threads"}, "--threads needs a value"},
      {{"--attractor=yes", "--particles=5"}, "--attractor takes no value"},
      {{"--particles=5", "stray"}, "unexpected argument 'stray'"},
      {{"--particles=-1"}, "--particles"},
      {{"--dt=nan", "--particles=5"}, "--dt"},
      {{"--"}, "unexpected argument '--'"},
  };
  for (const Case& c : cases) {
    std::string joined;
    for (const char* arg : c.args) joined += std::string(arg) + " ";
    INFO("args: " << joined);
    const Status status = Parse(flags, c.args);
    REQUIRE_FALSE(status.ok());
    CHECK(status.code() == ErrorCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains(c.expected));
    CHECK(Unchanged(targets));
  }
}

TEST_CASE("FlagSet --help is reported, and the usage lists every flag with its default") {
  Targets targets;
  FlagSet flags = MakeFlags(targets);
  REQUIRE(Parse(flags, {"--help"}).ok());
  CHECK(flags.help_requested());
  CHECK(Unchanged(targets));
  const std::string usage = flags.Usage();
  INFO(usage);
  CHECK_THAT(usage, Catch::StartsWith("usage: swarm-test"));
  CHECK_THAT(usage, Catch::Contains("Flags under test."));
  for (const char* line : {"--particles=VALUE", "--threads=VALUE", "--dt=VALUE",
                           "--memory-limit=VALUE", "--simd=VALUE", "--attractor"}) {
    CHECK_THAT(usage, Catch::Contains(line));
  }
  for (const char* shown : {"(default: 111)", "(default: 0.25)", "(default: none)",
                            "(default: auto)", "(default: off)"}) {
    CHECK_THAT(usage, Catch::Contains(shown));
  }

  Targets short_targets;
  FlagSet short_flags = MakeFlags(short_targets);
  REQUIRE(Parse(short_flags, {"-h"}).ok());
  CHECK(short_flags.help_requested());
}

TEST_CASE("FlagSet: a repeated flag is an error unless declared repeatable") {
  Targets targets;
  FlagSet flags = MakeFlags(targets);
  const Status twice = Parse(flags, {"--threads=2", "--particles", "5", "--threads", "3"});
  REQUIRE_FALSE(twice.ok());
  CHECK(twice.message() ==
        "--threads is given more than once ('--threads' repeats it; give each flag once)");
  CHECK(Unchanged(targets));

  // Repeatable flags keep every occurrence, in order, in parsed(); the variable holds the last.
  Targets repeated_targets;
  FlagSet repeated = MakeFlags(repeated_targets);
  repeated.AllowRepeats("simd");
  REQUIRE(Parse(repeated, {"--simd", "avx2", "--threads=2", "--simd=sse4"}).ok());
  CHECK(repeated_targets.simd == "sse4");
  REQUIRE(repeated.parsed().size() == 3);
  CHECK(repeated.parsed()[0].name == "simd");
  CHECK(repeated.parsed()[0].value == "avx2");
  CHECK(repeated.parsed()[1].name == "threads");
  CHECK(repeated.parsed()[1].value == "2");
  CHECK(repeated.parsed()[2].value == "sse4");
}

TEST_CASE("FlagSet: a value never is the next flag") {
  Targets targets;
  FlagSet flags = MakeFlags(targets);
  // `--simd --attractor` must not set simd to "--attractor" and silently drop the switch.
  const Status next_flag = Parse(flags, {"--simd", "--attractor"});
  REQUIRE_FALSE(next_flag.ok());
  CHECK(next_flag.message() ==
        "--simd needs a value, got the flag '--attractor' (a value that starts with -- is written "
        "--simd=VALUE)");
  // Also when the next word is not a known flag, and for an alias.
  CHECK_THAT(Parse(flags, {"--simd", "--odd"}).message(),
             Catch::Contains("--simd needs a value, got the flag '--odd'"));
  flags.AddAlias("-s", "simd");
  CHECK_THAT(Parse(flags, {"--simd", "-s", "x"}).message(),
             Catch::Contains("--simd needs a value, got the flag '-s'"));
  CHECK(Unchanged(targets));
  // Written with '=', a value may start with "--"; a negative number is a value.
  REQUIRE(Parse(flags, {"--simd=--odd"}).ok());
  CHECK(targets.simd == "--odd");
  const Status negative = Parse(flags, {"--particles", "-1"});
  CHECK_THAT(negative.message(), Catch::Contains("--particles") && Catch::Contains("'-1'"));
  REQUIRE(Parse(flags, {"-s", "avx2"}).ok());
  CHECK(targets.simd == "avx2");
}

TEST_CASE("FlagSet: positionals are taken only where declared") {
  Targets targets;
  FlagSet flags = MakeFlags(targets);
  CHECK_THAT(Parse(flags, {"input.png"}).message(),
             Catch::Contains("unexpected argument 'input.png' (flags start with --"));
  std::string input;
  flags.AddPositional("in.png", &input, "input");
  REQUIRE(Parse(flags, {"--threads", "2", "a.png"}).ok());
  CHECK(input == "a.png");
  CHECK(targets.threads == 2);
  CHECK_THAT(Parse(flags, {"a.png", "b.png"}).message(),
             Catch::Contains("unexpected argument 'b.png'") && Catch::Contains("takes one in.png"));
  CHECK_THAT(flags.Usage(), Catch::StartsWith("usage: swarm-test in.png [flags]"));
}

}  // namespace
}  // namespace swarm
