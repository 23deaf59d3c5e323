#include "cli/compare_command.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

#include "cli/subcommand_failures.h"
#include "common/comma_list.h"
#include "common/decimal.h"
#include "common/errors.h"
#include "common/untrusted_text.h"
#include "compare/render.h"
#include "io/output_file.h"

namespace mish {
namespace {

// The backend names of every occurrence of an allow-list flag: comma lists, no empty name.
std::set<std::string> allowed_backends(const std::vector<std::string>& lists, const char* flag) {
  std::set<std::string> names;
  for (const std::string& list : lists)
    for (const std::string_view name : split_at_commas(list)) {
      if (name.empty())
        throw UsageError(fmt::format("{} '{}' has an empty name; give backend names separated "
                                     "by commas",
                                     flag, for_terminal(list)));
      names.emplace(name);
    }
  return names;
}

CompareSettings settings_from(const CompareFlags& f) {
  CompareSettings settings;
  if (f.threshold) settings.threshold = parse_real(*f.threshold, "--threshold", 0.0, 1.0);
  if (f.alpha) settings.alpha = parse_real(*f.alpha, "--alpha", 0.0, 1.0);
  settings.allow_device_mismatch = f.allow_device_mismatch;
  if (f.match_devices) settings.match = parse_device_match(*f.match_devices);
  settings.allow_missing = allowed_backends(f.allow_missing, "--allow-missing");
  settings.allow_broken = allowed_backends(f.allow_broken, "--allow-broken");
  return settings;
}

// Before any work: an output that cannot be written, or that would overwrite an input or the
// other output, is refused now rather than after both reports were read.
void check_outputs(const CompareFlags& f) {
  const std::vector<std::string> inputs = {f.base_path, f.new_path};
  if (f.json_path) check_output_path(*f.json_path, "--json", inputs);
  if (f.markdown_path) check_output_path(*f.markdown_path, "--markdown", inputs);
  if (f.json_path && f.markdown_path && same_output(*f.json_path, *f.markdown_path))
    throw UsageError(fmt::format("--json '{}' and --markdown '{}' are the same file; give two",
                                 for_terminal(*f.json_path, kPathEchoLimit),
                                 for_terminal(*f.markdown_path, kPathEchoLimit)));
}

int compare_and_write(const CompareFlags& f) {
  const CompareSettings settings = settings_from(f);
  check_outputs(f);
  CompareOutcome outcome =
      compare_reports(read_report(f.base_path), read_report(f.new_path), settings);
  outcome.base_label = f.base_path;
  outcome.new_label = f.new_path;
  const std::string markdown = to_markdown(outcome, settings);
  fmt::print("{}", markdown);
  if (std::fflush(stdout) != 0)
    throw EnvironmentError(fmt::format("cannot print the comparison: {}", std::strerror(errno)));
  if (f.markdown_path) append_output_file(*f.markdown_path, "Markdown summary", markdown);
  if (f.json_path)
    write_output_file(
        *f.json_path, "comparison JSON",
        to_json(outcome, settings).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
            '\n');
  return outcome.failures() > 0 ? kExitFailure : kExitOk;
}

}  // namespace

CLI::App* add_compare_command(CLI::App& app, CompareFlags& f) {
  CLI::App* compare = app.add_subcommand(
      "compare", "Compare two JSON reports: per backend FASTER/SLOWER/SAME/UNSURE and correctness");
  compare->add_option("BASE", f.base_path, "Baseline report")->required();
  compare->add_option("NEW", f.new_path, "Report to judge")->required();
  compare
      ->add_option("--threshold", f.threshold,
                   "Smallest relative change that counts, 0 to 1 (default 0.03 = 3%)")
      ->type_name("FRACTION");
  compare->add_option("--alpha", f.alpha, "Significance level, 0 to 1 (default 0.01)")
      ->type_name("FRACTION");
  compare
      ->add_flag("--allow-device-mismatch", f.allow_device_mismatch,
                 "Compare reports taken on different devices")
      ->disable_flag_override();
  compare
      ->add_option("--match-devices", f.match_devices,
                   "Pair results of reports with devices by CUDA device index (default) or by "
                   "device UUID (the same card)")
      ->type_name("index|uuid");
  compare
      ->add_option("--allow-missing", f.allow_missing,
                   "Backends whose result may be missing, skipped or untimed in NEW without "
                   "failing the gate (comma list, repeatable)")
      ->type_name("NAMES")
      ->expected(1)
      ->allow_extra_args(false);
  compare
      ->add_option("--allow-broken", f.allow_broken,
                   "Backends that may fail (error, mismatch, implausible) in NEW without failing "
                   "the gate (comma list, repeatable)")
      ->type_name("NAMES")
      ->expected(1)
      ->allow_extra_args(false);
  compare->add_option("--json", f.json_path, "Also write the comparison as JSON to FILE")
      ->type_name("FILE");
  compare->add_option("--markdown", f.markdown_path, "Also append the Markdown table to FILE")
      ->type_name("FILE");
  compare->footer(R"(
Examples:
  mishbench compare results/baselines/h200.json new.json
  mishbench compare base.json new.json --threshold 0.05 --markdown "$GITHUB_STEP_SUMMARY"
  mishbench compare node-monday.json node-friday.json --match-devices uuid

Exit codes: 0 the gate passes (improvements never fail), 1 a backend got slower, stopped
            verifying, was skipped or went missing, 2 unusable input (unreadable, not a
            report, nothing timed, different devices, a bad flag value or output path), 3 an
            output could not be written (disk full).
)");
  return compare;
}

int run_compare(const CompareFlags& f) {
  return run_reporting_failures(
      {"compare",
       "out of host memory while comparing; the reports hold more samples than this machine can "
       "keep (see the limits in docs/compare.md)",
       "cannot print the comparison", "cannot compare these reports"},
      [&] { return compare_and_write(f); });
}

}  // namespace mish
