// Subgroup built-ins and block IO at several SIMD widths.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void sg8(global uint* p, global float* f) {
  uint i = get_global_id(0);
  uint v = intel_sub_group_block_read((const global uint*)p + get_group_id(0) * 8);
  float g = sub_group_broadcast(f[i], 3) + sub_group_reduce_max(f[i]);
  p[i] = v + sub_group_scan_inclusive_add(v) + intel_sub_group_shuffle(v, (i + 1) & 7);
  f[i] = g;
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg16(global uint* p, global ushort* s) {
  uint i = get_global_id(0);
  uint v = intel_sub_group_block_read((const global uint*)p);
  ushort w = intel_sub_group_block_read_us((const global ushort*)s);
  intel_sub_group_block_write((global uint*)p + 64, v + sub_group_reduce_add(v));
  intel_sub_group_block_write_us((global ushort*)s + 64, (ushort)(w ^ (ushort)i));
  p[i] += intel_sub_group_shuffle_down(v, v, 1) + sub_group_any(v > 3u);
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void sg32(global int* p) {
  int i = get_global_id(0);
  p[i] = sub_group_reduce_min(p[i]) + get_sub_group_local_id() + sub_group_all(p[i] != 0);
}

kernel void img(read_only image2d_t src, write_only image2d_t dst, global uint* o) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  uint v = intel_sub_group_block_read(src, c);
  intel_sub_group_block_write(dst, c, v * 2u);
  float4 px = read_imagef(src, c);
  o[c.x] = (uint)(px.x * 255.0f) + v;
}
