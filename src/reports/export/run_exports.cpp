#include "reports/export/run_exports.h"

#include <fmt/format.h>

#include <string_view>
#include <vector>

#include "base/common/untrusted_text.h"

namespace mish {
namespace {

using nlohmann::json;

constexpr const char* kCsvHeader =
    "backend,m,n,k,seed,distribution,device,status,median_ms,ci95_low_ms,ci95_high_ms,min_ms,"
    "max_ms,samples,tflops,speedup_vs_separate,max_abs_error,max_rel_error,reason";

std::string csv_text(const std::string& text) {
  std::string cell = text;
  if (!cell.empty() && std::string_view("=+-@").find(cell.front()) != std::string_view::npos)
    cell.insert(cell.begin(), '\'');
  if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
  std::string quoted = "\"";
  for (const char c : cell) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// object[key], or null when `object` is not an object or has no such key.
const json& field(const json& object, const char* key) {
  static const json none;
  return object.is_object() && object.contains(key) ? object[key] : none;
}

std::string text(const json& object, const char* key) {
  const json& value = field(object, key);
  return value.is_string() ? value.get<std::string>() : "";
}

// A number as JSON writes it; empty for null.
std::string csv_number(const json& value) { return value.is_null() ? "" : value.dump(); }

// A number with `format` ("{:.4f}"), or "-" for null.
std::string fixed(const json& value, const char* format) {
  return value.is_number() ? fmt::format(fmt::runtime(format), value.get<double>()) : "-";
}

// Where a result ran: its device's name, or "host".
std::string device_of(const json& report, const json& result) {
  const json& index = field(result, "device_index");
  const json& devices = field(report, "devices");
  if (!index.is_number_integer() || index.get<int64_t>() < 0 ||
      index.get<uint64_t>() >= devices.size())
    return "host";
  return text(devices[index.get<size_t>()], "name");
}

std::string csv_row(const json& report, const json& r) {
  const json& p = field(r, "problem");
  const json& timing = field(r, "timing");
  const json& ci = field(timing, "median_ci95_ms");
  const json& verification = field(r, "verification");
  const std::vector<std::string> cells = {
      csv_text(text(r, "backend")),          csv_number(field(p, "m")),
      csv_number(field(p, "n")),             csv_number(field(p, "k")),
      csv_number(field(p, "seed")),          csv_text(text(p, "distribution")),
      csv_text(device_of(report, r)),        csv_text(text(r, "status")),
      csv_number(field(timing, "median_ms")), ci.size() == 2 ? csv_number(ci[0]) : "",
      ci.size() == 2 ? csv_number(ci[1]) : "", csv_number(field(timing, "min_ms")),
      csv_number(field(timing, "max_ms")),   csv_number(field(timing, "count")),
      csv_number(field(r, "tflops")),        csv_number(field(r, "speedup_vs_separate")),
      csv_number(field(verification, "max_abs")), csv_number(field(verification, "max_rel")),
      csv_text(text(r, "reason"))};
  return fmt::format("{}", fmt::join(cells, ","));
}

std::string markdown_row(const json& report, const json& r) {
  const json& p = field(r, "problem");
  const json& timing = field(r, "timing");
  const json& ci = field(timing, "median_ci95_ms");
  return fmt::format(
      "| {} | {}x{}x{} {} seed {} | {} | {} | {} | {} | {} | {} |\n",
      for_markdown(text(r, "backend")), csv_number(field(p, "m")), csv_number(field(p, "n")),
      csv_number(field(p, "k")), for_markdown(text(p, "distribution")),
      csv_number(field(p, "seed")), for_markdown(device_of(report, r)),
      for_markdown(text(r, "status")), fixed(field(timing, "median_ms"), "{:.4f}"),
      ci.size() == 2 ? fmt::format("[{}, {}]", fixed(ci[0], "{:.4f}"), fixed(ci[1], "{:.4f}"))
                     : "-",
      fixed(field(r, "tflops"), "{:.2f}"), fixed(field(r, "speedup_vs_separate"), "{:.2f}x"));
}

}  // namespace

std::string results_csv(const json& report) {
  std::string csv = std::string(kCsvHeader) + "\r\n";
  for (const json& result : field(report, "results")) csv += csv_row(report, result) + "\r\n";
  return csv;
}

std::string results_markdown(const json& report) {
  std::string md = "### mishbench run\n\n";
  md += "| backend | problem | device | status | median ms | 95% CI ms | TFLOP/s | vs separate "
        "|\n";
  md += "|---|---|---|---|---:|---|---:|---:|\n";
  for (const json& result : field(report, "results")) md += markdown_row(report, result);
  return md;
}

}  // namespace mish
