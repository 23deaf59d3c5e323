// A loaded plugin library (include/mishbench/plugin.h): dlopen, the entry point, and the checks
// that turn a broken library into a UsageError (exit 2) that says what is wrong and what to do.
// Loading runs the library's initializers and its entry point in the calling process.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "mishbench/plugin.h"

namespace mish {

// A stage as a plugin declared it, checked.
struct PluginStageSpec {
  std::string name;
  StageKind kind = StageKind::gemm;
  bool reads_bias = false;
};

// A backend as a plugin declared it, checked: its strings copied, its enums mapped, and the
// table entry itself kept for its function pointers.
struct PluginBackendSpec {
  std::string name;
  std::string summary;
  std::string math_mode;
  Placement placement = Placement::device;
  Accuracy accuracy = Accuracy::fp32;
  std::vector<PluginStageSpec> stages;  // empty, or 2 to 16
  mishbench_backend calls{};
};

class PluginLibrary {
 public:
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;
  ~PluginLibrary();  // unloads the library: destroy every backend made from it first

  const std::string& path() const { return path_; }      // canonical
  const std::string& sha256() const { return sha256_; }  // of the file, hex
  uint32_t abi_version() const { return abi_version_; }
  // How it was built, from its MISHBENCH_PLUGIN_BUILD_INFO string; "unknown" without one.
  const std::string& build_info() const { return build_info_; }
  const std::vector<PluginBackendSpec>& backends() const { return backends_; }
  std::vector<std::string> backend_names() const;
  // {kind "plugin", path, sha256, abi_version, build_info}
  BackendOrigin origin() const;

 private:
  friend std::shared_ptr<const PluginLibrary> load_plugin(const std::string& path);
  PluginLibrary() = default;

  void* handle_ = nullptr;
  std::string path_;
  std::string sha256_;
  uint32_t abi_version_ = 0;
  std::string build_info_;
  std::vector<PluginBackendSpec> backends_;
};

// The CLI-name rule of plugin.h: 1 to kMaxBackendNameLength of these characters, starting with a
// letter or digit.
constexpr size_t kMaxBackendNameLength = 32;
inline bool is_backend_name_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

// A library's build-info string (MISHBENCH_PLUGIN_BUILD_INFO) as the report keeps it: at most
// kMaxBuildInfoLength bytes (then "..."), every byte that is not printable ASCII as '?';
// "unknown" for NULL or an empty string. Reads at most kMaxBuildInfoLength + 1 bytes.
constexpr size_t kMaxBuildInfoLength = 1024;
std::string read_build_info(const char* text);

// Loads the library at `path` (dlopen with RTLD_NOW | RTLD_LOCAL), calls its entry point and
// checks the table it returns; the library stays loaded while the result (or a backend made
// from it) lives. Throws UsageError.
std::shared_ptr<const PluginLibrary> load_plugin(const std::string& path);

// The checks load_plugin applies to an entry point's table: ABI version, backend count, each
// backend's fields, unique names. `label` starts each message ("plugin 'libx.so'"). Throws
// UsageError.
std::vector<PluginBackendSpec> read_plugin_table(const mishbench_plugin* table,
                                                 const std::string& label);

}  // namespace mish
