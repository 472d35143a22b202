// Images and samplers.
kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  float4 v = read_imagef(src, s, c) + read_imagef(src, s, c + (int2)(1, 0));
  write_imagef(dst, c, v * 0.5f + (float)get_image_width(src) + (float)get_image_height(dst));
}

kernel void fill(write_only image2d_t dst, uint v) {
  write_imageui(dst, (int2)(get_global_id(0), get_global_id(1)), (uint4)(v));
}
