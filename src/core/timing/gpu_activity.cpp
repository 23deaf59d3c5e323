// The judgement on recorded GPU work: each call's window from the harness's tagged operations on
// the timed stream, then every untagged record (the backend's) cut against the windows; what lies
// outside them is the work the call's events did not time.
#include "core/timing/gpu_activity.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace mish {
namespace {

struct Window {
  uint64_t call = 0;
  bool has_before = false, has_after = false;
  uint64_t begin = 0;                                   // latest end of the ops before
  uint64_t end = std::numeric_limits<uint64_t>::max();  // earliest start of the ops after
};

std::vector<Window> find_windows(const std::vector<GpuActivity>& records, uint32_t timed_stream) {
  std::map<uint64_t, Window> by_call;
  for (const GpuActivity& r : records) {
    if (r.tag == 0) continue;
    const uint64_t role = r.tag & 3, index = r.tag >> 2;
    if (index == 0 || (role != uint64_t(TagRole::before) && role != uint64_t(TagRole::after)))
      throw std::runtime_error(
          fmt::format("activity record '{}' carries tag {}, no harness tag", r.name, r.tag));
    Window& w = by_call[index - 1];
    w.call = index - 1;
    if (r.stream != timed_stream) continue;
    if (role == uint64_t(TagRole::before)) {
      w.has_before = true;
      w.begin = std::max(w.begin, r.end_ns);
    } else {
      w.has_after = true;
      w.end = std::min(w.end, r.start_ns);
    }
  }
  std::vector<Window> windows;
  for (const auto& [call, w] : by_call) {
    if (!w.has_before || !w.has_after)
      throw std::runtime_error(fmt::format(
          "call {} has no harness operation {} on the timed stream (stream {}) among the activity "
          "records",
          call, w.has_before ? "after its stop event" : "before its start event", timed_stream));
    if (w.begin > w.end)
      throw std::runtime_error(fmt::format(
          "call {}'s harness operations overlap: the last one before its start event ends at "
          "{} ns, after the first one after its stop event starts ({} ns)",
          call, w.begin, w.end));
    windows.push_back(w);
  }
  if (windows.empty())
    throw std::runtime_error(fmt::format(
        "no call's harness operations on the timed stream (stream {}) among the activity records",
        timed_stream));
  std::sort(windows.begin(), windows.end(),
            [](const Window& a, const Window& b) { return a.begin < b.begin; });
  for (size_t i = 1; i < windows.size(); ++i)
    if (windows[i].begin < windows[i - 1].end)
      throw std::runtime_error(fmt::format("the timed regions of calls {} and {} overlap",
                                           windows[i - 1].call, windows[i].call));
  return windows;
}

struct Piece {
  uint64_t start, end;
  const GpuActivity* record;
  std::string where;
};

// Where a piece [a, z] of a record outside the windows lies: `from` is the window the record
// came out of at a, `into` the one it runs on into at z; with neither, `gap` is the index of the
// first window after the piece (windows.size() past the last).
std::string where(const std::vector<Window>& windows, std::optional<size_t> from,
                  std::optional<size_t> into, size_t gap) {
  if (from) return fmt::format("after the stop event of call {}", windows[*from].call);
  if (into) return fmt::format("before the start event of call {}", windows[*into].call);
  if (gap == 0) return "before the first call";
  if (gap == windows.size()) return "after the last call";
  return fmt::format("between calls {} and {}", windows[gap - 1].call, windows[gap].call);
}

// Three decimals of a millisecond, or whole nanoseconds below 10 us.
std::string format_ms(double ms) {
  if (ms >= 0.01) return fmt::format("{:.3f} ms", ms);
  return fmt::format("{:.0f} ns", ms * 1e6);
}

std::string format_share(double share) {
  const double percent = share * 100;
  if (percent == 0 || percent >= 1) return fmt::format("{:.1f}%", percent);
  return fmt::format("{:.2g}%", percent);
}

// Templated kernels' demangled names run to hundreds of characters; a reason line needs fewer.
std::string short_name(const std::string& name) {
  constexpr size_t kMax = 120;
  return name.size() <= kMax ? name : name.substr(0, kMax - 3) + "...";
}

}  // namespace

std::string to_string(GpuActivity::Kind kind) {
  switch (kind) {
    case GpuActivity::Kind::kernel: return "kernel";
    case GpuActivity::Kind::memcpy: return "memcpy";
    case GpuActivity::Kind::memset: return "memset";
  }
  return "unknown";
}

uint64_t harness_tag(uint64_t call, TagRole role) { return ((call + 1) << 2) | uint64_t(role); }

double ActivityVerdict::outside_share() const {
  return backend_gpu_ms > 0 ? outside_ms / backend_gpu_ms : 0.0;
}

ActivityVerdict judge_activity(const std::vector<GpuActivity>& records, uint32_t timed_stream) {
  const std::vector<Window> windows = find_windows(records, timed_stream);
  ActivityVerdict verdict;
  verdict.calls = int(windows.size());
  std::vector<Piece> pieces;
  std::set<uint32_t> streams;
  uint64_t backend_ns = 0, outside_ns = 0;
  for (const GpuActivity& r : records) {
    if (r.tag != 0) continue;
    if (r.end_ns < r.start_ns)
      throw std::runtime_error(
          fmt::format("activity record '{}' ends ({} ns) before it starts ({} ns)", r.name,
                      r.end_ns, r.start_ns));
    ++verdict.backend_records;
    backend_ns += r.end_ns - r.start_ns;
    streams.insert(r.stream);
    const uint64_t s = r.start_ns, e = r.end_ns;
    // The first window that does not end before the record starts.
    size_t i = size_t(std::lower_bound(windows.begin(), windows.end(), s,
                                       [](const Window& w, uint64_t t) { return w.end < t; }) -
                      windows.begin());
    const size_t gap = i;
    uint64_t cursor = s;
    std::optional<size_t> from;
    bool covered = false;
    auto add = [&](uint64_t a, uint64_t z, std::optional<size_t> into) {
      pieces.push_back({a, z, &r, where(windows, from, into, gap)});
      outside_ns += z - a;
    };
    for (; i < windows.size() && windows[i].begin <= e; ++i) {
      if (windows[i].begin > cursor) add(cursor, windows[i].begin, i);
      cursor = windows[i].end;
      from = i;
      if (cursor >= e) {
        covered = true;
        break;
      }
    }
    if (!covered) add(cursor, e, std::nullopt);
  }
  std::stable_sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
    return a.start != b.start ? a.start < b.start : a.end < b.end;
  });
  for (const Piece& p : pieces)
    verdict.outside.push_back(
        {p.record->name, p.record->kind, p.record->stream, double(p.end - p.start) / 1e6, p.where});
  verdict.backend_gpu_ms = double(backend_ns) / 1e6;
  verdict.outside_ms = double(outside_ns) / 1e6;
  verdict.streams.assign(streams.begin(), streams.end());
  return verdict;
}

std::string describe_outside(const ActivityVerdict& verdict) {
  if (!verdict.refused()) return "all of the backend's GPU work ran inside the timed region";
  auto share = [&](double ms) {
    return verdict.backend_gpu_ms > 0 ? ms / verdict.backend_gpu_ms : 0.0;
  };
  constexpr size_t kNamed = 3;
  std::string text;
  for (size_t i = 0; i < std::min(kNamed, verdict.outside.size()); ++i) {
    const OutsideWork& piece = verdict.outside[i];
    const std::string what = piece.kind == GpuActivity::Kind::kernel
                                 ? fmt::format("kernel '{}'", short_name(piece.name))
                             : piece.name.empty() ? to_string(piece.kind)
                                                  : piece.name;
    if (!text.empty()) text += "; ";
    text += fmt::format(
        "{} on stream {} ran outside the timed region ({}), {}, {} of the "
        "backend's GPU time",
        what, piece.stream, piece.where, format_ms(piece.ms_outside),
        format_share(share(piece.ms_outside)));
  }
  const size_t more = verdict.outside.size() - std::min(kNamed, verdict.outside.size());
  if (more > 0) text += fmt::format("; {} more piece{} outside", more, more == 1 ? "" : "s");
  if (verdict.outside.size() > 1)
    text += fmt::format("; {} outside in all, {} of the backend's GPU time",
                        format_ms(verdict.outside_ms), format_share(verdict.outside_share()));
  return text;
}

}  // namespace mish
