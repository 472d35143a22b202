// options: -cl-intel-greater-than-4GB-buffer-required
// Buffers that may exceed 4 GiB are addressed statelessly only (no binding-table entry).
kernel void axpy(global float* y, global const float* x, constant float* a, float b) {
  size_t i = get_global_id(0);
  y[i] = a[0] * x[i] + y[i] + b;
}
