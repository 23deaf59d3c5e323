#!/usr/bin/env bash
# On a Hopper GPU machine: builds for sm_90a, then checks the `wgmma` backend end to end:
# verification and timing on the default problem next to cuBLAS FP32 (`fused`), the GPU tests, and
# compute-sanitizer memcheck and racecheck on a small shape. Logs go to $OUT (or ./wgmma-check).
set -u
build=${BUILD_DIR:-build-gpu}
logs=${OUT:-wgmma-check}
mkdir -p "$logs"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  >"$logs/configure.log" 2>&1 || { tail -20 "$logs/configure.log"; exit 1; }
cmake --build "$build" -j16 --target mishbench mish_gpu_tests >"$logs/build.log" 2>&1 \
  || { grep -B2 -A8 -m3 error "$logs/build.log"; exit 1; }

small=(--m 256 --n 384 --k 448 --warmup 0 --iters 1 -q)
timeout 180 "$build/mishbench" --backend=wgmma,fused --iters=50 --json "$logs/default.json" \
  2>&1 | tee "$logs/default.txt"
timeout 180 "$build/tests/mish_gpu_tests" --gtest_filter='Wgmma.*' >"$logs/gtest.txt" 2>&1
echo "gtest rc=$?"; grep -E '^\[  (FAILED|PASSED|SKIPPED) ' "$logs/gtest.txt"
for tool in memcheck racecheck; do
  timeout 180 compute-sanitizer --tool "$tool" "$build/mishbench" --backend=wgmma "${small[@]}" \
    >"$logs/$tool.txt" 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/$tool.txt" | tail -1)"
done
