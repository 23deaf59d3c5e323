# Names its transposed weight but not its layout: on a problem that is not square the named array
# has the shape of W transposed, and setup says which declaration is missing.
from layer import TransposedLayer

MISHBENCH_PLACEMENT = "host"
MISHBENCH_WEIGHT = "weight_t"


class ModelNew(TransposedLayer):
    pass
