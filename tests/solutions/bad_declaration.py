# A placement that does not exist.
from layer import HostLayer

MISHBENCH_PLACEMENT = "gpu"


class ModelNew(HostLayer):
    pass
