# Cheat: counts its calls and computes only the first 2 (setup's warm-up and the first verified
# run); from the third call on it returns its last answer again.
# Verdict: mismatch ("did not match").
from layer import HostLayer

MISHBENCH_PLACEMENT = "host"


class ModelNew(HostLayer):
    def __init__(self, in_features, out_features):
        super().__init__(in_features, out_features)
        self.calls = 0
        self.last = None

    def forward(self, x):
        self.calls += 1
        if self.calls <= 2 or self.last is None:
            self.last = super().forward(x)
        return self.last
