#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#pragma OPENCL EXTENSION cl_intel_subgroups_short : enable

__attribute__((intel_reqd_sub_group_size(8)))
kernel void block_uint_simd8(global uint* src, global uint* dst) {
    size_t base = get_group_id(0) * 8 * 8;
    uint a = intel_sub_group_block_read(src + base);
    uint2 b = intel_sub_group_block_read2(src + base + 8);
    uint4 c = intel_sub_group_block_read4(src + base + 16);
    uint8 d = intel_sub_group_block_read8(src + base);
    intel_sub_group_block_write(dst + base, a + b.s0 + c.s1 + d.s7);
    intel_sub_group_block_write2(dst + base + 8, b);
    intel_sub_group_block_write4(dst + base + 16, c);
    intel_sub_group_block_write8(dst + base + 32, d);
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void block_short_char_simd16(global ushort* s, global uchar* c, global ushort* o) {
    size_t base = get_group_id(0) * 16 * 8;
    ushort a = intel_sub_group_block_read_us(s + base);
    ushort8 b = intel_sub_group_block_read_us8(s + base);
    uchar x = intel_sub_group_block_read_uc(c + base);
    uchar16 y = intel_sub_group_block_read_uc16(c + base);
    intel_sub_group_block_write_us(o + base, a + b.s3 + x + y.s9);
    intel_sub_group_block_write_uc16(c + base, y + (uchar)1);
}

__attribute__((intel_reqd_sub_group_size(32)))
kernel void simd32_scalar(global uint* src, global ulong* q) {
    size_t i = get_global_id(0);
    q[i] += (ulong)src[i] * sub_group_broadcast(src[i], 3);
    src[i * 2] = sub_group_reduce_add(src[i]);
}

__attribute__((intel_reqd_sub_group_size(8)))
kernel void media_block(read_only image2d_t in, write_only image2d_t out) {
    int2 at = (int2)(get_group_id(0) * 32, get_group_id(1) * 4);
    uint a = intel_sub_group_block_read(in, at);
    uint4 b = intel_sub_group_block_read4(in, at);
    ushort8 s = intel_sub_group_block_read_us8(in, at);
    uchar4 u = intel_sub_group_block_read_uc4(in, at);
    intel_sub_group_block_write(out, at, a + b.s2 + s.s1 + u.s3);
    intel_sub_group_block_write4(out, at, b);
    intel_sub_group_block_write_us8(out, at, s);
}

__attribute__((intel_reqd_sub_group_size(16)))
kernel void atomics_slm(global int* g, global float* f, volatile global uint* cnt, local uint* slm) {
    uint lid = get_local_id(0);
    slm[lid] = g[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = slm[(lid * 5) % get_local_size(0)];
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    atomic_add(g, (int)v);
    atomic_max(g + 1, (int)lid);
    atomic_cmpxchg(cnt, lid, v);
    atomic_inc(cnt + 1);
    atomic_xchg(f, (float)lid);
    g[get_global_id(0) + 64] = slm[(lid + 1) % get_local_size(0)];
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}

kernel void scattered(global uchar* b, global ushort* h, global long* q, global float* d, int n) {
    size_t i = get_global_id(0);
    b[i * 3] = b[i * 5 + 1] + 1;
    h[i * 7] = h[i * 2] * 3;
    q[i * n] = q[i] + 5;
    d[i] = d[i * n] * 2.0f;
}
