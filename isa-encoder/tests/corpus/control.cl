// Control flow: loops, divergent branches, early exits, a switch, barriers.
kernel void flow(global int* p, int n) {
  int i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j < n; j++) {
    if (p[j] > i) { acc += p[j]; if (acc > 1000) break; }
    else if (p[j] == 3) continue;
    else acc -= j;
  }
  while (acc > 7) acc >>= 1;
  switch (acc & 3) { case 0: acc += 5; break; case 1: acc *= 3; break; default: acc = -acc; }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i == 0) return;
  p[i] = acc;
}

kernel void local_mem(global float* p, local float* tmp) {
  int l = get_local_id(0);
  tmp[l] = p[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  p[get_global_id(0)] = tmp[(l + 1) % get_local_size(0)];
  atomic_add((global int*)p, 1);
}
