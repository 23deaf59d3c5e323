"""torch.compile of the eager layer (default mode: inductor, cuBLAS for the GEMM and one generated
kernel for bias + Mish + Mish), TF32 off as PyTorch's default. The compile happens in the warm-up
at setup, untimed (docs/solutions.md#the-pytorch-rows)."""
import torch
import torch.nn.functional as F

MISHBENCH_SUMMARY = "torch.compile (inductor) of nn.Linear + F.mish + F.mish, FP32"


class Layer(torch.nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = torch.nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.mish(F.mish(self.linear(x)))


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.layer = Layer(in_features, out_features)
        self.compiled = torch.compile(self.layer)

    def forward(self, x):
        return self.compiled(x)
