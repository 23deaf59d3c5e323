// Backends that each break one rule of plugin.h's calls, otherwise honest: an error without a
// message, a message without its NUL, a supports() verdict that is neither 0 nor 1, a C++
// exception thrown across the ABI, describe() text that is not JSON, and JSON that is not an
// object.
#include <stdexcept>

#include "test_plugin.h"

namespace {

using test_plugin::run_honest_host;

int fail_silently(void*, const mishbench_tensors*, void*, char*, size_t) {
  return MISHBENCH_ERROR;
}

int fail_unterminated(void*, const mishbench_tensors*, void*, char* message, size_t size) {
  std::memset(message, 'x', size);
  return MISHBENCH_ERROR;
}

int supports_two(const mishbench_shape*, const mishbench_device*, char*, size_t) { return 2; }

int run_throws(void*, const mishbench_tensors*, void*, char*, size_t) {
  throw std::runtime_error("thrown from run()");
}

const char* describe_not_json(void*) { return "tiles: 128x128"; }
const char* describe_not_object(void*) { return "[128, 128]"; }

mishbench_backend with_supports(mishbench_backend backend) {
  backend.supports = supports_two;
  return backend;
}
mishbench_backend with_describe(mishbench_backend backend, const char* (*describe)(void*)) {
  backend.describe = describe;
  return backend;
}

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("error-silent", MISHBENCH_HOST, fail_silently),
    test_plugin::shape_backend("error-unterminated", MISHBENCH_HOST, fail_unterminated),
    with_supports(test_plugin::shape_backend("supports-bad-verdict", MISHBENCH_HOST,
                                             run_honest_host)),
    test_plugin::shape_backend("throws", MISHBENCH_HOST, run_throws),
    with_describe(test_plugin::shape_backend("describe-not-json", MISHBENCH_HOST,
                                             run_honest_host),
                  describe_not_json),
    with_describe(test_plugin::shape_backend("describe-not-object", MISHBENCH_HOST,
                                             run_honest_host),
                  describe_not_object),
};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
