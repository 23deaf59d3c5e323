#!/usr/bin/env bash
# Installs what mishbench needs to build and test on Debian or Ubuntu, except the CUDA toolkit,
# which must already be installed (nvcc on PATH or in /usr/local/cuda/bin).
# Safe to run again: packages already present are left alone, and apt is skipped when none is missing.
set -euo pipefail

packages=(cmake ninja-build g++ libcli11-dev libfmt-dev nlohmann-json3-dev libgtest-dev
          libopenblas-dev python3 python3-numpy python3-matplotlib python3-jsonschema python3-pip)

fail() {
  echo "install-deps: $*" >&2
  exit 1
}

command -v apt-get >/dev/null || fail "apt-get not found: this script supports Debian and Ubuntu only"

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done

if ((${#missing[@]} > 0)); then
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || fail "not root and sudo not found; run as root to install: ${missing[*]}"
    sudo=(sudo)
  fi
  echo "install-deps: installing ${missing[*]}"
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages already installed"
fi

# scripts/plot.py needs numpy and matplotlib, the report schema tests jsonschema, in the python3
# that is first on PATH; when that is not the system one (pyenv, a virtualenv), apt's packages do
# not reach it, so pip installs them.
if ! python3 -c 'import numpy, matplotlib, jsonschema' 2>/dev/null; then
  echo "install-deps: $(command -v python3) lacks numpy/matplotlib/jsonschema; pip installs them"
  python3 -m pip install --quiet numpy matplotlib jsonschema ||
    fail "could not install numpy, matplotlib and jsonschema for $(command -v python3)"
fi

if command -v nvcc >/dev/null; then
  nvcc_path=$(command -v nvcc)
elif [[ -x /usr/local/cuda/bin/nvcc ]]; then
  nvcc_path=/usr/local/cuda/bin/nvcc  # CMake looks in /usr/local/cuda on its own
  echo "install-deps: nvcc is not on PATH; using $nvcc_path (add /usr/local/cuda/bin to PATH to silence this)"
else
  fail "nvcc not found on PATH or in /usr/local/cuda/bin. Install the CUDA toolkit (12.x or newer," \
       "https://developer.nvidia.com/cuda-downloads) or put its bin/ folder on PATH, then rerun."
fi
echo "install-deps: CUDA compiler $nvcc_path ($("$nvcc_path" --version | grep -o 'release [0-9.]*'))"
