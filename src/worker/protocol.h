// The messages between the tool and a worker process (docs/isolation.md): each request is
// {"op": ..., ...}; each reply is {"ok": true, ...} or {"ok": false, "error": "...", "sticky":
// bool}; a long request may send {"progress": f} lines before its reply. These functions turn
// the run's plain data into JSON and back, on both sides.
#pragma once
#include <nlohmann/json.hpp>

#include "backends/backend.h"
#include "outcome/backend_info.h"
#include "problem/problem.h"
#include "run/executor.h"
#include "timing/sampling.h"

namespace mish {

nlohmann::json to_message(const Problem& problem);
Problem problem_from(const nlohmann::json& message);

nlohmann::json to_message(const BackendInfo& info);
BackendInfo backend_info_from(const nlohmann::json& message);

nlohmann::json to_message(const SampleSettings& settings);
SampleSettings sample_settings_from(const nlohmann::json& message);

nlohmann::json to_message(const Sampling& sampling);
Sampling sampling_from(const nlohmann::json& message);

nlohmann::json to_message(const SetupReport& report);
SetupReport setup_report_from(const nlohmann::json& message);

nlohmann::json to_message(const Series& series);
Series series_from(const nlohmann::json& message);

nlohmann::json to_message(const AuditReading& audit);
AuditReading audit_from(const nlohmann::json& message);

}  // namespace mish
