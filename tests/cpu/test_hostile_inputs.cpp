// Hostile and unusual inputs to `mishbench compare` and `mishbench merge`, one row each (the
// table and what every row checks: hostile_table.h).
//
// To add a row: append a HostileInput to kHostileInputs below.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "hostile_table.h"
#include "mishbench_process.h"
#include "node_report_fixture.h"
#include "report_fixture.h"

namespace mish {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// {dir}/<name>: base.json changed by `change`.
Setup report(std::string name, std::function<void(json&)> change) {
  return [name, change](const fs::path& dir) {
    json r = base_report();
    change(r);
    write_bytes(dir / name, r.dump());
    return std::string();
  };
}

// {dir}/<name>: base.json as text with the last `find` replaced by `replacement`, for what a
// JSON library would not write (1e3 for an integer, 1e999, NaN).
Setup edited(std::string name, std::string find, std::string replacement) {
  std::string bytes = base_report().dump();
  bytes.replace(bytes.rfind(find), find.size(), replacement);
  return text(std::move(name), std::move(bytes));
}

json& first_result(json& r) { return r["results"][0]; }
json& problem_of(json& r) { return first_result(r)["problem"]; }
json& samples_of(json& r) { return first_result(r)["timing"]["samples_ms"]; }

std::vector<std::string> compare(std::string base, std::string fresh,
                                 std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"compare", "{dir}/" + base, "{dir}/" + fresh};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// `compare base.json new.json <flag> <value>`.
std::vector<std::string> flag(std::string name, std::string value) {
  return compare("base.json", "new.json", {name, value});
}

const std::string kHuge(1'000'000, 'n');

const std::vector<HostileInput> kHostileInputs = {
    // Number flags: decimal, finite, in range; the message quotes the value and names the flag.
    {"alpha_nan", flag("--alpha", "nan"), 2, "--alpha: 'nan' is not a decimal number"},
    {"alpha_NaN", flag("--alpha", "NaN"), 2, "--alpha: 'NaN' is not a decimal number"},
    {"alpha_minus_nan", compare("base.json", "new.json", {"--alpha=-nan"}), 2,
     "'-nan' is not a decimal number"},
    {"alpha_inf", flag("--alpha", "inf"), 2, "'inf' is not a decimal number"},
    {"alpha_minus_inf", compare("base.json", "new.json", {"--alpha=-inf"}), 2,
     "'-inf' is not a decimal number"},
    {"alpha_infinity", flag("--alpha", "infinity"), 2, "'infinity' is not a decimal number"},
    {"alpha_overflow", flag("--alpha", "1e999"), 2, "'1e999' is beyond what a double holds"},
    {"alpha_hex", flag("--alpha", "0x0.1"), 2, "'0x0.1' is not a decimal number"},
    {"alpha_hex_float", flag("--alpha", "0x1p-3"), 2, "'0x1p-3' is not a decimal number"},
    {"alpha_empty", flag("--alpha", ""), 2, "--alpha: '' is empty"},
    {"alpha_leading_space", flag("--alpha", " 0.01"), 2, "' 0.01' is not a decimal number"},
    {"alpha_trailing_text", flag("--alpha", "0.01abc"), 2, "'0.01abc' is not a decimal number"},
    {"alpha_comma", flag("--alpha", "0,01"), 2, "'0,01' is not a decimal number"},
    {"alpha_percent", flag("--alpha", "1%"), 2, "'1%' is not a decimal number"},
    {"alpha_above_one", flag("--alpha", "1.5"), 2,
     "'1.5' is out of range; expected a number from 0 to 1"},
    {"alpha_negative", compare("base.json", "new.json", {"--alpha=-0.1"}), 2,
     "'-0.1' is out of range"},
    {"alpha_newline", flag("--alpha", "0.01\n# injected"), 2, "'0.01\\n# injected'"},
    {"alpha_escape_sequence", flag("--alpha", "\x1b[2J"), 2, "'\\x1b[2J' is not a decimal number"},
    {"alpha_huge", flag("--alpha", std::string(100'000, '1')), 2, "… (100000 bytes)"},
    {"threshold_nan", flag("--threshold", "nan"), 2, "--threshold: 'nan' is not a decimal number"},
    {"threshold_two", flag("--threshold", "2"), 2, "--threshold: '2' is out of range"},
    {"threshold_negative", compare("base.json", "new.json", {"--threshold=-0.05"}), 2,
     "'-0.05' is out of range"},
    {"threshold_plus_sign", flag("--threshold", "+0.05"), 2, "'+0.05' is not a decimal number"},
    {"threshold_underflow", flag("--threshold", "1e-999"), 2, "is beyond what a double holds"},
    {"threshold_ten_not_octal", flag("--threshold", "010"), 2, "'010' is out of range"},
    {"threshold_leading_zeros_accepted", flag("--threshold", "00.05"), 0, "Threshold 5.0%"},
    {"alpha_exponent_accepted", flag("--alpha", "1e-2"), 0, "(alpha 0.01)"},
    {"alpha_zero_never_significant", compare("base.json", "slower.json", {"--alpha", "0"}), 0,
     "no regression"},
    {"alpha_one_accepted", flag("--alpha", "1"), 0, "no regression"},
    {"threshold_zero_accepted", compare("base.json", "slower.json", {"--threshold", "0"}), 1,
     "1 regression"},

    // Input files.
    {"base_missing", compare("missing.json", "new.json"), 2,
     "cannot read report '{dir}/missing.json': No such file or directory"},
    {"base_empty_path", {"compare", "", "{dir}/new.json"}, 2, "cannot read report ''"},
    {"new_is_a_folder", compare("base.json", ""), 2, "it is a folder, not a file"},
    {"base_is_a_folder", compare("sub", "new.json"), 2, "it is a folder, not a file",
     folder("sub")},
    {"base_unreadable", compare("secret.json", "new.json"), 2, "Permission denied",
     non_root(both(text("secret.json", "{}"), chmod("secret.json", fs::perms::none)))},
    {"base_symlink_loop", compare("loop.json", "new.json"), 2, "Too many levels of symbolic links",
     both(symlink("loop2.json", "loop.json"), symlink("loop.json", "loop2.json"))},
    {"base_over_a_gibibyte", compare("huge.json", "new.json"), 2, "larger than 1024 MiB",
     sparse_file("huge.json", (uintmax_t(1) << 30) + 1)},
    {"empty_file", compare("empty.json", "new.json"), 2, "is empty, not a report",
     text("empty.json", "")},
    {"blank_file", compare("blank.json", "new.json"), 2, "is empty, not a report",
     text("blank.json", " \n\t\n")},
    {"not_json", compare("bad.json", "new.json"), 2, "is not valid JSON",
     text("bad.json", "{ this is not json")},
    {"truncated_json", compare("cut.json", "new.json"), 2, "is not valid JSON",
     text("cut.json", base_report().dump().substr(0, 300))},
    {"nul_bytes", compare("nul.json", "new.json"), 2, "is not valid JSON",
     text("nul.json", std::string("{\"a\0\": 1}", 9))},
    {"invalid_utf8", compare("utf8.json", "new.json"), 2, "is not valid JSON",
     text("utf8.json", "{\"schema_version\": \"1.0.0\xff\"}")},
    {"parser_message_without_control_characters", compare("esc.json", "new.json"), 2, "<U+001B>",
     text("esc.json", "{\"a\": \x1b[2J}")},
    {"json_array", compare("array.json", "new.json"), 2, "not a usable mishbench report",
     text("array.json", "[]")},
    {"json_string", compare("string.json", "new.json"), 2, "not a usable mishbench report",
     text("string.json", "\"report\"")},
    {"json_number", compare("number.json", "new.json"), 2, "not a usable mishbench report",
     text("number.json", "42")},
    {"nested_100000_deep", compare("deep.json", "new.json"), 2, "nests JSON more than 64 levels",
     text("deep.json", std::string(100'000, '[') + std::string(100'000, ']'))},
    {"nested_deep_in_a_field", compare("deep.json", "new.json"), 2, "more than 64 levels",
     text("deep.json", "{\"host\": " + std::string(1000, '[') + std::string(1000, ']') + "}")},

    // Report structure: every field compare reads, with the wrong type or out of range.
    {"schema_version_missing", compare("r.json", "new.json"), 2, "schema_version",
     report("r.json", [](json& r) { r.erase("schema_version"); })},
    {"schema_version_number", compare("r.json", "new.json"), 2, "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = 1; })},
    {"schema_version_garbage", compare("r.json", "new.json"), 2, "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = "abc"; })},
    {"schema_version_two_parts", compare("r.json", "new.json"), 2, "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = "1.3"; })},
    {"schema_version_trailing_text", compare("r.json", "new.json"), 2,
     "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = "1.3.0junk"; })},
    {"schema_version_leading_space", compare("r.json", "new.json"), 2,
     "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = " 1.3.0"; })},
    {"schema_version_signed", compare("r.json", "new.json"), 2, "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = "+1.-3.0"; })},
    {"schema_version_minor_overflows", compare("r.json", "new.json"), 2,
     "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = "1.99999999999999999999.0"; })},
    {"schema_version_major_overflows", compare("r.json", "new.json"), 2,
     "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = "4294967297.3.0"; })},
    {"schema_version_empty_part", compare("r.json", "new.json"), 2, "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = "1..0"; })},
    {"schema_version_leading_zero", compare("r.json", "new.json"), 2,
     "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = "01.3.0"; })},
    {"schema_version_with_newline", compare("r.json", "new.json"), 2,
     "malformed 'schema_version'",
     report("r.json", [](json& r) { r["schema_version"] = "1.3.0\n"; })},
    {"schema_major_two", compare("r.json", "new.json"), 2, "is not readable by this build",
     report("r.json", [](json& r) { r["schema_version"] = "2.0.0"; })},
    {"results_an_object", compare("r.json", "new.json"), 2, "results",
     report("r.json", [](json& r) { r["results"] = json::object(); })},
    {"results_empty", compare("r.json", "new.json"), 2, "results: is empty; there is nothing",
     report("r.json", [](json& r) { r["results"] = json::array(); })},
    {"result_a_number", compare("r.json", "new.json"), 2, "results[0]",
     report("r.json", [](json& r) { r["results"] = {1}; })},
    {"backend_missing", compare("r.json", "new.json"), 2, "missing 'backend'",
     report("r.json", [](json& r) { first_result(r).erase("backend"); })},
    {"backend_a_number", compare("r.json", "new.json"), 2, "results[0].backend",
     report("r.json", [](json& r) { first_result(r)["backend"] = 7; })},
    {"backend_null", compare("r.json", "new.json"), 2, "results[0].backend",
     report("r.json", [](json& r) { first_result(r)["backend"] = nullptr; })},
    {"backend_empty", compare("r.json", "new.json"), 2, "results[0].backend: is empty",
     report("r.json", [](json& r) { first_result(r)["backend"] = ""; })},
    {"status_unknown", compare("r.json", "new.json"), 2, "results[0].status",
     report("r.json", [](json& r) { first_result(r)["status"] = "great"; })},
    {"status_a_number", compare("r.json", "new.json"), 2, "results[0].status",
     report("r.json", [](json& r) { first_result(r)["status"] = 0; })},
    {"problem_missing", compare("r.json", "new.json"), 2, "missing 'problem'",
     report("r.json", [](json& r) { first_result(r).erase("problem"); })},
    {"problem_a_string", compare("r.json", "new.json"), 2, "results[0].problem",
     report("r.json", [](json& r) { first_result(r)["problem"] = "1024x8192x8192"; })},
    {"m_missing", compare("r.json", "new.json"), 2, "missing 'm'",
     report("r.json", [](json& r) { problem_of(r).erase("m"); })},
    {"m_fraction", compare("r.json", "new.json"), 2, "results[0].problem.m",
     report("r.json", [](json& r) { problem_of(r)["m"] = 1024.5; })},
    {"m_exponent", compare("r.json", "new.json"), 2, "results[0].problem.m",
     edited("r.json", "\"m\":1024", "\"m\":1e3")},
    {"m_a_string", compare("r.json", "new.json"), 2, "results[0].problem.m",
     report("r.json", [](json& r) { problem_of(r)["m"] = "1024"; })},
    {"m_negative", compare("r.json", "new.json"), 2, "results[0].problem.m: -5 is out of range",
     report("r.json", [](json& r) { problem_of(r)["m"] = -5; })},
    {"m_zero", compare("r.json", "new.json"), 2, "results[0].problem.m: 0 is out of range",
     report("r.json", [](json& r) { problem_of(r)["m"] = 0; })},
    {"m_above_int64", compare("r.json", "new.json"), 2, "18446744073709551615 is out of range",
     report("r.json", [](json& r) { problem_of(r)["m"] = UINT64_MAX; })},
    {"m_above_uint64", compare("r.json", "new.json"), 2, "results[0].problem.m",
     edited("r.json", "\"m\":1024", "\"m\":100000000000000000000000000000")},
    {"seed_negative", compare("r.json", "new.json"), 2, "results[0].problem.seed: -1 is out",
     report("r.json", [](json& r) { problem_of(r)["seed"] = -1; })},
    {"seed_fraction", compare("r.json", "new.json"), 2, "results[0].problem.seed",
     report("r.json", [](json& r) { problem_of(r)["seed"] = 4.2; })},
    {"distribution_missing", compare("r.json", "new.json"), 2, "missing 'distribution'",
     report("r.json", [](json& r) { problem_of(r).erase("distribution"); })},
    {"distribution_a_number", compare("r.json", "new.json"), 2, "problem.distribution",
     report("r.json", [](json& r) { problem_of(r)["distribution"] = 7; })},
    {"timing_a_string", compare("r.json", "new.json"), 2, "timing",
     report("r.json", [](json& r) { first_result(r)["timing"] = "fast"; })},
    {"timing_missing", compare("r.json", "new.json"), 2, "missing 'timing'",
     report("r.json", [](json& r) { first_result(r).erase("timing"); })},
    {"samples_missing", compare("r.json", "new.json"), 2, "missing 'samples_ms'",
     report("r.json", [](json& r) { first_result(r)["timing"].erase("samples_ms"); })},
    {"samples_empty", compare("r.json", "new.json"), 2, "samples_ms",
     report("r.json", [](json& r) { samples_of(r) = json::array(); })},
    {"samples_an_object", compare("r.json", "new.json"), 2, "samples_ms",
     report("r.json",
            [](json& r) {
              samples_of(r) = json{{"a", 1}};
            })},
    {"sample_a_string", compare("r.json", "new.json"), 2, "samples_ms",
     report("r.json", [](json& r) { samples_of(r)[3] = "2.7"; })},
    {"sample_null", compare("r.json", "new.json"), 2, "samples_ms",
     report("r.json", [](json& r) { samples_of(r)[3] = nullptr; })},
    {"sample_a_boolean", compare("r.json", "new.json"), 2, "samples_ms",
     report("r.json", [](json& r) { samples_of(r)[3] = true; })},
    {"sample_an_array", compare("r.json", "new.json"), 2, "samples_ms",
     report("r.json", [](json& r) { samples_of(r)[3] = {2.7}; })},
    {"sample_negative", compare("r.json", "new.json"), 2,
     "samples_ms[3]: -2.7 is not a positive time",
     report("r.json", [](json& r) { samples_of(r)[3] = -2.7; })},
    {"sample_zero", compare("r.json", "new.json"), 2, "samples_ms[3]: 0 is not a positive time",
     report("r.json", [](json& r) { samples_of(r)[3] = 0; })},
    {"sample_infinite", compare("r.json", "new.json"), 2,
     "holds a number too large for a double (number overflow parsing '1e999')",
     edited("r.json", "\"samples_ms\":[", "\"samples_ms\":[1e999,")},
    {"sample_minus_infinite", compare("r.json", "new.json"), 2, "a number too large for a double",
     edited("r.json", "\"samples_ms\":[", "\"samples_ms\":[-1e999,")},
    {"sample_nan_literal", compare("r.json", "new.json"), 2, "is not valid JSON",
     edited("r.json", "\"samples_ms\":[", "\"samples_ms\":[NaN,")},
    {"duplicate_result_in_base", compare("r.json", "new.json"), 2,
     "results[1]: repeats backend 'fused' on problem 1024x8192x8192 kernelbench seed 42",
     report("r.json", [](json& r) { r["results"].push_back(first_result(r)); })},
    {"duplicate_result_in_new", compare("base.json", "r.json"), 2, "repeats backend 'fused'",
     report("r.json", [](json& r) { r["results"].push_back(first_result(r)); })},
    {"device_a_string", compare("r.json", "new.json"), 2, "device",
     report("r.json", [](json& r) { r["device"] = "H200"; })},
    {"device_name_a_number", compare("r.json", "new.json"), 2, "device.name",
     report("r.json", [](json& r) { r["device"]["name"] = 5; })},
    {"device_differs_by_a_newline", compare("r.json", "new.json"), 2,
     "different devices ('NVIDIA H200\\n# fake' vs 'NVIDIA H200')",
     report("r.json", [](json& r) { r["device"]["name"] = "NVIDIA H200\n# fake"; })},
    {"device_name_huge", compare("r.json", "new.json"), 2, "… (1000000 bytes)",
     report("r.json", [](json& r) { r["device"]["name"] = kHuge; })},
    {"device_null_against_a_gpu", compare("r.json", "new.json"), 2,
     "('no GPU (host only)' vs 'NVIDIA H200')",
     report("r.json", [](json& r) { r["device"] = nullptr; })},
    {"settings_a_string", compare("r.json", "new.json"), 2, "settings",
     report("r.json", [](json& r) { r["settings"] = "x"; })},
    {"verification_a_string", compare("r.json", "new.json"), 2, "verification",
     report("r.json", [](json& r) { first_result(r)["verification"] = "fine"; })},

    // Hostile but valid: compared, and echoed escaped and cut.
    {"backend_with_pipe_and_newline", compare("r.json", "r.json"), 0, "| evil\\|x\\n\\# heading |",
     report("r.json", [](json& r) { first_result(r)["backend"] = "evil|x\n# heading"; })},
    {"backend_with_html", compare("r.json", "r.json"), 0,
     "&lt;script&gt;alert\\(1\\)&lt;/script&gt;",
     report("r.json", [](json& r) { first_result(r)["backend"] = "<script>alert(1)</script>"; })},
    {"backend_with_escape_sequence", compare("r.json", "r.json"), 0, "| \\x1b\\[2J\\x1b\\[31mx |",
     report("r.json", [](json& r) { first_result(r)["backend"] = "\x1b[2J\x1b[31mx"; })},
    {"backend_with_bidi_override", compare("r.json", "r.json"), 0, "| a\\u202eb |",
     report("r.json", [](json& r) { first_result(r)["backend"] = "a\u202eb"; })},
    {"backend_of_a_megabyte", compare("r.json", "r.json"), 0, "… (1000000 bytes) |",
     report("r.json", [](json& r) { first_result(r)["backend"] = kHuge; })},
    {"distribution_with_markup", compare("r.json", "r.json"), 0, "1024x8192x8192 a\\|\\*b\\* seed",
     report("r.json", [](json& r) { problem_of(r)["distribution"] = "a|*b*"; })},
    {"settings_note_with_newline", compare("r.json", "new.json"), 0,
     "> note: setting 'l2' differs: \"hot\\\\n\\# x\" vs \"flush\"",
     report("r.json", [](json& r) { r["settings"]["l2"] = "hot\n# x"; })},
    {"same_file_twice", compare("base.json", "base.json"), 0, "no regression"},
    {"one_sample_each", compare("r.json", "r.json"), 0, "SAME",
     report("r.json", [](json& r) { samples_of(r) = {2.7}; })},
    {"identical_samples", compare("r.json", "r.json"), 0, "| 1.000 | [1.000, 1.000] | 1 | SAME",
     report("r.json", [](json& r) { samples_of(r) = std::vector<double>(50, 2.7); })},
    {"untimed_on_both_sides", compare("r.json", "r.json"), 2, "nothing was timed in",
     report("r.json",
            [](json& r) {
              first_result(r)["status"] = "skipped";
              first_result(r)["timing"] = nullptr;
            })},
    {"backends_differ", compare("base.json", "r.json"), 1, "**MISSING**",
     report("r.json", [](json& r) { first_result(r)["backend"] = "other"; })},
    {"newer_minor_version", compare("r.json", "new.json"), 0, "no regression",
     report("r.json", [](json& r) { r["schema_version"] = "1.99.0"; })},
    {"slower", compare("base.json", "slower.json"), 1, "**SLOWER**"},
    {"stopped_verifying", compare("base.json", "r.json"), 1, "ok → mismatch",
     report("r.json", [](json& r) { first_result(r)["status"] = "mismatch"; })},
    {"host_only_on_both_sides", compare("r.json", "r.json"), 0, "no regression",
     report("r.json", [](json& r) { r["device"] = nullptr; })},
    {"different_devices_allowed", compare("r.json", "new.json", {"--allow-device-mismatch"}), 0,
     "devices differ: 'H100' vs 'NVIDIA H200'",
     report("r.json", [](json& r) { r["device"]["name"] = "H100"; })},

    // Outputs: refused before any work when they cannot be written or are inputs. A device node is
    // written in place: not being among the row's writes, a replacement would show as a change.
    {"json_is_the_base", flag("--json", "{dir}/base.json"), 2,
     "--json '{dir}/base.json': is the same file as the input '{dir}/base.json'"},
    {"json_is_a_symlink_to_new", flag("--json", "{dir}/link.json"), 2,
     "is the same file as the input '{dir}/new.json'", symlink("new.json", "link.json")},
    {"json_is_a_hard_link_to_base", flag("--json", "{dir}/hard.json"), 2,
     "is the same file as the input '{dir}/base.json'", hard_link("base.json", "hard.json")},
    {"markdown_is_new", flag("--markdown", "{dir}/./new.json"), 2, "is the same file as the input"},
    {"json_is_a_folder", flag("--json", "{dir}"), 2, "it is a folder"},
    {"json_in_a_missing_folder", flag("--json", "{dir}/no/such/out.json"), 2,
     "folder '{dir}/no/such' does not exist"},
    {"json_under_a_file", flag("--json", "{dir}/base.json/out.json"), 2, "Not a directory"},
    {"json_name_too_long", flag("--json", "{dir}/" + std::string(300, 'x') + ".json"), 2,
     "File name too long"},
    {"json_path_too_long", flag("--json", "{dir}/" + std::string(5000, 'x') + ".json"), 2,
     "File name too long"},
    {"json_empty", flag("--json", ""), 2, "--json '': the file name is empty"},
    {"markdown_empty", flag("--markdown", ""), 2, "--markdown '': the file name is empty"},
    {"json_trailing_slash", flag("--json", "{dir}/out/"), 2, "names a folder"},
    {"json_under_proc", flag("--json", "/proc/mishbench-test.json"), 2, "on procfs"},
    {"json_a_proc_file", flag("--json", "/proc/self/status"), 2, "it is on procfs"},
    {"json_under_sys", flag("--json", "/sys/mishbench-test.json"), 2, "on sysfs"},
    {"json_a_socket", flag("--json", "{dir}/sock"), 2, "it is a socket", unix_socket("sock")},
    {"json_read_only_file", flag("--json", "{dir}/ro.json"), 2,
     "cannot be written: Permission denied",
     non_root(both(text("ro.json", "{}"), chmod("ro.json", fs::perms::owner_read)))},
    {"json_in_read_only_folder", flag("--json", "{dir}/ro/out.json"), 2, "Permission denied",
     non_root(both(folder("ro"), chmod("ro", fs::perms::owner_read | fs::perms::owner_exec)))},
    {"json_and_markdown_the_same",
     compare("base.json", "new.json", {"--json", "{dir}/o", "--markdown", "{dir}/o"}), 2,
     "--json '{dir}/o' and --markdown '{dir}/o' are the same file"},
    {"json_and_markdown_the_same_through_a_link",
     compare("base.json", "new.json", {"--json", "{dir}/o.md", "--markdown", "{dir}/l.md"}), 2,
     "are the same file", both(text("o.md", "old"), symlink("o.md", "l.md"))},
    {"json_into_a_null_device_copy",
     flag("--json", "{dir}/null"),
     0,
     "no regression",
     device_copy("null", 3)},
    {"json_into_a_full_device_copy",
     flag("--json", "{dir}/full"),
     3,
     "writing comparison JSON '{dir}/full' failed: No space left on device",
     device_copy("full", 7)},
    {"markdown_into_a_full_device_copy",
     flag("--markdown", "{dir}/full"),
     3,
     "appending to Markdown summary '{dir}/full' failed: No space left on device",
     device_copy("full", 7)},
    {"json_replaces_an_old_file",
     flag("--json", "{dir}/out.json"),
     0,
     "no regression",
     text("out.json", "old"),
     {"out.json"}},
    {"markdown_appends",
     flag("--markdown", "{dir}/summary.md"),
     0,
     "no regression",
     text("summary.md", "earlier step\n"),
     {"summary.md"}},

    // Standard streams that cannot be written: a warning or refusal is lost, the outputs are not.
    {"stderr_closed_on_a_refusal", compare("missing.json", "new.json"), 2, "", nullptr, {}, {}, {},
     {2}},
    {"stderr_full_on_a_refusal", compare("missing.json", "new.json"), 2, "",
     device_copy("full", 7), {}, {}, "{dir}/full"},
    // Writes that fail with EPIPE or EFBIG, not by a signal.
    {"stdout_a_pipe_without_reader",
     compare("base.json", "new.json", {"--json", "{dir}/out.json", "--markdown", "{dir}/s.md"}), 3,
     "mishbench compare: cannot print the comparison: Broken pipe", nullptr, {"out.json", "s.md"},
     "|"},
    {"markdown_append_past_the_file_size_limit", flag("--markdown", "{dir}/summary.md"), 3,
     "appending to Markdown summary '{dir}/summary.md' failed: File too large; the file is cut "
     "back to its old length",
     text("summary.md", std::string(4000, 's')), {}, {}, {}, {}, {{RLIMIT_FSIZE, 4096}}},
    {"stderr_full_with_a_warning", compare("r.json", "new.json", {"--json", "{dir}/out.json"}), 0,
     "no regression",
     both(report("r.json", [](json& r) { r["schema_version"] = "1.99.0"; }),
          device_copy("full", 7)),
     {"out.json"}, {}, "{dir}/full"},
};

// {dir}/a.json and {dir}/b.json: the reports of two nodes, which merge takes.
Setup node_reports() {
  return [](const fs::path& dir) {
    SyntheticNode a, b;
    b.hostname = "node-b";
    b.uuid_base = 10;
    write_bytes(dir / "a.json", node_report(a).dump());
    write_bytes(dir / "b.json", node_report(b).dump());
    return std::string();
  };
}

// {dir}/<name>: the report of a node without a GPU, which ran the host backend only.
Setup host_only_report(std::string name) {
  return [name](const fs::path& dir) {
    SyntheticNode host;
    host.hostname = "node-c";
    host.fused_ms = {};
    write_bytes(dir / name, node_report(host).dump());
    return std::string();
  };
}

const std::vector<HostileInput> kMergeInputs = {
    {"merge_written", {"merge", "{dir}/a.json", "{dir}/b.json", "--json", "{dir}/m.json"}, 0, "",
     node_reports(), {"m.json"}},
    {"merge_a_host_only_report_twice", {"merge", "{dir}/h.json", "{dir}/h.json"}, 2,
     "host backend 'cpu' on problem", both(node_reports(), host_only_report("h.json"))},
    {"merge_stdout_a_pipe_without_reader", {"merge", "{dir}/a.json", "{dir}/b.json"}, 3,
     "mishbench merge: cannot print the merged report", node_reports(), {}, "|"},
    {"merge_past_the_file_size_limit",
     {"merge", "{dir}/a.json", "{dir}/b.json", "--json", "{dir}/m.json"}, 3,
     "writing merged report '{dir}/m.json' failed: File too large", node_reports(), {}, {}, {}, {},
     {{RLIMIT_FSIZE, 4096}}},
    {"merge_stderr_closed_on_a_refusal", {"merge", "{dir}/a.json", "{dir}/a.json"}, 2, "",
     node_reports(), {}, {}, {}, {2}},
    {"merge_stderr_full_on_a_refusal", {"merge", "{dir}/a.json", "{dir}/a.json"}, 2, "",
     both(node_reports(), device_copy("full", 7)), {}, {}, "{dir}/full"},
};

INSTANTIATE_TEST_SUITE_P(Inputs, Hostile, ::testing::ValuesIn(kHostileInputs), row_name);
INSTANTIATE_TEST_SUITE_P(MergeInputs, Hostile, ::testing::ValuesIn(kMergeInputs), row_name);

// The outputs that the table lets a run write hold what they should.
TEST(HostileOutputsHold, ReplacedJsonAndAppendedMarkdown) {
  const fs::path dir =
      fs::temp_directory_path() / ("mish_hostile_out_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  write_bytes(dir / "base.json", base_report().dump());
  write_bytes(dir / "out.json", "old");
  write_bytes(dir / "summary.md", "earlier step\n");
  const ProcessResult r = run_mishbench(
      {"compare", (dir / "base.json").string(), (dir / "base.json").string(), "--json",
       (dir / "out.json").string(), "--markdown", (dir / "summary.md").string()},
      dir.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(read_bytes(dir / "out.json"))["failures"], 0);
  EXPECT_EQ(read_bytes(dir / "summary.md"), "earlier step\n" + r.out);
  fs::remove_all(dir);
}

// A report whose parsed form does not fit in the address space left (ulimit -v): out of host
// memory is exit 3 and one line, also when freeing the half-parsed report needs memory itself.
TEST(HostileMemory, AReportTooLargeForTheAddressSpaceIsExit3) {
  const fs::path dir =
      fs::temp_directory_path() / ("mish_hostile_memory_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string fifo = (dir / "waits.json").string();
  const size_t start = address_space_at_start({"compare", fifo, fifo}, fifo, dir.string());
  ASSERT_GT(start, 0u) << "could not measure mishbench's address space at start";
  // 20 million samples: 40 MB of text, more than 300 MB parsed.
  std::string text = base_report().dump();
  const size_t at = text.find("\"samples_ms\":[") + 14;
  std::string samples;
  samples.reserve(40'000'000);
  for (int i = 0; i < 20'000'000; ++i) samples += "1,";
  text.insert(at, samples);
  write_bytes(dir / "big.json", text);
  text.clear();
  samples.clear();
  ProcessOptions options;
  options.limits = {{RLIMIT_AS, start + (192u << 20)}};
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compare", (dir / "big.json").string(),
                                 (dir / "big.json").string()},
        std::vector<std::string>{"merge", (dir / "big.json").string()}}) {
    const ProcessResult r = run_mishbench(args, dir.string(), options);
    EXPECT_EQ(r.signal_number, 0) << args[0] << ": " << r.err;
    EXPECT_EQ(r.exit_code, 3) << args[0] << ": " << r.err;
    EXPECT_EQ(r.err.rfind("mishbench " + args[0] + ": out of host memory", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "expected one line:\n" << r.err;
  }
  fs::remove_all(dir);
}

// With stdout a pipe whose reader has gone, the comparison's files are written all the same.
TEST(HostileOutputsHold, ComparisonFilesAreWrittenWhenStdoutHasNoReader) {
  const fs::path dir =
      fs::temp_directory_path() / ("mish_hostile_pipe_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  write_bytes(dir / "base.json", base_report().dump());
  ProcessOptions options;
  options.stdout_reader_gone = true;
  const ProcessResult r = run_mishbench(
      {"compare", (dir / "base.json").string(), (dir / "base.json").string(), "--json",
       (dir / "out.json").string(), "--markdown", (dir / "summary.md").string()},
      dir.string(), options);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(json::parse(read_bytes(dir / "out.json"))["failures"], 0);
  EXPECT_NE(read_bytes(dir / "summary.md").find("no regression"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mish
