// Lets one function body serve both the host (tests, CPU backend, reference inputs) and the device.
#pragma once
#if defined(__CUDACC__)
#define MISH_HD __host__ __device__ __forceinline__
#else
#define MISH_HD inline
#endif
