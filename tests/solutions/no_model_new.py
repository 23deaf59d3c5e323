# Defines the layer under another name: there is no ModelNew.
from layer import HostLayer

MISHBENCH_PLACEMENT = "host"


class Model(HostLayer):
    pass
