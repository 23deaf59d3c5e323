// An honest device backend beside the cheating ones: mishbench's naive kernel on the given
// stream.
#include "device_layer.h"

namespace {

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("honest-device", MISHBENCH_DEVICE, test_plugin::run_honest_device)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
