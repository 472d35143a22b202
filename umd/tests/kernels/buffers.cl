// Global, constant and local buffers, work-group size attributes and barriers.
kernel void copy(global const uint* src, global uint* dst) {
  size_t i = get_global_id(0);
  dst[i] = src[i];
}

__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void reverse_in_group(global int* data, local int* tmp) {
  size_t l = get_local_id(0);
  tmp[l] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];
}

kernel void lookup(global float* out, constant float* table, int n, local float* a, local float4* b) {
  local float inline_slm[128];
  size_t l = get_local_id(0);
  inline_slm[l % 128] = table[l % n];
  a[l] = inline_slm[(l + 1) % 128];
  b[l] = (float4)(a[l]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = b[(l + 1) % get_local_size(0)].x;
}

kernel void ndrange_info(global uint* out) {
  size_t g = get_global_id(0) + get_global_id(1) * get_global_size(0)
           + get_global_id(2) * get_global_size(0) * get_global_size(1);
  out[g] = get_work_dim() + get_num_groups(0) + get_num_groups(1) + get_num_groups(2)
         + get_global_offset(0) + get_global_offset(1) + get_global_offset(2)
         + get_local_size(2) + get_enqueued_local_size(1) + get_group_id(2);
}
