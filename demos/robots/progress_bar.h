// The progress bar swarm-robots draws on stderr while it steps: steps done, robot-steps per
// second and the estimated time left. On a terminal one line is redrawn in place (\r) at most
// ten times a second; otherwise (a log file, a pipe) a plain line is printed at every tenth of the
// run, so logs stay short.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace swarm {

// "[##########----------]  50%  500/1000 steps  12.3 M robot-steps/s  ETA 3.2 s"
std::string FormatProgress(uint64_t done_steps, uint64_t total_steps, uint64_t robots,
                           double elapsed_seconds, int bar_width = 20);
// "950", "12.3 k", "45.6 M", "1.23 G"
std::string FormatRate(double per_second);
// "0.8 s", "42 s", "3 min 05 s", "2 h 01 min"
std::string FormatDuration(double seconds);

class ProgressBar {
 public:
  enum class Mode { kOff, kTerminal, kLines };
  // kTerminal when `out` is a terminal, kLines otherwise; kOff when !enabled.
  static Mode ModeFor(std::FILE* out, bool enabled);

  ProgressBar(std::FILE* out, Mode mode, uint64_t total_steps, uint64_t robots);
  // Called after each step with the steps done so far; cheap when nothing is drawn.
  void Update(uint64_t done_steps);
  // Draws the final state and ends the line.
  void Finish(uint64_t done_steps);

 private:
  double Elapsed() const;
  void Draw(uint64_t done_steps, bool final);

  std::FILE* out_;
  Mode mode_;
  uint64_t total_steps_;
  uint64_t robots_;
  std::chrono::steady_clock::time_point start_;
  double last_draw_seconds_ = -1.0;
  uint64_t next_tenth_ = 1;  // kLines: the next tenth of the run that prints a line
};

}  // namespace swarm
