#!/usr/bin/env python3
"""The import graph of src/ and kernels/ follows the layer order of docs/architecture.md: a file
includes headers of its own layer or of layers below it, never above (no back-arrows). Every
folder must have a place in the order, so a new folder is placed on purpose."""
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Lowest first. Each entry is a folder under src/ (or kernels/); a file belongs to the longest
# entry its path starts with.
LAYERS = [
    "base/common",  # errors, text of untrusted input, versions
    "base/cuda",  # CUDA error checks, device buffers, the stream gate, the read probe
    "kernels",  # the layer's own kernels
    "base/io",  # outputs written safely, JSON input, standard streams
    "base/env",  # the machine: devices, CPU threads, host memory
    "base/progress",  # the progress line
    "core/timing",  # timers, clocks, GPU activity records, statistics, the stopping rule, peaks
    "core/problem",  # the problem and its inputs
    "core/reference",  # the float64 CPU reference
    "core/verify",  # tolerances, verification, explanations, the physical floor
    "core/outcome",  # what a backend's run came to
    "core/backend",  # what a backend is: the interface every implementation plugs into
    "core/dump",  # tensors written as .npy
    "settings",  # the settings table and the run's configuration
    "exec/executor",  # executors, buffers, shared memory, the device context, the calls
    "exec/worker",  # worker processes: the protocol, the channel, the worker executor
    "backends/builtin",  # the built-in backends and their registry
    "backends/plugins",  # plugin libraries
    "backends/external",  # the table of a run's backends: built-ins, plugins, solutions
    "run",  # the steps of one backend, one device's run, the whole run
    "reports/report",  # the report: JSON, console table, schema
    "reports/export",  # CSV, Markdown and the run's outputs
    "reports/compare",  # compare
    "reports/merge",  # merge
    "reports/ab",  # interleaved A/B
    "app/worker",  # the worker program
    "app/cli",  # the command line and its subcommands
    "app",  # main()
]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCES = re.compile(r"\.(h|hpp|c|cc|cpp|cu|cuh)$")


def layer_of(path):
    """The index in LAYERS of a path relative to src/ (or 'kernels/...'), or None."""
    best = None
    for index, layer in enumerate(LAYERS):
        if path == layer or path.startswith(layer + "/"):
            if best is None or len(layer) > len(LAYERS[best]):
                best = index
    return best


TOPS = (("src", ""), ("kernels", "kernels/"))


def label_of(path):
    """A file's path relative to src/, or as 'kernels/...'; None outside both."""
    real = os.path.realpath(path)
    for top, prefix in TOPS:
        base = os.path.realpath(os.path.join(ROOT, top))
        if real.startswith(base + os.sep):
            return prefix + os.path.relpath(real, base)
    return None


def sources():
    """(label_of, absolute path) of every source file."""
    for top, _ in TOPS:
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            for name in names:
                if SOURCES.search(name):
                    full = os.path.join(folder, name)
                    yield label_of(full), full


def resolve(included, including):
    """The included file's label_of, found as the compiler would (beside the including file, then
    in src/ and kernels/); None for the plugin header and system headers."""
    for folder in (os.path.dirname(including), os.path.join(ROOT, "src"),
                   os.path.join(ROOT, "kernels")):
        candidate = os.path.join(folder, included)
        if os.path.isfile(candidate):
            return label_of(candidate)
    return None


class Layers(unittest.TestCase):
    def test_every_folder_has_a_layer(self):
        unplaced = sorted({os.path.dirname(p) or p for p, _ in sources() if layer_of(p) is None})
        self.assertEqual(unplaced, [], "folders with no place in LAYERS (docs/architecture.md)")

    def test_no_file_includes_a_layer_above_its_own(self):
        back_arrows = []
        for path, full in sources():
            own = layer_of(path)
            if own is None:
                continue
            with open(full, encoding="utf-8") as f:
                text = f.read()
            for included in INCLUDE.findall(text):
                target = resolve(included, full)
                if target is None:
                    continue
                theirs = layer_of(target)
                if theirs is not None and theirs > own:
                    back_arrows.append(f"{path} ({LAYERS[own]}) includes {included} "
                                       f"({LAYERS[theirs]}, above it)")
        self.assertEqual(back_arrows, [], "includes against the layer order")

    def test_the_check_sees_a_back_arrow(self):
        # The order itself: a lower layer's file including a higher one is what the check reports.
        self.assertLess(layer_of("core/problem/problem.h"), layer_of("run/steps.h"))
        self.assertEqual(layer_of("app/main.cpp"), LAYERS.index("app"))
        self.assertEqual(layer_of("app/cli/cli.cpp"), LAYERS.index("app/cli"))
        self.assertIsNone(layer_of("nowhere/file.h"))


if __name__ == "__main__":
    unittest.main()
