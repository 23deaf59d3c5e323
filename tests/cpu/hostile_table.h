// The table-driven test of hostile inputs to the real mishbench binary: one HostileInput per
// row, with the arguments, any files the row needs, the exit code expected and a fragment of the
// message expected. Every row also checks what must hold whatever the input: the process exits
// (no crash, no hang), a failure is one line on stderr starting "mishbench", nothing it printed
// holds a raw control character or runs past 64 KiB, no file that was there before changed
// unless the row names it as an output, and no temporary file is left behind.
//
// `says` is looked for only on a stream that is captured (empty when it is not).
// In `args`, `says`, `stdout_to`, `stderr_to` and paths, "{dir}" is the row's scratch folder,
// which starts with base.json and new.json (two reports of one backend, same speed) and
// slower.json (5% slower); `setup` adds files. The rows: test_hostile_inputs.cpp (compare and
// merge), test_hostile_main.cpp (the main command and config files).
#pragma once
#include <sys/resource.h>

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace mish {

// Prepares files in the scratch folder; returns "" or why the row cannot run on this machine.
using Setup = std::function<std::string(const std::filesystem::path& dir)>;

struct HostileInput {
  std::string name;               // the test's name: letters, digits, underscores
  std::vector<std::string> args;  // after the program name
  int exit_code;
  std::string says;  // in stderr when the exit code is 2 or 3, else in stdout
  Setup setup = nullptr;
  // Files in {dir} the run may change or create; "NAME/" stands for NAME and all under it.
  std::vector<std::string> writes = {};
  // A file stdout is sent to instead of being captured; "|": a pipe whose reader has gone.
  std::string stdout_to = {};
  std::string stderr_to = {};  // a file stderr is sent to instead of being captured
  std::vector<int> closed = {};  // standard descriptors closed (`2>&-`), so not captured
  std::vector<std::pair<int, rlim_t>> limits = {};  // resource limits: {RLIMIT_FSIZE, 4096}
};

// gtest prints a row by its name (in messages about a failed row).
void PrintTo(const HostileInput& row, std::ostream* out);

nlohmann::json base_report();  // base.json

void write_bytes(const std::filesystem::path& path, const std::string& bytes);

// Setups: {dir}/<name> holding `bytes` exactly; a folder; a symbolic or hard link; permission
// bits; a Unix socket; a FIFO; a private copy of a memory device (1,3 null; 1,7 full; root only),
// never the system's node; a sparse file of `bytes` starting "{".
Setup text(std::string name, std::string bytes);
// {dir}/<name> holding `prefix`, `count` copies of `fill`, then `suffix`: a large file made when
// its row runs, so that the table (built in every test process) does not hold its bytes.
Setup repeated_text(std::string name, std::string prefix, size_t count, char fill,
                    std::string suffix);
Setup folder(std::string name);
Setup symlink(std::string target, std::string name);
Setup hard_link(std::string target, std::string name);
Setup chmod(std::string name, std::filesystem::perms perms);
Setup unix_socket(std::string name);
Setup fifo(std::string name);
Setup device_copy(std::string name, unsigned minor);
Setup sparse_file(std::string name, uintmax_t bytes);
// Combinators: both in turn; skipped when root (who reads and writes whatever the bits say).
Setup both(Setup first, Setup second);
Setup non_root(Setup setup);

std::string with_dir(std::string text, const std::string& dir);

// The row's name, for INSTANTIATE_TEST_SUITE_P.
std::string row_name(const ::testing::TestParamInfo<HostileInput>& info);

// A scratch folder per row, removed afterwards (permissions restored first).
class Hostile : public ::testing::TestWithParam<HostileInput> {
 protected:
  void SetUp() override;
  void TearDown() override;
  std::filesystem::path dir;
};

}  // namespace mish
