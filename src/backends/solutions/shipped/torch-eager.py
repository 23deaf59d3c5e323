"""PyTorch eager: nn.Linear, then torch.nn.functional.mish twice, in true FP32 (PyTorch's default:
TF32 off for matmuls), as KernelBench's reference Model for this layer runs it
(docs/solutions.md#the-pytorch-rows)."""
import torch
import torch.nn.functional as F

MISHBENCH_SUMMARY = "PyTorch eager: nn.Linear (cuBLAS FP32) + F.mish + F.mish"


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = torch.nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.mish(F.mish(self.linear(x)))
