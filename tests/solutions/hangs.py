# forward() works once (the warm-up at setup), then never returns: the watchdog kills the worker.
import time

from layer import HostLayer

MISHBENCH_PLACEMENT = "host"


class ModelNew(HostLayer):
    calls = 0

    def forward(self, x):
        ModelNew.calls += 1
        if ModelNew.calls > 1:
            print("hangs: going to sleep for good", flush=True)
            while True:
                time.sleep(60)
        return super().forward(x)
