// platforms: skl
// double arguments (cl_khr_fp64 is emulated or native depending on the platform).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void scale(global double* out, double factor, float f) {
  out[get_global_id(0)] *= factor * f;
}
