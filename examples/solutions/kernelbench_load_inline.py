"""KernelBench level 2, problem 29 (Matmul_Mish_Mish), answered the way most solutions answer it:
nn.Linear for the GEMM (cuBLAS in true FP32: PyTorch leaves TF32 off for matmuls), then one CUDA
kernel for both Mish, compiled at import with torch.utils.cpp_extension.load_inline.

    mishbench --solution examples/solutions/kernelbench_load_inline.py \\
        --backend=kb-load-inline,fused,torch-eager

The compile runs at setup (untimed, under --setup-timeout) and is cached per file content under
$XDG_CACHE_HOME/mishbench, so a second run loads the built extension (docs/solutions.md).
"""
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

MISHBENCH_NAME = "kb-load-inline"
MISHBENCH_SUMMARY = "KernelBench style: nn.Linear (cuBLAS FP32) + a load_inline double-Mish kernel"

CUDA_SOURCE = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

// mish(v) = v * tanh(softplus(v)) in fp32, accurately and without tanh.approx: with n = e^v,
// tanh(log1p(n)) = n (n + 2) / (n (n + 2) + 2), one expf and one IEEE division. Above 20 the
// factor is 1 to fp32 precision (and n (n + 2) would overflow past 44): mish(v) = v.
__device__ __forceinline__ float mish(float v) {
  if (v > 20.0f) return v;
  const float n = expf(v);
  const float t = n * (n + 2.0f);
  return v * (t / (t + 2.0f));
}

__device__ __forceinline__ float double_mish(float v) { return mish(mish(v)); }

// Four elements per thread with 16-byte loads and stores, grid-stride.
__global__ void double_mish_vec4(const float4* __restrict__ in, float4* __restrict__ out,
                                 int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    float4 v = in[i];
    v.x = double_mish(v.x);
    v.y = double_mish(v.y);
    v.z = double_mish(v.z);
    v.w = double_mish(v.w);
    out[i] = v;
  }
}

__global__ void double_mish_scalar(const float* __restrict__ in, float* __restrict__ out,
                                   int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = double_mish(in[i]);
}

torch::Tensor double_mish_forward(torch::Tensor input) {
  TORCH_CHECK(input.is_cuda(), "double_mish_forward: input must be a CUDA tensor");
  TORCH_CHECK(input.scalar_type() == torch::kFloat32, "double_mish_forward: input must be fp32");
  input = input.contiguous();
  const c10::cuda::CUDAGuard guard(input.device());
  torch::Tensor output = torch::empty_like(input);
  const int64_t count = input.numel();
  if (count == 0) return output;
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  constexpr int kThreads = 256;
  constexpr int64_t kMaxBlocks = 65535;
  const float* in = input.data_ptr<float>();
  float* out = output.data_ptr<float>();
  const bool vector = count % 4 == 0 && reinterpret_cast<uintptr_t>(in) % 16 == 0 &&
                      reinterpret_cast<uintptr_t>(out) % 16 == 0;
  const int64_t work = vector ? count / 4 : count;
  const int blocks = static_cast<int>(std::min<int64_t>((work + kThreads - 1) / kThreads,
                                                        kMaxBlocks));
  if (vector)
    double_mish_vec4<<<blocks, kThreads, 0, stream>>>(reinterpret_cast<const float4*>(in),
                                                      reinterpret_cast<float4*>(out), work);
  else
    double_mish_scalar<<<blocks, kThreads, 0, stream>>>(in, out, work);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output;
}
"""

CPP_SOURCE = "torch::Tensor double_mish_forward(torch::Tensor input);"

double_mish = load_inline(name="kb_double_mish", cpp_sources=CPP_SOURCE, cuda_sources=CUDA_SOURCE,
                          functions=["double_mish_forward"], extra_cuda_cflags=["-O3"],
                          verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return double_mish.double_mish_forward(self.linear(x))


# KernelBench's problem file defines these; mishbench builds ModelNew(*get_init_inputs()) with
# the first two replaced by the sizes of the problem it runs.
in_features, out_features = 8192, 8192


def get_init_inputs():
    return [in_features, out_features]
