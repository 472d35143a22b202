// Required subgroup sizes and subgroup built-ins.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void reduce8(global const uint* in, global uint* out) {
  out[get_global_id(0)] = sub_group_reduce_add(in[get_global_id(0)]) + get_sub_group_local_id();
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void shuffle16(global const uint* in, global uint* out) {
  uint v = intel_sub_group_block_read(in + get_group_id(0) * 16);
  intel_sub_group_block_write(out + get_group_id(0) * 16, intel_sub_group_shuffle(v, 15 - get_sub_group_local_id()));
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void broadcast32(global int* data) {
  data[get_global_id(0)] = sub_group_broadcast(data[get_global_id(0)], 3) + get_max_sub_group_size();
}

kernel void free_size(global uint* out) {
  out[get_global_id(0)] = get_sub_group_size() + get_num_sub_groups() + get_sub_group_id();
}
