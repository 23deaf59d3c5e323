/* host_loops: a mishbench plugin that computes the layer y = mish(mish(x W^T + b)) in fp32 on
 * the host with plain loops. Each output is the dot product of a row of x and a row of W (both
 * contiguous in k), accumulated in fp32, plus its bias, through Mish twice.
 *
 * It needs no GPU, so it runs on any machine (CI included); it is slow, so supports() refuses
 * problems above a few GFLOP instead of running for minutes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <mishbench/plugin.h>

/* Problems up to this m * n * k (4.3 GFLOP) take seconds per run with these loops. */
#define HOST_LOOPS_MAX_MNK (INT64_C(1) << 31)

typedef struct host_loops_instance {
  mishbench_shape shape;
} host_loops_instance;

/* PyTorch's definition, mish(v) = v tanh(softplus(v)): for v above ~88 expf gives inf and the
   product is v, for very negative v it is 0. */
static float mish(float v) { return v * tanhf(log1pf(expf(v))); }

/* Whether `text` is "{}", give or take white space: this backend takes no options. */
static int is_empty_object(const char* text) {
  const char* expected = "{}";
  for (; *text != '\0'; ++text) {
    if (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r') continue;
    if (*text != *expected) return 0;
    ++expected;
  }
  return *expected == '\0';
}

static int host_loops_supports(const mishbench_shape* shape, const mishbench_device* device,
                               char* reason, size_t reason_size) {
  (void)device; /* runs on the host with or without a GPU */
  /* Each factor is below 2^31 (mishbench checks), so the product is tested without overflow. */
  if (shape->m > HOST_LOOPS_MAX_MNK / shape->n / shape->k) {
    snprintf(reason, reason_size,
             "m*n*k is above 2^31 (plain loops would take minutes): use a smaller problem");
    return 0;
  }
  return 1;
}

static int host_loops_setup(void** instance, const mishbench_shape* shape,
                            const mishbench_tensors* tensors, const char* options_json,
                            void* stream, char* message, size_t message_size) {
  host_loops_instance* self;
  (void)tensors, (void)stream;
  if (!is_empty_object(options_json)) {
    snprintf(message, message_size, "host-loops takes no options (got %s)", options_json);
    return MISHBENCH_ERROR;
  }
  self = (host_loops_instance*)malloc(sizeof *self);
  if (self == NULL) {
    snprintf(message, message_size, "out of host memory");
    return MISHBENCH_ERROR;
  }
  self->shape = *shape;
  *instance = self;
  return MISHBENCH_OK;
}

static int host_loops_run(void* instance, const mishbench_tensors* t, void* stream,
                          char* message, size_t message_size) {
  const host_loops_instance* self = (const host_loops_instance*)instance;
  const int64_t m = self->shape.m, n = self->shape.n, k = self->shape.k;
  int64_t row, col, i;
  (void)stream, (void)message, (void)message_size;
  for (row = 0; row < m; ++row) {
    const float* x_row = t->x + row * k;
    for (col = 0; col < n; ++col) {
      const float* w_row = t->w + col * k;
      float sum = 0.0f;
      for (i = 0; i < k; ++i) sum += x_row[i] * w_row[i];
      t->y[row * n + col] = mish(mish(sum + t->b[col]));
    }
  }
  return MISHBENCH_OK;
}

static const char* host_loops_describe(void* instance) {
  (void)instance;
  return "{\"loops\": \"row, column, k (dot products of rows of x and W)\", "
         "\"accumulator\": \"fp32\", \"mish\": \"v * tanhf(log1pf(expf(v)))\"}";
}

static void host_loops_teardown(void* instance) { free(instance); }

static const mishbench_backend host_loops_backends[] = {{
    "host-loops",
    "example plugin: the layer in fp32 with plain C loops on the host",
    "fp32",
    MISHBENCH_HOST,
    MISHBENCH_FP32,
    host_loops_supports,
    host_loops_setup,
    NULL, /* prepack: nothing to prepare */
    host_loops_run,
    NULL, /* write_output: run() writes y */
    0,    /* no stages */
    NULL,
    NULL,
    host_loops_describe,
    host_loops_teardown,
}};

static const mishbench_plugin host_loops_plugin = {MISHBENCH_PLUGIN_ABI_VERSION, 1,
                                                   host_loops_backends};

MISHBENCH_PLUGIN_EXPORT const mishbench_plugin* mishbench_plugin_entry(void) {
  return &host_loops_plugin;
}
