#include "exec/worker/probe.h"

#include "exec/worker/protocol.h"
#include "exec/worker/worker_process.h"

namespace mish {

std::vector<BackendInfo> probe_worker_backends(const std::vector<std::string>& argv,
                                               const std::string& label,
                                               const std::string& during,
                                               std::chrono::seconds limit) {
  WorkerProcess probe(argv, label);
  const nlohmann::json reply = probe.request({{"op", "hello"}}, during, limit);
  std::vector<BackendInfo> infos;
  for (const nlohmann::json& info : reply.at("backends"))
    infos.push_back(from_message<BackendInfo>(info));
  return infos;
}

}  // namespace mish
