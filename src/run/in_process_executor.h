// Runs a backend in the tool's own process, on the run's stream and timer.
#pragma once
#include <memory>

#include "run/executor.h"

namespace mish {

std::unique_ptr<Executor> make_in_process_executor(std::unique_ptr<Backend> backend,
                                                   const ExecutionEnv& env);

}  // namespace mish
