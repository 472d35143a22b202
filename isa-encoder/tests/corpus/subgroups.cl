// Subgroup built-ins (cl_intel_subgroups, cl_khr_subgroups) at SIMD 8, 16 and 32.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void sg8(global uint* p, global float* f) {
  uint i = get_global_id(0);
  uint s = get_sub_group_local_id();
  p[i] = intel_sub_group_shuffle(p[i], (s + 1) & 7) + sub_group_broadcast(s, 3);
  f[i] = sub_group_reduce_add(f[i]) + sub_group_scan_inclusive_max(f[i]);
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg16(global uint* p, global int* q) {
  uint i = get_global_id(0);
  uint v = intel_sub_group_shuffle_down(p[i], p[i + 1], 3);
  v ^= intel_sub_group_shuffle_xor(v, 5);
  q[i] = sub_group_any(v > 4) + sub_group_all(v < 9) + sub_group_reduce_min((int)v);
  p[i] = sub_group_scan_exclusive_add(v);
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void sg32(global uint* p) {
  uint i = get_global_id(0);
  p[i] = intel_sub_group_shuffle_up(p[i], p[i + 32], 1) + get_sub_group_size();
}
