// Math built-ins and 8/16/32/64-bit integer and floating-point types.
kernel void fmath(global float* f, global half* h) {
  int i = get_global_id(0);
  float x = f[i];
  f[i] = sqrt(x) + rsqrt(x) + native_sin(x) + native_cos(x) + exp(x) + log(x) + pow(x, 2.5f)
       + fma(x, 3.0f, 1.0f) + native_divide(x, 7.0f) + floor(x) + ceil(x) + fabs(x) + fmin(x, 1.0f);
  h[i] = (half)(vload_half(i, (global half*)f) * 2.0f);
}

kernel void imath(global char* c, global short* s, global int* d, global long* q, global ulong* uq) {
  int i = get_global_id(0);
  c[i] = c[i] * 3 + (c[i] >> 1);
  s[i] = (short)(s[i] / 7) + mad_sat(s[i], s[i], (short)3);
  d[i] = d[i] / (i + 1) + d[i] % 5 + clz(d[i]) + popcount(d[i]) + rotate(d[i], 3) + mul_hi(d[i], 77);
  q[i] = q[i] * 1234567890123L + (q[i] >> 7);
  uq[i] = uq[i] / 3 + (uq[i] << 13) + min(uq[i], (ulong)99);
}

#ifdef cl_khr_fp64
// Only where the device has fp64 (Gen9, Gen11 here).
kernel void fp64(global double* d) {
  int i = get_global_id(0);
  d[i] = d[i] * 1.5 + sqrt(d[i]) + (double)i;
}
#endif
