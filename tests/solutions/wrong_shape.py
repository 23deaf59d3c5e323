# Returns one column too many.
import numpy as np

from layer import HostLayer

MISHBENCH_PLACEMENT = "host"


class ModelNew(HostLayer):
    def forward(self, x):
        y = super().forward(x)
        return np.concatenate([y, y[:, :1]], axis=1)
