"""One solution as one backend of the plugin ABI: the table entry the tool reads, and the calls
behind it. Every call catches every Python exception (SystemExit and KeyboardInterrupt included)
and returns MISHBENCH_ERROR with one line (failures.describe); nothing is raised into C. The file's
declarations have been read (solution_worker.py serves no table without them)."""
import ctypes
import json
import sys

from . import abi, device, failures, host
from .failures import SolutionError

# The ABI's limit on a summary, in bytes of UTF-8.
_SUMMARY_BYTES = 200


def _cut(text, limit):
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return data
    return data[:limit - 3].decode("utf-8", "ignore").encode("utf-8") + b"..."


class SolutionBackend:
    def __init__(self, solution, default_name):
        self._solution = solution
        self._placement = None
        self._missing = []
        self._ordinal = 0
        self._instances = {}
        self._next_instance = 1
        self._describe_text = None
        settings = solution.settings
        self._placement = host if settings["MISHBENCH_PLACEMENT"] == "host" else device
        self._missing = solution.missing_modules(self._placement.IMPLIED_MODULES)
        name = settings["MISHBENCH_NAME"]
        name = default_name if name is None else name
        summary = settings["MISHBENCH_SUMMARY"]
        summary = f"ModelNew of {solution.basename}" if summary is None else summary
        math_mode = settings["MISHBENCH_MATH_MODE"]
        placement = self._placement.PLACEMENT
        accuracy = abi.REDUCED if settings["MISHBENCH_ACCURACY"] == "reduced" else abi.FP32
        # The strings stay referenced by this object while the tool reads the table.
        self._strings = [name.encode("utf-8", "replace"), _cut(summary, _SUMMARY_BYTES),
                         math_mode.encode("utf-8", "replace")]
        self._callbacks = [abi.SUPPORTS(self._supports), abi.SETUP(self._setup),
                           abi.CALL(self._run), abi.CALL(self._write_output),
                           abi.DESCRIBE(self._describe), abi.TEARDOWN(self._teardown)]
        supports, setup, run, write_output, describe, teardown = self._callbacks
        self._backends = (abi.Backend * 1)()
        entry = self._backends[0]
        entry.name, entry.summary, entry.math_mode = self._strings
        entry.placement, entry.accuracy = placement, accuracy
        entry.supports, entry.setup, entry.run = supports, setup, run
        entry.write_output, entry.describe, entry.teardown = write_output, describe, teardown
        self.table = abi.Plugin(abi.ABI_VERSION, 1, self._backends)

    def _fail(self, error, message, size):
        failures.log(error)
        abi.write_text(message, size, failures.describe(error, self._solution.path))
        return abi.ERROR

    def _instance(self, handle):
        instance = self._instances.get(handle)
        if instance is None:
            raise SolutionError(f"no instance {handle} (called after teardown?)")
        return instance

    def _supports(self, shape, device_info, reason, size):
        try:
            if self._missing:
                names = ", ".join(f"'{name}'" for name in self._missing)
                abi.write_text(reason, size,
                               f"needs the Python module{'s' if len(self._missing) > 1 else ''} "
                               f"{names}, which {sys.executable} cannot import; give --python "
                               "an interpreter that has it")
                return 0
            if self._placement is device:
                if not device_info:
                    abi.write_text(reason, size, "a PyTorch solution needs a GPU")
                    return 0
                self._ordinal = device_info.contents.ordinal
            return 1
        except BaseException as error:
            failures.log(error)
            abi.write_text(reason, size, failures.describe(error))
            return -1  # neither 1 nor 0: the tool reports a broken supports()

    def _setup(self, instance, shape, tensors, options, stream, message, size):
        try:
            given = json.loads(options.decode("utf-8"))
            if given:
                raise SolutionError("a solution takes no backend options (got "
                                    f"{json.dumps(given)})")
            created = self._placement.setup(self._solution, shape.contents, tensors.contents,
                                            stream, self._ordinal)
            handle = self._next_instance
            self._next_instance += 1
            self._instances[handle] = created
            instance[0] = handle
            return abi.OK
        except BaseException as error:
            return self._fail(error, message, size)

    def _instance_call(self, method, handle, tensors, stream, message, size):
        try:
            getattr(self._instance(handle), method)(tensors.contents, stream)
            return abi.OK
        except BaseException as error:
            return self._fail(error, message, size)

    def _run(self, handle, tensors, stream, message, size):
        return self._instance_call("run", handle, tensors, stream, message, size)

    def _write_output(self, handle, tensors, stream, message, size):
        return self._instance_call("write_output", handle, tensors, stream, message, size)

    def _describe(self, handle):
        solution = self._solution
        try:
            details = {"file": solution.path, "python": sys.version.split()[0],
                       "python_executable": sys.executable,
                       "declared": solution.declared}
            details.update(self._instance(handle).describe())
        except BaseException as error:
            failures.log(error)
            details = {"describe_error": failures.describe(error, solution.path)}
        self._describe_text = ctypes.create_string_buffer(json.dumps(details).encode("utf-8"))
        return ctypes.addressof(self._describe_text)

    def _teardown(self, handle):
        try:
            self._instances.pop(handle).close()
        except BaseException as error:
            failures.log(error)
