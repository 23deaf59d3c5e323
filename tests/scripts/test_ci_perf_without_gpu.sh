#!/usr/bin/env bash
# scripts/ci-perf.sh on a machine without a usable GPU: its own message and exit 3, before any
# build, whether nvidia-smi is missing or lists no device.
set -uo pipefail
script="$(cd "$(dirname "$0")/../.." && pwd)/scripts/ci-perf.sh"
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
# A PATH with what the script needs before its GPU check, and no nvidia-smi.
for tool in bash dirname head tr; do ln -s "$(command -v "$tool")" "$tools/$tool"; done
failed=0

expect_no_gpu() {  # expect_no_gpu WHAT MESSAGE
  local err status
  err=$(env -i PATH="$tools" "$tools/bash" "$script" 2>&1 > /dev/null)
  status=$?
  if [ "$status" -ne 3 ] || [[ $err != *"$2"* ]]; then
    echo "FAIL: $1: exit $status, stderr: $err"
    failed=1
  fi
}

expect_no_gpu "no nvidia-smi" "ci-perf.sh: nvidia-smi not found; this job needs a GPU runner"
printf '#!%s\necho "No devices were found" >&2\nexit 6\n' "$tools/bash" > "$tools/nvidia-smi"
chmod +x "$tools/nvidia-smi"
expect_no_gpu "no device" "ci-perf.sh: nvidia-smi lists no GPU; this job needs a GPU runner"
exit "$failed"
