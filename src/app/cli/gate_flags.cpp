#include "app/cli/gate_flags.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

#include "base/common/comma_list.h"
#include "base/common/decimal.h"
#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/output_file.h"
#include "reports/compare/render.h"

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

void add_allow_list(CLI::App& command, const char* flag, std::vector<std::string>& names,
                    const char* help) {
  command.add_option(flag, names, help)
      ->type_name("NAMES")
      ->expected(1)
      ->allow_extra_args(false);
}

}  // namespace

void add_gate_flags(CLI::App& command, GateFlags& f) {
  command
      .add_option("--threshold", f.threshold,
                  "Smallest relative change that counts, 0 to 1 (default 0.03 = 3%)")
      ->type_name("FRACTION");
  command.add_option("--alpha", f.alpha, "Significance level, 0 to 1 (default 0.01)")
      ->type_name("FRACTION");
  add_allow_list(command, "--allow-missing", f.allow_missing,
                 "Backends whose result may be missing, skipped or untimed in NEW without "
                 "failing the gate (comma list, repeatable)");
  add_allow_list(command, "--allow-broken", f.allow_broken,
                 "Backends that may fail (error, mismatch, implausible) in NEW without failing "
                 "the gate (comma list, repeatable)");
  command
      .add_flag("--allow-shared-gpu", f.allow_shared_gpu,
                "Gate on figures taken while other processes used the GPU (honesty.shared_gpu)")
      ->disable_flag_override();
  command.add_option("--json", f.json_path, "Also write the comparison as JSON to FILE")
      ->type_name("FILE");
  command.add_option("--markdown", f.markdown_path, "Also append the Markdown table to FILE")
      ->type_name("FILE");
}

CompareSettings gate_settings(const GateFlags& f) {
  CompareSettings settings;
  if (f.threshold) settings.threshold = parse_real(*f.threshold, "--threshold", 0.0, 1.0);
  if (f.alpha) settings.alpha = parse_real(*f.alpha, "--alpha", 0.0, 1.0);
  settings.allow_missing = allowed_backends(f.allow_missing, "--allow-missing");
  settings.allow_broken = allowed_backends(f.allow_broken, "--allow-broken");
  settings.allow_shared_gpu = f.allow_shared_gpu;
  return settings;
}

void check_gate_outputs(const GateFlags& f, const std::vector<std::string>& inputs) {
  protect_inputs(inputs);
  if (f.json_path) check_output_path(*f.json_path, "--json", inputs);
  if (f.markdown_path) check_output_path(*f.markdown_path, "--markdown", inputs);
  if (f.json_path && f.markdown_path && same_output(*f.json_path, *f.markdown_path))
    throw UsageError(fmt::format("--json '{}' and --markdown '{}' are the same file; give two",
                                 for_terminal(*f.json_path, kPathEchoLimit),
                                 for_terminal(*f.markdown_path, kPathEchoLimit)));
}

int publish_gate(const CompareOutcome& outcome, const CompareSettings& settings,
                 const GateFlags& f, const nlohmann::json& json) {
  const std::string markdown = to_markdown(outcome, settings);
  // The files are written even when stdout fails (closed, full, its reader gone): they are what
  // a CI job keeps.
  const bool printed =
      std::fwrite(markdown.data(), 1, markdown.size(), stdout) == markdown.size() &&
      std::fflush(stdout) == 0;
  const int print_error = errno;
  if (f.markdown_path) append_output_file(*f.markdown_path, "Markdown summary", markdown);
  if (f.json_path)
    write_output_file(*f.json_path, "comparison JSON",
                      json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n');
  if (!printed)
    throw EnvironmentError(
        fmt::format("cannot print the comparison: {}", std::strerror(print_error)));
  return outcome.failures() > 0 ? kExitFailure : kExitOk;
}

}  // namespace mish
