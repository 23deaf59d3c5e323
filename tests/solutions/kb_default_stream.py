# Honest but unusual: the KernelBench answer (nn.Linear, then one load_inline kernel applying Mish
# twice) with the kernel launched as double_mish_kernel<<<blocks, threads>>>(...), with no stream
# argument: on the legacy default stream, not PyTorch's current stream (the tool's). The tool's
# timed stream blocks with the legacy default stream, so the kernel is ordered after the GEMM and
# before the end of the call, and timed with it.
# Verdict: ok, at a median within 5 % of kb_current_stream.py's.
from kb_double_mish import build, model_class

ModelNew = model_class(build("kb_default_stream_mish", "<<<blocks, threads>>>"))
