#!/usr/bin/env python3
"""Renders the plots from synthetic reports and checks the images: one report, several devices, a
comparison of reports (bars labelled base and new, or by --label, with their ratio), a sweep of a
multi-problem report against M or the problem; bad input exits 2 with its reason.
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


def result(backend, m, median, max_abs, status="ok", n=8192, k=8192):
    rng = random.Random(f"{backend}{m}")
    samples = [median * (1 + rng.gauss(0, 0.01)) for _ in range(50)]
    flops = 2.0 * m * n * k
    return {"backend": backend, "status": status, "reason": "", "math_mode": "fp32",
            "problem": {"m": m, "n": n, "k": k, "seed": 42, "distribution": "kernelbench"},
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

    def test_two_reports_are_base_and_new_with_their_ratio(self):
        with tempfile.TemporaryDirectory() as tmp:
            base = write_json(os.path.join(tmp, "main.json"),
                              report([result("fused", 1024, 2.0, 1e-5),
                                      result("cpu", 1024, 150.0, 1e-6)]))
            new = write_json(os.path.join(tmp, "change.json"),
                             report([result("fused", 1024, 2.2, 1e-5)]))
            out = os.path.join(tmp, "plots")
            done = self.run_plot(base, new, "--out", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            svg = read_text(os.path.join(out, "time.svg"))
            for text in ("base: main.json", "new: change.json", "one bar per report", "1.100×",
                         "median ÷ base's median"):
                self.assertIn(text, svg)
            self.assertIn("fused (new)", read_text(os.path.join(out, "accuracy.svg")))
            self.assertGreater(matplotlib.image.imread(os.path.join(out, "time.png")).std(), 0.01)
            # Named by --label, one per report; three reports, each later one against the first.
            third = write_json(os.path.join(tmp, "third.json"),
                               report([result("fused", 1024, 1.0, 1e-5)]))
            done = self.run_plot(base, new, third, "--label", "tile-64", "--label", "tile-128",
                                 "--label", "tile-256", "--out", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            svg = read_text(os.path.join(out, "time.svg"))
            for text in ("tile-64: main.json", "tile-256: third.json", "0.500×", "1.100×"):
                self.assertIn(text, svg)
            self.assertNotIn("base", svg)
            done = self.run_plot(base, new, "--label", "only-one", "--out", out)
            self.assertEqual(done.returncode, 2)
            self.assertIn("1 --label for 2 reports", done.stderr)

    def sweep_report(self, tmp, extra=()):
        rows = []
        for m in (1, 64, 1024, 8192):
            rows += [result("fused", m, 2.7 * m / 1024 + 0.05, 1e-5),
                     result("splitk", m, 1.1 * m / 1024 + 0.03, 1e-5)]
        return write_json(os.path.join(tmp, "sweep.json"), report(rows + list(extra)))

    def test_a_multi_problem_report_is_a_sweep_of_every_problem(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "plots")
            done = self.run_plot(self.sweep_report(tmp), "--out", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            # The time and accuracy plots show one problem, and say so.
            self.assertIn("time and accuracy show problem", done.stderr)
            self.assertIn("one of 4 (--problem picks another); the sweep shows them all",
                          done.stderr)
            svg = read_text(os.path.join(out, "sweep.svg"))
            for text in ("TFLOP/s against M", "splitk", "8192", "M (rows of x), log scale"):
                self.assertIn(text, svg)
            self.assertGreater(matplotlib.image.imread(os.path.join(out, "sweep.png")).std(), 0.01)
            # Problems of other N and K: against the problem, none left out.
            odd = [result("fused", 333, 0.3, 1e-5, n=2049, k=3001)]
            done = self.run_plot(self.sweep_report(tmp, odd), "--out", out, "--metric", "time")
            self.assertEqual(done.returncode, 0, done.stderr)
            svg = read_text(os.path.join(out, "sweep.svg"))
            for text in ("time against the problem", "333x2049x3001", "1024x8192x8192",
                         "median time per forward pass"):
                self.assertIn(text, svg)
            # Against M, the problem of other N and K is left out, by name.
            done = self.run_plot(self.sweep_report(tmp, odd), "--out", out, "--x", "m",
                                 "--problem", "1024x8192x8192")
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("leaving out 333x2049x3001", done.stderr)
            self.assertNotIn("333x2049x3001", read_text(os.path.join(out, "sweep.svg")))
            # Two sweeps: a line per backend and report.
            again = write_json(os.path.join(tmp, "again.json"),
                               json.loads(read_text(self.sweep_report(tmp))))
            done = self.run_plot(self.sweep_report(tmp), again, "--out", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("fused (new)", read_text(os.path.join(out, "sweep.svg")))

    def test_help_has_examples(self):
        done = self.run_plot("--help")
        self.assertEqual(done.returncode, 0)
        self.assertIn("Examples:", done.stdout)
        self.assertIn("--label", done.stdout)

    def test_bad_input_exits_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.json")
            with open(bad, "w") as f:
                f.write("{ not json")
            done = self.run_plot(bad, "--out", tmp)
            self.assertEqual(done.returncode, 2)
            self.assertIn("cannot read report", done.stderr)
            missing = self.run_plot(os.path.join(tmp, "missing.json"), "--out", tmp)
            self.assertEqual(missing.returncode, 2)
            self.assertIn("cannot read report", missing.stderr)
            self.assertIn("No such file", missing.stderr)
            # JSON that is not a report: an object without results, a list, a result without
            # a problem.
            for name, document in (("settings.json", {"iters": 3}), ("list.json", [1, 2]),
                                   ("odd.json", {"schema_version": "1.3.0",
                                                 "results": [{"backend": "fused"}]})):
                done = self.run_plot(write_json(os.path.join(tmp, name), document), "--out", tmp)
                self.assertEqual(done.returncode, 2, name)
                self.assertIn(name, done.stderr)
                self.assertTrue("is not a mishbench report" in done.stderr
                                or "has no backend or no problem" in done.stderr, done.stderr)
            newer = write_json(os.path.join(tmp, "newer.json"),
                               dict(report([result("fused", 1024, 2.7, 1e-5)]),
                                    schema_version="2.0.0"))
            done = self.run_plot(newer, "--out", tmp)
            self.assertEqual(done.returncode, 2)
            self.assertIn("schema version 2.0.0 is not readable", done.stderr)
            good = write_json(os.path.join(tmp, "good.json"),
                              report([result("fused", 1024, 2.7, 1e-5)]))
            done = self.run_plot(good, "--out", tmp, "--problem", "1x2x3")
            self.assertEqual(done.returncode, 2)
            self.assertIn("no timed results for problem 1x2x3; the reports hold: 1024x8192x8192",
                          done.stderr)
            untimed = dict(result("fused", 1024, 2.7, 1e-5), status="error", timing=None)
            done = self.run_plot(write_json(os.path.join(tmp, "untimed.json"), report([untimed])),
                                 "--out", tmp)
            self.assertEqual(done.returncode, 2)
            self.assertIn("nothing to plot", done.stderr)
            self.assertEqual(done.stdout, "")


if __name__ == "__main__":
    unittest.main()
