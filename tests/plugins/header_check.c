/* mishbench/plugin.h compiled as strict C99 with every warning an error (and, through
   header_check.cpp, as C++11): a complete plugin that uses every type and field. Written without
   designated initializers so the same text is valid C and C++. */
#include <stddef.h>

#include <mishbench/plugin.h>

/* abi_version must stay the first field in every version of the ABI. */
typedef char abi_version_is_first[offsetof(mishbench_plugin, abi_version) == 0 ? 1 : -1];

static int check_supports(const mishbench_shape* shape, const mishbench_device* device,
                          char* reason, size_t reason_size) {
  (void)reason, (void)reason_size;
  return shape->m > 0 && (device == NULL || device->cc_major >= 8);
}

static int check_setup(void** instance, const mishbench_shape* shape,
                       const mishbench_tensors* tensors, const char* options_json, void* stream,
                       char* message, size_t message_size) {
  (void)shape, (void)tensors, (void)options_json, (void)stream, (void)message,
      (void)message_size;
  *instance = NULL;
  return MISHBENCH_OK;
}

static int check_call(void* instance, const mishbench_tensors* tensors, void* stream,
                      char* message, size_t message_size) {
  (void)instance, (void)tensors, (void)stream, (void)message, (void)message_size;
  return MISHBENCH_OK;
}

static int check_stage(void* instance, uint32_t index, const mishbench_tensors* tensors,
                       void* stream, char* message, size_t message_size) {
  (void)index;
  return check_call(instance, tensors, stream, message, message_size);
}

static const char* check_describe(void* instance) {
  (void)instance;
  return "{}";
}

static void check_teardown(void* instance) { (void)instance; }

static const mishbench_stage check_stages[] = {{"gemm", MISHBENCH_STAGE_GEMM, 0},
                                               {"epilogue", MISHBENCH_STAGE_EPILOGUE, 1}};

static const mishbench_backend check_backends[] = {
    {"check", "header check", "fp32", MISHBENCH_DEVICE, MISHBENCH_FP32, check_supports,
     check_setup, check_call, check_call, check_call, 2, check_stages, check_stage,
     check_describe, check_teardown}};

static const mishbench_plugin check_plugin = {MISHBENCH_PLUGIN_ABI_VERSION, 1, check_backends};

MISHBENCH_PLUGIN_EXPORT const mishbench_plugin* mishbench_plugin_entry(void) {
  const mishbench_plugin_entry_fn entry = mishbench_plugin_entry;
  (void)entry;
  return &check_plugin;
}
