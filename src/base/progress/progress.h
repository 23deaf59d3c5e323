// A one-line progress bar with ETA on stderr, for long work (input generation, the reference,
// sampling loops). Silent unless enabled and stderr is a terminal, so --quiet, logs and pipes
// never see it; it writes nothing anywhere else. It is stderr's status line
// (base/io/standard_streams.h): any other output on stderr erases it first.
#pragma once
#include <chrono>
#include <string>

namespace mish {

class ProgressBar {
 public:
  // `enabled` is the caller's wish (e.g. !quiet); the bar also needs stderr to be a TTY.
  ProgressBar(std::string label, bool enabled);
  ~ProgressBar();  // clears the line
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // fraction in [0, 1]; redraws at most ten times a second.
  void update(double fraction);

  // The line drawn for `fraction` after `elapsed_s`, for a bar `width` characters wide.
  static std::string render(const std::string& label, double fraction, double elapsed_s, int width);

 private:
  std::string label_;
  bool active_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

// Whether progress may be drawn: requested and stderr is a terminal.
bool progress_allowed(bool requested);

}  // namespace mish
