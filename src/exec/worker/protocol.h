// The messages between the tool and a worker process (docs/isolation.md): a worker's first line
// is {"started": true}; each request is {"op": ..., ...}; each reply is {"ok": true, ...} or
// {"ok": false, "error": "...", "sticky": bool}; a long request may send {"progress": f} lines
// before its reply. These functions turn
// the run's plain data into JSON and back, on both sides.
#pragma once
#include <nlohmann/json.hpp>

#include "core/backend/backend.h"
#include "core/outcome/backend_info.h"
#include "core/problem/problem.h"
#include "core/timing/sampling.h"
#include "exec/executor/executor.h"

namespace mish {

// For Problem, BackendInfo, ExecutorSettings, SampleSettings, CallPlan, Sampling, SetupReport,
// Series and AuditReading (specialized in protocol.cpp; any other type fails to link). from_message throws
// nlohmann::json::exception on a message that lacks a field or has the wrong type.
template <typename T>
nlohmann::json to_message(const T& value);
template <typename T>
T from_message(const nlohmann::json& message);

}  // namespace mish
