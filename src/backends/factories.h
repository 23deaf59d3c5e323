// One factory per backend, each defined in the backend's own file; registry.cpp lists them.
#pragma once
#include <memory>

#include "backends/backend.h"

namespace mish {

std::unique_ptr<Backend> make_naive_backend();
std::unique_ptr<Backend> make_separate_backend();
std::unique_ptr<Backend> make_fused_backend();
std::unique_ptr<Backend> make_cublaslt_backend();
std::unique_ptr<Backend> make_tf32_backend();
std::unique_ptr<Backend> make_bf16_backend();
std::unique_ptr<Backend> make_3xtf32_backend();
std::unique_ptr<Backend> make_fp16x3_backend();
std::unique_ptr<Backend> make_wgmma_backend();
std::unique_ptr<Backend> make_splitk_backend();
std::unique_ptr<Backend> make_cpu_backend();

}  // namespace mish
