// By-value arguments of every scalar width, vectors and a struct.
typedef struct { int a; char b; long c; float d; } pod;

kernel void widths(global long* out, char c, uchar uc, short s, ushort us, int i, uint ui,
                   long l, ulong ul, float f) {
  out[get_global_id(0)] = c + uc + s + us + i + ui + l + ul + (long)f;
}

kernel void vectors(global float4* out, float4 v, int2 w, uchar16 u, pod p) {
  out[get_global_id(0)] = v + (float4)(w.x, w.y, u.s0 + u.sf, p.a + p.b + p.c + p.d);
}
