"""The honest layer in numpy, shared by the host test solutions (imported from their folder, as a
solution's own helper module would be)."""
import numpy as np


def mish(v):
    return v * np.tanh(np.logaddexp(np.float32(0), v))


def layer(x, weight, bias):
    return mish(mish(x @ weight.T + bias))


class HostLayer:
    """A host ModelNew: weight [N, K] and bias [N] as numpy arrays, which the worker replaces."""

    def __init__(self, in_features, out_features):
        self.weight = np.zeros((out_features, in_features), dtype=np.float32)
        self.bias = np.zeros(out_features, dtype=np.float32)

    def forward(self, x):
        return layer(x, self.weight, self.bias)


class TransposedLayer:
    """A host ModelNew that keeps W transposed, weight_t [K, N], for x @ weight_t, and bias [N]."""

    def __init__(self, in_features, out_features):
        self.weight_t = np.zeros((in_features, out_features), dtype=np.float32)
        self.bias = np.zeros(out_features, dtype=np.float32)

    def forward(self, x):
        return mish(mish(x @ self.weight_t + self.bias))


class AfterWarmUp(HostLayer):
    """A HostLayer whose forward() is honest once (setup's warm-up) and calls misbehave(x) from
    its second call on."""

    calls = 0

    def forward(self, x):
        AfterWarmUp.calls += 1
        if AfterWarmUp.calls > 1:
            return self.misbehave(x)
        return super().forward(x)
