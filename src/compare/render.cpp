#include "compare/render.h"

#include <fmt/format.h>

#include <limits>

#include "common/untrusted_text.h"

namespace mish {
namespace {

using nlohmann::json;

constexpr size_t kWhole = std::numeric_limits<size_t>::max();  // notes are shortened already

std::string markdown_problem(const ProblemKey& p) {
  return fmt::format("{}x{}x{} {} seed {}", p.m, p.n, p.k, for_markdown(p.distribution), p.seed);
}

std::string status_change(const Comparison& r) {
  if (r.base_status.empty()) return r.new_status;
  if (r.new_status.empty()) return r.base_status;
  return fmt::format("{} → {}", r.base_status, r.new_status);
}

}  // namespace

std::string to_markdown(const CompareOutcome& o, const CompareSettings& s) {
  std::string md =
      fmt::format("### mishbench compare: {} → {}\n\n", for_markdown(o.base_label, kPathEchoLimit),
                  for_markdown(o.new_label, kPathEchoLimit));
  md += fmt::format(
      "Threshold {:.1f}%; ratio = new median / base median with its 95% bootstrap interval; "
      "p from a two-sided Mann–Whitney U test (alpha {}).\n\n",
      s.threshold * 100, s.alpha);
  for (const std::string& note : o.notes)
    md += fmt::format("> note: {}\n", for_markdown(note, kWhole));
  if (!o.notes.empty()) md += "\n";
  // The device column only when a report has several devices: one-device tables stay as they were.
  const std::string device_head = o.per_device ? " device |" : "";
  md += fmt::format("| backend |{} problem | status | base ms | new ms | ratio | 95% CI | p | "
                    "verdict |\n",
                    device_head);
  md += fmt::format("|---|{}---|---|---:|---:|---:|---|---:|---|\n", o.per_device ? "---|" : "");
  for (const Comparison& r : o.rows) {
    const bool timed = r.timed();
    std::string verdict = to_string(r.verdict);
    if (r.correctness_regression) verdict += ", **BROKEN**";
    if (r.verdict == Verdict::slower) verdict = "**" + verdict + "**";
    const std::string device =
        o.per_device ? fmt::format(" {} |", r.device.empty() ? "host" : for_markdown(r.device))
                     : "";
    md += fmt::format("| {} |{} {} | {} | {} | {} | {} | {} | {} | {} |\n", for_markdown(r.backend),
                      device, markdown_problem(r.problem), status_change(r),
                      timed ? fmt::format("{:.4f}", r.base_ms) : "-",
                      timed ? fmt::format("{:.4f}", r.new_ms) : "-",
                      timed ? fmt::format("{:.3f}", r.ratio.ratio) : "-",
                      timed ? fmt::format("[{:.3f}, {:.3f}]", r.ratio.low, r.ratio.high) : "-",
                      timed ? fmt::format("{:.2g}", r.p_value) : "-", verdict);
  }
  const int regressions = o.regressions();
  md += regressions == 0 ? "\n**Result: no regression.**\n"
                         : fmt::format("\n**Result: {} regression{}.**\n", regressions,
                                       regressions == 1 ? "" : "s");
  return md;
}

json to_json(const CompareOutcome& o, const CompareSettings& s) {
  json rows = json::array();
  for (const Comparison& r : o.rows) {
    const bool timed = r.timed();
    rows.push_back(
        {{"backend", r.backend},
         {"problem", label(r.problem)},
         {"device", r.device},
         {"base_status", r.base_status},
         {"new_status", r.new_status},
         {"base_median_ms", timed ? json(r.base_ms) : json(nullptr)},
         {"new_median_ms", timed ? json(r.new_ms) : json(nullptr)},
         {"ratio", timed ? json(r.ratio.ratio) : json(nullptr)},
         {"ratio_ci95", timed ? json::array({r.ratio.low, r.ratio.high}) : json(nullptr)},
         {"p_value", timed ? json(r.p_value) : json(nullptr)},
         {"verdict", to_string(r.verdict)},
         {"correctness_regression", r.correctness_regression}});
  }
  return {{"base", o.base_label},
          {"new", o.new_label},
          {"threshold", s.threshold},
          {"alpha", s.alpha},
          {"match_devices", to_string(s.match)},
          {"notes", o.notes},
          {"rows", rows},
          {"regressions", o.regressions()}};
}

}  // namespace mish
