// Subgroup block IO on buffers (OWord block messages) and images (media block messages).
__attribute__((intel_reqd_sub_group_size(16)))
kernel void buf_rw(global uint* p, global ushort* s, global uchar* c) {
  uint v = intel_sub_group_block_read(p);
  uint2 w = intel_sub_group_block_read2(p + 64);
  uint4 x = intel_sub_group_block_read4(p + 128);
  intel_sub_group_block_write(p + 512, v + w.x + x.z);
  ushort h = intel_sub_group_block_read_us(s);
  intel_sub_group_block_write_us(s + 256, h + 1);
  uchar b = intel_sub_group_block_read_uc(c);
  intel_sub_group_block_write_uc(c + 512, b ^ 3);
}

__attribute__((intel_reqd_sub_group_size(8)))
kernel void img_rw(read_only image2d_t src, write_only image2d_t dst) {
  int2 coord = (int2)(get_group_id(0) * 32, get_group_id(1));
  uint v = intel_sub_group_block_read(src, coord);
  uint4 w = intel_sub_group_block_read4(src, coord + (int2)(0, 4));
  intel_sub_group_block_write(dst, coord, v + w.y);
  intel_sub_group_block_write4(dst, coord + (int2)(0, 8), w);
}
