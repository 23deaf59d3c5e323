// The cpu backend's threads: --threads (config key `threads`) sets its option cpu.threads, the
// report's settings record it, the backend takes it, and its default is half the host's threads.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "backends/builtin/registry.h"
#include "base/common/errors.h"
#include "base/env/cpu_threads.h"
#include "mishbench_process.h"
#include "settings/run_config.h"
#include "settings/settings.h"
#include "thrown.h"

namespace mish {
namespace {

using nlohmann::json;

TEST(CpuThreads, DefaultIsHalfTheAllowedCoresAndIsReported) {
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  const int half = std::max(1, CPU_COUNT(&allowed) / 2);
  EXPECT_EQ(default_cpu_threads(), half);
  EXPECT_EQ(settings_json(RunConfig{})["threads"], half);
  EXPECT_EQ(make_builtin_backend("cpu")->describe()["threads"], half);
}

TEST(CpuThreads, TheFlagAndTheConfigKeySetTheBackendsOption) {
  const Setting* flag = setting_for_flag("--threads");
  ASSERT_NE(flag, nullptr);
  RunConfig config;
  apply_setting(*flag, parse_flag_value(*flag, "3"), "--threads", config);
  EXPECT_EQ(config.backend_options["cpu"]["threads"], 3);
  EXPECT_EQ(settings_json(config)["threads"], 3);
  RunConfig from_file;
  apply_config_json(json{{"threads", 2}}, "c.json", from_file);
  EXPECT_EQ(settings_json(from_file)["threads"], 2);
  EXPECT_NE(thrown<UsageError>([&] { parse_flag_value(*flag, "0"); })
                .find("expected an integer from 1 to 1024"),
            std::string::npos);
}

TEST(CpuThreads, TheBackendTakesThreadsAndNothingElse) {
  const auto cpu = make_builtin_backend("cpu");
  cpu->configure({{"threads", 2}});
  EXPECT_EQ(cpu->describe()["threads"], 2);
  EXPECT_NE(thrown<UsageError>([&] { cpu->configure({{"threads", 0}}); })
                .find("cpu.threads must be an integer from 1 to 1024"),
            std::string::npos);
  EXPECT_NE(thrown<UsageError>([&] { cpu->configure({{"chunks", 2}}); })
                .find("its option is threads"),
            std::string::npos);
}

TEST(CpuThreads, ARunRecordsItsThreads) {
  const std::string dir = ::testing::TempDir();
  const std::string report = dir + "threads_" + std::to_string(::getpid()) + ".json";
  const ProcessResult r = run_mishbench({"--backend=cpu", "--m", "16", "--n", "32", "--k", "64",
                                         "--iters", "3", "--threads", "2", "--json", report},
                                        dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json written = json::parse(std::ifstream(report));
  std::filesystem::remove(report);
  EXPECT_EQ(written["settings"]["threads"], 2);
  EXPECT_EQ(written["results"][0]["details"]["threads"], 2);
}

}  // namespace
}  // namespace mish
