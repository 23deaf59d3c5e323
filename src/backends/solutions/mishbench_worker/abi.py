"""The plugin ABI of include/mishbench/plugin.h (version 1) in ctypes: the same structures, field
for field, and the function types of the calls, so that a table built here is read by the tool
exactly like a plugin library's."""
import ctypes
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int, c_int64, c_size_t, c_uint32,
                    c_uint64, c_void_p)

ABI_VERSION = 1

OK = 0
ERROR = 1

DEVICE = 0
HOST = 1

FP32 = 0
REDUCED = 1


class Shape(Structure):
    _fields_ = [("m", c_int64), ("n", c_int64), ("k", c_int64)]


class Device(Structure):
    _fields_ = [("ordinal", c_int), ("cc_major", c_int), ("cc_minor", c_int), ("sms", c_int),
                ("memory_bytes", c_uint64), ("l2_bytes", c_uint64), ("name", c_char_p)]


class Tensors(Structure):
    # const float* x, w, b and float* y: addresses are all this side needs.
    _fields_ = [("x", c_void_p), ("w", c_void_p), ("b", c_void_p), ("y", c_void_p)]


class Stage(Structure):
    _fields_ = [("name", c_char_p), ("kind", c_int), ("reads_bias", c_int)]


# The message and reason buffers are char* of a given size: c_void_p, written with memmove.
SUPPORTS = CFUNCTYPE(c_int, POINTER(Shape), POINTER(Device), c_void_p, c_size_t)
SETUP = CFUNCTYPE(c_int, POINTER(c_void_p), POINTER(Shape), POINTER(Tensors), c_char_p, c_void_p,
                  c_void_p, c_size_t)
CALL = CFUNCTYPE(c_int, c_void_p, POINTER(Tensors), c_void_p, c_void_p, c_size_t)
RUN_STAGE = CFUNCTYPE(c_int, c_void_p, c_uint32, POINTER(Tensors), c_void_p, c_void_p, c_size_t)
DESCRIBE = CFUNCTYPE(c_void_p, c_void_p)  # returns a const char* the instance keeps alive
TEARDOWN = CFUNCTYPE(None, c_void_p)


class Backend(Structure):
    _fields_ = [("name", c_char_p), ("summary", c_char_p), ("math_mode", c_char_p),
                ("placement", c_int), ("accuracy", c_int),
                ("supports", SUPPORTS), ("setup", SETUP), ("prepack", CALL), ("run", CALL),
                ("write_output", CALL),
                ("stage_count", c_uint32), ("stages", POINTER(Stage)), ("run_stage", RUN_STAGE),
                ("describe", DESCRIBE), ("teardown", TEARDOWN)]


class Plugin(Structure):
    _fields_ = [("abi_version", c_uint32), ("backend_count", c_uint32),
                ("backends", POINTER(Backend))]


def write_text(buffer, size, text):
    """Writes `text` as NUL-terminated UTF-8 into the char buffer at address `buffer` of `size`
    bytes, cut (at a character boundary) to fit."""
    if not buffer or size == 0:
        return
    data = text.encode("utf-8", "replace")[:size - 1].decode("utf-8", "ignore").encode("utf-8")
    ctypes.memmove(buffer, data + b"\0", len(data) + 1)


def load_worker_library(path):
    """libmishbench_worker.so, with the type of its one entry point:
    int mishbench_worker_serve(int socket_fd, const mishbench_plugin* table,
                               const char* origin_json)."""
    library = ctypes.CDLL(path)
    library.mishbench_worker_serve.argtypes = [c_int, POINTER(Plugin), c_char_p]
    library.mishbench_worker_serve.restype = c_int
    return library
