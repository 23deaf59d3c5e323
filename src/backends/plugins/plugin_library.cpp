#include "backends/plugins/plugin_library.h"

#include <dlfcn.h>
#include <elf.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "backends/plugins/plugin_text.h"
#include "backends/plugins/sha256.h"
#include "base/common/errors.h"
#include "base/common/untrusted_text.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kMaxBackends = 256;
constexpr uint32_t kMaxStages = 16;
constexpr size_t kMaxSummaryLength = 200;

constexpr const char* kBuildHint =
    "build it with mishbench_add_plugin (or add_library(NAME MODULE ...)) and pass the .so file";

// The first `limit` bytes of a NUL-terminated string, `too_long` set when it has more. Reads at
// most limit + 1 bytes, so an unterminated string cannot run on.
std::string bounded(const char* text, size_t limit, bool* too_long) {
  const size_t length = strnlen(text, limit + 1);
  *too_long = length > limit;
  return std::string(text, std::min(length, limit));
}

// The CLI-name rule of plugin.h: 1-32 chars of [a-z0-9._-], starting with a letter or digit.
bool is_valid_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), is_backend_name_character) &&
         name[0] != '.' && name[0] != '_' && name[0] != '-';
}

// A name field: non-null and of the CLI-name syntax; `what` names the field in messages.
std::string read_name(const char* text, const std::string& where, const char* what) {
  if (text == nullptr)
    throw UsageError(fmt::format("{}: {} is NULL: set it (1-32 characters of a-z, 0-9, '.', "
                                 "'_', '-', starting with a letter or digit)",
                                 where, what));
  bool too_long = false;
  const std::string name = bounded(text, kMaxBackendNameLength, &too_long);
  if (too_long || !is_valid_name(name))
    throw UsageError(fmt::format("{}: {} '{}' is not valid: use 1-32 characters of a-z, 0-9, "
                                 "'.', '_', '-', starting with a letter or digit",
                                 where, what, excerpt(too_long ? name + "..." : name)));
  return name;
}

std::string read_summary(const char* text, const std::string& where) {
  if (text == nullptr)
    throw UsageError(fmt::format("{}: summary is NULL: set a one-line description", where));
  bool too_long = false;
  const std::string summary = bounded(text, kMaxSummaryLength, &too_long);
  if (too_long)
    throw UsageError(fmt::format("{}: summary is longer than {} bytes: shorten it to one line",
                                 where, kMaxSummaryLength));
  if (summary.empty())
    throw UsageError(fmt::format("{}: summary is empty: set a one-line description", where));
  const bool has_control = std::any_of(summary.begin(), summary.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  if (has_control || !is_utf8(summary))
    throw UsageError(fmt::format("{}: summary '{}' is not one line of UTF-8 text: remove line "
                                 "breaks and control characters",
                                 where, excerpt(summary)));
  return summary;
}

// 0/1 fields (enums and flags): anything else is an uninitialized or misplaced field.
int read_choice(int value, const std::string& where, const char* what, const char* choices) {
  if (value != 0 && value != 1)
    throw UsageError(fmt::format("{}: {} is {}: use {}", where, what, value, choices));
  return value;
}

std::vector<PluginStageSpec> read_stages(const mishbench_backend& backend,
                                         const std::string& where) {
  const uint32_t count = backend.stage_count;
  if (count == 0) return {};
  if (count == 1 || count > kMaxStages)
    throw UsageError(fmt::format("{}: stage_count is {}: declare 0 (no stage breakdown) or 2 to "
                                 "{} stages",
                                 where, count, kMaxStages));
  if (backend.stages == nullptr)
    throw UsageError(fmt::format("{}: stage_count is {} but stages is NULL: point it at the "
                                 "stage array, or set stage_count to 0",
                                 where, count));
  if (backend.run_stage == nullptr)
    throw UsageError(fmt::format("{}: stage_count is {} but run_stage is NULL: set it, or set "
                                 "stage_count to 0",
                                 where, count));
  std::vector<PluginStageSpec> stages;
  for (uint32_t i = 0; i < count; ++i) {
    const mishbench_stage& stage = backend.stages[i];
    const std::string at = fmt::format("{}: stage {}", where, i);
    PluginStageSpec spec;
    spec.name = read_name(stage.name, at, "name");
    const int kind =
        read_choice(stage.kind, at, "kind", "MISHBENCH_STAGE_GEMM or MISHBENCH_STAGE_EPILOGUE");
    spec.kind = kind == MISHBENCH_STAGE_GEMM ? StageKind::gemm : StageKind::epilogue;
    spec.reads_bias = read_choice(stage.reads_bias, at, "reads_bias", "0 or 1") == 1;
    const auto same = [&](const PluginStageSpec& other) { return other.name == spec.name; };
    if (std::any_of(stages.begin(), stages.end(), same))
      throw UsageError(fmt::format("{}: two stages are named '{}': give each a unique name", where,
                                   spec.name));
    stages.push_back(std::move(spec));
  }
  return stages;
}

PluginBackendSpec read_backend(const mishbench_backend& backend, const std::string& where) {
  PluginBackendSpec spec;
  spec.name = read_name(backend.name, where, "name");
  const std::string at = fmt::format("{} ('{}')", where, spec.name);
  spec.summary = read_summary(backend.summary, at);
  spec.math_mode = read_name(backend.math_mode, at, "math_mode");
  const int placement =
      read_choice(backend.placement, at, "placement", "MISHBENCH_DEVICE or MISHBENCH_HOST");
  spec.placement = placement == MISHBENCH_HOST ? Placement::host : Placement::device;
  const int accuracy =
      read_choice(backend.accuracy, at, "accuracy", "MISHBENCH_FP32 or MISHBENCH_REDUCED");
  spec.accuracy = accuracy == MISHBENCH_REDUCED ? Accuracy::reduced : Accuracy::fp32;
  if (backend.setup == nullptr)
    throw UsageError(fmt::format("{}: setup is NULL: every backend needs setup()", at));
  if (backend.run == nullptr)
    throw UsageError(fmt::format("{}: run is NULL: every backend needs run()", at));
  spec.stages = read_stages(backend, at);
  spec.calls = backend;
  return spec;
}

// ELF's names for the machines a plugin is likely to be built for.
std::string machine_name(unsigned machine) {
  switch (machine) {
    case EM_X86_64: return "x86-64";
    case EM_386: return "x86";
    case EM_AARCH64: return "aarch64";
    case EM_ARM: return "arm";
    case EM_PPC64: return "ppc64";
    case EM_RISCV: return "riscv";
    case EM_S390: return "s390";
    default: return fmt::format("ELF machine {}", machine);
  }
}

#if defined(__x86_64__)
constexpr unsigned kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kHostMachine = EM_AARCH64;
#elif defined(__powerpc64__)
constexpr unsigned kHostMachine = EM_PPC64;
#else
#error "add this machine's ELF e_machine value"
#endif

// Before dlopen, whose messages for these cases are cryptic ("invalid ELF header",
// "wrong ELF class"): the file exists, is readable, and is a shared object for this machine.
void check_file(const std::string& path) {
  const std::string shown = for_terminal(path, kPathEchoLimit);
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status))
    throw UsageError(fmt::format("plugin '{}' does not exist: check the path given to --plugin "
                                 "(or in the config key plugins)",
                                 shown));
  if (fs::is_directory(status))
    throw UsageError(fmt::format("plugin '{}' is a directory, not a shared library: {}", shown,
                                 kBuildHint));
  // Opening a FIFO would wait for a writer, reading a device would never end.
  if (!fs::is_regular_file(status))
    throw UsageError(fmt::format("plugin '{}' is not a regular file (a FIFO, a device or a "
                                 "socket), not a shared library: {}",
                                 shown, kBuildHint));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw UsageError(fmt::format("cannot read plugin '{}': {}: check its permissions", shown,
                                 std::strerror(errno)));
  std::array<unsigned char, sizeof(Elf64_Ehdr)> header{};
  in.read(reinterpret_cast<char*>(header.data()), header.size());
  const size_t got = static_cast<size_t>(in.gcount());
  if (got < EI_NIDENT || std::memcmp(header.data(), ELFMAG, SELFMAG) != 0)
    throw UsageError(fmt::format("plugin '{}' is not a shared library (no ELF header): {}", shown,
                                 kBuildHint));
  const bool is_64 = header[EI_CLASS] == ELFCLASS64;
  const bool little = header[EI_DATA] == ELFDATA2LSB;
  const size_t fields_end = 20;  // e_type at 16, e_machine at 18 in both ELF classes
  if (got < fields_end)
    throw UsageError(fmt::format("plugin '{}' is a truncated ELF file: rebuild it", shown));
  const auto half = [&](size_t at) {
    return little ? unsigned(header[at]) | unsigned(header[at + 1]) << 8
                  : unsigned(header[at]) << 8 | unsigned(header[at + 1]);
  };
  const unsigned type = half(16), machine = half(18);
  const bool host_little = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
  if (!is_64 || little != host_little || machine != kHostMachine)
    throw UsageError(fmt::format(
        "plugin '{}' is built for {} ({}-bit{}), but this mishbench runs on {} (64-bit): rebuild "
        "the plugin for this machine",
        shown, machine_name(machine), is_64 ? 64 : 32,
        little == host_little ? "" : ", other byte order", machine_name(kHostMachine)));
  if (type != ET_DYN) {
    const char* kind = type == ET_EXEC ? "an executable" : type == ET_REL ? "an object file"
                                                                          : "not a shared object";
    throw UsageError(fmt::format("plugin '{}' is {}, not a shared library: {}", shown, kind,
                                 kBuildHint));
  }
}

std::string dlopen_hint(const std::string& error) {
  if (error.find("undefined symbol") != std::string::npos)
    return "link the library that defines it into the plugin (mishbench_add_plugin links with "
           "--no-undefined, which reports this at build time)";
  if (error.find("cannot open shared object file") != std::string::npos)
    return "a library it depends on is not found: install it, or add its folder to "
           "LD_LIBRARY_PATH or to the plugin's rpath";
  return "rebuild it for this machine with mishbench_add_plugin";
}

// The library's own build-info string, or NULL: dlsym also searches the libraries it depends on,
// whose string would say how they were built.
const char* own_build_info(void* handle, const void* entry) {
  const void* symbol = dlsym(handle, MISHBENCH_PLUGIN_BUILD_INFO);
  Dl_info in_symbol{}, in_entry{};
  if (symbol == nullptr || dladdr(symbol, &in_symbol) == 0 || dladdr(entry, &in_entry) == 0 ||
      in_symbol.dli_fbase != in_entry.dli_fbase)
    return nullptr;
  return static_cast<const char*>(symbol);
}

// The entry's C++ name when it was defined without the header's extern "C":
// mishbench_plugin_entry() mangled by the Itanium ABI.
constexpr const char* kMangledEntry = "_Z22mishbench_plugin_entryv";

}  // namespace

PluginLibrary::~PluginLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

std::vector<std::string> PluginLibrary::backend_names() const {
  std::vector<std::string> names;
  for (const PluginBackendSpec& backend : backends_) names.push_back(backend.name);
  return names;
}

BackendOrigin PluginLibrary::origin() const {
  BackendOrigin origin;
  origin.kind = "plugin";
  origin.path = path_;
  origin.sha256 = sha256_;
  origin.abi_version = static_cast<int>(abi_version_);
  origin.build_info = build_info_;
  return origin;
}

std::string read_build_info(const char* text) {
  if (text == nullptr || *text == '\0') return "unknown";
  bool too_long = false;
  std::string info = bounded(text, kMaxBuildInfoLength, &too_long);
  for (char& c : info) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte > 0x7e) c = '?';  // also each byte of a multi-byte character
  }
  return too_long ? info + "..." : info;
}

std::vector<PluginBackendSpec> read_plugin_table(const mishbench_plugin* table,
                                                 const std::string& label) {
  if (table == nullptr)
    throw UsageError(fmt::format("{}: {}() returned NULL: return the address of a static "
                                 "mishbench_plugin",
                                 label, MISHBENCH_PLUGIN_ENTRY));
  // Only the first field is read before the version matches: later versions may change the rest.
  if (table->abi_version != MISHBENCH_PLUGIN_ABI_VERSION)
    throw UsageError(fmt::format(
        "{} was built against plugin ABI version {}, but this mishbench reads version {}: "
        "rebuild it against this mishbench's mishbench/plugin.h (find_package(mishbench) from "
        "this installation)",
        label, table->abi_version, MISHBENCH_PLUGIN_ABI_VERSION));
  if (table->backend_count == 0)
    throw UsageError(fmt::format("{}: backend_count is 0: declare at least one backend", label));
  if (table->backend_count > kMaxBackends)
    throw UsageError(fmt::format("{}: backend_count is {}, more than {}: is it initialized?",
                                 label, table->backend_count, kMaxBackends));
  if (table->backends == nullptr)
    throw UsageError(fmt::format("{}: backend_count is {} but backends is NULL: point it at the "
                                 "backend array",
                                 label, table->backend_count));
  std::vector<PluginBackendSpec> backends;
  for (uint32_t i = 0; i < table->backend_count; ++i) {
    PluginBackendSpec spec = read_backend(table->backends[i], fmt::format("{}: backend {}",
                                                                          label, i));
    const auto same = [&](const PluginBackendSpec& other) { return other.name == spec.name; };
    const auto earlier = std::find_if(backends.begin(), backends.end(), same);
    if (earlier != backends.end())
      throw UsageError(fmt::format("{}: backends {} and {} are both named '{}': give each a "
                                   "unique name",
                                   label, earlier - backends.begin(), i, spec.name));
    backends.push_back(std::move(spec));
  }
  return backends;
}

std::shared_ptr<const PluginLibrary> load_plugin(const std::string& path) {
  check_file(path);
  std::shared_ptr<PluginLibrary> library(new PluginLibrary());
  std::error_code error;
  library->path_ = fs::canonical(path, error).string();
  if (error)
    throw UsageError(fmt::format("cannot resolve plugin path '{}': {}",
                                 for_terminal(path, kPathEchoLimit), error.message()));
  library->sha256_ = sha256_file_hex(library->path_);
  const std::string label = fmt::format("plugin '{}'", for_terminal(path, kPathEchoLimit));

  dlerror();  // clear an earlier error
  library->handle_ = dlopen(library->path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library->handle_ == nullptr) {
    const char* error = dlerror();
    const std::string text = one_line(error != nullptr ? error : "unknown error");
    throw UsageError(fmt::format("cannot load {}: {}: {}", label, text, dlopen_hint(text)));
  }
  void* symbol = dlsym(library->handle_, MISHBENCH_PLUGIN_ENTRY);
  if (symbol == nullptr) {
    if (dlsym(library->handle_, kMangledEntry) != nullptr)
      throw UsageError(fmt::format("{} defines {} with C++ linkage ({}): include "
                                   "mishbench/plugin.h and define it with MISHBENCH_PLUGIN_EXPORT",
                                   label, MISHBENCH_PLUGIN_ENTRY, kMangledEntry));
    throw UsageError(fmt::format("{} does not export {}: define it with MISHBENCH_PLUGIN_EXPORT "
                                 "(from mishbench/plugin.h), which gives it C linkage and default "
                                 "visibility",
                                 label, MISHBENCH_PLUGIN_ENTRY));
  }
  const auto entry = reinterpret_cast<mishbench_plugin_entry_fn>(symbol);
  const mishbench_plugin* table = nullptr;
  try {
    table = entry();
  } catch (...) {
    throw UsageError(fmt::format("{}: {}() threw a C++ exception: no exception may cross the "
                                 "plugin ABI",
                                 label, MISHBENCH_PLUGIN_ENTRY));
  }
  library->backends_ = read_plugin_table(table, label);
  library->abi_version_ = table->abi_version;
  library->build_info_ = read_build_info(own_build_info(library->handle_, symbol));
  return library;
}

}  // namespace mish
