// Enough live values to make the register allocator spill, and a private array indexed at run
// time (private memory).
kernel void pressure(global float* data, int n, int k) {
  float acc[96];
  for (int i = 0; i < 96; i++) acc[i] = data[get_global_id(0) * 96 + i] * (i + 1);
  for (int r = 0; r < n; r++)
    for (int i = 0; i < 96; i++) acc[i] = acc[(i * 7 + r) % 96] * acc[i] + acc[(i + k) % 96];
  float s = 0;
  for (int i = 0; i < 96; i++) s += acc[i] * acc[95 - i];
  data[get_global_id(0)] = s + acc[k & 63];
}
