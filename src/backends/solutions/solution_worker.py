"""The worker process of one solution file (docs/solutions.md). mishbench starts it as

    PYTHON solution_worker.py --library libmishbench_worker.so --solution FILE.py \\
        --default-name NAME --socket-fd 3

It reads the file (without running it), makes it one backend of the plugin ABI and hands that
table to libmishbench_worker.so (a file whose declarations cannot be read ends the worker with
the reason instead), whose serve loop (the same as every worker's) answers the tool
on the socket until it is told to exit. The solution's own code runs only inside that loop, at
setup, where every failure becomes the backend's error. The solution's prints go to this
process's stdout, which the tool captures: the protocol is on the socket alone."""
import argparse
import ctypes
import json
import os
import sys

from mishbench_worker import abi, failures
from mishbench_worker.backend import SolutionBackend
from mishbench_worker.solution import SolutionFile


def cache_folder(sha256):
    """Where this file's compiled extensions live: one folder per file content, so a second run
    reuses them and an edited file never picks up a stale build."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mishbench", "solutions", sha256[:16])


def use_cache(sha256):
    folder = cache_folder(sha256)
    os.environ["TORCH_EXTENSIONS_DIR"] = os.path.join(folder, "torch_extensions")
    os.environ["TRITON_CACHE_DIR"] = os.path.join(folder, "triton")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(folder, "inductor")


def load_torch_first():
    """torch's CUDA libraries (cudart, cuBLAS) share their sonames with the toolkit's the worker
    library was linked against: whichever loads first serves both. torch depends on its own
    versions, the worker library on none in particular, so torch comes first. Without torch the
    solution is skipped at setup with the reason."""
    try:
        import torch  # noqa: F401
    except ImportError:
        pass


def main(argv):
    parser = argparse.ArgumentParser(description="mishbench's worker for one solution file")
    parser.add_argument("--library", required=True, help="libmishbench_worker.so")
    parser.add_argument("--solution", required=True, help="the solution file")
    parser.add_argument("--default-name", required=True,
                        help="the backend's name unless the file declares MISHBENCH_NAME")
    parser.add_argument("--socket-fd", type=int, required=True)
    args = parser.parse_args(argv)
    # The worker runs: the tool tells a Python that cannot run it (one that is no Python 3, or
    # not Python at all) from a worker that fails later by this line.
    try:
        os.write(args.socket_fd, b'{"started": true}\n')
    except OSError:
        pass  # the tool is gone; what follows fails on the socket too
    sys.stdout.reconfigure(line_buffering=True)  # a solution's prints reach the tool's capture
    sys.dont_write_bytecode = True  # no __pycache__ left in the solution's own folder

    solution = SolutionFile(args.solution)
    if solution.load_error is not None:
        # Without its declarations the file is no backend: the tool, which asks for the table,
        # reports the worker's end and this last line, the reason.
        failures.log(solution.load_error)
        print(failures.describe(solution.load_error, solution.path), file=sys.stderr, flush=True)
        os._exit(2)
    use_cache(solution.sha256)
    sys.argv = [solution.path]
    backend = SolutionBackend(solution, args.default_name)
    if solution.settings["MISHBENCH_PLACEMENT"] == "device":
        load_torch_first()
    library = abi.load_worker_library(args.library)
    origin = json.dumps({"kind": "solution", "path": solution.path, "sha256": solution.sha256})
    status = library.mishbench_worker_serve(args.socket_fd, ctypes.byref(backend.table),
                                            origin.encode("utf-8", "replace"))
    sys.stdout.flush()
    sys.stderr.flush()
    # No interpreter teardown: the tool's buffers are unmapped already, and library finalizers
    # (CUDA, torch) have nothing left to do that the process's end does not.
    os._exit(status)


if __name__ == "__main__":
    main(sys.argv[1:])
