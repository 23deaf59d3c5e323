// load_report and read_report: a report file read whole (up to kMaxReportBytes), parsed with a
// limit on nesting depth, schema-checked.
#include <cstdio>

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/json_input.h"
#include "reports/compare/report_input.h"
#include "reports/report/schema.h"

namespace mish {
namespace {

using nlohmann::json;

constexpr size_t kMessageLimit = 300;  // schema messages may quote the report's own text

}  // namespace

json load_report(const std::string& path, std::string_view command) {
  const std::string shown = for_terminal(path, kPathEchoLimit);
  const json report = read_json_input(path, "report", {kMaxReportBytes, kMaxReportDepth});
  const SchemaCheck check = check_report(report);
  if (!check.ok())
    throw UsageError(fmt::format("'{}' is not a usable mishbench report: {}", shown,
                                 for_terminal(check.errors.front(), kMessageLimit)));
  for (const std::string& warning : check.warnings)
    fmt::print(stderr, "mishbench {}: warning: '{}': {}\n", command, shown,
               for_terminal(warning, kMessageLimit));
  return report;
}

ReportSummary read_report(const std::string& path) {
  return summarize_report(load_report(path), for_terminal(path, kPathEchoLimit));
}

}  // namespace mish
