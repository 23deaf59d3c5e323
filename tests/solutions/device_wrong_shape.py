# A PyTorch solution that drops the last column of y.
from torch_layer import TorchLayer


class ModelNew(TorchLayer):
    def forward(self, x):
        return self.layer(x)[:, :-1]
