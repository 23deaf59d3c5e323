"""A solution file and the rules every placement shares: reading it once (the bytes that are hashed
are the bytes that run), its declarations, importing it, building ModelNew for the problem's sizes,
choosing the one [N, K] and the one [N] tensor of the model to hold W and b, and checking the
shape and dtype of what forward(x) returned (docs/solutions.md)."""
import ast
import hashlib
import importlib.util
import os
import sys
import types

from . import declarations
from .failures import SolutionError

# How many of a model's tensors a message lists before "and N more".
_LISTED = 8


class SolutionFile:
    """The file as read: its canonical path, bytes and SHA-256, what it declares (`declared`) and
    every declaration with the defaults filled in (`settings`), or the reason it cannot be
    loaded (load_error, with which the worker ends)."""

    def __init__(self, path):
        self.path = os.path.realpath(path)
        self.basename = os.path.basename(self.path)
        self.source = b""
        self.sha256 = ""
        self.declared = {}
        self.settings = None
        self.load_error = None
        self._module = None
        self._import_error = None
        try:
            with open(self.path, "rb") as f:
                self.source = f.read()
            self.sha256 = hashlib.sha256(self.source).hexdigest()
            self.declared = declarations.read(ast.parse(self.source, filename=self.path))
            self.settings = declarations.complete(self.declared)
        except Exception as error:  # a syntax error, a bad declaration, an unreadable file
            self.load_error = error

    def missing_modules(self, implied):
        """The required modules (declared, and `implied` by the placement) this Python cannot
        import, found without importing them."""
        missing = []
        for name in list(implied) + list(self.settings["MISHBENCH_REQUIRES"]):
            try:
                found = importlib.util.find_spec(name) is not None
            except (ImportError, ValueError):
                found = False
            if not found and name not in missing:
                missing.append(name)
        return missing

    def module(self):
        """The solution imported once, as module `mishbench_solution` (not __main__: a file's
        own `if __name__ == "__main__":` block does not run), with its folder on sys.path for
        its own imports. A failed import fails every later call the same way."""
        if self._import_error is not None:
            raise self._import_error
        if self._module is None:
            module = types.ModuleType("mishbench_solution")
            module.__file__ = self.path
            sys.modules[module.__name__] = module
            folder = os.path.dirname(self.path)
            if folder not in sys.path:
                sys.path.insert(0, folder)
            try:
                exec(compile(self.source, self.path, "exec"), module.__dict__)
            except BaseException as error:
                del sys.modules[module.__name__]
                self._import_error = error
                raise
            self._module = module
        return self._module


def build_model(module, k, n):
    """ModelNew(in_features=K, out_features=N), positionally as KernelBench builds it
    (ModelNew(*get_init_inputs())): when the file defines get_init_inputs(), its first two values
    are replaced by this problem's K and N and any further ones are passed on."""
    model_class = getattr(module, "ModelNew", None)
    if model_class is None:
        raise SolutionError(
            "the file defines no ModelNew: a solution is a class ModelNew built as "
            "ModelNew(in_features, out_features) with a forward(x)")
    if not callable(model_class):
        raise SolutionError(f"ModelNew is a {type(model_class).__name__}, not a class")
    arguments = [k, n]
    init_inputs = getattr(module, "get_init_inputs", None)
    if callable(init_inputs):
        given = list(init_inputs())
        if len(given) < 2:
            raise SolutionError(
                f"get_init_inputs() returned {len(given)} value(s); for this layer ModelNew "
                "takes (in_features, out_features) first")
        arguments += given[2:]
    return model_class(*arguments)


def _listing(tensors):
    shown = [f"{name} {list(shape)}" for name, shape, _ in tensors[:_LISTED]]
    if len(tensors) > _LISTED:
        shown.append(f"and {len(tensors) - _LISTED} more")
    return ", ".join(shown) if shown else "none"


def _the_one(tensors, shape, role, kind, float32):
    candidates = [t for t in tensors if tuple(t[1]) == shape]
    if len(candidates) != 1:
        what = "no" if not candidates else f"{len(candidates)}"
        raise SolutionError(
            f"ModelNew has {what} {kind}s of shape {list(shape)} to hold {role}; it needs exactly "
            f"one (its {kind}s: {_listing(candidates or tensors)})")
    name, _, dtype = candidates[0]
    if float32 is not None and dtype != float32:
        raise SolutionError(f"ModelNew's {kind} {name}, which holds {role}, is {dtype}; keep it "
                            "float32 (mishbench loads fp32 W and b into it)")
    return name


def pick_weight_and_bias(tensors, n, k, kind, float32):
    """The names of the one [N, K] tensor (W) and the one [N] tensor (b) among `tensors`
    ((name, shape, dtype) of the model's parameters or arrays); SolutionError naming them when
    there are none or several, or when the one found is not `float32` (None: any dtype, for
    arrays that are replaced rather than filled)."""
    weight = _the_one(tensors, (n, k), f"W [N, K] = [{n}, {k}]", kind, float32)
    bias = _the_one(tensors, (n,), f"b [N] = [{n}]", kind, float32)
    return weight, bias


def check_output(shape, dtype, m, n, float32):
    """The output's shape and dtype, each with its own message."""
    if tuple(shape) != (m, n):
        raise SolutionError(f"forward(x) returned shape {list(shape)}; expected [M, N] = "
                            f"[{m}, {n}]")
    if dtype != float32:
        raise SolutionError(f"forward(x) returned dtype {dtype}; expected {float32}")
