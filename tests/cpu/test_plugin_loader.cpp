// Loading plugin libraries: the example host plugin and the honest test plugin load with their
// path, hash, ABI version and backends; every broken library, file and table field is refused
// with a UsageError (exit 2) whose one line says what is wrong and what to do.
#include <elf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "backends/plugins/plugin_library.h"
#include "backends/plugins/plugin_text.h"
#include "backends/plugins/sha256.h"
#include "base/common/errors.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

std::string test_plugin(const std::string& name) {
  return std::string(MISHBENCH_TEST_PLUGIN_DIR) + "/libmishtest_" + name + ".so";
}

// The UsageError message of `load`, or a failure when it does not throw one.
std::string usage_error(const std::function<void()>& load) {
  try {
    load();
  } catch (const UsageError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  ADD_FAILURE() << "no UsageError";
  return {};
}

std::string load_error(const std::string& path) {
  return usage_error([&] { load_plugin(path); });
}

#define EXPECT_CONTAINS(text, part) \
  EXPECT_NE(std::string(text).find(part), std::string::npos) << "'" << (text) << "'"

TEST(PluginLoader, LoadsTheExampleHostPlugin) {
  const auto library = load_plugin(MISHBENCH_HOST_PLUGIN);
  EXPECT_EQ(library->path(), fs::canonical(MISHBENCH_HOST_PLUGIN).string());
  EXPECT_EQ(library->sha256(), sha256_file_hex(MISHBENCH_HOST_PLUGIN));
  EXPECT_EQ(library->abi_version(), uint32_t{MISHBENCH_PLUGIN_ABI_VERSION});
  EXPECT_EQ(library->backend_names(), std::vector<std::string>{"host-loops"});
  const PluginBackendSpec& backend = library->backends()[0];
  EXPECT_EQ(backend.math_mode, "fp32");
  EXPECT_EQ(backend.placement, Placement::host);
  EXPECT_EQ(backend.accuracy, Accuracy::fp32);
  EXPECT_TRUE(backend.stages.empty());
  const BackendOrigin origin = library->origin();
  EXPECT_EQ(origin.kind, "plugin");
  EXPECT_EQ(origin.path, library->path());
  EXPECT_EQ(origin.sha256, library->sha256());
  EXPECT_EQ(origin.abi_version, MISHBENCH_PLUGIN_ABI_VERSION);
  EXPECT_EQ(origin.build_info, library->build_info());
}

// mishbench_add_plugin's string names this tree's build type and the example's C flags; a
// library built otherwise says nothing, or what it likes, of which the report keeps a bounded,
// printable copy.
TEST(PluginLoader, RecordsHowTheLibraryWasBuilt) {
  const std::string example = load_plugin(MISHBENCH_HOST_PLUGIN)->build_info();
  EXPECT_EQ(example.rfind("build type: " MISHBENCH_BUILD_TYPE "; C flags:", 0), 0u) << example;
  const std::string flags = " " MISHBENCH_C_BUILD_TYPE_FLAGS;
  EXPECT_EQ(example.substr(example.size() - std::min(example.size(), flags.size())), flags)
      << example;
  EXPECT_EQ(load_plugin(test_plugin("hand_built"))->build_info(), "unknown");
  const std::string hostile = load_plugin(test_plugin("hostile_build_info"))->build_info();
  EXPECT_EQ(hostile.size(), kMaxBuildInfoLength + 3);
  EXPECT_EQ(hostile.substr(0, 12), "-O3??[31m??x");
  EXPECT_EQ(hostile.substr(hostile.size() - 4), "x...");
}

TEST(PluginLoader, BuildInfoIsBoundedPrintableText) {
  EXPECT_EQ(read_build_info(nullptr), "unknown");
  EXPECT_EQ(read_build_info(""), "unknown");
  EXPECT_EQ(read_build_info("build type: Debug; CXX flags: -g"), "build type: Debug; CXX flags: -g");
  EXPECT_EQ(read_build_info("tab\there\x7f\xff"), "tab?here??");
  const std::string longest(kMaxBuildInfoLength, 'a');
  EXPECT_EQ(read_build_info(longest.c_str()), longest);
  EXPECT_EQ(read_build_info((longest + "b").c_str()), longest + "...");
}

TEST(PluginLoader, RecordsTheCanonicalPath) {
  const std::string winding = std::string(MISHBENCH_TEST_PLUGIN_DIR) +
                              "/../plugins/./libmishtest_honest_host.so";
  EXPECT_EQ(load_plugin(winding)->path(), fs::canonical(test_plugin("honest_host")).string());
}

TEST(PluginLoader, ReadsEveryBackendAndItsStages) {
  const auto library = load_plugin(test_plugin("honest_host"));
  EXPECT_EQ(library->backend_names(),
            (std::vector<std::string>{"honest-host", "honest-host-deferred"}));
  const std::vector<PluginStageSpec>& stages = library->backends()[0].stages;
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stages[0].name, "gemm");
  EXPECT_EQ(stages[0].kind, StageKind::gemm);
  EXPECT_EQ(stages[1].name, "epilogue");
  EXPECT_EQ(stages[1].kind, StageKind::epilogue);
  EXPECT_TRUE(stages[1].reads_bias);
  EXPECT_NE(library->backends()[1].calls.write_output, nullptr);
}

// A name that clashes with a built-in is the backend table's to refuse: the library is valid.
TEST(PluginLoader, LoadsABackendNamedLikeABuiltin) {
  EXPECT_EQ(load_plugin(test_plugin("clash_fused"))->backend_names(),
            std::vector<std::string>{"fused"});
}

struct BrokenLibrary {
  const char* plugin;
  std::vector<const char*> message_parts;
};

class BrokenLibraries : public ::testing::TestWithParam<BrokenLibrary> {};

TEST_P(BrokenLibraries, AreRefusedWithWhatToDo) {
  const std::string message = load_error(test_plugin(GetParam().plugin));
  EXPECT_CONTAINS(message, test_plugin(GetParam().plugin));
  for (const char* part : GetParam().message_parts) EXPECT_CONTAINS(message, part);
}

INSTANTIATE_TEST_SUITE_P(
    Plugins, BrokenLibraries,
    ::testing::Values(
        BrokenLibrary{"wrong_abi",
                      {"built against plugin ABI version 2", "reads version 1",
                       "rebuild it against this mishbench's mishbench/plugin.h"}},
        BrokenLibrary{"no_entry",
                      {"does not export mishbench_plugin_entry", "MISHBENCH_PLUGIN_EXPORT"}},
        BrokenLibrary{"cxx_entry",
                      {"with C++ linkage", "include mishbench/plugin.h",
                       "MISHBENCH_PLUGIN_EXPORT"}},
        BrokenLibrary{"invalid_name",
                      {"backend 0: name 'My Kernel' is not valid", "a-z, 0-9"}},
        BrokenLibrary{"duplicate_names",
                      {"backends 0 and 1 are both named 'twin'", "unique name"}},
        BrokenLibrary{"undefined_symbol",
                      {"cannot load", "undefined symbol", "mishtest_function_nobody_defines",
                       "link the library that defines it"}},
        BrokenLibrary{"text_file", {"is not a shared library (no ELF header)",
                                    "mishbench_add_plugin"}}),
    [](const auto& info) { return std::string(info.param.plugin); });

// Files that are not plugins at all, made in a scratch folder.
class PluginFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("mish_plugin_files_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  std::string write(const std::string& name, const std::string& bytes) const {
    const fs::path path = dir / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }

  // An ELF header of the given class, machine and type, little-endian.
  std::string elf(const std::string& name, unsigned char elf_class, uint16_t machine,
                  uint16_t type) const {
    std::string header(64, '\0');
    std::memcpy(&header[0], ELFMAG, SELFMAG);
    header[EI_CLASS] = static_cast<char>(elf_class);
    header[EI_DATA] = ELFDATA2LSB;
    header[EI_VERSION] = EV_CURRENT;
    header[16] = static_cast<char>(type & 0xff), header[17] = static_cast<char>(type >> 8);
    header[18] = static_cast<char>(machine & 0xff), header[19] = static_cast<char>(machine >> 8);
    return write(name, header);
  }

  fs::path dir;
};

TEST_F(PluginFiles, MissingFile) {
  const std::string message = load_error((dir / "libnothere.so").string());
  EXPECT_CONTAINS(message, "libnothere.so' does not exist");
  EXPECT_CONTAINS(message, "--plugin");
}

TEST_F(PluginFiles, Directory) {
  EXPECT_CONTAINS(load_error(dir.string()), "is a directory, not a shared library");
}

TEST_F(PluginFiles, UnreadableFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads files regardless of their permissions";
  const std::string path = write("libsecret.so", "x");
  fs::permissions(path, fs::perms::none);
  const std::string message = load_error(path);
  EXPECT_CONTAINS(message, "cannot read plugin");
  EXPECT_CONTAINS(message, "check its permissions");
}

TEST_F(PluginFiles, EmptyFile) {
  EXPECT_CONTAINS(load_error(write("libempty.so", "")), "no ELF header");
}

TEST_F(PluginFiles, OtherArchitecture) {
  const std::string message = load_error(elf("libarm.so", ELFCLASS64, EM_AARCH64, ET_DYN));
  EXPECT_CONTAINS(message, "is built for aarch64 (64-bit), but this mishbench runs on x86-64");
  EXPECT_CONTAINS(message, "rebuild the plugin for this machine");
  EXPECT_CONTAINS(load_error(elf("lib32.so", ELFCLASS32, EM_386, ET_DYN)),
                  "is built for x86 (32-bit)");
}

TEST_F(PluginFiles, ExecutableOrObjectFile) {
  EXPECT_CONTAINS(load_error(elf("libexe.so", ELFCLASS64, EM_X86_64, ET_EXEC)),
                  "is an executable, not a shared library");
  EXPECT_CONTAINS(load_error(elf("libobj.so", ELFCLASS64, EM_X86_64, ET_REL)),
                  "is an object file, not a shared library");
}

TEST_F(PluginFiles, ElfHeaderWithoutALibrary) {
  const std::string message = load_error(elf("libheader.so", ELFCLASS64, EM_X86_64, ET_DYN));
  EXPECT_CONTAINS(message, "cannot load plugin");
}

// The table checks, one field at a time, starting from a valid backend.
int valid_setup(void**, const mishbench_shape*, const mishbench_tensors*, const char*, void*,
                char*, size_t) {
  return MISHBENCH_OK;
}
int valid_run(void*, const mishbench_tensors*, void*, char*, size_t) { return MISHBENCH_OK; }
int valid_stage(void*, uint32_t, const mishbench_tensors*, void*, char*, size_t) {
  return MISHBENCH_OK;
}

struct TableCase {
  const char* what;
  std::function<void(mishbench_backend&, std::vector<mishbench_stage>&)> change;
  const char* message_part;  // nullptr: the changed table is still valid
};

class TableFields : public ::testing::TestWithParam<TableCase> {};

TEST_P(TableFields, AreChecked) {
  std::vector<mishbench_stage> stages = {{"gemm", MISHBENCH_STAGE_GEMM, 0},
                                         {"epilogue", MISHBENCH_STAGE_EPILOGUE, 1}};
  mishbench_backend backend = {"valid", "a valid backend", "fp32", MISHBENCH_DEVICE,
                               MISHBENCH_FP32, nullptr, valid_setup, nullptr, valid_run,
                               nullptr, 2, nullptr, valid_stage, nullptr, nullptr};
  GetParam().change(backend, stages);
  if (backend.stages == nullptr && backend.stage_count > 0 && !stages.empty())
    backend.stages = stages.data();
  const mishbench_plugin table = {MISHBENCH_PLUGIN_ABI_VERSION, 1, &backend};
  if (GetParam().message_part == nullptr) {
    EXPECT_NO_THROW(read_plugin_table(&table, "plugin 'libt.so'"));
    return;
  }
  const std::string message = usage_error([&] { read_plugin_table(&table, "plugin 'libt.so'"); });
  EXPECT_CONTAINS(message, "plugin 'libt.so': backend 0");
  EXPECT_CONTAINS(message, GetParam().message_part);
}

using CBackend = mishbench_backend;
using Stages = std::vector<mishbench_stage>;
const char kLongName[] = "a23456789012345678901234567890123";  // 33 characters

INSTANTIATE_TEST_SUITE_P(
    Fields, TableFields,
    ::testing::Values(
        TableCase{"valid", [](CBackend&, Stages&) {}, nullptr},
        TableCase{"name32", [](CBackend& b, Stages&) { b.name = kLongName + 1; }, nullptr},
        TableCase{"name_digit_first", [](CBackend& b, Stages&) { b.name = "3xtf32.v2_b-c"; },
                  nullptr},
        TableCase{"summary_utf8", [](CBackend& b, Stages&) { b.summary = "bias \xc2\xb7 Mish"; },
                  nullptr},
        TableCase{"no_stages", [](CBackend& b, Stages& s) { b.stage_count = 0, s.clear(); },
                  nullptr},
        TableCase{"no_optional_calls",
                  [](CBackend& b, Stages& s) {
                    b.stage_count = 0, s.clear(), b.run_stage = nullptr;
                  },
                  nullptr},
        TableCase{"name_null", [](CBackend& b, Stages&) { b.name = nullptr; },
                  "name is NULL"},
        TableCase{"name_empty", [](CBackend& b, Stages&) { b.name = ""; },
                  "name '' is not valid"},
        TableCase{"name_upper", [](CBackend& b, Stages&) { b.name = "Fused"; },
                  "name 'Fused' is not valid"},
        TableCase{"name_dash_first", [](CBackend& b, Stages&) { b.name = "-x"; },
                  "name '-x' is not valid"},
        TableCase{"name33", [](CBackend& b, Stages&) { b.name = kLongName; },
                  "is not valid: use 1-32 characters"},
        TableCase{"summary_null", [](CBackend& b, Stages&) { b.summary = nullptr; },
                  "('valid'): summary is NULL"},
        TableCase{"summary_empty", [](CBackend& b, Stages&) { b.summary = ""; },
                  "summary is empty"},
        TableCase{"summary_two_lines", [](CBackend& b, Stages&) { b.summary = "one\ntwo"; },
                  "is not one line of UTF-8 text"},
        TableCase{"summary_not_utf8", [](CBackend& b, Stages&) { b.summary = "bad \xff byte"; },
                  "is not one line of UTF-8 text"},
        TableCase{"summary_long",
                  [](CBackend& b, Stages&) {
                    static const std::string text(201, 's');
                    b.summary = text.c_str();
                  },
                  "summary is longer than 200 bytes"},
        TableCase{"math_mode_null", [](CBackend& b, Stages&) { b.math_mode = nullptr; },
                  "math_mode is NULL"},
        TableCase{"math_mode_bad", [](CBackend& b, Stages&) { b.math_mode = "FP 32"; },
                  "math_mode 'FP 32' is not valid"},
        TableCase{"placement", [](CBackend& b, Stages&) { b.placement = 2; },
                  "placement is 2: use MISHBENCH_DEVICE or MISHBENCH_HOST"},
        TableCase{"accuracy", [](CBackend& b, Stages&) { b.accuracy = -1; },
                  "accuracy is -1: use MISHBENCH_FP32 or MISHBENCH_REDUCED"},
        TableCase{"setup_null", [](CBackend& b, Stages&) { b.setup = nullptr; },
                  "setup is NULL"},
        TableCase{"run_null", [](CBackend& b, Stages&) { b.run = nullptr; }, "run is NULL"},
        TableCase{"one_stage", [](CBackend& b, Stages& s) { b.stage_count = 1, s.resize(1); },
                  "stage_count is 1: declare 0 (no stage breakdown) or 2 to 16 stages"},
        TableCase{"seventeen_stages",
                  [](CBackend& b, Stages& s) {
                    b.stage_count = 17;
                    s.assign(17, mishbench_stage{"gemm", MISHBENCH_STAGE_GEMM, 0});
                  },
                  "stage_count is 17"},
        TableCase{"stages_null", [](CBackend& b, Stages& s) { s.clear(), b.stages = nullptr; },
                  "stage_count is 2 but stages is NULL"},
        TableCase{"run_stage_null", [](CBackend& b, Stages&) { b.run_stage = nullptr; },
                  "stage_count is 2 but run_stage is NULL"},
        TableCase{"stage_name", [](CBackend&, Stages& s) { s[1].name = "Epilogue"; },
                  "stage 1: name 'Epilogue' is not valid"},
        TableCase{"stage_kind", [](CBackend&, Stages& s) { s[0].kind = 5; },
                  "stage 0: kind is 5"},
        TableCase{"stage_reads_bias", [](CBackend&, Stages& s) { s[1].reads_bias = 2; },
                  "stage 1: reads_bias is 2: use 0 or 1"},
        TableCase{"stage_names_repeat", [](CBackend&, Stages& s) { s[1].name = "gemm"; },
                  "two stages are named 'gemm'"}),
    [](const auto& info) { return std::string(info.param.what); });

TEST(PluginTable, WholeTableChecks) {
  EXPECT_CONTAINS(usage_error([] { read_plugin_table(nullptr, "plugin 'p'"); }),
                  "mishbench_plugin_entry() returned NULL");
  const mishbench_backend backend = {"valid", "a valid backend", "fp32", MISHBENCH_HOST,
                                     MISHBENCH_FP32, nullptr, valid_setup, nullptr, valid_run,
                                     nullptr, 0, nullptr, nullptr, nullptr, nullptr};
  const mishbench_plugin none = {MISHBENCH_PLUGIN_ABI_VERSION, 0, &backend};
  EXPECT_CONTAINS(usage_error([&] { read_plugin_table(&none, "plugin 'p'"); }),
                  "backend_count is 0: declare at least one backend");
  const mishbench_plugin garbage = {MISHBENCH_PLUGIN_ABI_VERSION, 100000, &backend};
  EXPECT_CONTAINS(usage_error([&] { read_plugin_table(&garbage, "plugin 'p'"); }),
                  "backend_count is 100000, more than 256");
  const mishbench_plugin null_backends = {MISHBENCH_PLUGIN_ABI_VERSION, 1, nullptr};
  EXPECT_CONTAINS(usage_error([&] { read_plugin_table(&null_backends, "plugin 'p'"); }),
                  "backends is NULL");
  // A newer table: only abi_version is read, whatever the rest holds.
  const mishbench_plugin newer = {MISHBENCH_PLUGIN_ABI_VERSION + 1, 0, nullptr};
  EXPECT_CONTAINS(usage_error([&] { read_plugin_table(&newer, "plugin 'p'"); }),
                  "built against plugin ABI version 2");
}

TEST(PluginText, OneLineOfValidUtf8) {
  EXPECT_EQ(one_line("  tile\tconfig\nfailed \r\n"), "tile config failed");
  EXPECT_EQ(one_line("bad \xff byte"), "bad \xef\xbf\xbd byte");  // U+FFFD
  EXPECT_EQ(one_line("\xc2\xb7 kept"), "\xc2\xb7 kept");
  EXPECT_TRUE(is_utf8("\xc2\xb7"));
  EXPECT_FALSE(is_utf8("\xc2"));
  EXPECT_EQ(excerpt(std::string(100, 'a'), 10), "aaaaaaaaaa...");
  EXPECT_EQ(excerpt("aaaaaaaaa\xc2\xb7", 10), "aaaaaaaaa...");  // not cut inside a character
}

}  // namespace
}  // namespace mish
