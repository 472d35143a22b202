// printf: a printf buffer argument and string literals in program data.
kernel void hello(global const int* v) {
  printf("item %d has %d\n", (int)get_global_id(0), v[get_global_id(0)]);
}
