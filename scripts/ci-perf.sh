#!/usr/bin/env bash
# The job a self-hosted GPU runner executes: build, run the chosen configs, judge them, write a
# Markdown summary and the artifacts, and exit with the gate's code (0 the gate passes, 1 a
# regression, 2 unusable input, 3 no GPU or a run that could not run).
#
# Two modes (docs/ci.md):
#   AB_BASE=<git ref>  interleaved A/B, the recommended gate: builds the merge base of <ref> and
#                      HEAD beside this checkout and runs `mishbench ab` of the two builds on
#                      this runner, rounds in ABBA order, for each config.
#   (unset)            a run of this build per config, compared with the committed baseline
#                      results/baselines/<gpu>-<config>.json, <gpu> from nvidia-smi, e.g.
#                      results/baselines/nvidia-h200-default.json. To refresh one, run this
#                      script on the runner and copy $OUT_DIR/<config>.json over it in a
#                      reviewed commit.
#
# Usage: [AB_BASE=origin/main] scripts/ci-perf.sh [CONFIG ...]   (default: configs/default.json)
# Environment:
#   OUT_DIR      where reports, plots and summary.md go (default: perf-artifacts)
#   BUILD_DIR    build folder (default: build-perf; the merge base builds in $BUILD_DIR-base)
#   AB_ROUNDS, AB_MAX_ROUNDS   mishbench ab's --rounds and --max-rounds (default: ab's)
#   GITHUB_STEP_SUMMARY   if set, the summary is appended there too
set -euo pipefail

cd "$(dirname "$0")/.."
OUT_DIR=${OUT_DIR:-perf-artifacts}
BUILD_DIR=${BUILD_DIR:-build-perf}
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(configs/default.json)

no_gpu() {
  echo "ci-perf.sh: $1; this job needs a GPU runner (with the NVIDIA driver and a visible GPU)" >&2
  exit 3
}
command -v nvidia-smi > /dev/null 2>&1 || no_gpu "nvidia-smi not found"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n 1 |
      tr '[:upper:] ' '[:lower:]-') || gpu=""
[ -n "$gpu" ] || no_gpu "nvidia-smi lists no GPU"

build() {  # build SOURCE_DIR BUILD_DIR
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
  cmake --build "$2"
}
build . "$BUILD_DIR"
mkdir -p "$OUT_DIR"
summary="$OUT_DIR/summary.md"
: > "$summary"
status=0
worse() { status=$(( $1 > status ? $1 : status )); }

# The merge base of AB_BASE and HEAD, checked out beside this tree and built.
build_base() {
  local commit
  commit=$(git merge-base "$AB_BASE" HEAD)
  base_src="$BUILD_DIR-base-src"
  git worktree remove --force "$base_src" 2> /dev/null || rm -rf "$base_src"
  git worktree add --detach "$base_src" "$commit" > /dev/null
  trap 'git worktree remove --force "$base_src" 2> /dev/null || true' EXIT
  echo "ci-perf.sh: base build: $AB_BASE's merge base with HEAD, $commit" | tee -a "$summary"
  build "$base_src" "$BUILD_DIR-base"
}

ab_config() {  # ab_config CONFIG NAME
  local rounds=()
  [ -z "${AB_ROUNDS:-}" ] || rounds+=(--rounds "$AB_ROUNDS")
  [ -z "${AB_MAX_ROUNDS:-}" ] || rounds+=(--max-rounds "$AB_MAX_ROUNDS")
  local ab_status=0
  "$BUILD_DIR/mishbench" ab --base "$BUILD_DIR-base/mishbench" --new "$BUILD_DIR/mishbench" \
      "${rounds[@]}" --rounds-dir "$OUT_DIR/ab-$2" --json "$OUT_DIR/ab-$2.json" \
      --markdown "$summary" -- --config "$1" > /dev/null || ab_status=$?
  worse "$ab_status"
}

baseline_config() {  # baseline_config CONFIG NAME
  local report="$OUT_DIR/$2.json" baseline="results/baselines/$gpu-$2.json"
  # A backend that fails verification makes mishbench exit 1; compare turns that into a verdict.
  local run_status=0
  "$BUILD_DIR/mishbench" --config "$1" --json "$report" || run_status=$?
  if [ "$run_status" -ge 2 ]; then
    echo "ci-perf.sh: mishbench could not run $1 (exit $run_status)" >&2
    exit "$run_status"
  fi
  python3 scripts/plot.py "$report" --out "$OUT_DIR/plots-$2" > /dev/null || true
  if [ ! -f "$baseline" ]; then
    echo "ci-perf.sh: no baseline $baseline for this GPU; commit $report as the baseline" |
      tee -a "$summary"
    worse 2
    return
  fi
  local compare_status=0
  "$BUILD_DIR/mishbench" compare "$baseline" "$report" --markdown "$summary" \
      --json "$OUT_DIR/compare-$2.json" > /dev/null || compare_status=$?
  worse "$compare_status"
}

[ -z "${AB_BASE:-}" ] || build_base
for config in "${configs[@]}"; do
  name=$(basename "$config" .json)
  if [ -n "${AB_BASE:-}" ]; then ab_config "$config" "$name"; else baseline_config "$config" "$name"; fi
done

cat "$summary"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$summary" >> "$GITHUB_STEP_SUMMARY"; fi
exit "$status"
