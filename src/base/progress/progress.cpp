#include "base/progress/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "base/io/standard_streams.h"

namespace mish {
namespace {

constexpr int kBarWidth = 30;
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds)) return "?";
  if (seconds < 60) return fmt::format("{:.0f}s", seconds);
  return fmt::format("{:.0f}m{:02.0f}s", std::floor(seconds / 60), std::fmod(seconds, 60.0));
}

}  // namespace

// Descriptor 2 itself: stderr may be a stream without a descriptor of its own
// (base/io/standard_streams.h).
bool progress_allowed(bool requested) { return requested && isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::string label, bool enabled)
    : label_(std::move(label)), active_(progress_allowed(enabled)),
      start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() {
  if (drawn_) clear_status_line();
}

std::string ProgressBar::render(const std::string& label, double fraction, double elapsed_s,
                                int width) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  const int filled = static_cast<int>(std::lround(fraction * width));
  const double eta = fraction > 0 ? elapsed_s * (1.0 - fraction) / fraction : NAN;
  return fmt::format("{} [{}{}] {:3.0f}% ETA {}", label, std::string(filled, '#'),
                     std::string(width - filled, '.'), fraction * 100.0, format_duration(eta));
}

void ProgressBar::update(double fraction) {
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  drawn_ = true;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  show_status_line(render(label_, fraction, elapsed, kBarWidth));
}

}  // namespace mish
