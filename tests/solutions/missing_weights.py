# Keeps W transposed, [K, N], and no bias at all: nothing can hold W or b.
import numpy as np

from layer import layer

MISHBENCH_PLACEMENT = "host"


class ModelNew:
    def __init__(self, in_features, out_features):
        self.weight_t = np.zeros((in_features, out_features), dtype=np.float32)

    def forward(self, x):
        return layer(x, self.weight_t.T, 0)
