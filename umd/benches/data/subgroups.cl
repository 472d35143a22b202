// Kernels for the simulator benchmark (umd/benches/sim_kernels.rs) with cl_intel_subgroups
// built-ins.

// Sub-group block IO and shuffles.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void block_shuffle(__global uint *in, __global uint *out) {
  uint base = (get_group_id(0) * get_local_size(0)) + get_sub_group_id() * 16;
  uint v = intel_sub_group_block_read(in + base);
  uint lane = get_sub_group_local_id();
  uint w = intel_sub_group_shuffle(v, 15 - lane) + intel_sub_group_shuffle_xor(v, 3);
  w += sub_group_reduce_add(v);
  intel_sub_group_block_write(out + base, w);
}

