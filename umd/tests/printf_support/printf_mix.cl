// printf with every kind of argument IGC records: ints of each width, floats, strings,
// chars and vectors (doubles are left out: not every target has fp64).
kernel void mix(global const int *v) {
  int i = get_global_id(0);
  printf("item %d: %d %5.2f %e %g %a|%s|%c|%hhd|%x\n", i, v[i], 1.5f * i, 0.25f, 1e-5f,
         1.0f, "str", 'A' + i, (char)(200 + i), v[i]);
  printf("long %ld %v2ld\n", (long)v[i] * 100000000000L, (long2)(-1L, 1L << 40));
  char4 c4 = (char4)(i, -i, 3, 4);
  short2 s2 = (short2)(-1, i);
  int3 n3 = (int3)(i, 2 * i, -3);
  float4 f4 = (float4)(0.5f, i, -2.0f, 3.25f);
  printf("v %v4hhd %v2hx %v3hld %v4hlf %%\n", c4, s2, n3, f4);
}
