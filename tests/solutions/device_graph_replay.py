# Honest but unusual: forward() replays a torch.cuda.graph of the layer, the way PyTorch's
# documentation shows it: x is copied into the graph's static input, the graph is replayed on
# the current stream (the tool's) and its static output is returned. The graph is captured at
# the first call (setup's warm-up, after one eager run), and again should W or b move, since it
# holds their addresses.
# Verdict: ok.
import torch
from torch_layer import TorchLayer


class ModelNew(TorchLayer):
    def __init__(self, in_features, out_features):
        super().__init__(in_features, out_features)
        self.graph = None
        self.captured_for = None
        self.static_x = None
        self.output = None

    def forward(self, x):
        where = (self.linear.weight.data_ptr(), self.linear.bias.data_ptr())
        if where != self.captured_for:
            self.static_x = x.clone()
            self.layer(self.static_x)  # cuBLAS's handle and workspace exist before the capture
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, capture_error_mode="thread_local"):
                self.output = self.layer(self.static_x)
            self.graph, self.captured_for = graph, where
        self.static_x.copy_(x)
        self.graph.replay()
        return self.output
