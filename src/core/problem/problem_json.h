// A problem as JSON, the one form every writer and reader of it shares: the report, the dump's
// problem.json and the worker protocol.
#pragma once
#include <nlohmann/json.hpp>

#include "core/problem/problem.h"

namespace mish {

// {"m", "n", "k", "seed", "distribution"}.
nlohmann::json problem_json(const Problem& p);

// The problem of problem_json's form (throws nlohmann::json exceptions on another).
Problem problem_from_json(const nlohmann::json& j);

}  // namespace mish
