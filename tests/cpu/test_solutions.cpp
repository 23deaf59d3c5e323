// Python solution files (docs/solutions.md) through the built binary, end to end, on the host:
// the host-only example verifies beside the cpu backend; each test solution under
// tests/solutions fails its own way, in one run, with its own reason (the Python exception's last
// line where there is one) while the run goes on; the report is valid; a solution's prints reach
// neither the protocol nor the table; bad inputs are exit 2, a device solution without a GPU
// exit 3.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backends/plugins/sha256.h"
#include "base/env/environment.h"
#include "mishbench_process.h"
#include "report_schema_check.h"

namespace mish {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::vector<std::string> kSmallProblem = {"--m", "8",       "--n", "16",       "--k",
                                                "32",  "--iters", "5",   "--warmup", "2"};

std::string solution(const std::string& name) { return "tests/solutions/" + name + ".py"; }

fs::path scratch_folder(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("mish_solutions_" + std::to_string(::getpid()) + "_" + name);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
}

// What one failing solution must show: its status and a part of its reason.
struct Expected {
  const char* backend;
  const char* status;
  const char* says;
};

const Expected kFailures[] = {
    // A file whose declarations cannot be read ends its worker with the reason.
    {"syntax_error", "error",
     "did not report the backend: the worker died in reading the solution: exit status 2; its "
     "last output: SyntaxError: invalid syntax (syntax_error.py, line 6)"},
    {"init_raises", "error",
     "setup(): RuntimeError: cannot build a 32x16 layer today (init_raises.py, line 7, in "
     "__init__)"},
    {"forward_raises", "error",
     "run(): ValueError: forward gave up on call 2 (forward_raises.py, line 9, in misbehave)"},
    {"no_model_new", "error", "setup(): the file defines no ModelNew"},
    {"wrong_shape", "error", "forward(x) returned shape [8, 17]; expected [M, N] = [8, 16]"},
    {"wrong_dtype", "error", "forward(x) returned dtype float64; expected float32"},
    {"hangs", "error",
     "no answer after 3 s in the timed series; the worker was killed; its last output: hangs: "
     "going to sleep for good"},
    {"ambiguous_weights", "error",
     "ModelNew has 2 numpy arrays of shape [16, 32] to hold W [N, K] = [16, 32]; it needs exactly "
     "one (its numpy arrays: weight [16, 32], momentum [16, 32]); declare MISHBENCH_WEIGHT = "
     "\"NAME\" to say which holds W"},
    {"missing_weights", "error",
     "ModelNew has no numpy arrays of shape [16, 32] to hold W [N, K] = [16, 32]; it needs "
     "exactly one (its numpy arrays: weight_t [32, 16]); weight_t is W transposed, [K, N]: "
     "declare MISHBENCH_WEIGHT_LAYOUT = \"kn\" if it holds W"},
    {"bad_declaration", "error",
     "its last output: MISHBENCH_PLACEMENT (line 4) must be \"device\" or \"host\""},
    {"missing_module", "skipped", "needs the Python module 'mishbench_no_such_module'"},
    {"exits", "error", "setup(): SystemExit: 3 (exits.py, line 11, in forward)"},
    {"writes_weight", "mismatch", "wrote into its input W"},
    {"undeclared_weight_name", "error",
     "setup(): MISHBENCH_WEIGHT = 'weights' names no numpy array of ModelNew (its numpy arrays: "
     "weight [16, 32], bias [16])"},
    {"declared_weight_shape", "error",
     "setup(): MISHBENCH_WEIGHT = 'weight_t': that numpy array has shape [32, 16]; to hold W "
     "[N, K] = [16, 32] it must be [16, 32] (that is W transposed, [K, N]: declare "
     "MISHBENCH_WEIGHT_LAYOUT = \"kn\")"},
};

// Every test solution in one run, after the cpu backend and the host example, and two that
// verify (one prints everywhere, one checks its compiled-extension cache folders). One test, since
// the run is what costs: each check below is a function of its report and output.
class SolutionRun {
 public:
  SolutionRun() : dir_(scratch_folder("run")) {
    setenv("XDG_CACHE_HOME", (dir_ / "cache").c_str(), 1);
    std::vector<std::string> args = {"--solution", "examples/solutions/host_numpy.py",
                                     "--solution", solution("prints_stdout"),
                                     "--solution", solution("cache_folder")};
    std::string backends = "--backend=cpu,host-numpy,prints_stdout,cache_folder";
    for (const Expected& row : kFailures) {
      args.push_back("--solution");
      args.push_back(solution(row.backend));
      backends += std::string(",") + row.backend;
    }
    args.push_back(backends);
    args = joined(args, kSmallProblem);
    args = joined(args, {"--worker-timeout", "3", "--json", (dir_ / "report.json").string()});
    result = run_mishbench(args, dir_.string(), ProcessOptions{120, {}, {}});
    unsetenv("XDG_CACHE_HOME");
    if (fs::exists(dir_ / "report.json")) report = read_json(dir_ / "report.json");
  }
  ~SolutionRun() { fs::remove_all(dir_); }

  const json& result_of(const std::string& backend) const {
    for (const json& r : report.at("results"))
      if (r.at("backend") == backend) return r;
    throw std::runtime_error("no result for " + backend);
  }

  ProcessResult result;
  json report = json::object();

 private:
  fs::path dir_;
};

void expect_every_backend_in_order(const SolutionRun& run) {
  std::vector<std::string> names;
  for (const json& r : run.report.at("results")) names.push_back(r.at("backend"));
  std::vector<std::string> expected = {"cpu", "host-numpy", "prints_stdout", "cache_folder"};
  for (const Expected& row : kFailures) expected.push_back(row.backend);
  EXPECT_EQ(names, expected);
}

void expect_honest_ones_verify(const SolutionRun& run) {
  for (const char* backend : {"cpu", "host-numpy", "prints_stdout", "cache_folder"}) {
    const json& r = run.result_of(backend);
    EXPECT_EQ(r.at("status"), "ok") << backend << ": " << r.at("reason");
    EXPECT_EQ(r.at("verification").at("mismatches"), 0) << backend;
    EXPECT_GT(r.at("timing").at("count"), 0) << backend;
  }
}

void expect_each_failure_with_its_reason(const SolutionRun& run) {
  for (const Expected& row : kFailures) {
    const json& r = run.result_of(row.backend);
    EXPECT_EQ(r.at("status"), row.status) << row.backend;
    const std::string reason = r.at("reason");
    EXPECT_NE(reason.find(row.says), std::string::npos)
        << row.backend << ": expected '" << row.says << "' in '" << reason << "'";
    // The call that failed is named once: the worker's step adds nothing to the call's own name.
    for (const char* call : {"supports(): ", "setup(): ", "prepack(): ", "run(): "}) {
      const size_t first = reason.find(call);
      EXPECT_TRUE(first == std::string::npos || reason.find(call, first + 1) == std::string::npos)
          << row.backend << ": '" << reason << "'";
      EXPECT_EQ(reason.find(std::string("in ") + call), std::string::npos)
          << row.backend << ": '" << reason << "'";
    }
  }
  EXPECT_EQ(run.result_of("init_raises").at("reason"),
            "setup(): RuntimeError: cannot build a 32x16 layer today (init_raises.py, line 7, in "
            "__init__)");
}

void expect_results_name_the_file_that_ran(const SolutionRun& run) {
  const json& r = run.result_of("host-numpy");
  const fs::path file =
      fs::canonical(fs::path(MISHBENCH_SOURCE_DIR) / "examples/solutions/host_numpy.py");
  EXPECT_EQ(r.at("origin").at("kind"), "solution");
  EXPECT_EQ(r.at("origin").at("path"), file.string());
  EXPECT_EQ(r.at("origin").at("sha256"), sha256_file_hex(file.string()));
  EXPECT_FALSE(r.at("origin").contains("build_info")) << "a plugin's field only";
  EXPECT_EQ(r.at("details").at("placement"), "host");
  EXPECT_EQ(r.at("details").at("weight"), "weight");
  EXPECT_EQ(r.at("details").at("declared").at("MISHBENCH_NAME"), "host-numpy");
  EXPECT_GE(r.at("isolation").at("worker_starts"), 1);
  // A file that does not even parse is traced to its bytes too.
  EXPECT_EQ(run.result_of("syntax_error").at("origin").at("sha256"),
            sha256_file_hex(std::string(MISHBENCH_SOURCE_DIR) + "/" + solution("syntax_error")));
  const json& settings = run.report.at("settings");
  EXPECT_EQ(settings.at("python"), "python3");
  EXPECT_EQ(settings.at("solutions").size(), std::size(kFailures) + 3);
}

void expect_prints_reach_neither_protocol_nor_table(const SolutionRun& run) {
  const ProcessResult& r = run.result;
  EXPECT_EQ(r.out.find("not from the worker"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("prints-stdout"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("prints-stdout"), std::string::npos) << r.err;
  // They are kept with the backend's result, for whoever needs them.
  const std::string tail = run.result_of("prints_stdout").at("isolation").at("output_tail");
  EXPECT_NE(tail.find("prints-stdout: building 32x16"), std::string::npos) << tail;
  EXPECT_NE(r.out.find("\nprints_stdout "), std::string::npos) << r.out;
  EXPECT_EQ(run.result_of("prints_stdout").at("status"), "ok");
}

TEST(SolutionRun, EveryTestSolutionInOneRun) {
  const SolutionRun run;
  ASSERT_FALSE(run.result.timed_out);
  EXPECT_EQ(run.result.exit_code, 1) << run.result.err;
  ASSERT_TRUE(run.report.contains("results")) << run.result.err;
  expect_every_backend_in_order(run);
  expect_honest_ones_verify(run);
  expect_each_failure_with_its_reason(run);
  expect_results_name_the_file_that_ran(run);
  expect_prints_reach_neither_protocol_nor_table(run);
  expect_matches_published_schema(run.report);
}

// Runs mishbench in a scratch folder of its own.
class SolutionCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = scratch_folder(::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { fs::remove_all(dir); }
  ProcessResult run(const std::vector<std::string>& args) const {
    return run_mishbench(args, dir.string());
  }
  fs::path dir;
};

TEST_F(SolutionCli, HonestSolutionsAndASkipExitZero) {
  const ProcessResult r =
      run(joined({"--solution", "examples/solutions/host_numpy.py", "--solution",
                  solution("missing_module"), "--backend=host-numpy,missing_module"},
                 kSmallProblem));
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("missing_module skipped"), std::string::npos) << r.out;
}

// On a square problem [N, K] and [K, N] are one shape. A solution that keeps W as [K, N] and
// says nothing gets W as [N, K]: a warning names the tensor, and the mismatch says the output
// is the layer with W untransposed. One that declares its tensors and layout verifies, square or
// not; a plain wrong answer is not taken for a transposed W.
TEST_F(SolutionCli, WeightKeptTransposed) {
  const std::vector<std::string> solutions = {
      "--solution", solution("transposed_weight"), "--solution",
      solution("declared_transposed_weight"), "--solution", solution("call_counter")};
  const std::vector<std::string> square = {"--m", "8", "--n", "16", "--k", "16", "--iters", "5",
                                           "--warmup", "2"};
  const ProcessResult r = run(joined(
      joined(solutions, {"--backend=cpu,transposed_weight,declared_transposed_weight,call_counter",
                         "--json", (dir / "square.json").string()}),
      square));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json report = read_json(dir / "square.json");
  std::map<std::string, json> results;
  for (const json& result : report.at("results")) results[result.at("backend")] = result;
  const json& transposed = results.at("transposed_weight");
  EXPECT_EQ(transposed.at("status"), "mismatch");
  const std::string reason = transposed.at("reason");
  EXPECT_NE(reason.find("; the output matches W used untransposed: on 128 sampled elements it is "
                        "within "),
            std::string::npos)
      << reason;
  EXPECT_NE(reason.find("MISHBENCH_WEIGHT_LAYOUT = \"kn\""), std::string::npos) << reason;
  const std::string warning =
      "transposed_weight: W [N, K] = [16, 16] was loaded as [N, K] into numpy array weight_t (by "
      "its shape), but its name suggests W transposed";
  // Beside it, warnings of noisy timing may come: 5 samples on a shared machine.
  size_t binding_warnings = 0;
  for (const json& w : transposed.at("warnings"))
    binding_warnings += w.get<std::string>().rfind(warning, 0) == 0 ? 1 : 0;
  EXPECT_EQ(binding_warnings, 1u) << transposed.at("warnings");
  EXPECT_EQ(transposed.at("details").at("warnings").size(), 1u) << transposed.at("details");
  EXPECT_NE(r.err.find("warning: " + warning), std::string::npos) << r.err;
  const json& declared = results.at("declared_transposed_weight");
  EXPECT_EQ(declared.at("status"), "ok") << declared.at("reason");
  EXPECT_EQ(declared.at("details").at("weight"), "weight_t");
  EXPECT_EQ(declared.at("details").at("bias"), "offset");
  EXPECT_EQ(declared.at("details").at("weight_layout"), "kn");
  EXPECT_EQ(declared.at("details").at("warnings"), json::array());
  EXPECT_EQ(results.at("call_counter").at("status"), "mismatch");
  EXPECT_EQ(results.at("call_counter").at("reason").get<std::string>().find("untransposed"),
            std::string::npos);
  expect_matches_published_schema(report);

  const ProcessResult wide = run(joined(
      {"--solution", solution("declared_transposed_weight"), "--backend=declared_transposed_weight"},
      kSmallProblem));
  EXPECT_EQ(wide.exit_code, 0) << wide.err << wide.out;
  EXPECT_NE(wide.out.find("declared_transposed_weight ok"), std::string::npos) << wide.out;
}

TEST_F(SolutionCli, ConfigFileKeys) {
  std::ofstream(dir / "config.json")
      << R"({"problem": {"m": 4, "n": 8, "k": 16}, "iters": 3, "backends": "host-numpy",
            "solutions": ["examples/solutions/host_numpy.py"], "python": "python3"})";
  const ProcessResult r = run({"--config", (dir / "config.json").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("host-numpy ok"), std::string::npos) << r.out;
}

TEST_F(SolutionCli, ListBackendsShowsSolutionsAndTheShippedPyTorchRows) {
  const ProcessResult r =
      run({"--list-backends", "--solution", "examples/solutions/host_numpy.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("host-numpy    host   solution numpy on the host"), std::string::npos) << r.out;
  for (const char* shipped : {"torch-eager   device solution", "torch-compile device solution"})
    EXPECT_NE(r.out.find(shipped), std::string::npos) << r.out;
  // A file that cannot be loaded is listed under its file's name as an error with the reason,
  // and the listing fails.
  const ProcessResult broken = run({"--list-backends", "--solution", solution("syntax_error")});
  EXPECT_EQ(broken.exit_code, 2) << broken.err;
  EXPECT_NE(broken.out.find("syntax_error  error  solution its worker ("), std::string::npos)
      << broken.out;
  EXPECT_NE(broken.err.find("mishbench: solution 'tests/solutions/syntax_error.py' cannot be "
                            "used: its worker ("),
            std::string::npos)
      << broken.err;
  EXPECT_NE(broken.err.find("SyntaxError: invalid syntax (syntax_error.py, line 6)\n"),
            std::string::npos)
      << broken.err;
  // A solution that declares no summary is not listed as "solution solution".
  const ProcessResult plain = run({"--list-backends", "--solution", solution("prints_stdout")});
  EXPECT_NE(plain.out.find(" host   solution ModelNew of prints_stdout.py ["), std::string::npos)
      << plain.out;
}

TEST_F(SolutionCli, APythonThatCannotRunTheWorkerFailsItsBackendOnly) {
  const ProcessResult r =
      run(joined({"--python", "/bin/false", "--solution", "examples/solutions/host_numpy.py",
                  "--backend=cpu,host_numpy"},
                 kSmallProblem));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("cpu        ok"), std::string::npos) << r.out;
  // The declared name is unknown without a working Python: the row is named after the file.
  // It says that the interpreter, not the worker, ended, and how, whether that was before the
  // first request was sent or while the answer was awaited. The row is not run again: the
  // interpreter would end again.
  EXPECT_NE(r.out.find("host_numpy error: the Python interpreter '/bin/false' exited (exit status "
                       "1) before the solution worker started: give --python a Python 3 "
                       "interpreter\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("the worker ended"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("the worker died"), std::string::npos) << r.out;
}

TEST_F(SolutionCli, NoPython3OnPathFailsItsBackendOnly) {
  const std::string path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  setenv("PATH", dir.c_str(), 1);
  const ProcessResult r =
      run(joined({"--solution", "examples/solutions/host_numpy.py", "--backend=cpu,host_numpy"},
                 kSmallProblem));
  setenv("PATH", path.c_str(), 1);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("host_numpy error: its worker (python3) did not report the backend: cannot "
                       "start the worker 'python3': No such file"),
            std::string::npos)
      << r.out;
}

TEST_F(SolutionCli, BadInputIsExitTwoBeforeAnyWork) {
  const std::string copy = (dir / "mine.py").string();
  fs::copy_file(fs::path(MISHBENCH_SOURCE_DIR) / "examples/solutions/host_numpy.py", copy);
  const std::string before = sha256_file_hex(copy);
  const std::map<std::string, std::vector<std::string>> cases = {
      {"solution 'tests/solutions/missing.py' does not exist",
       {"--solution", solution("missing"), "--backend=cpu"}},
      {"solution 'tests/solutions' is not a regular file",
       {"--solution", "tests/solutions", "--backend=cpu"}},
      {"backend 0: name 'My Layer' is not valid",
       {"--solution", solution("invalid_name"), "--backend=cpu"}},
      {"has a backend named 'host-numpy', which",
       {"--solution", "examples/solutions/host_numpy.py", "--solution", copy, "--backend=cpu"}},
      {"--python '/nonexistent/python3' is not an executable file",
       {"--python", "/nonexistent/python3", "--solution", copy, "--backend=cpu"}},
      {"--json", {"--solution", copy, "--backend=host-numpy", "--json", copy}},
  };
  for (const auto& [says, args] : cases) {
    const ProcessResult r = run(joined(args, kSmallProblem));
    EXPECT_EQ(r.exit_code, 2) << says << ": " << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << says;
  }
  EXPECT_EQ(sha256_file_hex(copy), before) << "an input was replaced";
}

TEST_F(SolutionCli, DeviceSolutionWithoutAGpuExitsThree) {
  if (query_device()) GTEST_SKIP() << "a CUDA device is present";
  const ProcessResult r = run(
      joined({"--solution", "examples/solutions/triton_tf32x3.py", "--backend=cpu,triton-tf32x3"},
             kSmallProblem));
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("no CUDA device"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace mish
