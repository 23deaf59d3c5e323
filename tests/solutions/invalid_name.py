# A declared name that is not a valid backend name: refused like a plugin's (exit 2).
from layer import HostLayer

MISHBENCH_NAME = "My Layer"
MISHBENCH_PLACEMENT = "host"


class ModelNew(HostLayer):
    pass
