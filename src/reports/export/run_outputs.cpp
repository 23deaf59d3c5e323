#include "reports/export/run_outputs.h"

#include <fmt/format.h>

#include <cstdio>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/output_file.h"
#include "base/io/standard_output.h"
#include "reports/export/run_exports.h"

namespace mish {
namespace {

// The report as JSON text; bytes that are not UTF-8 (a backend's message) become replacement
// characters rather than losing the whole report.
std::string report_text(const nlohmann::json& report) {
  return report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
}

struct RunOutput {
  const char* flag;
  const char* what;  // in messages
  const std::string& path;
  std::string (*render)(const nlohmann::json& report);
  bool appends;  // a job summary is appended to, the others replaced
};

// The outputs given, in the order they are written.
std::vector<RunOutput> outputs_of(const RunConfig& c) {
  std::vector<RunOutput> given;
  for (const RunOutput& output :
       {RunOutput{"--json", "report", c.json_path, report_text, false},
        RunOutput{"--csv", "CSV results", c.csv_path, results_csv, false},
        RunOutput{"--markdown", "Markdown results", c.markdown_path, results_markdown, true}})
    if (!output.path.empty()) given.push_back(output);
  return given;
}

}  // namespace

void check_run_outputs(const RunConfig& config, const std::vector<std::string>& inputs) {
  const std::vector<RunOutput> given = outputs_of(config);
  std::vector<const RunOutput*> files;
  const RunOutput* on_stdout = nullptr;  // the one output "-" may name
  for (const RunOutput& output : given) {
    if (!is_standard_output(output.path)) {
      check_output_path(output.path, output.flag, inputs);
      files.push_back(&output);
      continue;
    }
    if (on_stdout != nullptr)
      throw UsageError(fmt::format("{} - and {} - both ask for standard output; give one of them "
                                   "a file",
                                   on_stdout->flag, output.flag));
    on_stdout = &output;
  }
  for (size_t i = 0; i < files.size(); ++i)
    for (size_t j = i + 1; j < files.size(); ++j)
      if (same_output(files[i]->path, files[j]->path))
        throw UsageError(fmt::format("{} '{}' and {} '{}' are the same file; give two",
                                     files[i]->flag, for_terminal(files[i]->path, kPathEchoLimit),
                                     files[j]->flag, for_terminal(files[j]->path, kPathEchoLimit)));
}

bool standard_output_taken(const RunConfig& c) {
  for (const RunOutput& output : outputs_of(c))
    if (is_standard_output(output.path)) return true;
  return false;
}

bool any_run_output(const RunConfig& c) { return !outputs_of(c).empty(); }

void write_run_outputs(const RunConfig& c, const nlohmann::json& report) {
  for (const RunOutput& output : outputs_of(c)) {
    const std::string content = output.render(report);
    if (output.appends)
      append_output(output.path, output.what, content);
    else
      write_output(output.path, output.what, content);
    if (!c.quiet && !is_standard_output(output.path))
      fmt::print(stderr, "{} written to {}\n", output.what,
                 for_terminal(output.path, kPathEchoLimit));
  }
}

}  // namespace mish
