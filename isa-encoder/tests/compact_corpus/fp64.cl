// Double precision (Gen9 only among our platforms has fp64 in this ocloc).
kernel void fp64(global double* g, global float* f, double s) {
  int i = get_global_id(0);
  double v = g[i];
  g[i] = fma(v, s, 1.0) + sqrt(fabs(v)) - (double)f[i];
  f[i] = (float)(v * 0.5);
}
