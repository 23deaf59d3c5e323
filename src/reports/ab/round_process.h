// One round of `mishbench ab`: a fresh process of the build under test, stdin from /dev/null,
// its stdout and stderr into the round's log, waited for.
#pragma once
#include <string>
#include <vector>

namespace mish {

struct RoundEnd {
  int exit_code = -1;     // -1 when it did not exit
  int signal_number = 0;  // the signal that ended it, or 0
};

// Runs argv[0] (a path) with `argv`; throws EnvironmentError when it cannot be started (the log
// cannot be created, no such program).
RoundEnd run_round_process(const std::vector<std::string>& argv, const std::string& log);

// The last line of a round's log that says something, for a message ("" when none).
std::string last_log_line(const std::string& log);

}  // namespace mish
