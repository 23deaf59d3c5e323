#include "app/cli/compare_command.h"

#include "app/cli/subcommand_failures.h"
#include "base/env/install_layout.h"
#include "reports/compare/render.h"

namespace mish {
namespace {

int compare_and_write(const CompareFlags& f) {
  CompareSettings settings = gate_settings(f.gate);
  settings.allow_device_mismatch = f.allow_device_mismatch;
  if (f.match_devices) settings.match = parse_device_match(*f.match_devices);
  check_gate_outputs(f.gate, {f.base_path, f.new_path});
  CompareOutcome outcome =
      compare_reports(read_report(f.base_path), read_report(f.new_path), settings);
  outcome.base_label = f.base_path;
  outcome.new_label = f.new_path;
  return publish_gate(outcome, settings, f.gate, to_json(outcome, settings));
}

}  // namespace

CLI::App* add_compare_command(CLI::App& app, CompareFlags& f) {
  CLI::App* compare = app.add_subcommand(
      "compare", "Compare two JSON reports: per backend FASTER/SLOWER/SAME/UNSURE and correctness");
  compare->add_option("BASE", f.base_path, "Baseline report")->required();
  compare->add_option("NEW", f.new_path, "Report to judge")->required();
  compare
      ->add_flag("--allow-device-mismatch", f.allow_device_mismatch,
                 "Compare reports taken on different devices")
      ->disable_flag_override();
  compare
      ->add_option("--match-devices", f.match_devices,
                   "Pair results of reports with devices by CUDA device index (default) or by "
                   "device UUID (the same card)")
      ->type_name("index|uuid");
  add_gate_flags(*compare, f.gate);
  compare->footer(R"(
Examples:
  mishbench compare results/baselines/nvidia-h200-default.json new.json
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
       with_shipped_paths("out of host memory while comparing; the reports hold more samples "
                          "than this machine can keep (see the limits in docs/compare.md)"),
       "cannot print the comparison", "cannot compare these reports"},
      [&] { return compare_and_write(f); });
}

}  // namespace mish
