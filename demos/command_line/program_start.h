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
// RunProgram runs a program between the two, turning the exceptions that reach it into messages.
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

// A whole program: StartProgram, run(argc, argv), FinishProgram. What the system refuses on the
// way, when no step of the program can handle it better, ends the program with a message and
// kExitBadInput instead of an uncaught exception's abort: threads that cannot start
// (std::system_error from ThreadPool, e.g. --threads 128 under an address-space limit; the message
// names the threads and suggests fewer) and memory the system will not give (std::bad_alloc).
int RunProgram(std::string_view program, int (*run)(int argc, char** argv), int argc, char** argv);

}  // namespace swarm
