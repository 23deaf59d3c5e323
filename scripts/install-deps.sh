#!/usr/bin/env bash
# Makes sure that what mishbench needs is usable, and installs only what is not.
#
# Usage: scripts/install-deps.sh [--tests] [--check]
#   (no flag)  what building and running need:
#     commands on PATH  cmake >= 3.24, ninja, a g++ that compiles C++17, nvcc from CUDA 12 or
#                       newer (on PATH or in /usr/local/cuda/bin)
#     CMake packages    CLI11, fmt, nlohmann_json >= 3.10, OpenMP, OpenBLAS (or BLAS and cblas.h),
#                       looked for as the project's CMakeLists.txt looks for them
#   --tests    also what the tests need: the CMake package GTest, and python3 with numpy,
#              matplotlib and jsonschema (the solution, plot and report-schema tests)
#   --check    install nothing: only say what is missing (exit 1 when something is)
# What is usable counts, wherever it came from (pip, conda, a vendor installer, a virtualenv):
# nothing is asked for by package name unless its capability is missing. Missing pieces come
# from apt (through sudo when not root) or, for the modules of a python3 that is not the
# system's, from pip. When they cannot be installed (no network, no apt, not root), it names
# each missing piece and how to get it, and exits 1. Safe to run again.
set -euo pipefail

readonly min_cmake=3.24 min_cuda=12.0
readonly run_packages=(CLI11 fmt nlohmann_json OpenMP_CXX OpenBLAS)
readonly test_packages=(GTest)
readonly test_python_modules=(numpy matplotlib jsonschema)
readonly cuda_download="https://developer.nvidia.com/cuda-downloads"

log() { echo "install-deps: $*"; }

tests=false
check_only=false
for argument in "$@"; do
  case "$argument" in
    --tests) tests=true ;;
    --check) check_only=true ;;
    -h | --help) sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
    *) echo "install-deps: unknown argument '$argument'; usage: $0 [--tests] [--check]" >&2
       exit 2 ;;
  esac
done
packages=("${run_packages[@]}")
if $tests; then packages+=("${test_packages[@]}"); fi

# Whether dotted version $1 is at least $2.
at_least() { [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" == "$2" ]]; }
version_of() { grep -oE '[0-9]+(\.[0-9]+)+' | head -n 1; }

missing=()     # "what is missing: how to get it", one entry each
apt_wanted=()  # apt packages that would provide what is missing
pip_wanted=()  # modules that pip would install for a python3 that is not the system's
found=()       # what was checked and is usable, for the closing line

# lack WHAT HOW [APT_PACKAGE]
lack() {
  missing+=("$1: $2")
  if [[ -n "${3:-}" ]]; then apt_wanted+=("$3"); fi
}

nvcc_path() {
  if command -v nvcc >/dev/null; then
    command -v nvcc
  elif [[ -x /usr/local/cuda/bin/nvcc ]]; then
    echo /usr/local/cuda/bin/nvcc  # CMake looks in /usr/local/cuda on its own
  fi
}

compiles_cxx17() {
  printf '%s\n' '#include <optional>' \
    'int main() { std::optional<int> x; if constexpr (sizeof(int) > 0) return x.value_or(0); }' |
    g++ -std=c++17 -x c++ - -o /dev/null 2>/dev/null
}

cmake_usable() {
  command -v cmake >/dev/null && at_least "$(cmake --version | version_of)" "$min_cmake"
}

check_commands() {
  local pip_cmake="python3 -m pip install 'cmake>=$min_cmake'"
  if cmake_usable; then
    found+=("cmake $(cmake --version | version_of)")
  elif command -v cmake >/dev/null; then
    lack "cmake >= $min_cmake (found $(cmake --version | version_of) at $(command -v cmake))" \
         "apt-get install cmake where the release has one that new, or $pip_cmake" cmake
  else
    lack "cmake >= $min_cmake" "apt-get install cmake, or $pip_cmake" cmake
  fi
  if command -v ninja >/dev/null; then
    found+=("ninja $(ninja --version)")
  else
    lack "ninja" "apt-get install ninja-build, or python3 -m pip install ninja" ninja-build
  fi
  if command -v g++ >/dev/null && compiles_cxx17; then
    found+=("g++ $(g++ -dumpfullversion 2>/dev/null || g++ -dumpversion)")
  else
    lack "a g++ that compiles C++17" "apt-get install g++" g++
  fi
  local nvcc cuda
  nvcc=$(nvcc_path)
  if [[ -z "$nvcc" ]]; then
    lack "nvcc (CUDA $min_cuda or newer)" \
         "install the CUDA toolkit ($cuda_download) or put its bin/ folder on PATH"
    return
  fi
  cuda=$("$nvcc" --version | grep -o 'release [0-9.]*' | version_of)
  if at_least "$cuda" "$min_cuda"; then
    found+=("nvcc $cuda ($nvcc)")
  else
    lack "nvcc from CUDA $min_cuda or newer (found $cuda at $nvcc)" \
         "install a newer CUDA toolkit ($cuda_download) and put its bin/ folder on PATH"
  fi
}

# A throw-away CMake project that looks for each package as CMakeLists.txt does and says which
# it found. Needs cmake, ninja and g++ (checked first).
check_cmake_packages() {
  local probe output
  probe=$(mktemp -d)
  cat >"$probe/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.24)
project(mishbench_dependency_probe LANGUAGES CXX)
find_package(CLI11 CONFIG QUIET)
find_package(fmt QUIET)
find_package(nlohmann_json 3.10 QUIET)
find_package(GTest QUIET)
find_package(OpenMP QUIET COMPONENTS CXX)
find_package(OpenBLAS CONFIG QUIET)
if(NOT OpenBLAS_FOUND)
  set(BLA_VENDOR OpenBLAS)
  find_package(BLAS QUIET)
  find_path(CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas openblas-pthread)
  if(BLAS_FOUND AND CBLAS_INCLUDE_DIR)
    set(OpenBLAS_FOUND TRUE)
  endif()
endif()
foreach(package ${PROBE_PACKAGES})
  if(${package}_FOUND)
    message(STATUS "probe: found ${package}")
  else()
    message(STATUS "probe: missing ${package}")
  endif()
endforeach()
EOF
  if ! output=$(cmake -S "$probe" -B "$probe/build" -G Ninja \
                      "-DPROBE_PACKAGES=$(IFS=';'; echo "${packages[*]}")" 2>&1); then
    rm -rf "$probe"
    lack "a working CMake configure" "cmake could not configure an empty C++ project: $output"
    return
  fi
  rm -rf "$probe"
  local line package
  while read -r line; do
    package=${line#-- probe: * }
    case "$line" in
      "-- probe: found "*) found+=("$package") ;;
      "-- probe: missing CLI11") lack "CMake package CLI11" "apt-get install libcli11-dev" \
                                      libcli11-dev ;;
      "-- probe: missing fmt") lack "CMake package fmt" "apt-get install libfmt-dev" libfmt-dev ;;
      "-- probe: missing nlohmann_json") lack "CMake package nlohmann_json >= 3.10" \
                                              "apt-get install nlohmann-json3-dev" \
                                              nlohmann-json3-dev ;;
      "-- probe: missing GTest") lack "CMake package GTest" "apt-get install libgtest-dev" \
                                      libgtest-dev ;;
      "-- probe: missing OpenMP_CXX") lack "OpenMP for C++" \
                                           "apt-get install libgomp1 (it comes with g++)" \
                                           libgomp1 ;;
      "-- probe: missing OpenBLAS") lack "OpenBLAS (or BLAS with cblas.h)" \
                                         "apt-get install libopenblas-dev" libopenblas-dev ;;
    esac
  done < <(grep '^-- probe: ' <<<"$output")
}

# Whether python3 on PATH is the distribution's own (apt's modules reach it) rather than pyenv,
# conda or a virtualenv (pip's do).
system_python() {
  python3 -c 'import os, sys
sys.exit(0 if sys.prefix == sys.base_prefix
         and os.path.realpath(sys.executable).startswith("/usr/bin/") else 1)'
}

check_python() {
  if ! command -v python3 >/dev/null; then
    lack "python3" "apt-get install python3" python3
    return
  fi
  local module system=false python
  python=$(command -v python3)
  if system_python; then system=true; fi
  for module in "${test_python_modules[@]}"; do
    if python3 -c "import $module" 2>/dev/null; then
      found+=("$module")
    elif $system; then
      lack "Python module $module for $python" "apt-get install python3-$module" "python3-$module"
    else
      lack "Python module $module for $python" "python3 -m pip install $module"
      pip_wanted+=("$module")
    fi
  done
}

check_all() {
  missing=() apt_wanted=() pip_wanted=() found=()
  check_commands
  if cmake_usable && command -v ninja >/dev/null && command -v g++ >/dev/null; then
    check_cmake_packages
  else
    missing+=("the CMake packages: not checked until cmake, ninja and g++ are usable")
  fi
  if $tests; then check_python; fi
}

cannot_install=()  # why what is missing could not be installed
apt_updated=false

install_with_apt() {
  local sudo=()
  if ! command -v apt-get >/dev/null; then
    cannot_install+=("apt-get is not available on this machine")
    return 1
  fi
  if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null; then
      cannot_install+=("not root, and sudo is not available")
      return 1
    fi
    sudo=(sudo)
  fi
  log "installing with apt: ${apt_wanted[*]}"
  if ! $apt_updated; then
    if ! "${sudo[@]}" apt-get update; then
      cannot_install+=("apt-get update failed (no network, or no access to the package archives)")
      return 1
    fi
    apt_updated=true
  fi
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
       apt-get install -y --no-install-recommends "${apt_wanted[@]}"; then
    cannot_install+=("apt-get install ${apt_wanted[*]} failed")
    return 1
  fi
}

install_with_pip() {
  local python
  python=$(command -v python3)
  log "installing for $python with pip: ${pip_wanted[*]}"
  if ! python3 -m pip install --quiet "${pip_wanted[@]}"; then
    local command="python3 -m pip install ${pip_wanted[*]}"
    cannot_install+=("$command failed for $python (no network, or no pip)")
    return 1
  fi
}

# Two rounds: a missing cmake hides which CMake packages are missing until it is installed.
for _ in 1 2; do
  $check_only && break
  check_all
  ((${#apt_wanted[@]} + ${#pip_wanted[@]} == 0)) && break
  installed=true
  if ((${#apt_wanted[@]} > 0)); then install_with_apt || installed=false; fi
  if ((${#pip_wanted[@]} > 0)); then install_with_pip || installed=false; fi
  $installed || break
done
check_all

if $tests; then purpose="built and tested"; else purpose="built and run"; fi
if ((${#missing[@]} > 0)); then
  echo "install-deps: missing, so mishbench cannot be $purpose yet:" >&2
  for entry in "${missing[@]}"; do echo "  - $entry" >&2; done
  for reason in "${cannot_install[@]}"; do echo "install-deps: could not install: $reason" >&2; done
  if $check_only; then echo "install-deps: nothing was installed (--check)" >&2; fi
  exit 1
fi
log "everything is present: ${found[*]}"
