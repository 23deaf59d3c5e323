#include "cli/compare_command.h"

#include <fmt/format.h>

#include <fstream>

#include "common/errors.h"
#include "report/report.h"

namespace mish {

CLI::App* add_compare_command(CLI::App& app, CompareFlags& f) {
  CLI::App* compare = app.add_subcommand(
      "compare", "Compare two JSON reports: per backend FASTER/SLOWER/SAME/UNSURE and correctness");
  compare->add_option("BASE", f.base_path, "Baseline report")->required();
  compare->add_option("NEW", f.new_path, "Report to judge")->required();
  compare->add_option("--threshold", f.settings.threshold,
                      "Smallest relative change that counts (default 0.03 = 3%)")
      ->check(CLI::Range(0.0, 1.0));
  compare->add_option("--alpha", f.settings.alpha, "Significance level (default 0.01)")
      ->check(CLI::Range(0.0, 1.0));
  compare->add_flag("--allow-device-mismatch", f.settings.allow_device_mismatch,
                    "Compare reports taken on different devices");
  compare->add_option("--json", f.json_path, "Also write the comparison as JSON to FILE");
  compare->add_option("--markdown", f.markdown_path, "Also write the Markdown table to FILE");
  compare->footer(R"(
Examples:
  mishbench compare results/baselines/h200.json new.json
  mishbench compare base.json new.json --threshold 0.05 --markdown "$GITHUB_STEP_SUMMARY"

Exit codes: 0 no regression (improvements never fail), 1 a backend got slower or stopped
            verifying, 2 unusable input (unreadable, not a report, different devices).
)");
  return compare;
}

int run_compare(const CompareFlags& f) {
  try {
    const nlohmann::json base = load_report(f.base_path);
    const nlohmann::json fresh = load_report(f.new_path);
    CompareOutcome outcome = compare_reports(base, fresh, f.settings);
    outcome.base_label = f.base_path;
    outcome.new_label = f.new_path;
    const std::string markdown = to_markdown(outcome, f.settings);
    fmt::print("{}", markdown);
    if (!f.markdown_path.empty()) {
      std::ofstream out(f.markdown_path, std::ios::app);
      if (!out) throw UsageError(fmt::format("cannot write '{}'", f.markdown_path));
      out << markdown;
    }
    if (!f.json_path.empty()) write_json_atomically(f.json_path, to_json(outcome, f.settings));
    return outcome.regressions() > 0 ? kExitFailure : kExitOk;
  } catch (const UsageError& error) {
    fmt::print(stderr, "mishbench compare: {}\n", error.what());
    return kExitUsage;
  }
}

}  // namespace mish
