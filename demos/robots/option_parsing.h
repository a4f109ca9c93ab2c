// What the option parsers of swarm-robots' commands share (run_options.cc, info_options.cc,
// fk_options.cc, dynamics_options.cc): handing FlagSet a command's arguments and reading lists of
// numbers.
#pragma once

#include <string>
#include <vector>

#include "demos/command_line/flags.h"
#include "demos/robots/options.h"
#include "swarm/core/status.h"

namespace swarm {

// FlagSet parses argv[1..argc): hand it the command's arguments with the word before them in
// the place of the program name.
Status ParseFrom(FlagSet& flags, int argc, const char* const* argv, int first);

// The comma-separated parts of `text` ("" has none; "a,,b" has an empty middle part).
std::vector<std::string> SplitCommas(const std::string& text);

// Comma-separated finite numbers of magnitude <= max_magnitude ("" is an empty list).
Result<std::vector<double>> ParseNumberList(const std::string& text, double max_magnitude);

// "gx,gy,gz": three finite numbers of magnitude <= 1e6.
Status ParseVector3(const std::string& text, double out[3]);

// --urdf, --mjcf, --max-urdf-bytes, --max-mjcf-bytes and --floating-base (described by
// `floating_help`).
void AddRobotSourceFlags(FlagSet& flags, RobotSource& source, const char* floating_help);
// Exactly one of --urdf and --mjcf, and --floating-base only with --urdf (an MJCF file's free
// joint says whether its base floats).
Status CheckRobotSource(const RobotSource& source);

}  // namespace swarm
