#include "app/cli/ab_command.h"

#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "app/cli/subcommand_failures.h"
#include "base/common/decimal.h"
#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "reports/ab/ab_run.h"
#include "reports/compare/render.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMostRounds = 100000;

std::string this_binary() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error)
    throw EnvironmentError(fmt::format("cannot find this mishbench binary: {}", error.message()));
  return self.string();
}

void require_executable(const std::string& path, const char* flag) {
  if (::access(path.c_str(), X_OK) != 0)
    throw UsageError(fmt::format("{} '{}': {}", flag, for_terminal(path, kPathEchoLimit),
                                 std::strerror(errno)));
}

// Two binaries, or this binary with two plugin libraries; exactly one of the two modes.
void choose_builds(const AbFlags& f, AbPlan& plan) {
  const bool binaries = f.base || f.fresh, plugins = f.base_plugin || f.new_plugin;
  if (binaries == plugins || (binaries && !(f.base && f.fresh)) ||
      (plugins && !(f.base_plugin && f.new_plugin)))
    throw UsageError("give --base BIN and --new BIN (two mishbench binaries), or --base-plugin "
                     "LIB and --new-plugin LIB (two plugin libraries of one backend)");
  if (binaries) {
    require_executable(*f.base, "--base");
    require_executable(*f.fresh, "--new");
    plan.base.binary = *f.base;
    plan.fresh.binary = *f.fresh;
    return;
  }
  plan.base.binary = plan.fresh.binary = this_binary();
  plan.base.plugin = *f.base_plugin;
  plan.fresh.plugin = *f.new_plugin;
}

AbBudget budget_of(const AbFlags& f) {
  AbBudget budget;
  if (f.rounds) budget.rounds = int(parse_int(*f.rounds, "--rounds", 2, kMostRounds));
  budget.max_rounds = f.max_rounds ? int(parse_int(*f.max_rounds, "--max-rounds", 2, kMostRounds))
                                   : std::max(budget.max_rounds, budget.rounds);
  if (budget.rounds % 2 != 0 || budget.max_rounds % 2 != 0)
    throw UsageError("--rounds and --max-rounds count rounds of both builds: give even numbers");
  if (budget.max_rounds < budget.rounds)
    throw UsageError(fmt::format("--max-rounds {} is below --rounds {}", budget.max_rounds,
                                 budget.rounds));
  return budget;
}

// The rounds' folder: --rounds-dir (created if missing, kept), or a temporary one, removed.
class RoundsFolder {
 public:
  explicit RoundsFolder(const std::optional<std::string>& kept) {
    if (kept) {
      std::error_code error;
      fs::create_directory(*kept, error);
      if (error || !fs::is_directory(*kept))
        throw UsageError(fmt::format("--rounds-dir '{}': {}", for_terminal(*kept, kPathEchoLimit),
                                     error ? error.message() : "not a folder"));
      path_ = *kept;
      return;
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/mishbench-ab.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (::mkdtemp(pattern.data()) == nullptr)
      throw EnvironmentError(fmt::format("cannot create a folder for the rounds: {}",
                                         std::strerror(errno)));
    path_ = pattern;
    temporary_ = true;
  }
  ~RoundsFolder() {
    std::error_code ignored;
    if (temporary_) fs::remove_all(path_, ignored);
  }
  RoundsFolder(const RoundsFolder&) = delete;
  RoundsFolder& operator=(const RoundsFolder&) = delete;
  const std::string& path() const { return path_; }
  bool kept() const { return !temporary_; }

 private:
  std::string path_;
  bool temporary_ = false;
};

std::string label_of(const AbBuild& build) {
  return build.plugin.empty() ? build.binary : fmt::format("--plugin {}", build.plugin);
}

nlohmann::json ab_json(const AbResult& result, const CompareSettings& settings, bool kept) {
  nlohmann::json json = to_json(result.outcome, settings);
  json["rounds"] = result.rounds;
  json["order"] = "ABBA";
  json["round_reports"] = kept ? nlohmann::json(result.reports) : nlohmann::json::array();
  return json;
}

int ab_and_publish(const AbFlags& f) {
  const CompareSettings settings = gate_settings(f.gate);
  const AbBudget budget = budget_of(f);
  AbPlan plan;
  choose_builds(f, plan);
  plan.base.extra = f.base_args;
  plan.fresh.extra = f.new_args;
  plan.run_args = f.run_args;
  check_plan(plan);
  std::vector<std::string> inputs = {plan.base.binary, plan.fresh.binary};
  if (f.base_plugin) inputs.insert(inputs.end(), {*f.base_plugin, *f.new_plugin});
  check_gate_outputs(f.gate, inputs);
  const RoundsFolder folder(f.rounds_dir);
  plan.folder = folder.path();
  AbResult result = run_ab(plan, budget, settings);
  result.outcome.base_label = label_of(plan.base);
  result.outcome.new_label = label_of(plan.fresh);
  return publish_gate(result.outcome, settings, f.gate, ab_json(result, settings, folder.kept()));
}

}  // namespace

CLI::App* add_ab_command(CLI::App& app, AbFlags& f) {
  CLI::App* ab = app.add_subcommand(
      "ab", "Interleaved A/B gate: two builds in alternating rounds on this machine, verdicts "
            "from the paired rounds");
  ab->add_option("--base", f.base, "The base build's mishbench binary")->type_name("BIN");
  ab->add_option("--new", f.fresh, "The new build's mishbench binary")->type_name("BIN");
  ab->add_option("--base-plugin", f.base_plugin, "The base plugin library (run by this binary)")
      ->type_name("LIB");
  ab->add_option("--new-plugin", f.new_plugin, "The new plugin library of the same backend")
      ->type_name("LIB");
  ab->add_option("--base-arg", f.base_args, "A run argument for the base build only, repeatable")
      ->type_name("ARG")
      ->expected(1)
      ->allow_extra_args(false);
  ab->add_option("--new-arg", f.new_args, "A run argument for the new build only, repeatable")
      ->type_name("ARG")
      ->expected(1)
      ->allow_extra_args(false);
  ab->add_option("--rounds", f.rounds,
                 "Rounds to run, each one fresh process of one build, even (default 16)")
      ->type_name("N");
  ab->add_option("--max-rounds", f.max_rounds,
                 "Most rounds, UNSURE verdicts buying one pair at a time (default 48)")
      ->type_name("N");
  ab->add_option("--rounds-dir", f.rounds_dir,
                 "Keep each round's report and log in DIR (default: a temporary folder)")
      ->type_name("DIR");
  add_gate_flags(*ab, f.gate);
  ab->add_option("RUN_ARGS", f.run_args, "After --: the run arguments both builds get");
  ab->footer(R"(
Examples:
  mishbench ab --base base/mishbench --new build/mishbench -- --config configs/default.json
  mishbench ab --base-plugin old/libmine.so --new-plugin build/libmine.so -- --backend=mine
  mishbench ab --base build/mishbench --new build/mishbench -- --backend=cpu --m 64 --n 256 --k 512

Exit codes: 0 the gate passes, 1 a backend got slower, stopped verifying, was skipped or went
            missing in the new build, 2 bad flags or run arguments, nothing timed, 3 a round
            could not run (crashed, no GPU) or an output could not be written.
)");
  return ab;
}

int run_ab_command(const AbFlags& f) {
  return run_reporting_failures(
      {"ab", "out of host memory while comparing the rounds", "cannot print the comparison",
       "cannot compare the rounds"},
      [&] { return ab_and_publish(f); });
}

}  // namespace mish
