// How many threads the `cpu` backend computes with: its option cpu.threads, set by --threads.
#pragma once

namespace mish {

constexpr int kMaxCpuThreads = 1024;

// Half the hardware threads this process may run on (its CPU affinity), at least one. On a
// 2-core CI machine shared with other jobs that is one thread: two OpenBLAS and OpenMP threads
// wait on each other whenever the second core is taken, and the medians turn bimodal or worse
// (64x256x512 took 1.19 or 4.0 ms from run to run, and 8 to 24 ms with two threads under a load
// of 7 against 0.54 to 0.91 ms with one), while one thread waits for no other and moves only
// with its core's speed. On a many-core host, half keeps the GEMM fast and leaves cores to the
// tool's own threads and to the system, so no BLAS thread waits on a preempted sibling.
int default_cpu_threads();

}  // namespace mish
