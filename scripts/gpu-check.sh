#!/usr/bin/env bash
# Full validation on a Hopper GPU machine, in one go: build for sm_90a, the GPU tests,
# compute-sanitizer on every GPU backend at a small shape, then the benchmarks whose reports live
# in results/ (default problem, run-to-run and L2/graph timing modes, seeds and input
# distributions, the fp16x3 chunk count, the M sweep, PyTorch on the same inputs), the
# comparisons and the plots. Ends with a short table of the figures.
#
# Usage: [SKIP="PHASE ..."] scripts/gpu-check.sh [RESULTS_DIR]        (default: results)
# Each phase has a time limit, and a failing phase does not stop the ones after it; the exit code
# is 1 if any phase failed.
set -uo pipefail
cd "$(dirname "$0")/.."
results=${1:-results}
build=${BUILD_DIR:-build-gpu}
logs="$results/logs"
mkdir -p "$logs" "$results/baselines" "$results/frontier"
bench="$build/mishbench"
failed=()

# phase NAME SECONDS COMMAND...: runs COMMAND with a time limit and its own log, remembers a
# failure; ALLOWED_RC=N in the environment makes exit code N count as expected. Phases whose name
# starts with a word of $SKIP (e.g. SKIP="torch fp16x3-chunks") are skipped.
phase() {
  local name=$1 limit=$2 start=$SECONDS word
  shift 2
  for word in ${SKIP:-}; do
    [[ $name == "$word"* ]] && { echo "phase $name: skipped"; return 0; }
  done
  timeout "$limit" "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  echo "phase $name: rc=$rc ($((SECONDS - start)) s)"
  ((rc == 0 || rc == ${ALLOWED_RC:-0})) && return 0
  failed+=("$name(rc=$rc)")
  return "$rc"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv,noheader
phase configure 120 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES=90a || { tail -30 "$logs/configure.log"; exit 1; }
phase build 300 cmake --build "$build" -j"$(nproc)" || { grep -m5 -A8 error "$logs/build.log"; exit 1; }

# The default problem, every backend (the headline report and the README's example output).
phase default 150 "$bench" --backend=all --iters=100 --json "$results/h200-default.json"
cp "$logs/default.log" "$results/h200-default.txt"

phase gpu-tests 240 ctest --test-dir "$build" -L gpu --output-on-failure --timeout 200
grep -E "tests passed|Failed|\*\*\*" "$logs/gpu-tests.log" | tail -8

gpu_backends=$("$bench" --list-backends | awk '$2 == "device" {print $1}' | paste -sd, -)
small=(--m 256 --n 384 --k 448 --warmup 0 --iters 1 -q)
phase memcheck 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$bench" \
  --backend="$gpu_backends" "${small[@]}"
phase racecheck 120 compute-sanitizer --tool racecheck --error-exitcode 9 "$bench" \
  --backend=naive,wgmma "${small[@]}"
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" "$logs/memcheck.log" "$logs/racecheck.log"

# Timing trust: two back-to-back runs, hot L2, CUDA graphs.
trio=separate,fused,cublaslt
phase timing-a 60 "$bench" --backend=$trio --json "$logs/timing-a.json"
phase timing-b 60 "$bench" --backend=$trio --json "$logs/timing-b.json"
phase timing-hot 60 "$bench" --backend=$trio,fp16x3,wgmma --l2=hot --json "$results/h200-hot.json"
phase timing-graph 60 "$bench" --backend=$trio,fp16x3,wgmma --graph --json "$results/h200-graph.json"
phase compare-runs 30 "$bench" compare "$logs/timing-a.json" "$logs/timing-b.json" \
  --markdown "$results/compare-back-to-back.md"
python3 - "$logs/timing-b.json" "$logs/timing-b-slower.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for result in report["results"]:
    if result.get("timing"):
        result["timing"]["samples_ms"] = [s * 1.05 for s in result["timing"]["samples_ms"]]
json.dump(report, open(sys.argv[2], "w"))
PY
"$bench" compare "$logs/timing-a.json" "$logs/timing-b-slower.json" \
  --markdown "$results/compare-scaled-1.05.md" >"$logs/compare-scaled.log" 2>&1
echo "compare vs samples x1.05: rc=$? (1 expected)"

# Accuracy and speed frontier: seeds 1-5 of every distribution.
frontier=fused,tf32,bf16,3xtf32,fp16x3,wgmma
for dist in kernelbench normal normal-unit wide; do
  iters=30; allowed=0
  [ "$dist" = kernelbench ] && iters=100
  [ "$dist" = normal-unit ] && allowed=1  # there even cuBLAS FP32 misses 1e-4: exit 1 is the finding
  for seed in 1 2 3 4 5; do
    ALLOWED_RC=$allowed phase "frontier-$dist-$seed" 90 "$bench" --backend=$frontier \
      --distribution "$dist" --seed "$seed" --iters "$iters" -q \
      --json "$results/frontier/$dist-seed$seed.json"
  done
done

for chunks in 1 2 3 4 6; do
  phase "fp16x3-chunks-$chunks" 60 "$bench" --backend=fp16x3 --backend-option "fp16x3.chunks=$chunks" \
    --seed 1 --iters 50 -q --json "$logs/fp16x3-chunks-$chunks.json"
done
phase prepack 60 "$bench" --backend=bf16,3xtf32,fp16x3,wgmma --include-prepack --iters 50 \
  --json "$results/h200-include-prepack.json"

# The M sweep (also the CI baseline for that config) and the default-config baseline.
phase sweep 240 "$bench" --config configs/sweep.json --json "$results/baselines/nvidia-h200-sweep.json"
cp "$results/h200-default.json" "$results/baselines/nvidia-h200-default.json"

# PyTorch eager and torch.compile on the identical inputs (PYTHON: the interpreter that has torch).
phase torch 600 "$bench" --backend=torch-eager,torch-compile --python "${PYTHON:-python3}" \
  --iters 100 -q --json "$results/h200-torch.json"

phase plots 120 python3 scripts/plot.py "$results/h200-default.json" "$results/h200-torch.json" \
  --out "$results/plots"
phase plot-sweep 120 python3 scripts/plot.py "$results/baselines/nvidia-h200-sweep.json" \
  --out "$results/plots/sweep" --problem 1024x8192x8192 --x m

python3 - "$results" <<'PY'
import glob, json, os, sys
results = sys.argv[1]
def table(path, title):
    if not os.path.exists(path):
        print(f"{title}: missing"); return
    report = json.load(open(path))
    print(f"\n{title}")
    for r in report["results"]:
        t = r.get("timing") or {}
        v = r.get("verification") or {}
        print(f"  {r['backend']:<12} {r['status']:<9} {t.get('median_ms', float('nan')):8.4f} ms "
              f"{r.get('tflops') or 0:7.1f} TF  err {v.get('max_abs', float('nan')):.2e}  mism {v.get('mismatches', '-')}")
table(f"{results}/h200-default.json", "default problem")
table(f"{results}/h200-torch.json", "PyTorch")
print("\nfrontier (median ms / max abs err / mismatches) per distribution and seed")
for path in sorted(glob.glob(f"{results}/frontier/*.json")):
    report = json.load(open(path))
    cells = [f"{r['backend']} {r['timing']['median_ms']:.3f}/{r['verification']['max_abs']:.1e}/{r['verification']['mismatches']}"
             for r in report["results"] if r.get("timing")]
    print(f"  {os.path.basename(path)[:-5]:<22} " + "  ".join(cells))
PY
echo
if ((${#failed[@]})); then echo "failed phases: ${failed[*]}"; exit 1; fi
echo "all phases passed"
