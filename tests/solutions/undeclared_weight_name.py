# Declares a weight that ModelNew does not have (a typo): setup fails naming the arrays it has.
from layer import HostLayer

MISHBENCH_PLACEMENT = "host"
MISHBENCH_WEIGHT = "weights"


class ModelNew(HostLayer):
    pass
