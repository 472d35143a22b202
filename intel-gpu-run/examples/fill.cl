__attribute__((intel_reqd_sub_group_size(16)))
kernel void fill(global uint *out, uint scale) {
    size_t i = get_global_id(0);
    out[i] = (uint)i * scale;
}
