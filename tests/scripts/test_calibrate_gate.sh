#!/usr/bin/env bash
# scripts/calibrate-gate.sh on the host test plugins: every gate gets its line, a planted 300 %
# slowdown is caught in both gates, the counts close the output, and bad arguments are exit 2.
# Usage: test_calibrate_gate.sh SCRIPT BUILD_DIR
set -u
script=$1 build=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/calibrate-gate-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
expect() {  # expect PATTERN: a line of the output matches it
  grep -Eq "$1" <<<"$out" || { echo "FAIL: no line matching '$1' in:"; echo "$out"; fail=1; }
}

out=$("$script" --build "$build" --placement host --gates 2 --slowdown 300 --work "$work/gates" \
  -- --m 16 --n 32 --k 64 --iters 20 2>&1)
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: exit $rc"; echo "$out"; fail=1; }
for gate in 1 2; do
  expect "^gate $gate: A/A (SAME|UNSURE|SLOWER|FASTER), planted SLOWER; A/A of two separate runs \(compare\) (SAME|UNSURE|SLOWER|FASTER)$"
done
expect "^A/A false alarms: [0-2] of 2 interleaved gates, [0-2] of 2 compares of two runs$"
expect "^planted \+300% detected \(SLOWER\): 2 of 2 interleaved gates$"
[ -f "$work/gates/gate-2/round-001-base.json" ] || { echo "FAIL: the rounds' reports were not kept"; fail=1; }

for bad in "--gates 0" "--slowdown fast" "--placement cloud" "--build $work/none" "--frobnicate"; do
  # shellcheck disable=SC2086
  "$script" $bad > "$work/bad.log" 2>&1
  rc=$?
  [ "$rc" -eq 2 ] || { echo "FAIL: '$bad' gave exit $rc, not 2: $(cat "$work/bad.log")"; fail=1; }
done
exit $fail
