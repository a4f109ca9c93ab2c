// What every swarm program does first and last, so that files and reports survive signals, limits
// and full disks the same way in each:
//
// StartProgram, first thing in main:
// - SIGXFSZ is ignored: past a file-size limit (ulimit -f) write(2) then fails with EFBIG and the
//   output is refused like one on a full disk (a message, status 2, the old file kept, the
//   temporary file removed) instead of the process dying silently with its temporary file left;
// - SIGINT, SIGTERM and SIGHUP remove the temporary files of unfinished outputs
//   (RemoveLiveTemporaryFiles, swarm/core/output_file.h), then end the process by the same
//   signal, so the shell sees the usual status (130 for Ctrl-C). The library installs no handler
//   itself: a program that embeds swarm keeps its own signals.
// SIGPIPE keeps its default: `swarm-robots info | head -1` ends quietly, as other tools do.
//
// FinishProgram, on the way out of main: the reports a program prints go to stdout through stdio's
// buffer, whose failures (a full disk, /dev/full, a closed pipe with SIGPIPE ignored) show only
// when flushed; it flushes stdout and turns a failure into a message on stderr and status 2.
#pragma once

#include <string_view>

namespace swarm {

void StartProgram();

// `status` when stdout was written completely, else kExitBadInput after printing
// "<program>: cannot write the report to standard output: <reason>".
int FinishProgram(std::string_view program, int status);

}  // namespace swarm
