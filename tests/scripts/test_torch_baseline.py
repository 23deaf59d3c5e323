#!/usr/bin/env python3
"""Without PyTorch, scripts/torch_baseline.py says so and exits 2 (exit 77, skipped, when PyTorch is
installed: the GPU machine runs the real thing)."""
import os
import subprocess
import sys

try:
    import torch  # noqa: F401
    print("PyTorch is installed: the no-PyTorch path is not testable here, skipped")
    sys.exit(77)
except ImportError:
    pass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "torch_baseline.py"),
                       "/nonexistent", "--json", "/tmp/never-written.json"],
                      capture_output=True, text=True)
assert done.returncode == 2, (done.returncode, done.stderr)
assert "PyTorch is not installed" in done.stderr, done.stderr
assert not os.path.exists("/tmp/never-written.json")
print("ok: exits 2 with a clear message when PyTorch is missing")
