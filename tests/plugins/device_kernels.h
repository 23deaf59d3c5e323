// Device pieces for the exploit suite's device plugins, beside device_layer.h's honest layer:
// the GEMM and the epilogue apart, a layer kernel that can skip its work on a device flag or
// round its inputs to bf16, and the device-side tests the cheats gate it with. Each enqueues on
// `stream` and returns MISHBENCH_OK, or MISHBENCH_ERROR with the CUDA error in `message`.
#pragma once
#include <cuda_runtime.h>

#include "test_plugin.h"

namespace test_plugin {

// How layer_with() computes.
struct LayerVariant {
  // When not null: the kernel reads *skip first and, when it is not 0, returns without writing y.
  const int* skip = nullptr;
  // x and W rounded to bf16 (nearest, ties to even) before the products: reduced precision.
  bool bf16_inputs = false;
};

// y = mish(mish(x W^T + b)) with the same tiling as the honest layer, as `variant` says.
int layer_with(const mishbench_shape& shape, const mishbench_tensors& t,
               const LayerVariant& variant, cudaStream_t stream, char* message, size_t size);

// out = x W^T (no bias): the GEMM alone.
int gemm_only(const mishbench_shape& shape, const float* x, const float* w, float* out,
              cudaStream_t stream, char* message, size_t size);

// y = mish(mish(y + b)) in place: the epilogue alone (the tool's own epilogue kernel).
int epilogue_only(const mishbench_shape& shape, float* y, const float* b, cudaStream_t stream,
                  char* message, size_t size);

// *skip = 1 when y[0] is not NaN (y was not just poisoned), else 0.
int skip_unless_poisoned(const float* y, int* skip, cudaStream_t stream, char* message,
                         size_t size);

// Hashes 64 elements of x [count] at evenly spaced positions; *skip = 1 when the hash equals
// *last_hash (and *last_hash is set), else 0; then stores the hash in *last_hash. *last_hash
// starts as 0, "not set" (a hash of 0 is made 1).
int skip_if_sample_unchanged(const float* x, uint64_t count, unsigned long long* last_hash,
                             int* skip, cudaStream_t stream, char* message, size_t size);

}  // namespace test_plugin
