"""How a failure in a solution reads: one line, the exception's type and the last line of its
message (after its first line when there are several: PyTorch puts the error first and hints
after it, Triton the other way round), and where in the solution file it was raised. The whole
traceback goes to stderr, which the tool keeps (the report's isolation.output_tail)."""
import os
import sys
import traceback


class SolutionError(Exception):
    """A failure the worker describes itself (a missing ModelNew, a wrong output shape): its
    message is the whole line, without a type name."""


def _message(text):
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    if len(lines) > 1:
        return f"{lines[0]} [...] {lines[-1]}"
    return lines[0] if lines else ""


def _where_in(error, solution_path):
    """' (file.py, line 12, in forward)' for the innermost frame in the solution file, or ''."""
    if solution_path is None:
        return ""
    real = os.path.realpath(solution_path)
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if frame.filename and os.path.realpath(frame.filename) == real]
    if not frames:
        return ""
    frame = frames[-1]
    return f" ({os.path.basename(frame.filename)}, line {frame.lineno}, in {frame.name})"


def describe(error, solution_path=None):
    """One line for the tool's message buffer."""
    if isinstance(error, SolutionError):
        return _message(error) or "failed"
    # A SyntaxError's own text already says file and line; other errors get the frame.
    where = "" if isinstance(error, SyntaxError) else _where_in(error, solution_path)
    message = _message(error)
    name = type(error).__name__
    return f"{name}: {message}{where}" if message else f"{name}{where}"


def log(error):
    """The whole traceback on stderr, for the report's output tail."""
    traceback.print_exception(type(error), error, error.__traceback__, file=sys.stderr)
    sys.stderr.flush()
