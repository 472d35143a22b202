// Control flow: if/else, loops with break/continue, nested divergence.
kernel void branches(global int* p, int n) {
  int i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j < n; j++) {
    if ((p[j] & 1) == 0) continue;
    if (p[j] > 1000) break;
    acc += p[j] * j;
  }
  if (i & 1) {
    acc = -acc;
  } else if (i & 2) {
    acc *= 3;
  } else {
    while (acc > 10) acc >>= 1;
  }
  p[i] = acc;
}

kernel void select_ops(global float* a, global int* b) {
  int i = get_global_id(0);
  float x = a[i];
  b[i] = select(b[i], -b[i], (int)(x > 0.0f)) + (x != x ? 1 : 0);
  a[i] = x > 1.0f ? x : (x < -1.0f ? -x : 0.25f);
}
