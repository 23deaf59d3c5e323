/* mishbench plugin ABI, version 1.
 *
 * A plugin is a shared library that puts one or more implementations ("backends") of the layer
 *
 *     y = mish(mish(x * W^T + b))     x [m, k], W [n, k] (nn.Linear's weight), b [n], y [m, n]
 *
 * under mishbench's verification and timing. It exports exactly one function,
 * mishbench_plugin_entry(), which returns a table of backends. mishbench loads the library
 * (`mishbench --plugin ./libmine.so --backend=mine`), checks the table, and treats each backend
 * like a built-in one: before every call of run() it gives x fresh contents and poisons y, times
 * run() with CUDA events, and checks the outputs of the timed calls themselves, every element,
 * against a float64 reference of each call's own x; then it writes the same report. Warm-up,
 * timed and audit calls are made the same way (docs/isolation.md says what a backend can observe).
 *
 * Plain C99, usable from C++ (and CUDA C++). No C++ type crosses this interface and no C++
 * exception may cross it: catch everything inside the plugin and return MISHBENCH_ERROR.
 *
 * Memory: every string and table the plugin hands out (names, summaries, the stage list, the
 * plugin table itself) is owned by the plugin and must stay valid while the library is loaded;
 * static storage is the usual choice. Tensors are owned by mishbench. Instances are owned by the
 * plugin, created by setup() and released by teardown().
 *
 * Threads: mishbench calls one instance from one thread at a time, never concurrently. Several
 * instances of one backend may exist (one per problem, at times two at once); keep mutable state
 * in the instance, not in globals.
 *
 * Streams: for device backends, `stream` is the cudaStream_t mishbench times with CUDA events, a
 * blocking stream (work on the legacy default stream is ordered with it). Enqueue all work on it,
 * or on streams joined back to it before run() returns (an event recorded there and waited for
 * on `stream`). An audit series records every kernel, copy and memset of the process (CUPTI) and
 * refuses a backend whose GPU work lies outside its calls' timed regions, at any size.
 * Never synchronize the device or the stream inside prepack(), run(), run_stage() or
 * write_output(): that breaks CUDA-graph capture (--graph) and hides the time of your work from
 * the events. setup() may synchronize and allocate. Host backends get stream == NULL and run
 * synchronously: their work is done when the call returns.
 *
 * Messages: each call that can fail takes a buffer `message` of `message_size` bytes (mishbench
 * passes 4096 and an empty string). On MISHBENCH_ERROR write one line saying what went wrong,
 * NUL-terminated within message_size bytes (snprintf(message, message_size, ...) does both).
 * mishbench reports it as "<call>(): <message>", e.g. "run(): cudaFuncSetAttribute failed: ...".
 *
 * Building: include this header and define the entry with MISHBENCH_PLUGIN_EXPORT. With CMake,
 *     find_package(mishbench REQUIRED)
 *     mishbench_add_plugin(mine SOURCES mine.cu)
 * builds libmine.so with hidden default visibility, so the entry is the only exported symbol.
 * docs/plugins.md walks through a complete plugin.
 */
#ifndef MISHBENCH_PLUGIN_H
#define MISHBENCH_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

/* The version of this interface. A plugin records the version it was built against in
   mishbench_plugin.abi_version; mishbench refuses a library whose version differs from the one
   it reads. */
#define MISHBENCH_PLUGIN_ABI_VERSION 1

/* The one symbol mishbench looks up in a plugin library. */
#define MISHBENCH_PLUGIN_ENTRY "mishbench_plugin_entry"

/* An optional second one: a NUL-terminated string saying how the library was built (build type,
   compile flags), which mishbench records in the report as the backend's origin.build_info
   ("unknown" when the library does not define it). mishbench_add_plugin generates it; by hand,
       MISHBENCH_PLUGIN_EXPORT const char mishbench_plugin_build_info[] = "-O3 -march=native";
   mishbench keeps at most 1024 bytes of it and replaces anything but printable ASCII with '?'. */
#define MISHBENCH_PLUGIN_BUILD_INFO "mishbench_plugin_build_info"

#ifdef __cplusplus
#define MISHBENCH_PLUGIN_EXTERN_C extern "C"
#else
#define MISHBENCH_PLUGIN_EXTERN_C
#endif

/* Marks the entry point's definition: C linkage, and exported even when the library is built
   with -fvisibility=hidden (as mishbench_add_plugin does). */
#define MISHBENCH_PLUGIN_EXPORT MISHBENCH_PLUGIN_EXTERN_C __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/* What every call that can fail returns. */
enum mishbench_status { MISHBENCH_OK = 0, MISHBENCH_ERROR = 1 };

/* Where a backend's tensors live and where it computes. */
enum mishbench_placement {
  MISHBENCH_DEVICE = 0, /* CUDA device memory; work is enqueued on `stream` */
  MISHBENCH_HOST = 1    /* host memory; calls run synchronously, stream is NULL */
};

/* What verification at mishbench's tolerance (atol = rtol = 1e-4 against float64) is expected
   to show. A MISHBENCH_REDUCED backend (TF32, bf16, ...) that misses the tolerance is reported
   as an expected mismatch with its error figures and does not fail the run; a MISHBENCH_FP32
   one that misses it fails the run. */
enum mishbench_accuracy { MISHBENCH_FP32 = 0, MISHBENCH_REDUCED = 1 };

/* What a stage computes, which decides the unit it is reported in. */
enum mishbench_stage_kind {
  MISHBENCH_STAGE_GEMM = 0,    /* the matrix product: TFLOP/s */
  MISHBENCH_STAGE_EPILOGUE = 1 /* elementwise work on y: GB/s against the device copy rate */
};

/* The problem's sizes: x [m, k], W [n, k], b [n], y [m, n]; each >= 1. */
typedef struct mishbench_shape {
  int64_t m, n, k;
} mishbench_shape;

/* The CUDA device mishbench runs on; passed as NULL when the machine has no usable GPU. Valid
   only during the call it is passed to (copy what you keep). */
typedef struct mishbench_device {
  int ordinal;           /* CUDA device ordinal, the current device in every call */
  int cc_major;          /* compute capability, e.g. 9 and 0 for sm_90 */
  int cc_minor;
  int sms;               /* streaming multiprocessors */
  uint64_t memory_bytes; /* global memory */
  uint64_t l2_bytes;     /* L2 cache */
  const char* name;      /* e.g. "NVIDIA H200", as cudaGetDeviceProperties reports it */
} mishbench_device;

/* The layer's tensors, fp32, dense and row-major, all on the backend's side (device memory for
   MISHBENCH_DEVICE, host memory for MISHBENCH_HOST). Owned by mishbench. x, W and b are inputs:
   never write into them (mishbench checksums them after the run and fails a backend that
   changed them). The pointers passed to run() may differ from those passed to setup(): keep
   sizes, not pointers, from setup(). */
typedef struct mishbench_tensors {
  const float* x; /* [m, k] row-major */
  const float* w; /* [n, k] row-major (nn.Linear's weight) */
  const float* b; /* [n] */
  float* y;       /* [m, n] row-major, written by run() (or by write_output()) */
} mishbench_tensors;

/* One part of run() that can be enqueued, and so timed, on its own (e.g. the GEMM and the
   epilogue of a GEMM-then-epilogue backend). */
typedef struct mishbench_stage {
  const char* name; /* "gemm", "epilogue", ...: 1-32 chars of [a-z0-9._-] */
  int kind;         /* enum mishbench_stage_kind */
  int reads_bias;   /* epilogue stages: 1 when it reads b (counted in its least bytes), else 0 */
} mishbench_stage;

/* One backend. Function pointers marked optional may be NULL. Every call receives the instance
   setup() created; `message`/`message_size` are described at the top of this file. */
typedef struct mishbench_backend {
  /* The CLI name (--backend=NAME) and the report's key: 1-32 chars of [a-z0-9._-], starting
     with a letter or digit, unique among all backends in the run (built-ins included). */
  const char* name;
  /* One line for --list-backends: what it is, in a few words (at most 200 bytes, UTF-8). */
  const char* summary;
  /* The arithmetic it runs at, the key of mishbench's peak table: "fp32", "tf32", "fp16",
     "bf16", "3xtf32", "fp16x3"; another name is reported without a peak. Same syntax as name. */
  const char* math_mode;
  int placement; /* enum mishbench_placement */
  int accuracy;  /* enum mishbench_accuracy */

  /* Optional (NULL: every shape and device). Whether this backend can run `shape` on `device`
     (NULL when there is no GPU). Returns 1 when supported; returns 0 when not, writing the
     reason (one line, NUL-terminated within reason_size bytes), which mishbench reports as the
     backend's skip reason. No CUDA calls needed or wanted: decide from the arguments. */
  int (*supports)(const mishbench_shape* shape, const mishbench_device* device, char* reason,
                  size_t reason_size);

  /* Creates one instance for one problem and stores it in *instance (it may be NULL if the
     backend keeps no state): handles, buffers, heuristics. Untimed but reported as setup_ms;
     it may allocate and synchronize. `tensors` holds the problem's buffers (their contents are
     the problem's inputs). `options_json` is the backend's options as a JSON object text,
     "{}" when the user gave none (--backend-option NAME.KEY=VALUE, config key
     backend_options); reject unknown keys with MISHBENCH_ERROR and a message. On error, release
     what was allocated: teardown() is not called for a failed setup(). */
  int (*setup)(void** instance, const mishbench_shape* shape, const mishbench_tensors* tensors,
               const char* options_json, void* stream, char* message, size_t message_size);

  /* Optional (NULL: none). Weight preparation (splitting, converting, reordering W into the
     instance's buffers), called after setup() and timed apart as prepack_ms (inside every
     iteration with --include-prepack). Enqueue only, like run(). */
  int (*prepack)(void* instance, const mishbench_tensors* tensors, void* stream, char* message,
                 size_t message_size);

  /* Enqueues one forward pass on `stream`: reads x, W, b (and what prepack() prepared) and
     writes every element of y. No synchronization; no work left running on a stream that is not
     joined back (host backends run synchronously, and leave no thread working on return).
     Stream-ordered allocation (cudaMallocAsync on `stream`) is fine. Called many times; x has
     new contents before every call and y is poisoned, so every call must compute from the
     current contents of x, W and b. */
  int (*run)(void* instance, const mishbench_tensors* tensors, void* stream, char* message,
             size_t message_size);

  /* Optional (NULL: run() writes y). For backends whose run() leaves its result elsewhere
     (e.g. in a padded or differently laid out buffer of the instance): copies the last run's
     result into tensors->y. Called right after every run(), INSIDE the timed region, and
     audited like run(): whatever work it does is part of the backend's time. Enqueue only. */
  int (*write_output)(void* instance, const mishbench_tensors* tensors, void* stream,
                      char* message, size_t message_size);

  /* Optional: stages that, enqueued in order, do what run() does, for the stage breakdown in
     the report. stage_count is 0 (no breakdown; stages and run_stage are then ignored) or
     between 2 and 16, with `stages` pointing at stage_count entries and run_stage set.
     run_stage(instance, i, ...) enqueues stage i under the same rules as run(). */
  uint32_t stage_count;
  const mishbench_stage* stages;
  int (*run_stage)(void* instance, uint32_t index, const mishbench_tensors* tensors,
                   void* stream, char* message, size_t message_size);

  /* Optional. A JSON object text for the report (algorithm, tiles, launch configuration, ...),
     called after the runs. The text is owned by the instance and must stay valid until the
     next call on it. Text that is not a JSON object is reported as {"describe_error": ...}.
     A "warnings" key, an array of strings, is also printed as the backend's warnings. */
  const char* (*describe)(void* instance);

  /* Optional. Releases the instance and everything setup() allocated. Called once per
     successful setup(), when mishbench is done with the instance. */
  void (*teardown)(void* instance);
} mishbench_backend;

/* What the entry point returns: static storage, valid while the library is loaded. */
typedef struct mishbench_plugin {
  uint32_t abi_version; /* MISHBENCH_PLUGIN_ABI_VERSION it was built against: always the first
                           field, in every version of this interface */
  uint32_t backend_count;             /* between 1 and 256 */
  const mishbench_backend* backends;  /* backend_count entries */
} mishbench_plugin;

/* The entry point a plugin defines, exactly once, as
       MISHBENCH_PLUGIN_EXPORT const mishbench_plugin* mishbench_plugin_entry(void) { ... }
   mishbench calls it once after loading the library. */
MISHBENCH_PLUGIN_EXPORT const mishbench_plugin* mishbench_plugin_entry(void);

/* The entry point's type, for loaders (dlsym). */
typedef const mishbench_plugin* (*mishbench_plugin_entry_fn)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MISHBENCH_PLUGIN_H */
