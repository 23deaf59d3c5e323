#include "reports/ab/ab_plan.h"

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"

namespace mish {
namespace {

const AbBuild& build(const AbPlan& plan, int round) {
  return build_of_round(round) == Build::base ? plan.base : plan.fresh;
}

std::string round_stem(const AbPlan& plan, int round) {
  return fmt::format("{}/round-{:03}-{}", plan.folder, round, to_string(build_of_round(round)));
}

void refuse_json(const std::vector<std::string>& args, const char* where) {
  for (const std::string& arg : args)
    if (arg == "--json" || arg.rfind("--json=", 0) == 0)
      throw UsageError(fmt::format("{} hold '{}'; ab writes each round's report itself (give "
                                   "--rounds-dir to keep them)",
                                   where, for_terminal(arg)));
}

}  // namespace

std::string to_string(Build b) { return b == Build::base ? "base" : "new"; }

int pair_of_round(int round) { return (round + 1) / 2; }

Build build_of_round(int round) {
  const bool first_of_pair = round % 2 == 1;
  const bool base_first = pair_of_round(round) % 2 == 1;
  return first_of_pair == base_first ? Build::base : Build::fresh;
}

std::string report_path(const AbPlan& plan, int round) { return round_stem(plan, round) + ".json"; }

std::string log_path(const AbPlan& plan, int round) { return round_stem(plan, round) + ".log"; }

std::vector<std::string> round_argv(const AbPlan& plan, int round) {
  const AbBuild& b = build(plan, round);
  std::vector<std::string> argv = {b.binary};
  if (!b.plugin.empty()) argv.insert(argv.end(), {"--plugin", b.plugin});
  argv.insert(argv.end(), plan.run_args.begin(), plan.run_args.end());
  argv.insert(argv.end(), b.extra.begin(), b.extra.end());
  argv.insert(argv.end(), {"--json", report_path(plan, round)});
  return argv;
}

void check_plan(const AbPlan& plan) {
  refuse_json(plan.run_args, "the run arguments");
  refuse_json(plan.base.extra, "--base-arg");
  refuse_json(plan.fresh.extra, "--new-arg");
}

}  // namespace mish
