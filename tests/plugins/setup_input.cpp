// Cheat: keeps the x it saw at setup() (the problem's own x, the one a verification against the
// problem's reference uses) and computes honestly in fp32 whenever x still holds exactly that;
// for any other x it computes from x and W rounded to bf16, the cheap path a tensor-core kernel
// would take, and claims fp32 all the same. When every call gets fresh x and is verified against
// that x's own reference, the bf16 answers are checked.
// Verdict: mismatch ("did not match").
#include <vector>

#include "test_plugin.h"

namespace {

struct SetupInput {
  mishbench_shape shape;
  std::vector<float> setup_x;
  std::vector<float> x16, w16;  // the inputs rounded to bf16, kept in fp32
};

// Rounds to the nearest bf16 (ties to even), returned as the fp32 of the same value.
float round_to_bf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7f800000u) != 0x7f800000u) bits += 0x7fffu + ((bits >> 16) & 1u);
  bits &= 0xffff0000u;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors* t, const char*,
          void*, char*, size_t) {
  const size_t x_count = size_t(shape->m * shape->k), w_count = size_t(shape->n * shape->k);
  *instance = new SetupInput{*shape, std::vector<float>(t->x, t->x + x_count),
                             std::vector<float>(x_count), std::vector<float>(w_count)};
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  auto* self = static_cast<SetupInput*>(instance);
  const size_t x_count = self->setup_x.size();
  if (std::memcmp(t->x, self->setup_x.data(), x_count * sizeof(float)) == 0) {
    test_plugin::compute_layer(self->shape, *t);
    return MISHBENCH_OK;
  }
  for (size_t i = 0; i < x_count; ++i) self->x16[i] = round_to_bf16(t->x[i]);
  for (size_t i = 0; i < self->w16.size(); ++i) self->w16[i] = round_to_bf16(t->w[i]);
  test_plugin::gemm(self->shape, self->x16.data(), self->w16.data(), t->y);
  test_plugin::epilogue(self->shape, t->b, t->y);
  return MISHBENCH_OK;
}

void teardown(void* instance) { delete static_cast<SetupInput*>(instance); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("setup-input", MISHBENCH_HOST, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
