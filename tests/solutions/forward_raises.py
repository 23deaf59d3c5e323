# forward() works once (the warm-up at setup) and raises from its second call on: run() fails.
from layer import AfterWarmUp

MISHBENCH_PLACEMENT = "host"


class ModelNew(AfterWarmUp):
    def misbehave(self, x):
        raise ValueError(f"forward gave up on call {AfterWarmUp.calls}")
