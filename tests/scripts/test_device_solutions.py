#!/usr/bin/env python3
"""The device solutions on a GPU (docs/solutions.md): the two examples and the shipped PyTorch rows
verify beside a built-in in one run and one valid report; a second run reuses the compiled
extension from the per-file cache; the device test solutions fail with their own reasons, and so
does --graph on a PyTorch row; the honest-but-unusual device solutions of the exploit suite
(docs/isolation.md#the-exploit-suite) and a declared W kept transposed verify, and a load_inline kernel launched with no stream
argument times the same as one launched on PyTorch's current stream.

Usage: test_device_solutions.py MISHBENCH [PYTHON]   (PYTHON: the one with torch; default python3)
Exit 77 (skipped) when that Python has no torch or torch sees no GPU.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VALIDATOR = os.path.join(ROOT, "tests", "scripts", "validate_report.py")
EXAMPLES = os.path.join(ROOT, "examples", "solutions")
FIXTURES = os.path.join(ROOT, "tests", "solutions")
PROBLEM = ["--m", "256", "--n", "1024", "--k", "1024", "--iters", "20", "-q"]
# More samples, for two medians compared within 5 %.
UNUSUAL_PROBLEM = ["--m", "256", "--n", "1024", "--k", "1024", "--iters", "50", "-q"]

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL: {message}")


def run(mishbench, python, args, cache):
    environment = dict(os.environ, XDG_CACHE_HOME=cache)
    done = subprocess.run([mishbench, "--python", python, *args], capture_output=True, text=True,
                          env=environment, timeout=1800)
    print(done.stdout)
    print(done.stderr[-4000:], file=sys.stderr)
    return done


def results_by_backend(path):
    with open(path) as f:
        report = json.load(f)
    return report, {r["backend"]: r for r in report["results"]}


def main(argv):
    mishbench = argv[0]
    python = argv[1] if len(argv) > 1 else "python3"
    probe = subprocess.run([python, "-c", "import torch; print(torch.cuda.is_available())"],
                           capture_output=True, text=True)
    if probe.returncode != 0 or probe.stdout.strip() != "True":
        print(f"{python} has no torch with a GPU ({(probe.stderr or probe.stdout).strip()[-200:]})"
              ": skipped")
        return 77
    with tempfile.TemporaryDirectory() as scratch:
        cache = os.path.join(scratch, "cache")
        kernelbench = os.path.join(EXAMPLES, "kernelbench_load_inline.py")
        triton = os.path.join(EXAMPLES, "triton_tf32x3.py")
        report_path = os.path.join(scratch, "all.json")
        done = run(mishbench, python,
                   ["--solution", kernelbench, "--solution", triton,
                    "--backend=fused,3xtf32,torch-eager,torch-compile,kb-load-inline,triton-tf32x3",
                    *PROBLEM, "--json", report_path], cache)
        check(done.returncode == 0, f"the examples' run exits {done.returncode}")
        report, results = results_by_backend(report_path)
        for name in ("torch-eager", "torch-compile", "kb-load-inline", "triton-tf32x3"):
            r = results.get(name, {})
            check(r.get("status") == "ok", f"{name}: {r.get('status')} {r.get('reason')}")
            check(r.get("origin", {}).get("kind") == "solution",
                  f"{name}: origin {r.get('origin')}")
            check("torch" in r.get("details", {}), f"{name}: details {r.get('details')}")
        check(results["triton-tf32x3"].get("math_mode") == "3xtf32", "triton math mode")
        valid = subprocess.run([sys.executable, VALIDATOR, report_path], capture_output=True,
                               text=True)
        check(valid.returncode in (0, 77), f"report not valid: {valid.stdout}{valid.stderr}")

        # The second run finds the extension built by the first in the file's cache folder.
        first_setup = results["kb-load-inline"].get("setup_ms") or 0
        again_path = os.path.join(scratch, "again.json")
        done = run(mishbench, python, ["--solution", kernelbench, "--backend=kb-load-inline",
                                       *PROBLEM, "--json", again_path], cache)
        check(done.returncode == 0, f"the second run exits {done.returncode}")
        _, again = results_by_backend(again_path)
        second_setup = again["kb-load-inline"].get("setup_ms") or 0
        check(second_setup < first_setup / 2,
              f"setup {second_setup:.0f} ms after {first_setup:.0f} ms: the build was not reused")
        folders = os.listdir(os.path.join(cache, "mishbench", "solutions"))
        check(any(os.path.isdir(os.path.join(cache, "mishbench", "solutions", f,
                                              "torch_extensions", "kb_double_mish"))
                  for f in folders), f"no cached extension in {folders}")

        # Each device failure with its own reason; --graph refused for a PyTorch row.
        broken_path = os.path.join(scratch, "broken.json")
        names = ["device_wrong_shape", "device_wrong_dtype", "device_wrong_device"]
        args = []
        for name in names:
            args += ["--solution", os.path.join(FIXTURES, name + ".py")]
        done = run(mishbench, python, [*args, "--backend=torch-eager," + ",".join(names),
                                       "--graph", *PROBLEM, "--json", broken_path], cache)
        check(done.returncode == 1, f"the failing run exits {done.returncode}")
        _, broken = results_by_backend(broken_path)
        expected = {
            "device_wrong_shape": "forward(x) returned shape [256, 1023]; expected [M, N] = "
                                  "[256, 1024]",
            "device_wrong_dtype": "forward(x) returned dtype torch.float16; expected torch.float32",
            "device_wrong_device": "forward(x) returned a tensor on cpu; expected one on cuda:0",
            "torch-eager": "CUDA-graph capture (--graph) of a PyTorch solution is not supported",
        }
        for name, says in expected.items():
            r = broken.get(name, {})
            check(r.get("status") == "error" and says in r.get("reason", ""),
                  f"{name}: {r.get('status')} '{r.get('reason')}', expected '{says}'")
        # The exploit suite's honest-but-unusual device solutions and a model that keeps W
        # transposed and declares it (on this square problem): each verifies, and the
        # load_inline kernel on the legacy default stream is timed as the one on the current
        # stream is (neither cheaper nor dearer).
        unusual_path = os.path.join(scratch, "unusual.json")
        names = ["device_graph_replay", "device_side_stream", "kb_default_stream",
                 "kb_current_stream", "device_transposed_weight"]
        args = []
        for name in names:
            args += ["--solution", os.path.join(FIXTURES, name + ".py")]
        done = run(mishbench, python, [*args, "--backend=" + ",".join(names),
                                       *UNUSUAL_PROBLEM, "--json", unusual_path], cache)
        check(done.returncode == 0, f"the honest-but-unusual run exits {done.returncode}")
        _, unusual = results_by_backend(unusual_path)
        for name in names:
            r = unusual.get(name, {})
            check(r.get("status") == "ok", f"{name}: {r.get('status')} {r.get('reason')}")
        details = unusual.get("device_transposed_weight", {}).get("details", {})
        check(details.get("weight_layout") == "kn" and details.get("warnings") == [],
              f"device_transposed_weight: details {details}")
        medians = [(unusual.get(name, {}).get("timing") or {}).get("median_ms")
                   for name in ("kb_default_stream", "kb_current_stream")]
        if all(isinstance(m, (int, float)) and m > 0 for m in medians):
            low, high = sorted(medians)
            check(high <= 1.05 * low,
                  f"kb_default_stream {medians[0]:.4f} ms against kb_current_stream "
                  f"{medians[1]:.4f} ms: more than 5 % apart")
        else:
            check(False, f"kb_default_stream and kb_current_stream medians: {medians}")
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("ok: device examples, PyTorch rows, the extension cache, the device failures and the "
          "honest-but-unusual device solutions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
