// The command line: parses flags (and --config) into a RunConfig, runs it, returns the exit code.
#pragma once

namespace mish {

int run_cli(int argc, char** argv);

}  // namespace mish
