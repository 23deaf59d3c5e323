# Keeps W transposed, weight_t [K, N], and declares nothing. On a square problem [K, N] is W's
# shape too, so the worker loads W into it as [N, K], and forward computes x·W instead of x·Wᵀ:
# a warning names the array, and the mismatch says the output matches W used untransposed.
from layer import TransposedLayer

MISHBENCH_PLACEMENT = "host"


class ModelNew(TransposedLayer):
    pass
