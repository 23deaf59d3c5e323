// Exceptions that map to the tool's exit codes (docs/cli.md).
#pragma once
#include <stdexcept>
#include <string>

namespace mish {

enum ExitCode : int {
  kExitOk = 0,           // every backend that ran verified (or failed only where expected)
  kExitFailure = 1,      // a backend failed verification or errored; compare found a regression
  kExitUsage = 2,        // bad usage or input
  kExitEnvironment = 3,  // no CUDA device, not enough device memory
};

// Bad flags, configs or files: the message says what is wrong and how to fix it.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The machine cannot run what was asked (no GPU, too little memory).
class EnvironmentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mish
