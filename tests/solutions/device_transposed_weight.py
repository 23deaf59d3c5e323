# Honest: a PyTorch model that keeps W transposed, weight_t [K, N], for x @ weight_t, and declares
# it; on the square problem of the device test W is still loaded the right way round.
# Verdict: ok.
import torch
import torch.nn.functional as F

MISHBENCH_WEIGHT = "weight_t"
MISHBENCH_BIAS = "bias"
MISHBENCH_WEIGHT_LAYOUT = "kn"


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight_t = torch.nn.Parameter(torch.empty(in_features, out_features))
        self.bias = torch.nn.Parameter(torch.empty(out_features))

    def forward(self, x):
        if not self.weight_t.is_contiguous():
            raise RuntimeError("weight_t is not a contiguous [K, N] tensor")
        return F.mish(F.mish(torch.addmm(self.bias, x, self.weight_t)))
