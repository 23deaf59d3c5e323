#include "cli/cli.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <optional>

#include "backends/registry.h"
#include "cli/compare_command.h"
#include "common/errors.h"
#include "common/version.h"
#include "config/run_config.h"
#include "report/report.h"
#include "report/table.h"
#include "run/runner.h"

namespace mish {
namespace {

constexpr const char* kExamples = R"(
Examples:
  mishbench --backend=fused --iters=100          time one backend on the default problem
  mishbench --backend=all --json out.json        every backend, with a JSON report
  mishbench --backend=cpu --config configs/ci.json   host only, small shapes (no GPU needed)
  mishbench --backend=separate,fused --m 256 --seed 7 --dump dump/
  mishbench --backend=fp16x3 --backend-option fp16x3.chunks=4 --include-prepack
  mishbench --backend=fused --max-noise=0.005 --timeout=20   sample until the median is tight
  mishbench --backend=separate,fused --graph --l2=hot   add CUDA-graph replay timing, warm L2
  mishbench --list-backends
  mishbench compare base.json new.json            noise-aware comparison of two reports

Exit codes: 0 all verified (reduced-precision backends such as tf32 may mismatch),
            1 a backend failed verification or errored,
            2 bad usage or input, 3 no CUDA device or not enough device memory.
)";

// Flags as given on the command line; unset ones leave the config (file or default) alone.
struct Flags {
  std::optional<std::string> config_path, backends, distribution, l2, json_path, dump_dir;
  std::optional<int64_t> m, n, k;
  std::optional<uint64_t> seed;
  std::optional<int> warmup, iters;
  std::optional<double> atol, rtol;
  std::vector<std::string> backend_options;
  bool include_prepack = false;
  std::optional<double> min_time, max_noise, timeout;
  bool graph = false;
  bool quiet = false;
  bool list_backends = false;
  bool version = false;
};

void add_flags(CLI::App& app, Flags& f) {
  app.add_option("--backend,--backends", f.backends,
                 "'all' (default) or a comma list of backends, e.g. separate,fused");
  app.add_flag("--list-backends", f.list_backends, "List the backends with a description and exit");
  app.add_option("--m", f.m, "Rows of x and y (default 1024)");
  app.add_option("--n", f.n, "Output features: rows of W, columns of y (default 8192)");
  app.add_option("--k", f.k, "Input features: columns of x and W (default 8192)");
  app.add_option("--seed", f.seed, "Input generator seed (default 42)");
  app.add_option("--distribution", f.distribution,
                 "Input distribution: kernelbench (default), normal, normal-unit, wide");
  app.add_option("--warmup", f.warmup, "Untimed runs before sampling (default 10)");
  app.add_option("--iters", f.iters,
                 "Timed samples per backend (default 100); with --min-time, --max-noise or "
                 "--timeout, the minimum count");
  app.add_option("--min-time", f.min_time,
                 "Adaptive: sample until the timed samples add up to at least S seconds");
  app.add_option("--max-noise", f.max_noise,
                 "Adaptive: sample until the median's 95% CI is narrower than F x median "
                 "(e.g. 0.01)");
  app.add_option("--timeout", f.timeout,
                 "Adaptive: stop sampling a backend after S seconds of wall time, whatever else");
  app.add_option("--atol", f.atol, "Absolute tolerance (default 1e-4)");
  app.add_option("--rtol", f.rtol, "Relative tolerance (default 1e-4)");
  app.add_option("--l2", f.l2, "flush (default): cold L2 before every sample; hot: back to back");
  app.add_flag("--include-prepack", f.include_prepack,
               "Time weight preparation (splitting/scaling W) inside every iteration");
  app.add_option("--backend-option", f.backend_options,
                 "NAME.KEY=VALUE, repeatable: a backend's option, e.g. fp16x3.chunks=4");
  app.add_flag("--graph", f.graph,
               "Also time each device backend as CUDA-graph replays (reported apart)");
  app.add_option("--json", f.json_path, "Write the JSON report to FILE");
  app.add_option("--dump", f.dump_dir, "Write x, W, b, the reference and each y as .npy under DIR");
  app.add_option("--config", f.config_path, "JSON config (problem and run settings); flags override it");
  app.add_flag("-q,--quiet", f.quiet, "Print only the result table");
  app.add_flag("--version", f.version, "Print the version and exit");
}

RunConfig build_config(const Flags& f) {
  RunConfig config;
  if (f.config_path) apply_config_file(*f.config_path, config);
  const bool override_problem = f.m || f.n || f.k || f.seed || f.distribution;
  if (override_problem) {
    for (Problem& p : config.problems) {
      if (f.m) p.m = *f.m;
      if (f.n) p.n = *f.n;
      if (f.k) p.k = *f.k;
      if (f.seed) p.seed = *f.seed;
      if (f.distribution) p.distribution = parse_distribution(*f.distribution);
    }
  }
  if (f.backends) config.backends = split_list(*f.backends);
  if (f.warmup) config.sampling.warmup = *f.warmup;
  if (f.iters) config.sampling.iters = *f.iters;
  if (f.atol) config.tolerance.atol = *f.atol;
  if (f.rtol) config.tolerance.rtol = *f.rtol;
  if (f.l2) config.sampling.l2 = parse_l2_mode(*f.l2);
  if (f.min_time) config.sampling.min_time_s = *f.min_time;
  if (f.max_noise) config.sampling.max_noise = *f.max_noise;
  if (f.timeout) config.sampling.timeout_s = *f.timeout;
  if (f.graph) config.graph = true;
  if (f.json_path) config.json_path = *f.json_path;
  if (f.dump_dir) config.dump_dir = *f.dump_dir;
  if (f.include_prepack) config.include_prepack = true;
  for (const std::string& option : f.backend_options) add_backend_option(option, config);
  config.quiet = f.quiet;
  validate(config);
  return config;
}

void list_backends(const BackendTable& table) {
  for (const BackendEntry& entry : table)
    fmt::print("{:<10} {:<6} {}\n", entry.info.name, to_string(entry.info.placement),
               entry.info.summary);
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"mishbench: verified benchmark of y = mish(mish(x * W^T + b)), fp32", "mishbench"};
  app.footer(kExamples);
  Flags flags;
  add_flags(app, flags);
  CompareFlags compare_flags;
  CLI::App* compare = add_compare_command(app, compare_flags);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    fmt::print(stderr, "mishbench: {}\nRun with --help for usage.\n", error.what());
    return kExitUsage;
  }
  if (compare->parsed()) return run_compare(compare_flags);
  if (flags.version) {
    fmt::print("mishbench {} ({})\n", tool_version(), git_sha());
    return kExitOk;
  }
  const BackendTable table = builtin_backends();
  if (flags.list_backends) {
    list_backends(table);
    return kExitOk;
  }
  try {
    const RunConfig config = build_config(flags);
    check_backend_options(table, config.backend_options);
    const RunOutcome outcome = run_benchmark(config, select_backends(table, config.backends));
    print_table(stdout, outcome);
    if (!config.json_path.empty()) {
      const std::vector<std::string> args(argv, argv + argc);
      write_json_atomically(config.json_path, build_report(outcome, config, args));
      if (!config.quiet) fmt::print(stderr, "report written to {}\n", config.json_path);
    }
    return outcome.any_failure() ? kExitFailure : kExitOk;
  } catch (const UsageError& error) {
    fmt::print(stderr, "mishbench: {}\n", error.what());
    return kExitUsage;
  } catch (const EnvironmentError& error) {
    fmt::print(stderr, "mishbench: {}\n", error.what());
    return kExitEnvironment;
  } catch (const std::exception& error) {
    fmt::print(stderr, "mishbench: error: {}\n", error.what());
    return kExitFailure;
  }
}

}  // namespace mish
