# Honest output, but scales its weight in place after computing: the write lands in the tool's W
# (the worker passes views, not copies), and the tool's input check reports it.
from layer import HostLayer

MISHBENCH_PLACEMENT = "host"


class ModelNew(HostLayer):
    def forward(self, x):
        y = super().forward(x)
        self.weight *= 1.5
        return y
