# A PyTorch solution that drops the last column of y.
import torch
import torch.nn.functional as F


class ModelNew(torch.nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = torch.nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.mish(F.mish(self.linear(x)))[:, :-1]
