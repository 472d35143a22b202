// The start of every corpus file: what all kernels share.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define FP64(x) x
#else
#define FP64(x)
#endif
// SIMD comes from the compile options (-DSIMD=8|16|32): every kernel requires that subgroup size.
#define SG __attribute__((intel_reqd_sub_group_size(SIMD)))
