// Integer and float arithmetic over many types: exercises the datatype/region tables.
kernel void arith_int(global int* a, global uint* b, global short* c, global uchar* d, int n) {
  int i = get_global_id(0);
  int x = a[i];
  uint y = b[i];
  a[i] = (x * 3 + 7) ^ (x >> 2) | (x & 0x55);
  b[i] = (y / 5u) + (y % 7u) - (y << 3) + min(y, 100u) + max(x, n);
  c[i] = (short)(c[i] * (short)3 - (short)x);
  d[i] = (uchar)(d[i] + (uchar)y) ^ (uchar)0x3c;
  if (x < -1000) a[i + n] = abs(x) + clz(y) + popcount(y) + rotate(x, 5);
}

kernel void arith_float(global float* f, global half* h, float s) {
  int i = get_global_id(0);
  float v = f[i];
  v = mad(v, s, 1.0f) - fabs(v) * -2.0f + sqrt(v) + native_recip(v + 3.0f);
  v = fmin(v, 0.0f) + fmax(v, -1.5f) + floor(v) + exp(v) + log(v) + sin(v);
  f[i] = clamp(v, -8.0f, 8.0f);
  h[i] = (half)(v * 0.5f) + h[i];
}

kernel void arith_long(global long* a, global ulong* b, int k) {
  int i = get_global_id(0);
  long x = a[i];
  ulong y = b[i];
  a[i] = x * 1234567L + (x >> k) - (long)(y / 3ul);
  b[i] = y ^ (y << 7) ^ (ulong)k;
}
