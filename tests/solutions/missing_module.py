# Needs a module this Python does not have: skipped with the reason, not an error.
from layer import HostLayer

MISHBENCH_PLACEMENT = "host"
MISHBENCH_REQUIRES = ["mishbench_no_such_module"]


class ModelNew(HostLayer):
    pass
