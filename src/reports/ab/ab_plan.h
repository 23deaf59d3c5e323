// What `mishbench ab` runs: two builds (two mishbench binaries, or one mishbench with two plugin
// libraries of one backend), the same run arguments for both, in rounds of one fresh process
// each, in ABBA order (base, new, new, base, base, new, ...), every round writing its own report.
#pragma once
#include <string>
#include <vector>

namespace mish {

enum class Build { base, fresh };
std::string to_string(Build build);  // "base" or "new"

struct AbBuild {
  std::string binary;               // the mishbench that runs it
  std::string plugin;               // a --plugin library added to its arguments; may be empty
  std::vector<std::string> extra;   // arguments of this build only (--base-arg, --new-arg)
};

struct AbPlan {
  AbBuild base, fresh;
  std::vector<std::string> run_args;  // given after `--`, the same for both builds
  std::string folder;                 // where the rounds' reports and logs go
};

// Rounds are counted from 1; rounds 2p-1 and 2p are pair p. Odd pairs run base first, even
// pairs new first: ABBA, so that a drift over time lands on both builds alike.
Build build_of_round(int round);
int pair_of_round(int round);

// "<folder>/round-007-new.json" and its ".log" (the round's stdout and stderr).
std::string report_path(const AbPlan& plan, int round);
std::string log_path(const AbPlan& plan, int round);

// The command line of a round: its build's binary, --plugin, the run arguments, the build's own
// arguments, --json and the round's report.
std::vector<std::string> round_argv(const AbPlan& plan, int round);

// Refuses (UsageError) arguments that would take the report from ab: --json in the run
// arguments or a build's own.
void check_plan(const AbPlan& plan);

}  // namespace mish
