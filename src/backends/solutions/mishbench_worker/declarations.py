"""What a solution file declares about itself (docs/solutions.md#declarations): top-level
assignments of literals to MISHBENCH_* names, read from the file's syntax tree without running it,
so that the tool learns a solution's name and placement before any of its code runs."""
import ast

from .failures import SolutionError

PREFIX = "MISHBENCH_"

# name: (what it must be, check, default)
_RULES = {
    "MISHBENCH_NAME": ("a string", lambda v: isinstance(v, str), None),
    "MISHBENCH_SUMMARY": ("a string", lambda v: isinstance(v, str), None),
    "MISHBENCH_PLACEMENT": ('"device" or "host"', lambda v: v in ("device", "host"), "device"),
    "MISHBENCH_ACCURACY": ('"fp32" or "reduced"', lambda v: v in ("fp32", "reduced"), "fp32"),
    "MISHBENCH_MATH_MODE": ("a string", lambda v: isinstance(v, str), "fp32"),
    "MISHBENCH_WEIGHT": ("the name of a parameter (a numpy array for host)",
                         lambda v: isinstance(v, str) and v != "", None),
    "MISHBENCH_BIAS": ("the name of a parameter (a numpy array for host)",
                       lambda v: isinstance(v, str) and v != "", None),
    "MISHBENCH_WEIGHT_LAYOUT": ('"nk" or "kn"', lambda v: v in ("nk", "kn"), "nk"),
    "MISHBENCH_REQUIRES": (
        "a list of top-level module names",
        lambda v: isinstance(v, (list, tuple))
        and all(isinstance(m, str) and m.isidentifier() for m in v),
        ()),
}


def _top_level_targets(tree):
    """(target Name node, value node) of each plain `NAME = value` / `NAME: T = value` at the top
    level of the module."""
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            continue
        if isinstance(target, ast.Name):
            yield target, value


def read(tree):
    """The declarations a parsed solution makes (only those it makes); SolutionError for an
    unknown MISHBENCH_ name, a value that is not a literal of its kind, or one bound any other
    way."""
    found = {}
    plain = set()
    for target, value in _top_level_targets(tree):
        if not target.id.startswith(PREFIX):
            continue
        plain.add(id(target))
        if target.id not in _RULES:
            raise SolutionError(f"unknown declaration {target.id} (line {target.lineno}); the "
                                f"declarations are {', '.join(sorted(_RULES))}")
        kind, check, _ = _RULES[target.id]
        try:
            literal = ast.literal_eval(value)
        except Exception:  # ValueError, TypeError, RecursionError: anything but a literal
            raise SolutionError(f"{target.id} (line {target.lineno}) must be a literal: the "
                                "declarations are read without running the file") from None
        if not check(literal):
            raise SolutionError(f"{target.id} (line {target.lineno}) must be {kind}, got "
                                f"{literal!r}")
        found[target.id] = literal
    for node in ast.walk(tree):
        if (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
                and node.id.startswith(PREFIX) and id(node) not in plain):
            raise SolutionError(f"{node.id} (line {node.lineno}) must be a plain top-level "
                                "assignment of a literal")
    return found


def complete(declared):
    """Every declaration: those made, and the defaults of the others."""
    return {name: declared.get(name, default) for name, (_, _, default) in _RULES.items()}
