"""The KernelBench answer of examples/solutions/kernelbench_load_inline.py (nn.Linear, then one
load_inline kernel applying Mish twice), shared by kb_default_stream.py and kb_current_stream.py,
which differ only in how that kernel is launched: build(name, launch) compiles it with `launch`
as the launch configuration."""
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

// mish(v) = v * tanh(softplus(v)); with n = e^v, tanh(log1p(n)) = n (n + 2) / (n (n + 2) + 2).
__device__ __forceinline__ float mish(float v) {
  if (v > 20.0f) return v;
  const float n = expf(v);
  const float t = n * (n + 2.0f);
  return v * (t / (t + 2.0f));
}

__global__ void double_mish_kernel(const float* __restrict__ in, float* __restrict__ out,
                                   int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = mish(mish(in[i]));
}

torch::Tensor double_mish_forward(torch::Tensor input) {
  TORCH_CHECK(input.is_cuda() && input.scalar_type() == torch::kFloat32, "fp32 CUDA input");
  input = input.contiguous();
  const c10::cuda::CUDAGuard guard(input.device());
  torch::Tensor output = torch::empty_like(input);
  const int64_t count = input.numel();
  if (count == 0) return output;
  const int threads = 256;
  const int blocks = static_cast<int>(std::min<int64_t>((count + threads - 1) / threads, 65535));
  double_mish_kernel@LAUNCH@(input.data_ptr<float>(), output.data_ptr<float>(), count);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output;
}
"""

CPP_SOURCE = "torch::Tensor double_mish_forward(torch::Tensor input);"


def build(name, launch):
    """The extension `name`, its kernel launched as double_mish_kernel<launch>(...)."""
    return load_inline(name=name, cpp_sources=CPP_SOURCE,
                       cuda_sources=CUDA_SOURCE.replace("@LAUNCH@", launch),
                       functions=["double_mish_forward"], extra_cuda_cflags=["-O3"],
                       verbose=False)


def model_class(extension):
    class ModelNew(nn.Module):
        def __init__(self, in_features, out_features):
            super().__init__()
            self.linear = nn.Linear(in_features, out_features)

        def forward(self, x):
            return extension.double_mish_forward(self.linear(x))

    return ModelNew
