"""The layer on the host in numpy: a host-only solution (docs/solutions.md#host-only-solutions).

numpy arrays in, a numpy array out; no torch, no GPU. mishbench replaces `weight` [N, K] and
`bias` [N] with views of its own W and b and calls forward(x) with a view of its x, so nothing is
copied. CI runs it end to end; on a GPU machine it is a prototype's first check:

    mishbench --solution examples/solutions/host_numpy.py --backend=cpu,host-numpy \\
        --m 64 --n 256 --k 512
"""
import numpy as np

MISHBENCH_NAME = "host-numpy"
MISHBENCH_SUMMARY = "numpy on the host: x @ W.T + b (BLAS sgemm), then Mish twice"
MISHBENCH_PLACEMENT = "host"


def mish(v):
    # softplus through logaddexp(0, v) = log(1 + e^v), which neither overflows nor loses the
    # small values of very negative v.
    return v * np.tanh(np.logaddexp(np.float32(0), v))


class ModelNew:
    def __init__(self, in_features, out_features):
        self.weight = np.zeros((out_features, in_features), dtype=np.float32)
        self.bias = np.zeros(out_features, dtype=np.float32)

    def forward(self, x):
        return mish(mish(x @ self.weight.T + self.bias))
