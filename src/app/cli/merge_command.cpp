#include "app/cli/merge_command.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "app/cli/subcommand_failures.h"
#include "base/common/errors.h"
#include "base/io/output_file.h"
#include "reports/compare/report_input.h"
#include "reports/merge/merge.h"

namespace mish {
namespace {

int merge_and_write(const MergeFlags& f, const std::vector<std::string>& argv) {
  protect_inputs(f.paths);
  if (f.json_path) check_output_path(*f.json_path, "--json", f.paths);
  std::vector<MergeInput> inputs;
  for (const std::string& path : f.paths) inputs.push_back({path, load_report(path, "merge")});
  const std::string text =
      merge_reports(inputs, argv).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
      '\n';
  if (f.json_path) {
    write_output_file(*f.json_path, "merged report", text);
    return kExitOk;
  }
  fmt::print("{}", text);
  if (std::fflush(stdout) != 0)
    throw EnvironmentError(fmt::format("cannot print the merged report: {}", std::strerror(errno)));
  return kExitOk;
}

}  // namespace

CLI::App* add_merge_command(CLI::App& app, MergeFlags& f) {
  CLI::App* merge = app.add_subcommand(
      "merge", "Merge JSON reports of several nodes into one report (a fleet view)");
  merge->add_option("REPORT", f.paths, "Reports to merge, in order")->required();
  merge->add_option("--json", f.json_path, "Write the merged report to FILE instead of stdout")
      ->type_name("FILE");
  merge->footer(R"(
Examples:
  mishbench merge node1.json node2.json > node-set.json
  mishbench merge results/node*.json --json fleet.json

Each result keeps its device and host. Refused (exit 2): reports of another schema version than
this build's, of different problems or measurement settings, a device (UUID) given twice, or a
host backend's result on one host given twice.
Exit codes: 0 written, 2 unusable input or output path, 3 the output could not be written.
)");
  return merge;
}

int run_merge(const MergeFlags& f, const std::vector<std::string>& argv) {
  return run_reporting_failures({"merge", "out of host memory while merging the reports",
                                 "cannot print the merged report", "cannot merge these reports"},
                                [&] { return merge_and_write(f, argv); });
}

}  // namespace mish
