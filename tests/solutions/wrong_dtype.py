# Returns float64.
import numpy as np

from layer import HostLayer

MISHBENCH_PLACEMENT = "host"


class ModelNew(HostLayer):
    def forward(self, x):
        return super().forward(x).astype(np.float64)
