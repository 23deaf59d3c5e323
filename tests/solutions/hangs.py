# forward() works once (the warm-up at setup), then never returns: the watchdog kills the worker.
import time

from layer import AfterWarmUp

MISHBENCH_PLACEMENT = "host"


class ModelNew(AfterWarmUp):
    def misbehave(self, x):
        print("hangs: going to sleep for good", flush=True)
        while True:
            time.sleep(60)
