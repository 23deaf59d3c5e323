#include "reports/compare/render.h"

#include <fmt/format.h>

#include <limits>

#include "base/common/untrusted_text.h"

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

std::string verdict_cell(const Comparison& r) {
  std::string cell = to_string(r.verdict);
  if (r.fails) cell = "**" + cell + "**";
  if (r.allowed) cell += " (allowed)";
  if (!r.reason.empty()) cell += ": " + for_markdown(r.reason, kWhole);
  if (!r.clocks.empty()) cell += fmt::format(" (clocks differ: {})", r.clocks);
  return cell;
}

std::string milliseconds(double ms) { return ms > 0 ? fmt::format("{:.4f}", ms) : "-"; }

json optional_ms(double ms) { return ms > 0 ? json(ms) : json(nullptr); }

}  // namespace

std::string to_markdown(const CompareOutcome& o, const CompareSettings& s) {
  std::string md = fmt::format("### {}: {} → {}\n\n", o.title,
                               for_markdown(o.base_label, kPathEchoLimit),
                               for_markdown(o.new_label, kPathEchoLimit));
  md += fmt::format("Threshold {:.1f}%; {} (alpha {}).\n\n", s.threshold * 100, o.method,
                    s.alpha);
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
    const bool ratio = r.has_ratio();
    const std::string device =
        o.per_device ? fmt::format(" {} |", r.device.empty() ? "host" : for_markdown(r.device))
                     : "";
    md += fmt::format("| {} |{} {} | {} | {} | {} | {} | {} | {} | {} |\n", for_markdown(r.backend),
                      device, markdown_problem(r.problem), status_change(r),
                      milliseconds(r.base_ms), milliseconds(r.new_ms),
                      ratio ? fmt::format("{:.3f}", r.ratio.ratio) : "-",
                      ratio ? fmt::format("[{:.3f}, {:.3f}]", r.ratio.low, r.ratio.high) : "-",
                      ratio ? fmt::format("{:.2g}", r.p_value) : "-", verdict_cell(r));
  }
  const int failures = o.failures();
  md += failures == 0 ? "\n**Result: no regression.**\n"
                      : fmt::format("\n**Result: {} regression{}.**\n", failures,
                                    failures == 1 ? "" : "s");
  return md;
}

json to_json(const CompareOutcome& o, const CompareSettings& s) {
  json rows = json::array();
  for (const Comparison& r : o.rows) {
    const bool ratio = r.has_ratio();
    rows.push_back(
        {{"backend", r.backend},
         {"problem", label(r.problem)},
         {"device", r.device},
         {"base_status", r.base_status},
         {"new_status", r.new_status},
         {"base_median_ms", optional_ms(r.base_ms)},
         {"new_median_ms", optional_ms(r.new_ms)},
         {"ratio", ratio ? json(r.ratio.ratio) : json(nullptr)},
         {"ratio_ci95", ratio ? json::array({r.ratio.low, r.ratio.high}) : json(nullptr)},
         {"p_value", ratio ? json(r.p_value) : json(nullptr)},
         {"verdict", to_string(r.verdict)},
         {"cycle_ratio", r.cycles ? json(r.cycles->ratio) : json(nullptr)},
         {"cycle_ratio_ci95",
          r.cycles ? json::array({r.cycles->low, r.cycles->high}) : json(nullptr)},
         {"clocks", r.clocks},
         {"reason", r.reason},
         {"fails", r.fails},
         {"allowed", r.allowed}});
  }
  return {{"schema_version", kCompareSchemaVersion},
          {"base", o.base_label},
          {"new", o.new_label},
          {"threshold", s.threshold},
          {"alpha", s.alpha},
          {"method", o.method},
          {"match_devices", to_string(s.match)},
          {"allow_missing", s.allow_missing},
          {"allow_broken", s.allow_broken},
          {"notes", o.notes},
          {"rows", rows},
          {"failures", o.failures()}};
}

}  // namespace mish
