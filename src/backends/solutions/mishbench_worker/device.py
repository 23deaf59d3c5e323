"""Device solutions (the default placement): a PyTorch ModelNew on the GPU. The tool's device
buffers (opened in this process through CUDA IPC; the tool owns them) are wrapped as torch tensors
without copying, through __cuda_array_interface__. W and b become the data of the parameters that
hold them (declared, or the one of shape [N, K] and the one of shape [N]), so a write into them is
a write into the tool's inputs, which its input check reports; a W kept transposed
(MISHBENCH_WEIGHT_LAYOUT = "kn") is the one copy, a contiguous [K, N] tensor made from the tool's
W when it is bound. forward(x) runs on the stream the tool times, under torch.no_grad()."""
from . import abi
from .failures import SolutionError
from .solution import bind_weight_and_bias, build_model, check_output

PLACEMENT = abi.DEVICE
IMPLIED_MODULES = ("torch",)


class _CudaArray:
    """A dense row-major fp32 array in device memory, as __cuda_array_interface__ describes it."""

    def __init__(self, address, shape):
        self.__cuda_array_interface__ = {"version": 3, "typestr": "<f4", "shape": shape,
                                         "data": (address, False), "strides": None,
                                         "stream": None}


class Instance:
    def __init__(self, solution, shape, tensors, stream, ordinal):
        import torch

        self._torch = torch
        self._m, self._n, self._k = shape.m, shape.n, shape.k
        self._device = torch.device("cuda", ordinal)
        torch.cuda.set_device(self._device)
        self._stream_address = None
        self._use_stream(stream)
        with torch.cuda.stream(self._stream):
            model = build_model(solution.module(), self._k, self._n)
            if not isinstance(model, torch.nn.Module):
                raise SolutionError(f"ModelNew is a {type(model).__name__}, not a torch.nn.Module "
                                    '(a numpy solution declares MISHBENCH_PLACEMENT = "host")')
            self._model = model.to(self._device)
            parameters = dict(self._model.named_parameters())
            listed = [(name, p.shape, p.dtype) for name, p in parameters.items()]
            self._binding = bind_weight_and_bias(listed, self._n, self._k, "parameter",
                                                 torch.float32, solution)
            self._weight = parameters[self._binding.weight]
            self._bias = parameters[self._binding.bias]
            self._addresses = None
            self._output = None
            # The warm-up: torch.compile and load_inline build here, untimed, under the setup
            # limit; the output is checked before any timing.
            self.run(tensors, stream)
            self._checked_output()
        self._stream.synchronize()

    def _use_stream(self, stream):
        if stream != self._stream_address:
            self._stream = self._torch.cuda.ExternalStream(stream, device=self._device)
            self._stream_address = stream

    def _wrap(self, address, shape):
        return self._torch.as_tensor(_CudaArray(address, shape), device=self._device)

    def _bind(self, tensors):
        """Tensors over the tool's buffers, made again when it passes other ones."""
        addresses = (tensors.x, tensors.w, tensors.b, tensors.y)
        if addresses == self._addresses:
            return
        m, n, k = self._m, self._n, self._k
        self._x = self._wrap(tensors.x, (m, k))
        self._y = self._wrap(tensors.y, (m, n))
        weight = self._wrap(tensors.w, (n, k))
        if not self._binding.transposed:
            self._weight.data = weight
        elif self._addresses is None or tensors.w != self._addresses[1]:
            self._weight.data = weight.t().contiguous()
        self._bias.data = self._wrap(tensors.b, (n,))
        self._addresses = addresses

    def run(self, tensors, stream):
        torch = self._torch
        self._use_stream(stream)
        with torch.cuda.stream(self._stream), torch.no_grad():
            if torch.cuda.is_current_stream_capturing():
                raise SolutionError(
                    "CUDA-graph capture (--graph) of a PyTorch solution is not supported: "
                    "PyTorch's caching allocator cannot be captured by a graph it did not begin; "
                    "time it without --graph")
            self._bind(tensors)
            self._output = self._model(self._x)

    def _checked_output(self):
        torch, output = self._torch, self._output
        if not isinstance(output, torch.Tensor):
            raise SolutionError(f"forward(x) returned a {type(output).__name__}; it must return "
                                "a torch.Tensor")
        check_output(output.shape, output.dtype, self._m, self._n, torch.float32)
        if output.device != self._device:
            raise SolutionError(f"forward(x) returned a tensor on {output.device}; expected one "
                                f"on {self._device}, where x is")
        return output

    def write_output(self, tensors, stream):
        output = self._checked_output()
        self._use_stream(stream)
        with self._torch.cuda.stream(self._stream):
            self._bind(tensors)
            self._y.copy_(output)

    def describe(self):
        return {"placement": "device", "torch": self._torch.__version__,
                "model_class": type(self._model).__qualname__,
                **self._binding.describe()}

    def close(self):
        self._model = self._output = self._weight = self._bias = None


def setup(solution, shape, tensors, stream, ordinal):
    return Instance(solution, shape, tensors, stream, ordinal)
