#include "app/cli/cli.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <system_error>

#include "app/cli/ab_command.h"
#include "app/cli/compare_command.h"
#include "app/cli/exit_guard.h"
#include "app/cli/merge_command.h"
#include "app/cli/out_of_memory.h"
#include "app/cli/parse_errors.h"
#include "app/worker/worker_command.h"
#include "backends/builtin/registry.h"
#include "backends/external/backend_table.h"
#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/common/version.h"
#include "base/cuda/cuda_check.cuh"
#include "base/env/host_memory.h"
#include "base/env/install_layout.h"
#include "base/io/output_file.h"
#include "base/io/standard_output.h"
#include "base/io/standard_streams.h"
#include "core/dump/dump.h"
#include "core/dump/npy.h"
#include "core/reference/reference.h"
#include "reports/export/run_outputs.h"
#include "reports/report/report.h"
#include "reports/report/table.h"
#include "run/runner.h"
#include "settings/run_config.h"
#include "settings/run_config.h"
#include "settings/settings.h"

namespace mish {
namespace {

// Messages quote values as given; past this length they are cut (one line, whatever the input).
constexpr size_t kMessageEchoLimit = 2000;

constexpr const char* kOutOfMemory = "mishbench: out of host memory; use smaller --m/--n/--k";

constexpr const char* kExamples = R"(
Examples:
  mishbench --backend=fused --iters=100          time one backend on the default problem
  mishbench --backend=all --json out.json        every backend, with a JSON report
  mishbench --backend=cpu --config configs/ci.json   host only, small shapes (no GPU needed)
  mishbench --backend=separate,fused --m 256 --seed 7 --dump dump/
  mishbench --backend=fp16x3 --backend-option fp16x3.chunks=4 --include-prepack
  mishbench --backend=fused --max-noise=0.5% --timeout=20   sample until the median is tight
  mishbench --backend=separate,fused --graph --l2=hot   add CUDA-graph replay timing, warm L2
  mishbench --solution model_new.py --backend=model_new,fused   a KernelBench solution file
  mishbench --backend=torch-eager,torch-compile   PyTorch itself (needs a python with torch)
  mishbench --list-backends
  mishbench compare base.json new.json            noise-aware comparison of two reports
  mishbench ab --base old/mishbench --new build/mishbench -- --backend=fused   interleaved A/B gate
  mishbench --devices all --backend=fused,wgmma   every GPU of the node, one after another
  mishbench merge node1.json node2.json > nodes.json   reports of several nodes as one

Exit codes: 0 all verified (reduced-precision backends such as tf32 may mismatch),
            1 a backend failed verification or errored,
            2 bad usage or input, 3 no CUDA device, not enough device or host memory.
)";

// The command line as given: the raw text of every setting's flag (checked after parsing, so
// that every message is ours), and the actions.
struct CommandLine {
  std::map<const Setting*, std::vector<std::string>> values;
  std::map<const Setting*, bool> switches;
  std::optional<std::string> config_path;
  bool list_backends = false;
  bool version = false;
};

std::string help_text(const Setting& s) {
  if (!s.show) return s.help;
  const nlohmann::json shown = s.show(RunConfig{});
  if (shown.is_null() || ((shown.is_object() || shown.is_array()) && shown.empty()) ||
      shown == false)
    return s.help;
  return fmt::format("{} (default {})", s.help,
                     shown.is_string() ? shown.get<std::string>() : shown.dump());
}

void add_flags(CLI::App& app, CommandLine& line) {
  for (const Setting& s : settings()) {
    if (s.flag.empty()) continue;
    const bool short_alias = s.alias.size() == 2;  // "-q" reads before "--quiet"
    const std::string names = s.alias.empty() ? s.flag
                              : short_alias   ? fmt::format("{},{}", s.alias, s.flag)
                                              : fmt::format("{},{}", s.flag, s.alias);
    if (s.kind == SettingKind::boolean) {
      app.add_flag(names, line.switches[&s], help_text(s))->disable_flag_override();
    } else {
      app.add_option(names, line.values[&s], help_text(s))
          ->type_name(s.value_name)
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
          ->expected(1)
          ->allow_extra_args(false);  // one value per occurrence; further words are stray
    }
  }
  app.add_option("--config", line.config_path,
                 "JSON config (problem and run settings); flags override it")
      ->type_name("FILE");
  app.add_flag("--list-backends", line.list_backends,
               "List the backends with where they run and where they come from, and exit")
      ->disable_flag_override();
  app.add_flag("--version", line.version, "Print the version and exit")->disable_flag_override();
}

// `path` made absolute against the working folder as it is now ("" and "-", standard output,
// stay as they are; so does a path when the working folder cannot be told).
std::string absolute_path(const std::string& path) {
  if (path.empty() || is_standard_output(path)) return path;
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return error ? path : absolute.string();
}

// Defaults, then the config file, then the flags given.
RunConfig build_config(const CommandLine& line) {
  RunConfig config;
  if (line.config_path) apply_config_file(*line.config_path, config);
  for (const auto& [setting, texts] : line.values) {
    if (texts.empty()) continue;
    if (texts.size() > 1 && !setting->repeatable)
      throw UsageError(fmt::format("{} is given {} times; give it once", setting->flag,
                                   texts.size()));
    for (const std::string& text : texts)
      apply_setting(*setting, parse_flag_value(*setting, text), setting->flag, config);
  }
  // A switch on the command line can only turn on what the file leaves off.
  for (const auto& [setting, on] : line.switches)
    if (on) apply_setting(*setting, true, setting->flag, config);
  validate(config);
  // Output paths resolved now, once: a plugin loaded into this process (--isolate none) may
  // change the working folder, and a relative --json or --dump must still name what it named.
  config.json_path = absolute_path(config.json_path);
  config.csv_path = absolute_path(config.csv_path);
  config.markdown_path = absolute_path(config.markdown_path);
  config.dump_dir = absolute_path(config.dump_dir);
  return config;
}

// Refuses, before any work, outputs that cannot be written, would overwrite an input or would
// overwrite each other (the report and a file of the dump).
void check_outputs(const RunConfig& config, const CommandLine& line, const BackendTable& chosen) {
  std::vector<std::string> inputs;
  if (line.config_path) inputs.push_back(*line.config_path);
  inputs.insert(inputs.end(), config.plugins.begin(), config.plugins.end());
  inputs.insert(inputs.end(), config.solutions.begin(), config.solutions.end());
  protect_inputs(inputs);
  check_run_outputs(config, inputs);
  if (config.dump_dir.empty()) return;
  // The report file, which no dump file may be ("-" is none).
  const std::string json = is_standard_output(config.json_path) ? "" : config.json_path;
  check_output_folder(config.dump_dir, "--dump");
  const auto refuse_json_in_dump = [&](const std::string& dumped) {
    throw UsageError(fmt::format("--json '{}' is also written by --dump '{}'; give another file",
                                 for_terminal(json, kPathEchoLimit),
                                 for_terminal(dumped, kPathEchoLimit)));
  };
  if (!json.empty() && same_output(json, config.dump_dir)) refuse_json_in_dump(config.dump_dir);
  std::vector<std::string> names;
  for (const BackendEntry& entry : chosen) names.push_back(entry.info.name);
  for (const Problem& problem : config.problems) {
    // The folder of the problem's files, which the dump creates (a report there is lost to it).
    const std::string folder = dump_folder_name(config.dump_dir, problem);
    if (!json.empty() && same_output(json, folder))
      throw UsageError(fmt::format("--json '{}' is the folder --dump '{}' creates for problem {}; "
                                   "give another file",
                                   for_terminal(json, kPathEchoLimit),
                                   for_terminal(config.dump_dir, kPathEchoLimit), problem.shape()));
    for (const std::string& file : dump_files(config.dump_dir, problem, names)) {
      if (!json.empty() && same_output(json, file)) refuse_json_in_dump(file);
      struct stat status {};
      if (::lstat(file.c_str(), &status) == 0) check_output_path(file, "--dump", inputs);
    }
  }
}

// The table on `out`; "" or why it could not be printed (stdout closed, a full disk).
std::string print_result_table(std::FILE* out, const RunOutcome& outcome,
                               const Tolerance& tolerance) {
  try {
    print_table(out, outcome, tolerance);
    print_node_summary(out, outcome);
  } catch (const std::system_error& error) {
    return error.code().message();
  }
  return std::fflush(out) == 0 ? "" : std::strerror(errno);
}

// What was printed on stdout reached it (it is buffered until now): kExitOk, else it throws.
int printed_on_stdout() {
  if (std::fflush(stdout) != 0)
    throw EnvironmentError(fmt::format("cannot print on stdout: {}", std::strerror(errno)));
  return kExitOk;
}

// The table, a backend that cannot run marked `error` with the reason. Exit 2 when one of them is
// a solution file the command line or config names (bad input), else 0.
int list_backends(const BackendTable& table, const RunConfig& config) {
  size_t width = 10;  // the name column: as wide as the longest name
  for (const BackendEntry& entry : table) width = std::max(width, for_terminal(entry.info.name).size());
  for (const BackendEntry& entry : table) {
    const BackendInfo& info = entry.info;
    fmt::print("{:<{}} {:<6} {:<8} {}{}\n", for_terminal(info.name), width,
               entry.unusable.empty() ? to_string(info.placement) : "error", info.origin.kind,
               for_terminal(info.summary, kMessageEchoLimit),
               info.origin.path.empty()
                   ? ""
                   : fmt::format(" [{}]", for_terminal(info.origin.path, kPathEchoLimit)));
  }
  int status = kExitOk;
  for (const std::string& named : config.solutions) {
    std::error_code error;
    const std::string path = std::filesystem::canonical(named, error).string();
    for (const BackendEntry& entry : table)
      if (!entry.unusable.empty() && entry.info.origin.path == path) {
        fmt::print(stderr, "mishbench: solution '{}' cannot be used: {}\n",
                   for_terminal(named, kPathEchoLimit),
                   for_terminal(entry.unusable, kMessageEchoLimit));
        status = kExitUsage;
      }
  }
  return status;
}

// Host memory a run holds at once for problem `p`: its inputs and those of the stale-output check
// (x drawn again, W and b copied), the float64 copies the reference is computed from, both float64
// references, and outputs read back.
double host_bytes_needed(const Problem& p) {
  const double inputs = 4.0 * double(p.x_count() + p.w_count() + uint64_t(p.n));
  return 2 * inputs + double(reference_copies_bytes(p)) + 24.0 * double(p.y_count());
}

double host_bytes_needed(const RunConfig& config) {
  double most = 0;
  for (const Problem& p : config.problems) most = std::max(most, host_bytes_needed(p));
  return most;
}

double gib(double bytes) { return bytes / double(1 << 30); }

// Refuses, before any work, a run whose largest problem cannot have the host memory it needs: past
// the limit of the address space (ulimit -v), OpenBLAS would retry its allocation forever inside
// the float64 reference, and past what the host has available, the run would be killed.
void check_host_memory(const RunConfig& config) {
  const HostMemoryLeft left = host_memory_left();
  for (const Problem& p : config.problems) {
    const double touched = host_bytes_needed(p);
    const double mapped = touched + double(blas_workspace_bytes(p));
    if (left.address_space && mapped > double(*left.address_space))
      throw EnvironmentError(fmt::format(
          "not enough address space for problem {}: the run needs about {:.2f} GiB more (inputs, "
          "float64 reference and copies, outputs, OpenBLAS's buffers), and the limit (ulimit -v) "
          "leaves {:.2f} GiB; raise the limit or use smaller --m/--n/--k",
          p.shape(), gib(mapped), gib(double(*left.address_space))));
    if (left.available && touched > double(*left.available))
      throw EnvironmentError(fmt::format(
          "not enough host memory for problem {}: the run needs about {:.2f} GiB (inputs, float64 "
          "reference and copies, outputs), and {:.2f} GiB is available; use smaller --m/--n/--k "
          "or a machine with more memory",
          p.shape(), gib(touched), gib(double(*left.available))));
  }
}

int run(const CommandLine& line, int argc, char** argv) {
  const RunConfig config = build_config(line);
  if (line.list_backends) {
    const int status = list_backends(build_backend_table(config, ShippedSolutions::all), config);
    printed_on_stdout();  // throws when the list did not reach stdout
    return status;
  }
  const BackendTable table = build_backend_table(config);
  const std::vector<std::string> shipped = shipped_solution_names();
  check_backend_options(table, config.backend_options, shipped);
  const BackendTable chosen = select_backends(table, config.backends, shipped);
  check_outputs(config, line, chosen);
  check_host_memory(config);
  try {
    const RunOutcome outcome = run_benchmark(config, chosen);
    // With an output on stdout ("-"), the table goes to stderr.
    const std::string not_printed = print_result_table(
        standard_output_taken(config) ? stderr : stdout, outcome, config.tolerance);
    if (any_run_output(config)) {  // written even when stdout failed: the run's one record
      const std::vector<std::string> args(argv, argv + argc);
      write_run_outputs(config, build_report(outcome, config, args));
    }
    if (!not_printed.empty())
      throw EnvironmentError(fmt::format("cannot print the result table on stdout: {}",
                                         not_printed));
    if (outcome.any_failure()) return kExitFailure;
    if (!outcome.missing_device.empty()) {
      fmt::print(stderr, "{}\n", outcome.missing_device);
      return kExitEnvironment;
    }
    return kExitOk;
  } catch (const std::bad_alloc&) {
    throw EnvironmentError(fmt::format(
        "out of host memory: the largest problem needs about {:.2f} GiB on the host (inputs, "
        "float64 reference, outputs); use smaller --m/--n/--k or a machine with more memory",
        gib(host_bytes_needed(config))));
  }
}

// The command the line names, run; an exception that leaves it is the caller's to report.
int dispatch(int argc, char** argv) {
  CLI::App app{"mishbench: verified benchmark of y = mish(mish(x * W^T + b)), fp32", "mishbench"};
  app.footer(kExamples);
  CommandLine line;
  add_flags(app, line);
  CompareFlags compare_flags;
  CLI::App* compare = add_compare_command(app, compare_flags);
  AbFlags ab_flags;
  CLI::App* ab = add_ab_command(app, ab_flags);
  MergeFlags merge_flags;
  CLI::App* merge = add_merge_command(app, merge_flags);
  WorkerFlags worker_flags;
  CLI::App* worker = add_worker_command(app, worker_flags);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    // The files it names as this binary finds them: an installed one has no source tree.
    std::cout << with_shipped_paths(app.help());
    return help.get_exit_code();
  } catch (const CLI::ParseError& error) {
    const char* help = compare->parsed() ? "mishbench compare --help"
                       : ab->parsed()    ? "mishbench ab --help"
                                         : "mishbench --help";
    const CLI::App& parsing = compare->parsed() ? *compare
                              : ab->parsed()    ? *ab
                              : merge->parsed() ? *merge
                                                : app;
    fmt::print(stderr, "mishbench: {}\n",
               describe_parse_error(error, app.remaining(true), flag_names(parsing), help));
    return kExitUsage;
  }
  if (compare->parsed()) return run_compare(compare_flags);
  if (ab->parsed()) return run_ab_command(ab_flags);
  if (merge->parsed()) return run_merge(merge_flags, std::vector<std::string>(argv, argv + argc));
  if (worker->parsed()) return run_worker(worker_flags);
  if (line.version) {
    fmt::print("mishbench {} ({})\n", tool_version(), git_sha());
    return printed_on_stdout();
  }
  return run(line, argc, argv);
}

// Every command under the handlers that turn what leaves it into a message and an exit code.
int run_cli_guarded(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const UsageError& error) {
    fmt::print(stderr, "mishbench: {}\n", as_one_line(error.what(), kMessageEchoLimit));
    return kExitUsage;
  } catch (const EnvironmentError& error) {
    fmt::print(stderr, "mishbench: {}\n", as_one_line(error.what(), kMessageEchoLimit));
    return kExitEnvironment;
  } catch (const CudaError& error) {
    fmt::print(stderr, "mishbench: CUDA failed outside any backend: {}\n",
               for_terminal(error.what(), kMessageEchoLimit));
    return error.out_of_memory() ? kExitEnvironment : kExitFailure;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "{}\n", kOutOfMemory);
    return kExitEnvironment;
  } catch (const std::system_error& error) {  // printing on stdout: closed, full, no reader
    fmt::print(stderr, "mishbench: {}\n", for_terminal(error.what(), kMessageEchoLimit));
    return kExitEnvironment;
  } catch (const std::exception& error) {
    fmt::print(stderr, "mishbench: internal error: {}; please report it with the command line\n",
               for_terminal(error.what(), kMessageEchoLimit));
    return kExitFailure;
  }
}

}  // namespace

int run_cli(int argc, char** argv) {
  reserve_standard_descriptors();
  make_stderr_best_effort();
  ignore_write_signals();
  install_interrupt_cleanup();
  exit_3_when_out_of_memory(kOutOfMemory);
  guard_exits();
  const int code = run_cli_guarded(argc, argv);
  allow_exit();
  return code;
}

}  // namespace mish
