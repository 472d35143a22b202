// Spills past the reach of the scratch block message: a private array of 2,560 uints per
// work-item (80 KiB per SIMD8 thread) sits in the thread's scratch slice first, and the
// spills of sixteen live uint16 values come after it. IGC then spills through stateless OWord
// block messages whose header is a copy of r0 (the slice pointer in DWord 5, the offset in
// OWords in DWord 2) instead of scratch block messages, whose offset reaches only 128 KiB.
// Integer arithmetic wraps, so a CPU reference gives the same bits.
#define FAR 2560
__attribute__((intel_reqd_sub_group_size(8)))
kernel void spill_far(global uint16* data, uint n) {
  size_t g = 16 * get_global_id(0);
  uint16 v0 = data[g], v1 = data[g + 1], v2 = data[g + 2], v3 = data[g + 3];
  uint16 v4 = data[g + 4], v5 = data[g + 5], v6 = data[g + 6], v7 = data[g + 7];
  uint16 w0 = data[g + 8], w1 = data[g + 9], w2 = data[g + 10], w3 = data[g + 11];
  uint16 w4 = data[g + 12], w5 = data[g + 13], w6 = data[g + 14], w7 = data[g + 15];
  uint far[FAR];
  for (uint i = 0; i < FAR; i++) far[i] = v0.s0 * (i + 1);
  for (uint r = 0; r < n; r++) {
    v0 = v0 * w1 + v7; v1 = v1 * w2 + v0; v2 = v2 * w3 + v1; v3 = v3 * w4 + v2;
    v4 = v4 * w5 + v3; v5 = v5 * w6 + v4; v6 = v6 * w7 + v5; v7 = v7 * w0 + v6;
    w0 = w0 * v1 - w7; w1 = w1 * v2 - w0; w2 = w2 * v3 - w1; w3 = w3 * v4 - w2;
    w4 = w4 * v5 - w3; w5 = w5 * v6 - w4; w6 = w6 * v7 - w5; w7 = w7 * v0 - w6;
    far[v3.s5 % FAR] += w2.s7;
  }
  uint acc = 0;
  for (uint i = 0; i < FAR; i++) acc = acc * 31 + far[i];
  data[g] = v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7;
  data[g + 1] = w0 + w1 + w2 + w3 + w4 + w5 + w6 + w7;
  uint16 o = data[g + 2];
  o.s0 = acc;
  data[g + 2] = o;
}
