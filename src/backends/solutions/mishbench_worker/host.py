"""Host-only solutions (MISHBENCH_PLACEMENT = "host"): numpy in, numpy out, no torch. ModelNew is a
plain class; of its attributes that are numpy arrays, the ones that hold W and b (declared, or the
one of shape [N, K] and the one of shape [N]) are replaced by views of the tool's W and b, and
forward(x) gets a view of the tool's x. The views are of the tool's own shared memory: nothing is
copied, and a write into them is a write into the tool's inputs, which its input check reports.
A W kept transposed (MISHBENCH_WEIGHT_LAYOUT = "kn") is the one copy: a C-contiguous [K, N] array
made from the tool's W when it is bound."""
import ctypes

from . import abi
from .failures import SolutionError
from .solution import bind_weight_and_bias, build_model, check_output

PLACEMENT = abi.HOST
IMPLIED_MODULES = ("numpy",)


def _view(np, address, shape):
    count = 1
    for size in shape:
        count *= size
    return np.ctypeslib.as_array((ctypes.c_float * count).from_address(address)).reshape(shape)


class Instance:
    def __init__(self, solution, shape, tensors):
        import numpy as np

        self._np = np
        self._m, self._n, self._k = shape.m, shape.n, shape.k
        self._model = build_model(solution.module(), self._k, self._n)
        arrays = [(name, value.shape, value.dtype) for name, value in vars(self._model).items()
                  if isinstance(value, np.ndarray)]
        self._binding = bind_weight_and_bias(arrays, self._n, self._k, "numpy array", None,
                                             solution)
        self._addresses = None
        self._output = None
        # One forward pass, untimed: its output is checked before any timing.
        self.run(tensors, None)
        self._checked_output()

    def _bind(self, tensors):
        """Views of the tensors, made again when the tool passes other buffers."""
        addresses = (tensors.x, tensors.w, tensors.b, tensors.y)
        if addresses == self._addresses:
            return
        np, m, n, k = self._np, self._m, self._n, self._k
        self._x = _view(np, tensors.x, (m, k))
        self._y = _view(np, tensors.y, (m, n))
        binding = self._binding
        weight = _view(np, tensors.w, (n, k))
        if binding.transposed:
            if self._addresses is None or tensors.w != self._addresses[1]:
                setattr(self._model, binding.weight, np.ascontiguousarray(weight.T))
        else:
            setattr(self._model, binding.weight, weight)
        setattr(self._model, binding.bias, _view(np, tensors.b, (n,)))
        self._addresses = addresses

    def run(self, tensors, stream):
        del stream  # host backends get none
        self._bind(tensors)
        self._output = self._model.forward(self._x)

    def _checked_output(self):
        output = self._output
        if not isinstance(output, self._np.ndarray):
            raise SolutionError(f"forward(x) returned a {type(output).__name__}; a host solution "
                                "returns a numpy.ndarray")
        check_output(output.shape, output.dtype, self._m, self._n, self._np.dtype(self._np.float32))
        return output

    def write_output(self, tensors, stream):
        del stream
        self._bind(tensors)
        self._np.copyto(self._y, self._checked_output())

    def describe(self):
        return {"placement": "host", "numpy": self._np.__version__,
                "model_class": type(self._model).__qualname__,
                **self._binding.describe()}

    def close(self):
        self._model = self._output = None


def setup(solution, shape, tensors, stream, ordinal):
    del stream, ordinal  # host backends get no stream and use no device
    return Instance(solution, shape, tensors)
