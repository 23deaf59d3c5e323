#!/usr/bin/env python3
"""Renders the three plots from synthetic reports and checks the images; bad input exits 2.
Exit 77 (skipped) when matplotlib is not installed."""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

try:
    import matplotlib.image
except ImportError:
    print("matplotlib is not installed: plot test skipped")
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOT = os.path.join(ROOT, "scripts", "plot.py")


def result(backend, m, median, max_abs, status="ok"):
    rng = random.Random(f"{backend}{m}")
    samples = [median * (1 + rng.gauss(0, 0.01)) for _ in range(50)]
    flops = 2.0 * m * 8192 * 8192
    return {"backend": backend, "status": status, "reason": "", "math_mode": "fp32",
            "problem": {"m": m, "n": 8192, "k": 8192, "seed": 42, "distribution": "kernelbench"},
            "timing": {"samples_ms": samples, "median_ms": median},
            "tflops": flops / (median * 1e-3) / 1e12,
            # report 1.2: the time over the roofline bound (here a 0.06 ms memory floor)
            "roofline": {"multiple_of_floor": median / 0.06},
            "verification": {"max_abs": max_abs, "mismatches": 0 if status == "ok" else 10}}


def write_json(path, document):
    with open(path, "w") as f:
        json.dump(document, f)
    return path


def read_text(path):
    with open(path) as f:
        return f.read()


def report(results):
    return {"schema_version": "1.0.0", "device": {"name": "Test GPU"}, "results": results}


class PlotTest(unittest.TestCase):
    def run_plot(self, *args):
        return subprocess.run([sys.executable, PLOT, *args], capture_output=True, text=True)

    def test_renders_all_three_plots(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows = []
            for m in (1, 64, 1024, 8192):
                rows += [result("fused", m, 2.7 * m / 1024 + 0.05, 1e-5),
                         result("tf32", m, 0.4 * m / 1024 + 0.02, 4e-4, status="mismatch")]
            rows.append(result("exact", 1024, 5.0, 0.0))  # an exact result must still plot
            path = os.path.join(tmp, "report.json")
            with open(path, "w") as f:
                json.dump(report(rows), f)
            out = os.path.join(tmp, "plots")
            done = self.run_plot(path, "--out", out, "--problem", "1024x8192x8192")
            self.assertEqual(done.returncode, 0, done.stderr)
            for name in ("time", "accuracy", "sweep"):
                image = matplotlib.image.imread(os.path.join(out, name + ".png"))
                self.assertGreater(image.shape[0], 200)
                self.assertGreater(image.shape[1], 200)
                self.assertGreater(image.std(), 0.01, f"{name}.png looks blank")
                with open(os.path.join(out, name + ".svg")) as f:
                    svg = f.read()
                self.assertIn("<svg", svg)
            with open(os.path.join(out, "accuracy.svg")) as f:
                self.assertIn("tf32", f.read())

    def test_single_problem_writes_no_sweep(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "report.json")
            with open(path, "w") as f:
                json.dump(report([result("fused", 1024, 2.7, 1e-5)]), f)
            out = os.path.join(tmp, "plots")
            self.assertEqual(self.run_plot(path, "--out", out).returncode, 0)
            self.assertTrue(os.path.exists(os.path.join(out, "time.png")))
            self.assertFalse(os.path.exists(os.path.join(out, "sweep.png")))

    def node_report(self, medians):
        """A report of one node (schema 1.3): fused on each device, cpu on the host."""
        devices = [{"name": "NVIDIA H200", "ordinal": d, "host_index": 0,
                    "uuid": f"GPU-00000000-0000-4000-8000-{d:012x}"} for d in range(len(medians))]
        rows = []
        for d, median in enumerate(medians):
            row = result("fused", 1024, median, 1e-5)
            row["device_index"] = d
            rows.append(row)
        cpu = result("cpu", 1024, 150.0, 1e-6)
        cpu["device_index"] = None
        rows.append(cpu)
        return {"schema_version": "1.3.0", "hosts": [{"hostname": "node-a"}],
                "device": devices[0], "devices": devices, "results": rows}

    def test_several_devices_draw_one_bar_per_device(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_json(os.path.join(tmp, "node.json"), self.node_report([2.7, 2.7, 2.97]))
            out = os.path.join(tmp, "plots")
            done = self.run_plot(path, "--out", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            svg = read_text(os.path.join(out, "time.svg"))
            for label in ("gpu 0", "gpu 1", "gpu 2", "host", "one bar per device", "3 devices"):
                self.assertIn(label, svg)
            self.assertGreater(matplotlib.image.imread(os.path.join(out, "time.png")).std(), 0.01)
            self.assertIn("fused (gpu 2)", read_text(os.path.join(out, "accuracy.svg")))

    def test_one_device_beside_an_older_report_keeps_one_bar_per_backend(self):
        with tempfile.TemporaryDirectory() as tmp:
            node = write_json(os.path.join(tmp, "node.json"), self.node_report([2.7]))
            older = write_json(os.path.join(tmp, "torch.json"),
                               report([result("torch-eager", 1024, 2.74, 1e-5)]))
            out = os.path.join(tmp, "plots")
            self.assertEqual(self.run_plot(node, older, "--out", out).returncode, 0)
            svg = read_text(os.path.join(out, "time.svg"))
            self.assertIn("torch-eager", svg)
            self.assertNotIn("one bar per device", svg)
            self.assertNotIn("gpu 0", svg)

    def test_bad_input_exits_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.json")
            with open(bad, "w") as f:
                f.write("{ not json")
            done = self.run_plot(bad, "--out", tmp)
            self.assertEqual(done.returncode, 2)
            self.assertIn("cannot read report", done.stderr)
            self.assertEqual(self.run_plot(os.path.join(tmp, "missing.json"), "--out", tmp).returncode, 2)


if __name__ == "__main__":
    unittest.main()
