# A PyTorch solution that hands back its result in host memory.
from torch_layer import TorchLayer


class ModelNew(TorchLayer):
    def forward(self, x):
        return self.layer(x).cpu()
