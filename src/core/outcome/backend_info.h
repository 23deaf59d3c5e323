// What the run records about a backend besides its results: where it runs, the accuracy it
// promises, where it comes from. Plain data, shared by the backends, the run and the report.
#pragma once
#include <string>

namespace mish {

// Where a backend's buffers live and where it runs.
enum class Placement { host, device };
std::string to_string(Placement placement);

// What verification at the default tolerance (1e-4) is expected to show. A `reduced` backend that
// mismatches is still reported as a mismatch, with its error figures, but does not fail the run.
enum class Accuracy { fp32, reduced };
std::string to_string(Accuracy accuracy);

// A part of the forward pass that can be enqueued, and so timed, on its own.
enum class StageKind {
  gemm,      // the matrix product: reported in TFLOP/s
  epilogue,  // elementwise work on y: reported in GB/s against the device copy bandwidth
};

// Where a backend comes from: built into the tool, a plugin library, a solution file.
struct BackendOrigin {
  std::string kind = "builtin";  // "builtin", "plugin", "solution"
  std::string path;              // plugin library or solution file, canonical
  std::string sha256;            // of that file
  int abi_version = 0;           // plugins: the ABI version the library was built against
  std::string build_info;        // plugins: how the library was built ("unknown" if it says not)
};

// The table's view of a backend: what --list-backends prints and every result carries.
struct BackendInfo {
  std::string name;  // the CLI name, also the JSON key
  std::string summary;
  std::string math_mode;
  Accuracy accuracy = Accuracy::fp32;
  Placement placement = Placement::device;
  BackendOrigin origin;
};

}  // namespace mish
