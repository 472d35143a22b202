// Program-scope constant and global data, zero-initialized globals, and a pointer between
// them (OpenCL C 2.0).
constant int table[5] = {1, 2, 3, 4, 5};
global int counters[3] = {7, 8, 9};
global int* selected = &counters[1];
global int zeroed[64];

kernel void use_globals(global int* out, int n) {
  zeroed[n % 64] += n;
  out[get_global_id(0)] = table[n % 5] + counters[n % 3] + *selected + zeroed[(n + 1) % 64];
}
