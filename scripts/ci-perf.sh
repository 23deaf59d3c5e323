#!/usr/bin/env bash
# The job a self-hosted GPU runner executes: build, run the chosen configs, compare each report
# with the committed baseline for this GPU, write a Markdown summary and the artifacts, and exit
# with compare's code (0 no regression, 1 regression, 2 unusable input).
#
# Usage: scripts/ci-perf.sh [CONFIG ...]          (default: configs/default.json)
# Environment:
#   OUT_DIR      where reports, plots and summary.md go (default: perf-artifacts)
#   BUILD_DIR    build folder (default: build-perf)
#   GITHUB_STEP_SUMMARY   if set, the summary is appended there too
# Baselines: results/baselines/<gpu>-<config>.json, <gpu> from nvidia-smi, e.g.
#   results/baselines/nvidia-h200-default.json. To refresh one, run this script on the runner and
#   copy $OUT_DIR/<config>.json over the baseline in a reviewed commit.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT_DIR=${OUT_DIR:-perf-artifacts}
BUILD_DIR=${BUILD_DIR:-build-perf}
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(configs/default.json)

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 | tr '[:upper:] ' '[:lower:]-')
if [ -z "$gpu" ]; then
  echo "ci-perf.sh: no GPU found by nvidia-smi; this job needs a GPU runner" >&2
  exit 3
fi

cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
cmake --build "$BUILD_DIR"
mkdir -p "$OUT_DIR"
summary="$OUT_DIR/summary.md"
: > "$summary"

status=0
for config in "${configs[@]}"; do
  name=$(basename "$config" .json)
  report="$OUT_DIR/$name.json"
  baseline="results/baselines/$gpu-$name.json"
  # A backend that fails verification makes mishbench exit 1; compare turns that into a verdict.
  run_status=0
  "$BUILD_DIR/mishbench" --config "$config" --json "$report" || run_status=$?
  if [ "$run_status" -ge 2 ]; then
    echo "ci-perf.sh: mishbench could not run $config (exit $run_status)" >&2
    exit "$run_status"
  fi
  python3 scripts/plot.py "$report" --out "$OUT_DIR/plots-$name" > /dev/null || true
  if [ ! -f "$baseline" ]; then
    echo "ci-perf.sh: no baseline $baseline for this GPU; commit $report as the baseline" | tee -a "$summary"
    status=$(( status > 2 ? status : 2 ))
    continue
  fi
  compare_status=0
  "$BUILD_DIR/mishbench" compare "$baseline" "$report" --markdown "$summary" \
      --json "$OUT_DIR/compare-$name.json" > /dev/null || compare_status=$?
  status=$(( compare_status > status ? compare_status : status ))
done

cat "$summary"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$summary" >> "$GITHUB_STEP_SUMMARY"; fi
exit "$status"
