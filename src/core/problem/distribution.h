// How a problem's inputs are drawn (exact definitions in docs/methodology.md; the generator is
// problem/input_rng.cuh).
#pragma once

namespace mish {

enum class Distribution : int {
  kernelbench,  // x ~ U[0,1); W, b ~ U[-1/sqrt(K), 1/sqrt(K)) as torch.rand and nn.Linear's init
  normal,       // x ~ N(0,1) (Irwin-Hall of 12); W, b as nn.Linear
  normal_unit,  // x, W ~ N(0,1); b as nn.Linear. Outputs ~ +-90: even cuBLAS FP32 misses 1e-4 here
  wide,         // signed values over 15 binades, 1/32 exact zeros, every 64th row of x and W all zero
};

}  // namespace mish
