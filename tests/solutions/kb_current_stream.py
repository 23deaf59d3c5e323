# Honest: kb_default_stream.py with the kernel launched on PyTorch's current stream (the tool's),
# double_mish_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(...), as
# examples/solutions/kernelbench_load_inline.py launches it.
# Verdict: ok, at a median within 5 % of kb_default_stream.py's.
from kb_double_mish import build, model_class

ModelNew = model_class(
    build("kb_current_stream_mish", "<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>"))
