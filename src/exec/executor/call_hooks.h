// What the harness does around every call of a backend's work (docs/isolation.md), so that no
// call can be told from another: before it, x gets the call's own contents (the problem's x for a
// series' first call where the plan says so, otherwise drawn from the run's nonce and the call's
// index) and y is poisoned with NaN; after it, y is copied into the output store, into a kept
// slot or, once the slots are full, into the scratch slot unless a reservoir draw keeps it (so
// the kept calls are a uniform sample of the series, chosen only after each call ran).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "core/backend/backend.h"
#include "core/problem/problem.h"
#include "core/timing/sampling.h"
#include "core/timing/timer.h"

namespace mish {

// Where the outputs of a series' calls are kept for checking: `slots` outputs of m*n floats one
// after another, then one scratch output for the calls that are not kept. Device memory for
// device backends, host memory for host ones.
struct OutputStore {
  float* base = nullptr;
  uint32_t slots = 0;
};

class PreparedCalls final : public CallHooks {
 public:
  // `stream`: the timed stream (device tensors), or null (host tensors, filled by this thread).
  // `prefix`/`suffix`: work of the backend's own run before and after the call's timed part (the
  // stages around a timed stage), enqueued with the harness's preparation.
  PreparedCalls(const Problem& problem, const Tensors& tensors, const OutputStore& store,
                const CallPlan& plan, cudaStream_t stream, std::function<void()> prefix = {},
                std::function<void()> suffix = {});
  void before(uint64_t index) override;
  void after(uint64_t index) override;
  // The calls whose outputs are in the store, by slot.
  std::vector<KeptOutput> kept() const;

 private:
  uint32_t slot_for(uint64_t index);

  Problem problem_;
  Tensors tensors_;
  OutputStore store_;
  CallPlan plan_;
  cudaStream_t stream_;
  std::function<void()> prefix_, suffix_;
  std::vector<KeptOutput> kept_;  // one entry per slot in use
  uint64_t offered_ = 0;          // calls offered to the reservoir so far
  uint64_t draw_state_;
};

// The seed x is drawn with for call `call` of a run with `nonce`.
uint64_t call_seed(uint64_t nonce, uint64_t call);

// The seed of call `index` of a series under `plan` (the problem's own for a main-x first call).
uint64_t seed_of_call(const Problem& problem, const CallPlan& plan, uint64_t index);

// Fills `x` (m*k floats, host memory) with the x the generator draws for `seed`.
void draw_x_on_host(const Problem& problem, uint64_t seed, float* x);

}  // namespace mish
