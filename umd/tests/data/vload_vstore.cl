// vloadn/vstoren at every element offset: OpenCL C needs the pointer aligned to the scalar
// type only, so char data may start at any byte. IGC lowers the 2- and 4-byte pieces to byte
// scattered messages (HDC) or LSC d16u32/d32 accesses at byte addresses.
#define COPY(T, N)                                                        \
    kernel void copy_##T##N(global const T *a, global T *b, uint off) {   \
        size_t i = get_global_id(0);                                      \
        vstore##N(vload##N(i, a + off) ^ (T##N)((T)0x5a), i, b + off);    \
    }
#define WIDTHS(T) COPY(T, 2) COPY(T, 3) COPY(T, 4) COPY(T, 8) COPY(T, 16)
WIDTHS(char)
WIDTHS(uchar)
WIDTHS(short)
WIDTHS(ushort)
WIDTHS(int)
