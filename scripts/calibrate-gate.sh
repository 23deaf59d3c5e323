#!/usr/bin/env bash
# Measures the perf gate on this machine (docs/compare.md#calibrating-the-gate): GATES interleaved
# gates (`mishbench ab` of one build against itself), each with an honest backend, the same in
# both builds (A/A: a SLOWER or FASTER is a false alarm), and a planted slowdown that the new
# build's runs add, SLOWDOWN percent of its own median (a SLOWER is a detection). Each gate's first
# base and new round reports are also compared with `mishbench compare` (the A/A of two separate
# runs). Prints one line per gate, then the counts; the reports stay in the work folder.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/calibrate-gate.sh [--build DIR] [--gates N] [--slowdown PCT] [--placement device|host]
                                 [--work DIR] [-- RUN_ARGS...]

  --build DIR          a build with the test plugins (BUILD_TESTING on; default: build)
  --gates N            gates to run (default 20)
  --slowdown PCT       the planted slowdown, percent of the planted backend's median (default 5)
  --placement P        device (honest-device, planted-slowdown; default) or host (honest-host,
                       planted-slowdown-host)
  --work DIR           where the gates' reports go (default: a new temporary folder)
  RUN_ARGS             the problem and sampling (default: --m 256 --n 4096 --k 4096 for device,
                       --m 16 --n 64 --k 128 for host)

Examples:
  scripts/calibrate-gate.sh --gates 20 --slowdown 5
  scripts/calibrate-gate.sh --placement host --gates 4 -- --m 16 --n 32 --k 64 --iters 20

Exit codes: 0 done (whatever the counts), 2 bad arguments or a build without the test plugins,
            3 a gate could not run (its log is named).
EOF
}

build=build gates=20 slowdown=5 placement=device work="" run_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=${2:?--build needs a folder}; shift 2 ;;
    --gates) gates=${2:?--gates needs a number}; shift 2 ;;
    --slowdown) slowdown=${2:?--slowdown needs a percent}; shift 2 ;;
    --placement) placement=${2:?--placement needs device or host}; shift 2 ;;
    --work) work=${2:?--work needs a folder}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; run_args=("$@"); break ;;
    *) echo "calibrate-gate: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
[[ "$gates" =~ ^[1-9][0-9]{0,3}$ ]] || { echo "calibrate-gate: --gates must be 1 to 9999" >&2; exit 2; }
[[ "$slowdown" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "calibrate-gate: --slowdown must be a percent" >&2; exit 2; }
case "$placement" in
  device) honest=honest-device honest_lib=honest_device planted=planted-slowdown
          planted_lib=planted_slowdown default_args=(--m 256 --n 4096 --k 4096) ;;
  host) honest=honest-host honest_lib=honest_host planted=planted-slowdown-host
        planted_lib=planted_slowdown_host default_args=(--m 16 --n 64 --k 128) ;;
  *) echo "calibrate-gate: --placement must be device or host" >&2; exit 2 ;;
esac
[ ${#run_args[@]} -gt 0 ] || run_args=("${default_args[@]}")

tool="$build/mishbench"
plugins=("$build/tests/plugins/libmishtest_$honest_lib.so" "$build/tests/plugins/libmishtest_$planted_lib.so")
for file in "$tool" "${plugins[@]}"; do
  [ -e "$file" ] || { echo "calibrate-gate: '$file' is missing: build with -DBUILD_TESTING=ON" >&2; exit 2; }
done
[ -n "$work" ] || work=$(mktemp -d "${TMPDIR:-/tmp}/calibrate-gate.XXXXXX")
mkdir -p "$work"
run=(--plugin "${plugins[0]}" --plugin "${plugins[1]}" --backend="$honest,$planted" "${run_args[@]}")

# The planted backend's own median, for the spin that makes SLOWDOWN percent of it.
"$tool" "${run[@]}" -q --json "$work/probe.json" > "$work/probe.log" 2>&1 ||
  { echo "calibrate-gate: the probe run failed: $work/probe.log" >&2; exit 3; }
spin_us=$(python3 - "$work/probe.json" "$planted" "$slowdown" <<'EOF'
import json, sys
report, backend, percent = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3])
median = next(r["timing"]["median_ms"] for r in report["results"] if r["backend"] == backend)
print(f"{median * 1000 * percent / 100:.3f}")
EOF
)
echo "calibrate-gate: $gates gates of $honest (A/A) and $planted (+$slowdown% = $spin_us us per run), ${run_args[*]}; reports in $work"

verdict() {  # verdict FILE BACKEND: the row's verdict in an ab or compare --json file
  python3 - "$1" "$2" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
print(next((r["verdict"] for r in rows if r["backend"] == sys.argv[2]), "NONE"))
EOF
}

aa_alarms=0 compare_alarms=0 detected=0
for gate in $(seq 1 "$gates"); do
  dir="$work/gate-$gate"
  status=0
  "$tool" ab --base "$tool" --new "$tool" --rounds-dir "$dir" --json "$dir.json" \
    --new-arg="--backend-option=$planted.spin_us=$spin_us" -- "${run[@]}" > "$dir.log" 2>&1 || status=$?
  [ "$status" -le 1 ] || { echo "calibrate-gate: gate $gate could not run (exit $status): $dir.log" >&2; exit 3; }
  status=0
  "$tool" compare "$dir/round-001-base.json" "$dir/round-002-new.json" --json "$dir-compare.json" \
    > "$dir-compare.log" 2>&1 || status=$?
  [ "$status" -le 1 ] || { echo "calibrate-gate: gate $gate's compare failed (exit $status): $dir-compare.log" >&2; exit 3; }
  aa=$(verdict "$dir.json" "$honest") slow=$(verdict "$dir.json" "$planted")
  separate=$(verdict "$dir-compare.json" "$honest")
  case "$aa" in SLOWER|FASTER) aa_alarms=$((aa_alarms + 1)) ;; esac
  case "$separate" in SLOWER|FASTER) compare_alarms=$((compare_alarms + 1)) ;; esac
  [ "$slow" = SLOWER ] && detected=$((detected + 1))
  echo "gate $gate: A/A $aa, planted $slow; A/A of two separate runs (compare) $separate"
done
echo "A/A false alarms: $aa_alarms of $gates interleaved gates, $compare_alarms of $gates compares of two runs"
echo "planted +$slowdown% detected (SLOWER): $detected of $gates interleaved gates"
