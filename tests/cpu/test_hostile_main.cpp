// Hostile and unusual inputs to the main command (`mishbench [flags]`) and its config files, one
// row each (the table and what every row checks: hostile_table.h), and interrupts of a run
// through the binary. Every row runs the `cpu` backend on a small problem (8x16x32, two samples),
// so a row that is not refused takes well under a second.
//
// To add a row: append a HostileInput to the list of its class below.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "hostile_table.h"
#include "mishbench_process.h"

namespace mish {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The small run every row starts from: the `cpu` backend on 8x16x32, two samples, no warm-up,
// only the table on stdout.
const std::vector<std::pair<std::string, std::string>> kSmallRun = {
    {"--backend", "cpu"}, {"--m", "8"},      {"--n", "16"},
    {"--k", "32"},        {"--iters", "2"}, {"--warmup", "0"}};
const std::string kDumpFolder = "dump/8x16x32-kernelbench-seed42";  // --dump {dir}/dump

bool gives_flag(const std::vector<std::string>& args, const std::string& flag) {
  for (const std::string& arg : args)
    if (arg == flag || arg.rfind(flag + "=", 0) == 0) return true;
  return false;
}

// `mishbench <small run> -q <more>`; a flag of the small run that `more` gives is left to `more`,
// and one in `left_out` is not given at all (for a config file to set).
std::vector<std::string> bench(std::vector<std::string> more = {},
                               const std::vector<std::string>& left_out = {}) {
  std::vector<std::string> args;
  for (const auto& [flag, value] : kSmallRun)
    if (!gives_flag(more, flag) && !gives_flag(left_out, flag))
      args.insert(args.end(), {flag, value});
  args.push_back("-q");
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The small run with its status lines on stderr (no -q).
std::vector<std::string> loud(std::vector<std::string> more = {}) {
  std::vector<std::string> args = bench(std::move(more));
  args.erase(std::find(args.begin(), args.end(), "-q"));
  return args;
}

std::vector<std::string> with(std::string flag, std::string value) {
  return bench({std::move(flag), std::move(value)});
}

// The small run with --config {dir}/c.json, and c.json holding `bytes`.
std::vector<std::string> with_config(std::vector<std::string> more = {}) {
  more.insert(more.begin(), {"--config", "{dir}/c.json"});
  return bench(std::move(more));
}
Setup config(std::string bytes) { return text("c.json", std::move(bytes)); }

// The small run with --config {dir}/c.json setting what `flag` would (not given).
std::vector<std::string> from_config(const std::string& flag) {
  return bench({"--config", "{dir}/c.json"}, {flag});
}

std::vector<std::string> with_plugin_path(std::string path) {
  return bench({"--plugin", std::move(path)});
}

std::string test_plugin(const std::string& name) {
  return std::string(MISHBENCH_TEST_PLUGIN_DIR) + "/libmishtest_" + name + ".so";
}
std::vector<std::string> with_plugin(const std::string& name, std::vector<std::string> more = {}) {
  more.insert(more.begin(), {"--plugin", test_plugin(name)});
  return bench(std::move(more));
}

// {dir}/<name>: a copy of the example host plugin (a working library).
Setup host_plugin_copy(std::string name) {
  return [name](const fs::path& dir) {
    fs::create_directories((dir / name).parent_path());
    fs::copy_file(MISHBENCH_HOST_PLUGIN, dir / name);
    return std::string();
  };
}

// {dir}/<name>: a copy of the test plugin `plugin`.
Setup plugin_copy(std::string plugin, std::string name) {
  return [plugin, name](const fs::path& dir) {
    fs::copy_file(test_plugin(plugin), dir / name);
    return std::string();
  };
}

// A FIFO {dir}/<name> with a reader that drains it (for at most a minute).
Setup fifo_with_reader(std::string name) {
  return both(fifo(name), [name](const fs::path& dir) {
    const std::string path = (dir / name).string();
    std::fflush(nullptr);
    const pid_t reader = ::fork();
    if (reader == 0) {  // only async-signal-safe calls: the test process may have threads
      ::alarm(60);
      const int fd = ::open(path.c_str(), O_RDONLY);
      char buffer[4096];
      ssize_t total = 0;
      for (ssize_t got; fd >= 0 && (got = ::read(fd, buffer, sizeof(buffer))) > 0;) total += got;
      ::_exit(total > 0 ? 0 : 1);
    }
    return reader > 0 ? std::string() : std::string("cannot start a FIFO reader");
  });
}

// ---- Numbers: every numeric flag and config key, decimal, finite and in range; the message
// quotes the value as given and names the flag (or the file and key).

struct NumberSetting {
  std::string flag, key;  // key: "iters", or "problem.m" for a key inside the problem
  bool integer;           // else a real
  std::string below, above;  // out of range
  std::string range;         // as the message states it
  // Out of range in a config file, as JSON writes it back ("1e7" reads as 10000000.0); empty:
  // none (a seed above 2^64-1 is not an integer to JSON: kNumberEdges).
  std::string config_above;
  // A fraction that may be given as a percent ("0.5%"), in a config file too, as a string: the
  // percent rows are in kNumberEdges.
  bool percent = false;
};

const std::string kFractionRange =
    "a fraction above 0 and below 1 (0.005) or a percent above 0% and at most 100% (0.5%)";

const std::vector<NumberSetting> kNumberSettings = {
    {"--m", "problem.m", true, "0", "2147483648", "an integer from 1 to 2147483647", "2147483648"},
    {"--n", "problem.n", true, "-1", "99999999999", "an integer from 1 to 2147483647", "-1"},
    {"--k", "problem.k", true, "0", "2147483648", "an integer from 1 to 2147483647", "0"},
    {"--seed", "problem.seed", true, "-1", "18446744073709551616",
     "an integer from 0 to 18446744073709551615", ""},
    {"--warmup", "warmup", true, "-1", "1000001", "an integer from 0 to 1000000", "1000001"},
    {"--iters", "iters", true, "0", "1000001", "an integer from 1 to 1000000", "0"},
    {"--min-time", "min_time", false, "-1", "86401", "a number from 0 to 86400", "86401"},
    {"--max-noise", "max_noise", false, "0", "100.5%", kFractionRange, "", true},
    {"--timeout", "timeout", false, "0", "86400.5", "a number above 0 and at most 86400", "0"},
    {"--atol", "atol", false, "-1e-9", "1e7", "a number from 0 to 1000000", "-0.5"},
    {"--rtol", "rtol", false, "-0.5", "1000001", "a number from 0 to 1000000", "1000001"},
    {"--setup-timeout", "setup_timeout", false, "0", "1e9", "a number above 0 and at most 86400",
     "86401"},
    {"--worker-timeout", "worker_timeout", false, "-3", "86401",
     "a number above 0 and at most 86400", "-3"},
};

std::string identifier(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return text.substr(text.find_first_not_of('_'));
}

// {"iters": <value>} or {"problem": {"m": <value>}}, as text.
std::string config_with(const NumberSetting& s, const std::string& value) {
  const size_t dot = s.key.find('.');
  if (dot == std::string::npos) return "{\"" + s.key + "\": " + value + "}";
  return "{\"" + s.key.substr(0, dot) + "\": {\"" + s.key.substr(dot + 1) + "\": " + value + "}}";
}

// How config messages name the key: "{dir}/c.json: 'iters'", "{dir}/c.json: problem: 'm'".
std::string config_key(const NumberSetting& s) {
  const size_t dot = s.key.find('.');
  if (dot == std::string::npos) return "{dir}/c.json: '" + s.key + "'";
  return "{dir}/c.json: " + s.key.substr(0, dot) + ": '" + s.key.substr(dot + 1) + "'";
}

// The same hostile values for every numeric setting, on the command line and in a config file.
std::vector<HostileInput> number_rows() {
  std::vector<HostileInput> rows;
  for (const NumberSetting& s : kNumberSettings) {
    const std::string name = identifier(s.flag);
    const std::string not_decimal = s.integer ? "' is not a decimal integer; expected "
                                              : "' is not a decimal number; expected ";
    const auto refused = [&](std::string value_name, std::string value, std::string says) {
      rows.push_back({name + "_" + value_name, with(s.flag, value), 2, s.flag + ": " + says});
    };
    for (const auto& [value_name, value] : std::vector<std::pair<std::string, std::string>>{
             {"nan", "nan"}, {"trailing_text", "8abc"}})
      refused(value_name, value, "'" + value + not_decimal + s.range);
    refused("empty", "", "'' is empty; expected " + s.range);
    refused("below_range", s.below,
            "'" + s.below + (s.below[0] == '-' && s.flag == "--seed" ? "' is negative"
                                                                      : "' is out of range") +
                "; expected " + s.range);
    refused("above_range", s.above, "'" + s.above + "' is out of range; expected " + s.range);

    const std::string key = "config_" + identifier(s.key);
    if (!s.percent)
      rows.push_back({key + "_a_string", with_config(), 2,
                    config_key(s) + " must be " + (s.integer ? "an integer" : "a number") +
                        ", got \"8\"",
                    config(config_with(s, "\"8\""))});
    if (!s.config_above.empty())
      rows.push_back({key + "_out_of_range", with_config(), 2,
                      config_key(s) + ": '" + s.config_above + "' is out of range; expected " +
                          s.range,
                      config(config_with(s, s.config_above))});
  }
  return rows;
}

// Values that only some kinds of number meet, and values that are accepted as decimal.
const std::vector<HostileInput> kNumberEdges = {
    {"m_inf", with("--m", "inf"), 2, "--m: 'inf' is not a decimal integer"},
    {"m_hex", with("--m", "0x10"), 2, "--m: '0x10' is not a decimal integer"},
    {"seed_hex", with("--seed", "0x2a"), 2, "--seed: '0x2a' is not a decimal integer"},
    {"atol_hex", with("--atol", "0x1"), 2, "--atol: '0x1' is not a decimal number"},
    {"m_minus_inf", with("--m", "-inf"), 2, "--m: '-inf' is not a decimal integer"},
    {"m_whitespace", with("--m", " 8"), 2, "--m: ' 8' is not a decimal integer"},
    {"m_plus", with("--m", "+8"), 2, "--m: '+8' is not a decimal integer"},
    {"m_exponent", with("--m", "1e3"), 2, "--m: '1e3' is not a decimal integer"},
    {"m_fraction", with("--m", "8.5"), 2, "--m: '8.5' is not a decimal integer"},
    {"m_1e999", with("--m", "1e999"), 2, "--m: '1e999' is not a decimal integer"},
    {"m_minus_zero", with("--m", "-0"), 2, "--m: '-0' is out of range"},
    {"m_above_int64", with("--m", "9223372036854775808"), 2,
     "--m: '9223372036854775808' is out of range"},
    {"m_below_int64", with("--m", "-9223372036854775809"), 2,
     "--m: '-9223372036854775809' is out of range"},
    {"m_newline", with("--m", "8\n"), 2, "--m: '8\\n' is not a decimal integer"},
    {"m_ten_not_octal", with("--m", "010"), 0, "problem m=10 n=16 k=32"},
    {"seed_ten_not_octal", with("--seed", "010"), 0, "(kernelbench, seed 10)"},
    {"seed_largest", with("--seed", "18446744073709551615"), 0, "seed 18446744073709551615)"},
    {"seed_minus_zero", with("--seed", "-0"), 2, "--seed: '-0' is negative"},
    {"seed_plus", with("--seed", "+1"), 2, "--seed: '+1' is not a decimal integer"},
    {"seed_fraction", with("--seed", "4.2"), 2, "--seed: '4.2' is not a decimal integer"},
    {"iters_minus_inf", with("--iters", "-inf"), 2, "'-inf' is not a decimal integer"},
    {"warmup_minus_zero_is_zero", with("--warmup", "-0"), 0, "cpu "},
    {"atol_inf", with("--atol", "inf"), 2, "--atol: 'inf' is not a decimal number"},
    {"atol_minus_inf", bench({"--atol=-inf"}), 2, "--atol: '-inf' is not a decimal number"},
    {"atol_whitespace", with("--atol", "0.1 "), 2, "--atol: '0.1 ' is not a decimal number"},
    {"atol_plus", with("--atol", "+0.1"), 2, "--atol: '+0.1' is not a decimal number"},
    {"timeout_inf", with("--timeout", "inf"), 2, "--timeout: 'inf' is not a decimal number"},
    {"max_noise_whitespace", with("--max-noise", "\t0.1"), 2, "'\\t0.1' is not a decimal"},
    {"worker_timeout_plus", with("--worker-timeout", "+5"), 2, "'+5' is not a decimal number"},
    {"config_overflow", with_config(), 2,
     "--config: '{dir}/c.json' holds a number too large for a double (number overflow parsing "
     "'1e999')",
     config("{\"iters\": 1e999}")},
    {"config_overflow_in_a_problem", with_config(), 2, "holds a number too large for a double",
     config("{\"problem\": {\"m\": 1e999}}")},
    {"atol_infinity", with("--atol", "infinity"), 2, "'infinity' is not a decimal number"},
    {"atol_hex_float", with("--atol", "0x1p-3"), 2, "'0x1p-3' is not a decimal number"},
    {"atol_1e999", with("--atol", "1e999"), 2, "--atol: '1e999' is beyond what a double holds"},
    {"atol_underflow", with("--atol", "1e-999"), 2, "'1e-999' is beyond what a double holds"},
    {"atol_comma", with("--atol", "0,5"), 2, "'0,5' is not a decimal number"},
    {"timeout_minus_zero", with("--timeout", "-0"), 2, "--timeout: '-0' is out of range"},
    {"min_time_minus_zero_is_zero", with("--min-time", "-0"), 0, "cpu "},
    {"rtol_exponent_accepted", with("--rtol", "1E-2"), 0, "cpu "},
    {"max_noise_percent", with("--max-noise", "50%"), 0, "cpu "},
    {"max_noise_all_percent", with("--max-noise", "100%"), 0, "cpu "},
    {"max_noise_fraction", with("--max-noise", "0.5"), 0, "cpu "},
    {"max_noise_one_reads_as_percent", with("--max-noise", "1"), 2,
     "--max-noise: '1' reads as a percent, but this value is a fraction: write 1% for 1 percent, "
     "or 0.01 as a fraction"},
    {"max_noise_nvbench_percent", with("--max-noise", "0.5%"), 0, "cpu "},
    {"max_noise_percent_only", with("--max-noise", "%"), 2,
     "--max-noise: '%' is not a decimal number; expected " + kFractionRange},
    {"max_noise_two_percent_signs", with("--max-noise", "5%%"), 2, "'5%%' is not a decimal"},
    {"max_noise_zero_percent", with("--max-noise", "0%"), 2, "'0%' is out of range"},
    {"max_noise_above_hundred", with("--max-noise", "250"), 2, "'250' is out of range"},
    {"config_max_noise_percent", bench({"--config", "{dir}/c.json"}), 0, "cpu ",
     config("{\"max_noise\": \"50%\"}")},
    {"config_max_noise_reads_as_percent", with_config(), 2,
     "{dir}/c.json: 'max_noise': '5' reads as a percent, but this value is a fraction: write 5% "
     "for 5 percent, or 0.05 as a fraction",
     config("{\"max_noise\": 5}")},
    {"config_max_noise_string_reads_as_percent", with_config(), 2,
     "'max_noise': '8' reads as a percent", config("{\"max_noise\": \"8\"}")},
    {"config_max_noise_true", with_config(), 2,
     "'max_noise' must be a number or a percent such as \"0.5%\", got true",
     config("{\"max_noise\": true}")},
    {"max_noise_huge", with("--max-noise", std::string(100'000, '9')), 2,
     "… (100000 bytes)' is beyond what a double holds"},
    // In a config file: JSON numbers, with JSON's own rules.
    {"config_iters_fraction", with_config(), 2, "{dir}/c.json: 'iters' must be an integer, got 2.5",
     config("{\"iters\": 2.5}")},
    {"config_iters_integral_float", with_config(), 2, "'iters' must be an integer, got 2.0",
     config("{\"iters\": 2.0}")},
    {"config_iters_true", with_config(), 2, "'iters' must be an integer, got true",
     config("{\"iters\": true}")},
    {"config_iters_array", with_config(), 2, "'iters' must be an integer, got [2]",
     config("{\"iters\": [2]}")},
    {"config_iters_octal", with_config(), 2, "is not valid JSON", config("{\"iters\": 010}")},
    {"config_atol_nan", with_config(), 2, "is not valid JSON", config("{\"atol\": NaN}")},
    {"config_atol_minus_overflow", with_config(), 2,
     "number too large for a double (number overflow parsing '-1e999')",
     config("{\"atol\": -1e999}")},
    {"config_timeout_minus_zero", with_config(), 2, "'timeout': '-0.0' is out of range",
     config("{\"timeout\": -0.0}")},
    {"config_seed_negative", with_config(), 2, "problem: 'seed': '-1' is negative",
     config("{\"problem\": {\"seed\": -1}}")},
    {"config_seed_above_uint64", with_config(), 2,
     "problem: 'seed' must be an integer, got 1.8446744073709552e+19",
     config("{\"problem\": {\"seed\": 18446744073709551616}}")},
    {"config_m_above_int64", with_config(), 2, "problem: 'm': '9223372036854775808' is out",
     config("{\"problem\": {\"m\": 9223372036854775808}}")},
    {"config_seed_largest_accepted", bench({"--config", "{dir}/c.json"}), 0,
     "seed 18446744073709551615)", config("{\"problem\": {\"seed\": 18446744073709551615}}")},
};

// ---- Config files as files.
const std::vector<HostileInput> kConfigFiles = {
    {"config_missing", with("--config", "{dir}/missing.json"), 2,
     "--config: cannot read config '{dir}/missing.json': No such file or directory"},
    {"config_empty_path", with("--config", ""), 2, "--config: cannot read config ''"},
    {"config_a_folder", with("--config", "{dir}/sub"), 2, "it is a folder, not a file",
     folder("sub")},
    {"config_unreadable", with_config(), 2, "Permission denied",
     non_root(both(config("{}"), chmod("c.json", fs::perms::none)))},
    {"config_a_socket", with("--config", "{dir}/sock"), 2, "No such device or address",
     unix_socket("sock")},
    {"config_a_null_device_copy", with("--config", "{dir}/null"), 2, "is empty, not a config",
     device_copy("null", 3)},
    {"config_symlink_loop", with("--config", "{dir}/loop.json"), 2, "Too many levels",
     both(symlink("loop2.json", "loop.json"), symlink("loop.json", "loop2.json"))},
    {"config_empty", with_config(), 2, "--config: '{dir}/c.json' is empty, not a config",
     config("")},
    {"config_not_json", with_config(), 2, "--config: '{dir}/c.json' is not valid JSON: parse error",
     config("iters = 2")},
    {"config_truncated", with_config(), 2, "is not valid JSON", config("{\"iters\": 2")},
    {"config_nul_byte", with_config(), 2, "is not valid JSON",
     config(std::string("{\"iters\"\0: 2}", 13))},
    {"config_invalid_utf8", with_config(), 2, "is not valid JSON",
     config("{\"backends\": \"cpu\xff\"}")},
    {"config_escape_in_parser_message", with_config(), 2, "<U+001B>", config("{\x1b[2J}")},
    {"config_an_array", with_config(), 2, "{dir}/c.json: the config must be a JSON object",
     config("[]")},
    {"config_a_string", with_config(), 2, "the config must be a JSON object", config("\"cpu\"")},
    {"config_nested_100000_deep", with_config(), 2,
     "'{dir}/c.json' nests JSON more than 64 levels deep; not a config",
     config(std::string(100'000, '[') + std::string(100'000, ']'))},
    {"config_nested_deep_in_a_key", with_config(), 2, "more than 64 levels",
     config("{\"backends\": " + std::string(1000, '[') + std::string(1000, ']') + "}")},
    {"config_over_16_mib", with_config(), 2,
     "cannot read config '{dir}/c.json': it is larger than 16 MiB, more than any config",
     sparse_file("c.json", (uintmax_t(1) << 24) + 1)},
    {"config_backend_name_of_50_mb", with_config(), 2, "larger than 16 MiB",
     repeated_text("c.json", "{\"backends\": \"", 50'000'000, 'x', "\"}")},
    {"config_unknown_key", with_config(), 2,
     "{dir}/c.json: unknown key 'iterations'; known keys: atol, backend_options",
     config("{\"iterations\": 2}")},
    {"config_unknown_key_in_problem", with_config(), 2,
     "{dir}/c.json: problem: unknown key 'size'; known keys: distribution, k, m, n, seed",
     config("{\"problem\": {\"size\": 8}}")},
    {"config_unknown_key_in_problems", with_config(), 2, "problems[1]: unknown key 'x'",
     config("{\"problems\": [{\"m\": 8}, {\"x\": 1}]}")},
    {"config_a_flag_only_key", with_config(), 2, "unknown key 'json'",
     config("{\"json\": \"out.json\"}")},
    {"config_problem_and_problems", with_config(), 2,
     "{dir}/c.json: give 'problem' or 'problems', not both",
     config("{\"problem\": {}, \"problems\": [{}]}")},
    {"config_problems_empty", with_config(), 2, "'problems' must be a non-empty array",
     config("{\"problems\": []}")},
    {"config_problems_an_object", with_config(), 2, "'problems' must be a non-empty array",
     config("{\"problems\": {\"m\": 8}}")},
    {"config_problem_a_number", with_config(), 2, "problem: a problem must be an object",
     config("{\"problem\": 8}")},
    {"config_problems_item_a_string", with_config(), 2, "problems[0]: a problem must be an object",
     config("{\"problems\": [\"8x16x32\"]}")},
    {"config_distribution_a_number", with_config(), 2,
     "problem: 'distribution' must be a string; choose one of: kernelbench",
     config("{\"problem\": {\"distribution\": 7}}")},
    {"config_graph_a_string", with_config(), 2, "'graph' must be true or false, got \"yes\"",
     config("{\"graph\": \"yes\"}")},
    {"config_backends_empty_list", from_config("--backend"), 2,
     "{dir}/c.json: 'backends' needs at least one name", config("{\"backends\": []}")},
    {"config_backends_empty_name", from_config("--backend"), 2,
     "'backends' has an empty name in its list", config("{\"backends\": [\"cpu\", \"\"]}")},
    {"config_backends_a_number", from_config("--backend"), 2,
     "'backends' must be a string or an array of strings, got 7", config("{\"backends\": 7}")},
    // A problem twice: listed so, or made so by a flag that sets every problem of the config.
    {"config_problems_made_the_same_by_a_flag", with_config(), 2,
     "mishbench: problems 1 and 2 are the same problem (8x16x32 kernelbench seed 42); a flag such "
     "as --m or --seed sets it for every problem of the config; give each problem once",
     config("{\"problems\": [{\"m\": 8}, {\"m\": 16}]}")},
    {"config_problem_listed_twice", bench({"--config", "{dir}/c.json"}, {"--m", "--n", "--k"}), 2,
     "problems 1 and 3 are the same problem (8x16x32 kernelbench seed 42)",
     config("{\"problems\": [{\"m\": 8, \"n\": 16, \"k\": 32}, {\"m\": 16, \"n\": 16, "
            "\"k\": 32}, {\"m\": 8, \"n\": 16, \"k\": 32}]}")},
    {"config_sets_the_problem", from_config("--m"), 0, "problem m=10 n=16 k=32",
     config("{\"problem\": {\"m\": 10}}")},

    {"config_backend_options_a_list", with_config(), 2,
     "'backend_options' must be an object like", config("{\"backend_options\": [1]}")},
    {"config_backend_option_not_an_object", with_config(), 2, "'backend_options'.fp16x3 must be",
     config("{\"backend_options\": {\"fp16x3\": 4}}")},
    {"config_plugins_a_number", with_config(), 2, "'plugins' must be a string or an array",
     config("{\"plugins\": 5}")},
    {"config_plugins_empty_path", with_config(), 2, "'plugins': a plugin path is empty",
     config("{\"plugins\": [\"\"]}")},
    {"config_plugin_path_with_nul", with_config(), 2,
     "'plugins': the plugin path 'a\\x00b.so' holds a NUL byte",
     config("{\"plugins\": \"a\\u0000b.so\"}")},
};

// ---- Outputs: refused before any work when they cannot be written, are inputs or are each
// other; a device node or a FIFO is written in place, never replaced (not being among a row's
// writes, a replacement would show as a change).
const std::vector<HostileInput> kOutputs = {
    {"json_into_a_null_device_copy", with("--json", "{dir}/null"), 0, "cpu ",
     device_copy("null", 3)},
    {"json_into_a_full_device_copy", with("--json", "{dir}/full"), 3,
     "writing report '{dir}/full' failed: No space left on device", device_copy("full", 7)},
    {"json_into_a_fifo_with_a_reader", with("--json", "{dir}/fifo"), 0, "cpu ",
     fifo_with_reader("fifo")},
    {"json_a_folder", with("--json", "{dir}/sub"), 2, "--json '{dir}/sub': it is a folder",
     folder("sub")},
    {"json_a_socket", with("--json", "{dir}/sock"), 2, "it is a socket", unix_socket("sock")},
    {"json_under_proc_self", with("--json", "/proc/self/x.json"), 2,
     "--json '/proc/self/x.json': folder '/proc/self' is on procfs"},
    {"json_a_proc_file", with("--json", "/proc/self/status"), 2, "it is on procfs"},
    {"json_under_sys", with("--json", "/sys/x.json"), 2, "is on sysfs"},
    {"json_stdout_onto_a_file", with("--json", "/dev/stdout"), 2, "reached through /proc"},
    {"json_in_read_only_folder", with("--json", "{dir}/ro/out.json"), 2, "Permission denied",
     non_root(both(folder("ro"), chmod("ro", fs::perms::owner_read | fs::perms::owner_exec)))},
    {"json_read_only_file", with("--json", "{dir}/ro.json"), 2, "Permission denied",
     non_root(both(text("ro.json", "{}"), chmod("ro.json", fs::perms::owner_read)))},
    {"json_name_too_long", with("--json", "{dir}/" + std::string(300, 'x') + ".json"), 2,
     "File name too long"},
    {"json_path_too_long", with("--json", "{dir}/" + std::string(5000, 'x')), 2,
     "File name too long"},
    {"json_trailing_slash", with("--json", "{dir}/out/"), 2, "ends with '/', so it names a folder"},
    {"json_empty", with("--json", ""), 2, "--json '': the file name is empty"},
    {"json_in_a_missing_folder", with("--json", "{dir}/no/out.json"), 2,
     "folder '{dir}/no' does not exist; create it first"},
    {"json_under_a_file", with("--json", "{dir}/base.json/out.json"), 2, "Not a directory"},
    {"json_replaces_an_old_file", with("--json", "{dir}/out.json"), 0, "cpu ",
     text("out.json", "old"), {"out.json"}},
    {"stdout_a_full_device_copy", bench(), 3,
     "mishbench: cannot print the result table on stdout: No space left on device",
     device_copy("full", 7), {}, "{dir}/full"},
    {"dump_written", with("--dump", "{dir}/dump"), 0, "cpu ", nullptr, {"dump/"}},
    {"dump_onto_a_file", with("--dump", "{dir}/base.json"), 2,
     "--dump '{dir}/base.json': it exists and is not a folder"},
    {"dump_under_a_file", with("--dump", "{dir}/base.json/d"), 2, "Not a directory"},
    {"dump_empty", with("--dump", ""), 2, "--dump '': the folder name is empty"},
    {"dump_in_a_missing_folder", with("--dump", "{dir}/no/d"), 2, "folder '{dir}/no' does not"},
    {"dump_under_proc", with("--dump", "/proc/self/d"), 2, "is on procfs"},
    {"dump_file_a_folder", with("--dump", "{dir}/dump"), 2,
     "--dump '{dir}/" + kDumpFolder + "/x.npy': it is a folder", folder(kDumpFolder + "/x.npy")},
    {"dump_file_a_socket", with("--dump", "{dir}/dump"), 2, "it is a socket",
     both(folder(kDumpFolder), unix_socket(kDumpFolder + "/y_cpu.npy"))},
    {"dump_file_a_null_device_copy", with("--dump", "{dir}/dump"), 0, "cpu ",
     both(folder(kDumpFolder), device_copy(kDumpFolder + "/x.npy", 3)),
     {kDumpFolder + "/problem.json", kDumpFolder + "/w.npy", kDumpFolder + "/b.npy",
      kDumpFolder + "/y_reference.npy", kDumpFolder + "/y_cpu.npy"}},
    // Inputs that collide with an output, as the same file under any name.
    {"json_is_the_config", with_config({"--json", "{dir}/c.json"}), 2,
     "--json '{dir}/c.json': is the same file as the input '{dir}/c.json'", config("{}")},
    {"json_is_the_config_spelled_otherwise", with_config({"--json", "{dir}/./c.json"}), 2,
     "is the same file as the input '{dir}/c.json'", config("{}")},
    {"json_is_a_symlink_to_the_config", with_config({"--json", "{dir}/link.json"}), 2,
     "--json '{dir}/link.json': is the same file as the input",
     both(config("{}"), symlink("c.json", "link.json"))},
    {"json_is_a_hard_link_to_the_config", with_config({"--json", "{dir}/hard.json"}), 2,
     "is the same file as the input '{dir}/c.json'",
     both(config("{}"), hard_link("c.json", "hard.json"))},
    {"config_is_a_symlink_to_the_json", bench({"--config", "{dir}/l.json", "--json",
                                               "{dir}/c.json"}),
     2, "is the same file as the input '{dir}/l.json'",
     both(config("{}"), symlink("c.json", "l.json"))},
    {"json_is_a_plugin", bench({"--plugin", "{dir}/p.so", "--json", "{dir}/p.so"}), 2,
     "--json '{dir}/p.so': is the same file as the input '{dir}/p.so'", host_plugin_copy("p.so")},
    {"json_is_a_plugin_through_a_link",
     bench({"--plugin", "{dir}/p.so", "--json", "{dir}/p.json"}), 2,
     "is the same file as the input '{dir}/p.so'",
     both(host_plugin_copy("p.so"), symlink("p.so", "p.json"))},
    {"dump_would_overwrite_the_config",
     bench({"--config", "{dir}/" + kDumpFolder + "/problem.json", "--dump", "{dir}/dump"}), 2,
     "--dump '{dir}/" + kDumpFolder + "/problem.json': is the same file as the input",
     both(folder(kDumpFolder), text(kDumpFolder + "/problem.json", "{}"))},
    {"dump_would_overwrite_a_plugin",
     bench({"--plugin", "{dir}/" + kDumpFolder + "/x.npy", "--dump", "{dir}/dump"}), 2,
     "x.npy': is the same file as the input", host_plugin_copy(kDumpFolder + "/x.npy")},
    {"json_is_a_dump_file",
     bench({"--json", "{dir}/" + kDumpFolder + "/w.npy", "--dump", "{dir}/dump"}), 2,
     "--json '{dir}/" + kDumpFolder + "/w.npy' is also written by --dump", folder(kDumpFolder)},
    {"json_is_a_problem_folder_of_the_dump",
     bench({"--json", "{dir}/" + kDumpFolder, "--dump", "{dir}/dump"}), 2,
     "--json '{dir}/" + kDumpFolder + "' is the folder --dump '{dir}/dump' creates for problem "
     "8x16x32; give another file",
     folder("dump")},
    {"json_is_a_problem_folder_of_the_dump_spelled_otherwise",
     bench({"--json", "{dir}/./dump/./8x16x32-kernelbench-seed42", "--dump", "{dir}/dump/"}), 2,
     "is the folder --dump '{dir}/dump/' creates", folder("dump")},
    {"json_is_the_dump_folder_to_be", bench({"--json", "{dir}/out", "--dump", "{dir}/out"}), 2,
     "--json '{dir}/out' is also written by --dump '{dir}/out'"},
    {"dump_is_the_config", with_config({"--dump", "{dir}/c.json"}), 2, "is not a folder",
     config("{}")},
    // An output turned into a link to an input after the start-up check (by a plugin, during the
    // run): refused when it is opened (the report after the run: its table goes to /dev/null
    // here; a backend's dump file is that backend's error), and the input is left as it was.
    {"json_swapped_for_a_link_to_the_config",
     with_config({"--plugin", test_plugin("swaps_output"), "--backend", "swaps-output",
                  "--backend-option", "swaps-output.link={dir}/out.json", "--backend-option",
                  "swaps-output.to={dir}/c.json", "--json", "{dir}/out.json"}),
     2, "cannot write report '{dir}/out.json': it is the same file as the input '{dir}/c.json'",
     config("{}"), {"out.json"}, "/dev/null"},
    {"dump_file_swapped_for_a_link_to_the_plugin",
     bench({"--plugin", "{dir}/p.so", "--backend", "swaps-output", "--backend-option",
            "swaps-output.link={dir}/" + kDumpFolder + "/y_swaps-output.npy", "--backend-option",
            "swaps-output.to={dir}/p.so", "--dump", "{dir}/dump"}),
     1, "y_swaps-output.npy': it is the same file as the input '{dir}/p.so'",
     plugin_copy("swaps_output", "p.so"), {"dump/"}},
};

// ---- Standard streams that cannot be written: what is printed there is lost, the run is not.
const std::vector<HostileInput> kStreams = {
    {"stderr_closed", loud({"--json", "{dir}/out.json"}), 0, "cpu ", nullptr, {"out.json"}, {},
     {}, {2}},
    {"stderr_full", loud({"--json", "{dir}/out.json"}), 0, "cpu ", device_copy("full", 7),
     {"out.json"}, {}, "{dir}/full"},
    {"stderr_closed_on_a_refusal", with("--m", "nan"), 2, "", nullptr, {}, {}, {}, {2}},
    {"stderr_full_on_a_refusal", with("--m", "nan"), 2, "", device_copy("full", 7), {}, {},
     "{dir}/full"},
    {"stderr_closed_when_the_report_fails", loud({"--json", "{dir}/full"}), 3, "",
     device_copy("full", 7), {}, {}, {}, {2}},
    // Writes that fail with EPIPE or EFBIG, not by a signal: what could be written is, the rest
    // is cleaned up, and the exit code says what failed.
    {"stdout_a_pipe_without_reader", with("--json", "{dir}/out.json"), 3,
     "mishbench: cannot print the result table on stdout: Broken pipe", nullptr, {"out.json"},
     "|"},
    {"list_backends_onto_a_pipe_without_reader", {"--list-backends"}, 3,
     "mishbench: cannot print on stdout: Broken pipe", nullptr, {}, "|"},
    {"version_onto_a_full_device_copy", {"--version"}, 3,
     "mishbench: cannot print on stdout: No space left on device", device_copy("full", 7), {},
     "{dir}/full"},
    {"json_past_the_file_size_limit", with("--json", "{dir}/out.json"), 3,
     "writing report '{dir}/out.json' failed: File too large; the file is left as it was",
     text("out.json", "old"), {}, {}, {}, {}, {{RLIMIT_FSIZE, 4096}}},
    {"dump_past_the_file_size_limit", with("--dump", "{dir}/dump"), 3,
     "failed: File too large; the file is left as it was", nullptr, {"dump/"}, {}, {}, {},
     {{RLIMIT_FSIZE, 1024}}},
    // A closed descriptor's number is not given to a file the run opens: neither the problem's
    // inputs nor the worker's socket receive what was meant for the stream.
    {"honest_plugin_with_stdin_and_stdout_closed",
     with_plugin("honest_host", {"--backend", "honest-host", "--json", "{dir}/out.json"}), 3,
     "mishbench: cannot print the result table on stdout: Bad file descriptor", nullptr,
     {"out.json"}, {}, {}, {0, 1}},
};

// ---- Untrusted strings: echoed escaped (once) and cut, on one line.
const std::vector<HostileInput> kStrings = {
    {"backend_with_newline", with("--backend", "cpu\n# fake"), 2,
     "mishbench: unknown backend 'cpu\\n# fake'; known backends: "},
    {"backend_with_escape_sequence", with("--backend", "\x1b[2Jcpu"), 2,
     "unknown backend '\\x1b[2Jcpu'"},
    {"backend_with_pipe", with("--backend", "cpu|x"), 2, "unknown backend 'cpu|x'"},
    {"backend_with_backslash", with("--backend", "a\\nb"), 2, "unknown backend 'a\\\\nb'"},
    {"backend_with_bidi_override", with("--backend", "a\u202eb"), 2, "'a\\u202eb'"},
    {"backend_invalid_utf8", with("--backend", "cpu\xff"), 2, "unknown backend 'cpu\\xff'"},
    {"backend_of_100_kb", with("--backend", std::string(100'000, 'b')), 2,
     "… (100000 bytes)'; known backends"},
    {"backend_of_10_mb_in_a_config", from_config("--backend"), 2,
     "unknown backend '" + std::string(80, 'x') + "… (10000000 bytes)'; known backends",
     repeated_text("c.json", "{\"backends\": \"", 10'000'000, 'x', "\"}")},
    {"backend_with_nul_in_a_config", from_config("--backend"), 2, "unknown backend 'a\\x00b'",
     config("{\"backends\": \"a\\u0000b\"}")},
    {"backend_list_with_nul_in_a_config", from_config("--backend"), 2,
     "unknown backend 'a\\x00b'", config("{\"backends\": [\"cpu\", \"a\\u0000b\"]}")},
    {"distribution_with_control_character", with("--distribution", "a\x01" "b"), 2,
     "--distribution: unknown value 'a\\x01b'; choose one of: kernelbench, normal"},
    {"distribution_with_nul_in_a_config", with_config(), 2,
     "problem: 'distribution': unknown value 'a\\x00b'",
     config("{\"problem\": {\"distribution\": \"a\\u0000b\"}}")},
    {"l2_with_escape", with("--l2", "\x1b[31mhot"), 2, "--l2: unknown value '\\x1b[31mhot'"},
    {"isolate_with_newline", with("--isolate", "all\nnone"), 2, "'all\\nnone'; choose one of"},
    {"plugin_path_with_newline", with_plugin_path("{dir}/x\ny.so"), 2,
     "plugin '{dir}/x\\ny.so' does not exist"},
    {"plugin_path_with_escape", with_plugin_path("{dir}/\x1b[31m.so"), 2,
     "plugin '{dir}/\\x1b[31m.so' does not exist"},
    {"config_path_with_newline", with("--config", "{dir}/a\nb.json"), 2,
     "cannot read config '{dir}/a\\nb.json'"},
    {"json_path_with_escape", with("--json", "{dir}/\x1b[2J/x.json"), 2,
     "--json '{dir}/\\x1b[2J/x.json': folder '{dir}/\\x1b[2J' does not exist"},
    {"config_unknown_key_with_newline", with_config(), 2, "unknown key 'a\\nb'",
     config("{\"a\\nb\": 1}")},
    {"config_unknown_key_with_nul", with_config(), 2, "unknown key 'a\\x00b'",
     config("{\"a\\u0000b\": 1}")},
    {"config_wrong_type_quotes_json", with_config(), 2,
     "'iters' must be an integer, got \"a\\u0000\\u202e\"",
     config("{\"iters\": \"a\\u0000\\u202e\"}")},
    {"backend_option_for_a_name_with_nul", with_config(), 2,
     "backend option for unknown backend 'a\\x00b'",
     config("{\"backend_options\": {\"a\\u0000b\": {}}}")},
    {"backend_option_key_with_nul", with_config(), 2,
     "backend 'naive' takes no options (got 'a\\x00b')",
     config("{\"backend_options\": {\"naive\": {\"a\\u0000b\": 1}}}")},
    {"backend_option_value_invalid_utf8", with("--backend-option", "fp16x3.chunks=\xff"), 2,
     "fp16x3.chunks must be an integer from 1 to 64, got \"\\ufffd\""},
    {"backend_option_with_escape", with("--backend-option", "\x1b[2J"), 2,
     "--backend-option '\\x1b[2J' must look like NAME.KEY=VALUE"},
};


// ---- Plugins: untrusted libraries, refused with exit 2 and one line before any work; a backend
// that crashes in its worker is an error of that backend (exit 1), never of the tool.
const std::vector<HostileInput> kPlugins = {
    {"plugin_missing", with_plugin_path("{dir}/missing.so"), 2,
     "plugin '{dir}/missing.so' does not exist: check the path given to --plugin"},
    {"plugin_empty_path", with_plugin_path(""), 2, "--plugin: a plugin path is empty"},
    {"plugin_a_folder", with_plugin_path("{dir}/sub"), 2,
     "plugin '{dir}/sub' is a directory, not a shared library", folder("sub")},
    {"plugin_a_fifo", with_plugin_path("{dir}/fifo"), 2,
     "plugin '{dir}/fifo' is not a regular file (a FIFO, a device or a socket)", fifo("fifo")},
    {"plugin_a_null_device_copy", with_plugin_path("{dir}/null"), 2, "is not a regular file",
     device_copy("null", 3)},
    {"plugin_a_socket", with_plugin_path("{dir}/sock"), 2, "is not a regular file",
     unix_socket("sock")},
    {"plugin_empty_file", with_plugin_path("{dir}/empty.so"), 2,
     "is not a shared library (no ELF header)", text("empty.so", "")},
    {"plugin_a_text_file", with_plugin("text_file"), 2, "is not a shared library (no ELF header)"},
    {"plugin_truncated_elf", with_plugin_path("{dir}/cut.so"), 2, "is a truncated ELF file",
     text("cut.so", std::string("\x7f" "ELF\x02\x01\x01") + std::string(10, '\0'))},
    {"plugin_unreadable", with_plugin_path("{dir}/p.so"), 2, "cannot read plugin",
     non_root(both(host_plugin_copy("p.so"), chmod("p.so", fs::perms::none)))},
    {"plugin_wrong_abi", with_plugin("wrong_abi"), 2,
     "was built against plugin ABI version 2, but this mishbench reads version 1"},
    {"plugin_no_entry", with_plugin("no_entry"), 2, "does not export mishbench_plugin_entry"},
    {"plugin_cxx_entry", with_plugin("cxx_entry"), 2,
     "defines mishbench_plugin_entry with C++ linkage"},
    {"plugin_undefined_symbol", with_plugin("undefined_symbol"), 2,
     "undefined symbol: mishtest_function_nobody_defines"},
    {"plugin_clashes_with_a_builtin", with_plugin("clash_fused"), 2,
     "has a backend named 'fused', which a built-in backend already has"},
    {"plugin_duplicate_names", with_plugin("duplicate_names"), 2, "are both named 'twin'"},
    {"plugin_invalid_name", with_plugin("invalid_name"), 2, "name 'My Kernel' is not valid"},
    {"plugin_given_twice", with_plugin("honest_host", {"--plugin", test_plugin("honest_host")}),
     2, "has a backend named 'honest-host', which '"},
    {"plugin_in_process_wrong_abi", with_plugin("wrong_abi", {"--isolate", "none"}), 2,
     "was built against plugin ABI version 2"},
    {"plugin_in_process_text_file", with_plugin("text_file", {"--isolate", "none"}), 2,
     "no ELF header"},
    {"plugin_crashes_at_load", with_plugin("crash_at_load"), 2,
     "could not be loaded: the worker died in loading the plugin: signal 11"},
    {"list_backends_with_a_plugin_that_crashes_at_load",
     {"--list-backends", "--plugin", test_plugin("crash_at_load")}, 2,
     "the worker died in loading the plugin"},
    {"plugin_crashes_in_run", with_plugin("segfault", {"--backend", "segfault"}), 1,
     "segfault error: the worker died in the timed series: signal 11"},
    {"plugin_aborts_in_setup", with_plugin("abort_setup", {"--backend", "abort-setup"}), 1,
     "the worker died in setup(): signal 6"},
    {"plugin_reports_an_error", with_plugin("error_message", {"--backend", "error-message"}), 1,
     "run(): the tile configuration does not fit this problem"},
    // A failing call of the worker's own is named once, as in the tool's process.
    {"plugin_setup_error_names_the_call_once",
     with_plugin("honest_host",
                 {"--backend", "honest-host", "--backend-option", "honest-host.unroll=4"}),
     1, "honest-host error: setup(): unknown option 'unroll'; honest-host takes: label\n"},
    {"plugin_prints_on_stdout", with_plugin("prints_stdout", {"--backend", "prints-stdout"}), 0,
     "prints-stdout ok"},
    {"plugin_backend_not_selected_still_checked", with_plugin("invalid_name"), 2,
     "is not valid"},
    {"list_backends_with_a_bad_plugin", {"--list-backends", "--plugin", test_plugin("wrong_abi")},
     2, "was built against plugin ABI version 2"},
    {"list_backends_with_a_good_plugin", {"--list-backends", "--plugin", MISHBENCH_HOST_PLUGIN}, 0,
     "host-loops    host   plugin"},
    {"list_backends_with_a_missing_plugin", {"--list-backends", "--plugin", "{dir}/no.so"}, 2,
     "does not exist"},
};

// ---- The command line itself.
const std::vector<HostileInput> kFlags = {
    {"unknown_flag", bench({"--bogus"}), 2,
     "mishbench: unknown flag '--bogus'; see mishbench --help"},
    {"unknown_flag_with_value", bench({"--bogus=1", "-x"}), 2,
     "unknown flag '--bogus=1' and 1 more: '-x'"},
    {"unknown_flag_with_escape", bench({"--\x1b[2J"}), 2, "unknown flag '--\\x1b[2J'"},
    {"flag_of_another_command", bench({"--alpha", "0.1"}), 2, "unknown flag '--alpha'"},
    {"flag_without_its_value", bench({"--m"}), 2, "--m needs a value (INT); see mishbench --help"},
    {"json_without_its_value", bench({"--json"}), 2, "--json needs a value (FILE)"},
    {"backend_without_its_value", bench({"--backend="}), 2, "--backend needs a value (NAMES)"},
    {"value_given_twice", bench({"--m", "1", "--m", "2"}), 2, "--m is given 2 times; give it once"},
    {"value_given_twice_in_two_spellings", bench({"--backend", "cpu", "--backends", "cpu"}), 2,
     "--backend is given 2 times; give it once"},
    {"config_given_twice", bench({"--config", "{dir}/c.json", "--config", "{dir}/c.json"}), 2,
     "--config is given 2 times; give it once", config("{}")},
    {"stray_words", bench({"stray", "words"}), 2,
     "unexpected argument 'stray' and 1 more: 'words'; see mishbench --help"},
    {"stray_second_value", bench({"--n", "16", "32"}), 2, "unexpected argument '32'"},
    {"many_stray_words", bench({"a", "b", "c", "d", "e", "f"}), 2,
     "unexpected argument 'a' and 5 more: 'b' 'c' 'd' ..."},
    {"stray_empty_word", bench({""}), 2, "unexpected argument ''"},
    {"misspelt_command", {"comapre", "{dir}/base.json", "{dir}/new.json"}, 2,
     "unexpected argument 'comapre' and 2 more"},
    {"compare_with_a_third_report", {"compare", "{dir}/base.json", "{dir}/new.json", "x"}, 2,
     "unexpected argument 'x'; see mishbench compare --help"},
    {"compare_json_twice",
     {"compare", "{dir}/base.json", "{dir}/new.json", "--json", "{dir}/a", "--json", "{dir}/b"}, 2,
     "--json is given 2 times; give it once; see mishbench compare --help"},
    {"compare_switch_with_a_value",
     {"compare", "{dir}/base.json", "{dir}/new.json", "--allow-device-mismatch=3"}, 2,
     "is a switch and takes no value"},
    {"switch_with_a_value", bench({"--quiet=maybe"}), 2,
     "--quiet is a switch and takes no value; see mishbench --help"},
    {"switch_turned_off_by_a_value", bench({"--graph=false"}), 2,
     "--graph is a switch and takes no value"},
    {"switch_given_twice_accepted", bench({"-q", "--quiet"}), 0, "cpu "},
    {"all_with_names", with("--backend", "all,cpu"), 2,
     "--backend=all cannot be combined with other names"},
    {"empty_item_last", with("--backend", "cpu,"), 2, "--backend has an empty name in its list"},
    {"blank_item", with("--backend", " "), 2, "has an empty name in its list"},
    {"backend_twice", with("--backend", "cpu,cpu"), 2, "backend 'cpu' is listed twice"},
    {"backend_case_differs", with("--backend", "CPU"), 2,
     "unknown backend 'CPU' (did you mean 'cpu'?); known backends: naive, separate, fused"},
    {"isolate_bogus", with("--isolate", "bogus"), 2,
     "--isolate: unknown value 'bogus'; choose one of: auto, all, none"},
    {"l2_bogus", with("--l2", "cold"), 2, "--l2: unknown value 'cold'; choose one of: flush, hot"},
    {"distribution_bogus", with("--distribution", "cauchy"), 2,
     "--distribution: unknown value 'cauchy'"},
    {"backend_option_without_key", with("--backend-option", "chunks=4"), 2,
     "--backend-option 'chunks=4' must look like NAME.KEY=VALUE"},
    {"backend_option_for_a_backend_without_options", with("--backend-option", "naive.x=1"), 2,
     "backend 'naive' takes no options (got 'x')"},
    {"backend_option_for_an_unknown_backend", with("--backend-option", "nope.x=1"), 2,
     "backend option for unknown backend 'nope'"},
    {"backend_option_out_of_range", with("--backend-option", "fp16x3.chunks=99"), 2,
     "fp16x3.chunks must be an integer from 1 to 64, got 99"},
    {"backend_option_unknown_key", with("--backend-option", "fp16x3.chunk=2"), 2,
     "backend 'fp16x3' has no option 'chunk'; its option is chunks"},
    {"list_backends_with_a_value", {"--list-backends=yes"}, 2,
     "--list-backends is a switch and takes no value"},
    {"list_backends_with_a_bad_number", {"--list-backends", "--m", "nan"}, 2,
     "--m: 'nan' is not a decimal integer"},
    {"version_with_junk", {"--version", "junk"}, 2, "unexpected argument 'junk'"},
    {"version_with_a_value", {"--version=2"}, 2, "--version is a switch and takes no value"},
    {"version_accepted", {"--version"}, 0, "mishbench "},
};

INSTANTIATE_TEST_SUITE_P(Numbers, Hostile, ::testing::ValuesIn(number_rows()), row_name);
INSTANTIATE_TEST_SUITE_P(NumberEdges, Hostile, ::testing::ValuesIn(kNumberEdges), row_name);
INSTANTIATE_TEST_SUITE_P(ConfigFiles, Hostile, ::testing::ValuesIn(kConfigFiles), row_name);
INSTANTIATE_TEST_SUITE_P(MainOutputs, Hostile, ::testing::ValuesIn(kOutputs), row_name);
INSTANTIATE_TEST_SUITE_P(MainStreams, Hostile, ::testing::ValuesIn(kStreams), row_name);
INSTANTIATE_TEST_SUITE_P(MainStrings, Hostile, ::testing::ValuesIn(kStrings), row_name);
INSTANTIATE_TEST_SUITE_P(Plugins, Hostile, ::testing::ValuesIn(kPlugins), row_name);
INSTANTIATE_TEST_SUITE_P(MainFlags, Hostile, ::testing::ValuesIn(kFlags), row_name);

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Numbers accepted as decimal reach the report as the values they are.
TEST(HostileOutputsHold, MainReportHoldsNumbersAsDecimal) {
  const fs::path dir =
      fs::temp_directory_path() / ("mish_hostile_main_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const ProcessResult r = run_mishbench(
      bench({"--iters", "010", "--seed", "010", "--atol", "00.5", "--min-time", "-0", "--json",
             (dir / "r.json").string()}),
      dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(read_text(dir / "r.json"));
  EXPECT_EQ(report["settings"]["iters"], 10);
  EXPECT_EQ(report["results"][0]["problem"]["seed"], 10);
  EXPECT_EQ(report["settings"]["atol"], 0.5);
  EXPECT_FALSE(std::signbit(report["settings"]["min_time_s"].get<double>()));
  fs::remove_all(dir);
}

// A problem whose float64 reference cannot have the address space it needs (ulimit -v): refused
// at start with exit 3 and the figures, instead of OpenBLAS retrying its allocation forever.
TEST(HostileMemory, AProblemTooLargeForTheAddressSpaceIsRefusedAtStart) {
  const fs::path dir =
      fs::temp_directory_path() / ("mish_hostile_memory_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string fifo = (dir / "waits.json").string();
  const size_t start = address_space_at_start(bench({"--config", fifo}), fifo, dir.string());
  ASSERT_GT(start, 0u) << "could not measure mishbench's address space at start";
  ProcessOptions options;
  options.limits = {{RLIMIT_AS, start + (128u << 20)}};
  options.timeout_seconds = 30;
  const ProcessResult r = run_mishbench(
      bench({"--m", "2048", "--n", "2048", "--k", "2048"}), dir.string(), options);
  ASSERT_FALSE(r.timed_out) << "hung";
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.err.rfind("mishbench: not enough address space for problem 2048x2048x2048: the "
                        "run needs about ", 0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find("and the limit (ulimit -v) leaves "), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  fs::remove_all(dir);
}

// With stdout a pipe whose reader has gone, the report is written all the same.
TEST(HostileOutputsHold, MainReportIsWrittenWhenStdoutHasNoReader) {
  const fs::path dir =
      fs::temp_directory_path() / ("mish_hostile_pipe_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ProcessOptions options;
  options.stdout_reader_gone = true;
  const ProcessResult r =
      run_mishbench(bench({"--json", (dir / "r.json").string()}), dir.string(), options);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(json::parse(read_text(dir / "r.json"))["results"][0]["status"], "ok");
  fs::remove_all(dir);
}

// A plugin that calls exit(0) while it loads: in the tool's own process that is a failure of the
// run, said on stderr, not a silent success; in a worker, a plugin that could not be loaded.
TEST(HostileInProcess, APluginThatExitsWhileLoadingIsAFailure) {
  const fs::path dir =
      fs::temp_directory_path() / ("mish_hostile_exit_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const ProcessResult in_process =
      run_mishbench(with_plugin("exits_at_load", {"--isolate", "none"}), dir.string());
  EXPECT_EQ(in_process.exit_code, 1) << in_process.err;
  EXPECT_EQ(in_process.err,
            "mishbench: something in this process (a plugin loaded with --isolate none?) called "
            "exit() before mishbench finished; no result is reported\n");
  const ProcessResult isolated = run_mishbench(with_plugin("exits_at_load"), dir.string());
  EXPECT_EQ(isolated.exit_code, 2) << isolated.err;
  EXPECT_NE(isolated.err.find("could not be loaded: the worker died in loading the plugin"),
            std::string::npos)
      << isolated.err;
  fs::remove_all(dir);
}

// A plugin that changes the working folder while it loads into the tool: relative outputs go
// where they were named, in the folder mishbench was started in.
TEST(HostileInProcess, APluginThatChangesTheWorkingFolderMovesNoOutput) {
  const fs::path dir =
      fs::temp_directory_path() / ("mish_hostile_chdir_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string report = "mish_hostile_chdir_" + std::to_string(::getpid()) + ".json";
  const std::string dump = "mish_hostile_chdir_dump_" + std::to_string(::getpid());
  ProcessOptions options;
  options.working_folder = dir.string();
  const ProcessResult r = run_mishbench(
      with_plugin("changes_folder", {"--isolate", "none", "--json", report, "--dump", dump}),
      dir.string(), options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(dir / report));
  EXPECT_TRUE(fs::is_regular_file(dir / dump / "8x16x32-kernelbench-seed42" / "x.npy"));
  EXPECT_FALSE(fs::exists(fs::path("/") / report));
  EXPECT_FALSE(fs::exists(fs::path("/") / dump));
  fs::remove(fs::path("/") / report);
  fs::remove_all(fs::path("/") / dump);
  fs::remove_all(dir);
}

// A plugin's helper that leaves the worker's session (setsid) and keeps its stdout, stderr and
// socket open: the run ends as if it were not there, and the helper ends with the worker.
class HostileDescendant : public ::testing::TestWithParam<std::string> {};

TEST_P(HostileDescendant, EndsWithTheWorkerAndHoldsNothingUp) {
  const fs::path dir = fs::temp_directory_path() /
                       ("mish_hostile_stranger_" + std::to_string(::getpid()) + GetParam());
  fs::remove_all(dir);
  fs::create_directories(dir);
  const bool crash = GetParam() == "then_crash";
  std::vector<std::string> more = {
      "--plugin", test_plugin("leaves_a_stranger"), "--backend", "leaves-a-stranger",
      "--backend-option", "leaves-a-stranger.pid_file=" + (dir / "stranger.pid").string()};
  if (crash) more.insert(more.end(), {"--backend-option", "leaves-a-stranger.then=crash"});
  ProcessOptions options;
  options.timeout_seconds = 30;
  const ProcessResult r = run_mishbench(bench(more), dir.string(), options);
  EXPECT_FALSE(r.timed_out) << "hung on what the stranger holds";
  if (crash) {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.out.find("the worker died in the timed series: signal 11"), std::string::npos)
        << r.out;
  } else {
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  std::ifstream in(dir / "stranger.pid");
  pid_t stranger = 0;
  ASSERT_TRUE(in >> stranger) << "the plugin did not start its helper";
  const bool alive = ::kill(stranger, 0) == 0;
  EXPECT_FALSE(alive) << "the stranger " << stranger << " outlived the run";
  if (alive) ::kill(stranger, SIGKILL);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Strangers, HostileDescendant,
                         ::testing::Values("then_verify", "then_crash"),
                         [](const auto& info) { return info.param; });

// A multi-problem config with flags that set every problem (here the seed): the report is one that
// compare and merge take.
TEST(HostileOutputsHold, MultiProblemConfigWithFlagsGivesAReportCompareAndMergeTake) {
  const fs::path dir =
      fs::temp_directory_path() / ("mish_hostile_problems_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "c.json") << R"({"problems": [{"m": 8}, {"m": 16}]})";
  const std::string report = (dir / "r.json").string();
  const ProcessResult r = run_mishbench(
      bench({"--config", (dir / "c.json").string(), "--seed", "7", "--json", report}, {"--m"}),
      dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ProcessResult compared = run_mishbench({"compare", report, report}, dir.string());
  EXPECT_EQ(compared.exit_code, 0) << compared.err;
  const ProcessResult merged = run_mishbench({"merge", report}, dir.string());
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  fs::remove_all(dir);
}

// A signal while the run is blocked writing an output (a FIFO nobody opened for reading, which
// a report or a dump file waits on) or while a backend runs: one line says what was interrupted,
// no temporary file is left, the FIFO is still a FIFO, and the tool dies of that signal.
struct Interrupt {
  std::string name;
  std::vector<std::string> args;
  std::string fifo;  // relative to the scratch folder; empty: none
  int signal_number;
  std::string says;
};

class HostileInterrupt : public ::testing::TestWithParam<Interrupt> {};

// Whether `pid` sleeps in the kernel's wait for the other end of a FIFO.
bool waits_on_a_fifo(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/wchan");
  std::string where;
  in >> where;
  return where == "wait_for_partner";
}

TEST_P(HostileInterrupt, LeavesNothingBehind) {
  const Interrupt& row = GetParam();
  const fs::path dir =
      fs::temp_directory_path() / ("mish_hostile_signal_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / kDumpFolder);
  if (!row.fifo.empty()) ASSERT_EQ(fifo(row.fifo)(dir), "");
  std::vector<std::string> args;
  for (const std::string& arg : row.args) args.push_back(with_dir(arg, dir.string()));
  ProcessOptions options;
  bool signalled = false;
  options.while_running = [&](pid_t pid) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    const std::string err = (dir / ".mishbench-stderr").string();
    while (std::chrono::steady_clock::now() < deadline) {
      const bool ready = row.fifo.empty() ? read_text(err).find("verifying") != std::string::npos
                                          : waits_on_a_fifo(pid);
      if (ready) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    signalled = ::kill(pid, row.signal_number) == 0;
  };
  const ProcessResult r = run_mishbench(args, dir.string(), options);
  ASSERT_TRUE(signalled);
  EXPECT_EQ(r.signal_number, row.signal_number) << r.err;
  EXPECT_NE(r.err.find(with_dir(row.says, dir.string())), std::string::npos) << r.err;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(name.find(".tmp."), std::string::npos) << "left behind: " << entry.path();
    if (!row.fifo.empty() && entry.path() == dir / row.fifo)
      EXPECT_TRUE(fs::is_fifo(entry.symlink_status())) << "the FIFO was replaced";
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Signals, HostileInterrupt,
    ::testing::Values(
        Interrupt{"term_while_writing_the_report", bench({"--json", "{dir}/fifo"}), "fifo",
                  SIGTERM,
                  "mishbench: interrupted while writing report '{dir}/fifo'; what it received is "
                  "incomplete\n"},
        Interrupt{"usr1_while_writing_the_report", bench({"--json", "{dir}/fifo"}), "fifo",
                  SIGUSR1,
                  "mishbench: interrupted while writing report '{dir}/fifo'; what it received is "
                  "incomplete\n"},
        Interrupt{"int_while_writing_a_dump_file", bench({"--dump", "{dir}/dump"}),
                  kDumpFolder + "/x.npy", SIGINT,
                  "mishbench: interrupted while writing dump file '{dir}/" + kDumpFolder +
                      "/x.npy'; what it received is incomplete\n"},
        Interrupt{"hup_while_a_backend_runs",
                  {"--plugin", test_plugin("hang"), "--backend", "hang", "--m", "8", "--n", "16",
                   "--k", "32", "--iters", "2", "--warmup", "0"},
                  "", SIGHUP, "mishbench: interrupted\n"}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace mish
