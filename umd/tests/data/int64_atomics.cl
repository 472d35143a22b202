// 64-bit atomics (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics) on global and local
// memory; umd/tests/int64_atomics_sim.rs computes what each leaves.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

__kernel void global64(__global long *c, __global long *ret) {
  size_t i = get_global_id(0);
  long v = (long)(i + 1) * 0x100000001L;
  long w = ((long)i - 32) * 0x100000001L;
  ret[i] = atom_add(&c[0], v);
  atom_sub(&c[1], v);
  atom_min(&c[2], w);
  atom_max(&c[3], w);
  atom_or(&c[4], 1L << (i % 64));
  atom_and(&c[5], ~(1L << (i % 64)));
  atom_xor(&c[6], (long)(i + 1) << 20);
  atom_min((__global ulong *)&c[9], (ulong)w);
  atom_max((__global ulong *)&c[10], (ulong)w);
  atom_inc(&c[7]);
  atom_dec(&c[8]);
  atom_cmpxchg(&c[16 + i], (long)i, ~(long)i);
  atom_cmpxchg(&c[16 + 64 + i], (long)i + 1, 5L);
}

__kernel void local64(__global long *out, __local long *s) {
  size_t l = get_local_id(0);
  if (l < 4) s[l] = l == 2 ? 0x7fffffffffffffffL : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_add(&s[0], (long)(l + 1) << 33);
  atom_min(&s[2], -(long)l * 0x10000000000L);
  atom_xor(&s[3], (long)(l + 1) << 40);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 4) out[get_group_id(0) * 4 + l] = s[l];
}
