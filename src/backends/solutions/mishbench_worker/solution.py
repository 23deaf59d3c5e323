"""A solution file and the rules every placement shares: reading it once (the bytes that are hashed
are the bytes that run), its declarations, importing it, building ModelNew for the problem's sizes,
choosing the tensors of the model that hold W and b (the ones declared, or else the one of W's
shape and the one of shape [N]), and checking the shape and dtype of what forward(x) returned
(docs/solutions.md)."""
import ast
import hashlib
import importlib.util
import os
import re
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


# What a tensor of each MISHBENCH_WEIGHT_LAYOUT holds.
_HELD = {"nk": "W [N, K]", "kn": "W transposed, [K, N]"}

# Words of a tensor's name that say it holds a matrix transposed (weight_t, wT, w_kn).
_TRANSPOSED_WORDS = {"t", "tr", "trans", "transp", "transpose", "transposed", "kn", "wt"}


class Binding:
    """Which of the model's tensors hold W and b (their names), whether W is kept transposed
    ([K, N], `transposed`), and the warnings the choice deserves (`warnings`)."""

    def __init__(self, weight, bias, transposed, warnings):
        self.weight, self.bias = weight, bias
        self.transposed = transposed
        self.warnings = warnings

    def describe(self):
        return {"weight": self.weight, "bias": self.bias,
                "weight_layout": "kn" if self.transposed else "nk", "warnings": self.warnings}


def _check_dtype(name, dtype, role, kind, float32):
    if float32 is not None and dtype != float32:
        raise SolutionError(f"ModelNew's {kind} {name}, which holds {role}, is {dtype}; keep it "
                            "float32 (mishbench loads fp32 W and b into it)")


def _the_one(tensors, shape, role, kind, float32, hint):
    """The one tensor of `shape`; `hint(candidates)` adds to the message when there is not."""
    candidates = [t for t in tensors if tuple(t[1]) == shape]
    if len(candidates) != 1:
        what = "no" if not candidates else f"{len(candidates)}"
        raise SolutionError(
            f"ModelNew has {what} {kind}s of shape {list(shape)} to hold {role}; it needs exactly "
            f"one (its {kind}s: {_listing(candidates or tensors)}){hint(candidates)}")
    name, _, dtype = candidates[0]
    _check_dtype(name, dtype, role, kind, float32)
    return name


def _the_named(tensors, declaration, name, shape, role, kind, float32, hint):
    """The tensor a declaration names, which must exist and have `shape`; `hint(its shape)` adds
    to the message when it has another."""
    found = [t for t in tensors if t[0] == name]
    if not found:
        raise SolutionError(f"{declaration} = {name!r} names no {kind} of ModelNew (its "
                            f"{kind}s: {_listing(tensors)})")
    _, actual, dtype = found[0]
    if tuple(actual) != shape:
        raise SolutionError(f"{declaration} = {name!r}: that {kind} has shape {list(actual)}; "
                            f"to hold {role} it must be {list(shape)}{hint(tuple(actual))}")
    _check_dtype(name, dtype, role, kind, float32)
    return name


def looks_transposed(name):
    """Whether a tensor's name says it is kept transposed: its last part (after the last '.'),
    split at '_' and where lower case turns upper, has a word like t, trans or kn."""
    last = name.rsplit(".", 1)[-1]
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", last).lower().split("_")
    return last.lower() in _TRANSPOSED_WORDS or any(w in _TRANSPOSED_WORDS for w in words)


def bind_weight_and_bias(tensors, n, k, kind, float32, solution):
    """Which of `tensors` ((name, shape, dtype) of the model's parameters or arrays) hold W and b:
    those the `solution` file declares (MISHBENCH_WEIGHT, MISHBENCH_BIAS), or else the one tensor
    of W's shape (in the declared MISHBENCH_WEIGHT_LAYOUT, [N, K] by default) and the one of shape
    [N]. SolutionError naming the tensors when a declared one is missing or of the wrong shape,
    when there are none or several of a shape, or when the one chosen is not `float32` (None: any
    dtype, for arrays that are replaced rather than filled). On a square problem [N, K] and
    [K, N] are one shape, so W could be read either way: a W bound to a tensor whose name says it
    is transposed, with no declared layout, draws a warning."""
    settings = solution.settings
    layout = settings["MISHBENCH_WEIGHT_LAYOUT"]
    other = "kn" if layout == "nk" else "nk"
    shapes = {"nk": (n, k), "kn": (k, n)}
    weight_role = f"{_HELD[layout]} = {list(shapes[layout])}"
    bias_role = f"b [N] = [{n}]"
    flip = (f"{_HELD[other]}: declare MISHBENCH_WEIGHT_LAYOUT = \"{other}\"" if n != k else None)

    def named_hint(actual):
        return f" (that is {flip})" if flip and actual == shapes[other] else ""

    def shape_hint(candidates):
        if candidates:
            return '; declare MISHBENCH_WEIGHT = "NAME" to say which holds W'
        flipped = [name for name, shape, _ in tensors if tuple(shape) == shapes[other]]
        return f"; {flipped[0]} is {flip} if it holds W" if flip and len(flipped) == 1 else ""

    if settings["MISHBENCH_WEIGHT"] is not None:
        weight = _the_named(tensors, "MISHBENCH_WEIGHT", settings["MISHBENCH_WEIGHT"],
                            shapes[layout], weight_role, kind, float32, named_hint)
    else:
        weight = _the_one(tensors, shapes[layout], weight_role, kind, float32, shape_hint)
    if settings["MISHBENCH_BIAS"] is not None:
        bias = _the_named(tensors, "MISHBENCH_BIAS", settings["MISHBENCH_BIAS"], (n,), bias_role,
                          kind, float32, lambda actual: "")
    else:
        bias = _the_one(tensors, (n,), bias_role, kind, float32,
                        lambda candidates: '; declare MISHBENCH_BIAS = "NAME" to say which holds '
                        "b" if candidates else "")
    warnings = []
    if n == k and "MISHBENCH_WEIGHT_LAYOUT" not in solution.declared and looks_transposed(weight):
        how = "by its shape" if settings["MISHBENCH_WEIGHT"] is None else "as declared"
        warnings.append(
            f"W [N, K] = [{n}, {k}] was loaded as [N, K] into {kind} {weight} ({how}), but "
            "its name suggests W transposed, and on a square problem [K, N] is the same shape; if "
            'ModelNew keeps W as [K, N], declare MISHBENCH_WEIGHT_LAYOUT = "kn" '
            '(MISHBENCH_WEIGHT_LAYOUT = "nk" says it is [N, K] and ends this warning)')
    return Binding(weight, bias, layout == "kn", warnings)


def check_output(shape, dtype, m, n, float32):
    """The output's shape and dtype, each with its own message."""
    if tuple(shape) != (m, n):
        raise SolutionError(f"forward(x) returned shape {list(shape)}; expected [M, N] = "
                            f"[{m}, {n}]")
    if dtype != float32:
        raise SolutionError(f"forward(x) returned dtype {dtype}; expected {float32}")
