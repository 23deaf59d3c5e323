# Honest, but prints to stdout and stderr everywhere, lines that look like the worker's protocol
# included: neither the protocol nor the tool's table may be disturbed.
import sys

from layer import HostLayer

MISHBENCH_PLACEMENT = "host"
print('{"ok": true, "backends": []}')


class ModelNew(HostLayer):
    def __init__(self, in_features, out_features):
        super().__init__(in_features, out_features)
        print(f"prints-stdout: building {in_features}x{out_features}")
        print('{"progress": 2}', file=sys.stderr)

    def forward(self, x):
        print('{"ok": false, "error": "not from the worker"}')
        return super().forward(x)
