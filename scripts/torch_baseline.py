#!/usr/bin/env python3
"""PyTorch reference points in mishbench's report format.

Runs `linear -> mish -> mish` in PyTorch eager (fp32, TF32 off) and through torch.compile on the
identical inputs that `mishbench --dump DIR` wrote, verifies every element against the same float64
reference (|y - ref| <= atol + rtol |ref|), times with CUDA events (L2 flushed before each sample by
default, as mishbench does) and writes a report that `mishbench compare` and scripts/plot.py read.

Usage:
  build/mishbench --backend=fused --dump dump/ && \\
  scripts/torch_baseline.py dump/1024x8192x8192-kernelbench-seed42 --json results/torch-h200.json
Exit codes: 0 all verified, 1 a mode failed verification, 2 bad input or no PyTorch,
            3 no CUDA device.
"""
import argparse
import datetime
import json
import os
import platform
import socket
import statistics
import sys

import numpy as np

SCHEMA_VERSION = "1.0.0"


def fail(message, code):
    print(f"torch_baseline.py: {message}", file=sys.stderr)
    sys.exit(code)


def find_problem_dir(path):
    """The folder holding problem.json: PATH itself or its only subfolder that has one."""
    if os.path.isfile(os.path.join(path, "problem.json")):
        return path
    candidates = [os.path.join(path, d) for d in sorted(os.listdir(path))
                  if os.path.isfile(os.path.join(path, d, "problem.json"))] if os.path.isdir(path) else []
    if len(candidates) != 1:
        fail(f"'{path}' is not a mishbench --dump folder of one problem "
             f"(found {len(candidates)} problem folders); name one of them", 2)
    return candidates[0]


def verify(y, ref, atol, rtol):
    y64 = y.astype(np.float64)
    finite = np.isfinite(y64)
    diff = np.where(finite, np.abs(y64 - ref), np.inf)
    allowed = atol + rtol * np.abs(ref)
    score = diff / allowed
    mismatches = int(np.count_nonzero(~(score <= 1.0)))
    finite_diff = np.where(finite, diff, 0.0)
    nonzero = ref != 0
    rel = np.where(finite & nonzero, finite_diff / np.where(nonzero, np.abs(ref), 1.0), 0.0)
    worst = int(np.argmax(score))
    row, col = divmod(worst, ref.shape[1])
    return {"checked": int(ref.size), "mismatches": mismatches,
            "nonfinite": int(np.count_nonzero(~finite)),
            "max_abs": float(finite_diff.max()), "max_rel": float(rel.max()),
            "worst": {"row": row, "col": col, "got": float(y64.flat[worst]),
                      "expected": float(ref.flat[worst])}}


def time_samples(torch, fn, warmup, iters, flush_buffer):
    for _ in range(warmup):
        fn()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    for _ in range(iters):
        if flush_buffer is not None:
            flush_buffer.zero_()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop))
    return samples


def summary(samples):
    ordered = sorted(samples)
    return {"samples_ms": samples, "count": len(samples), "median_ms": statistics.median(ordered),
            "mean_ms": statistics.fmean(ordered), "min_ms": ordered[0], "max_ms": ordered[-1],
            "stdev_ms": statistics.stdev(ordered) if len(ordered) > 1 else 0.0}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dump", help="a folder written by mishbench --dump")
    parser.add_argument("--json", required=True, help="report file to write")
    parser.add_argument("--modes", default="eager,compile", help="eager, compile, compile-max-autotune")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--l2", choices=["flush", "hot"], default="flush")
    parser.add_argument("--atol", type=float, default=1e-4)
    parser.add_argument("--rtol", type=float, default=1e-4)
    args = parser.parse_args(argv)
    if args.iters < 1 or args.warmup < 0:
        fail("--iters must be >= 1 and --warmup >= 0", 2)
    modes = [m.strip() for m in args.modes.split(",")]
    for mode in modes:
        if mode not in ("eager", "compile", "compile-max-autotune"):
            fail(f"unknown mode '{mode}'; choose eager, compile, compile-max-autotune", 2)

    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        fail("PyTorch is not installed (pip install torch); it is needed for the PyTorch baseline", 2)
    if not torch.cuda.is_available():
        fail("no CUDA device visible to PyTorch; the PyTorch baseline runs on the GPU", 3)

    folder = find_problem_dir(args.dump)
    try:
        with open(os.path.join(folder, "problem.json")) as f:
            problem = json.load(f)
        arrays = {name: np.load(os.path.join(folder, name + ".npy"))
                  for name in ("x", "w", "b", "y_reference")}
    except (OSError, ValueError) as error:
        fail(f"cannot read the dump in '{folder}': {error}", 2)

    torch.backends.cuda.matmul.allow_tf32 = False  # true FP32, as the 1e-4 rule needs
    torch.backends.cudnn.allow_tf32 = False
    device = torch.device("cuda")
    x = torch.from_numpy(arrays["x"]).to(device)
    w = torch.from_numpy(arrays["w"]).to(device)
    b = torch.from_numpy(arrays["b"]).to(device)
    ref = arrays["y_reference"]

    def layer(x, w, b):
        return F.mish(F.mish(F.linear(x, w, b)))

    functions = {"eager": layer,
                 "compile": torch.compile(layer),
                 "compile-max-autotune": torch.compile(layer, mode="max-autotune")}
    properties = torch.cuda.get_device_properties(device)
    l2_bytes = getattr(properties, "L2_cache_size", 64 << 20)
    flush = torch.empty(2 * l2_bytes, dtype=torch.uint8, device=device) if args.l2 == "flush" else None

    results = []
    for mode in modes:
        fn = functions[mode]
        y = fn(x, w, b)  # the first call also compiles
        torch.cuda.synchronize()
        check = verify(y.cpu().numpy(), ref, args.atol, args.rtol)
        samples = time_samples(torch, lambda: fn(x, w, b), args.warmup, args.iters, flush)
        timing = summary(samples)
        status = "ok" if check["mismatches"] == 0 else "mismatch"
        flops = 2.0 * problem["m"] * problem["n"] * problem["k"]
        results.append({
            "backend": f"torch-{mode}", "problem": problem, "status": status,
            "reason": "" if status == "ok" else f"{check['mismatches']} elements outside tolerance",
            "math_mode": "fp32", "details": {"torch": torch.__version__, "allow_tf32": False},
            "setup_ms": 0.0, "timing": timing, "tflops": flops / (timing["median_ms"] * 1e-3) / 1e12,
            "speedup_vs_separate": None, "verification": check})
        print(f"torch-{mode:<22} {status:<9} median {timing['median_ms']:.4f} ms  "
              f"max abs err {check['max_abs']:.2e}  mismatches {check['mismatches']}")

    report = {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "torch_baseline.py", "version": torch.__version__, "git_sha": "unknown"},
        "argv": [sys.argv[0], *argv],
        "timestamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "host": {"hostname": socket.gethostname(), "cpu": platform.processor(),
                 "cores": os.cpu_count(), "os": f"{platform.system()} {platform.release()} {platform.machine()}"},
        "device": {"name": properties.name, "cc": f"{properties.major}.{properties.minor}",
                   "sms": properties.multi_processor_count, "l2_bytes": l2_bytes,
                   "memory_bytes": properties.total_memory, "cuda_runtime": torch.version.cuda},
        "settings": {"warmup": args.warmup, "iters": args.iters, "l2": args.l2,
                     "atol": args.atol, "rtol": args.rtol},
        "problems": [problem],
        "results": results,
    }
    temporary = args.json + ".partial"
    with open(temporary, "w") as f:
        json.dump(report, f, indent=2)
    os.replace(temporary, args.json)
    return 0 if all(r["status"] == "ok" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
