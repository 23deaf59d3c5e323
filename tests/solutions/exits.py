# forward() calls sys.exit(): SystemExit must not end the worker silently or pass for success.
import sys

from layer import HostLayer

MISHBENCH_PLACEMENT = "host"


class ModelNew(HostLayer):
    def forward(self, x):
        sys.exit(3)
