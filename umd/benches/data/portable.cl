// Kernels for the simulator benchmark (umd/benches/sim_kernels.rs) without sub-group
// built-ins, so PoCL runs them too.

__kernel void saxpy(__global const float *x, __global float *y, float a) {
  uint i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}

// The issue's multiply-add loop: 64 dependent multiply-adds per work item.
__kernel void mad_loop(__global const float *x, __global float *y) {
  uint i = get_global_id(0);
  float v = x[i], acc = 0.5f;
  for (int k = 0; k < 64; k++) acc = acc * v + 0.25f;
  y[i] = acc;
}

// Work-group tree reduction through local memory with barriers, one sum per group.
__kernel void group_sum(__global const float *x, __global float *out, __local float *ld) {
  uint l = get_local_id(0);
  ld[l] = x[get_global_id(0)];
  for (uint c = get_local_size(0) / 2; c > 0; c /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < c) ld[l] += ld[l + c];
  }
  if (l == 0) out[get_group_id(0)] = ld[0];
}

// Divergent control flow: a data-dependent trip count and a branch per iteration.
__kernel void branchy(__global const uint *in, __global uint *out) {
  uint x = in[get_global_id(0)], acc = 0;
  for (uint i = 0; i < (x & 31); i++) {
    if ((x >> i) & 1) acc += x * i; else acc ^= acc << 3;
  }
  out[get_global_id(0)] = acc;
}

// A divergent f32 loop (an escape-time fractal): each item iterates until its point leaves
// the circle of radius 2, at most 64 times, so the channels of a thread leave at different
// passes.
__kernel void escape_time(__global const float *x, __global uint *out) {
  uint i = get_global_id(0);
  float cr = x[i] * 0.008f - 0.5f, ci = (float)(i % 512) * 0.004f - 1.0f;
  float zr = 0.0f, zi = 0.0f;
  uint n = 0;
  while (n < 64 && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    n++;
  }
  out[i] = n;
}
