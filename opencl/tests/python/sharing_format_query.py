"""Why cl_intel_sharing_format_query is not listed here. The extension adds one query function per
interop extension, each existing only "if" that sharing extension is supported (its text:
clGetSupportedGLTextureFormatsINTEL with cl_khr_gl_sharing, ...VA_APIMediaSurfaceFormatsINTEL
with cl_intel_va_api_media_sharing, the DX9/D3D10/D3D11 ones on Windows), and each takes a
context created for that sharing (CL_INVALID_CONTEXT otherwise). This ICD has no GL, VA-API or
Direct3D sharing, so the extension would have no function at all.

NEO 22.43 on Linux lists it beside cl_intel_va_api_media_sharing (it has libva);
clGetSupportedVA_APIMediaSurfaceFormatsINTEL is its one function there, and without a VA display
in the context it answers CL_INVALID_CONTEXT with *num_surface_formats 0; it has no GL sharing
on Linux, so clGetSupportedGLTextureFormatsINTEL is not found. Here: none of the extensions is
listed and no function is found.

Prints one line per check; exits non-zero when any fails. Argument `neo`: the answers are NEO's."""

import ctypes as C
import sys

import pyopencl as cl
from checks import check, finish

CL = C.CDLL("libOpenCL.so.1")
CL.clGetExtensionFunctionAddressForPlatform.restype = C.c_void_p
CL.clGetExtensionFunctionAddressForPlatform.argtypes = [C.c_void_p, C.c_char_p]
CL_INVALID_CONTEXT = -34
CL_MEM_READ_ONLY = 1 << 2
CL_MEM_OBJECT_IMAGE2D = 0x10F1
QUERIES = [
    "clGetSupportedGLTextureFormatsINTEL",
    "clGetSupportedVA_APIMediaSurfaceFormatsINTEL",
    "clGetSupportedDX9MediaSurfaceFormatsINTEL",
    "clGetSupportedD3D10TextureFormatsINTEL",
    "clGetSupportedD3D11TextureFormatsINTEL",
]


def main():
    neo = "neo" in sys.argv[1:]
    platform = cl.get_platforms()[0]
    dev = platform.get_devices()[0]
    exts = dev.extensions.split() + platform.extensions.split()
    for name in ("cl_intel_sharing_format_query", "cl_intel_va_api_media_sharing"):
        check((name in exts) == neo, f"{name} {'listed' if neo else 'not listed'}")
    for name in ("cl_khr_gl_sharing", "cl_khr_dx9_media_sharing", "cl_khr_d3d10_sharing",
                 "cl_khr_d3d11_sharing", "cl_intel_dx9_media_sharing"):
        check(name not in exts, f"{name} not listed")
    found = {q: CL.clGetExtensionFunctionAddressForPlatform(platform.int_ptr, q.encode())
             for q in QUERIES}
    for q, addr in found.items():
        want = neo and q == "clGetSupportedVA_APIMediaSurfaceFormatsINTEL"
        check(bool(addr) == want, f"{q} {'found' if want else 'not found'}")
    va = found["clGetSupportedVA_APIMediaSurfaceFormatsINTEL"]
    if va:
        f = C.CFUNCTYPE(C.c_int32, C.c_void_p, C.c_uint64, C.c_uint32, C.c_uint32, C.c_uint32,
                        C.c_void_p, C.POINTER(C.c_uint32))(va)
        ctx = cl.Context([dev])
        n = C.c_uint32(99)
        err = f(ctx.int_ptr, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, 0, None, C.byref(n))
        check(err == CL_INVALID_CONTEXT and n.value == 0,
              "a context without a VA display: CL_INVALID_CONTEXT, no formats", (err, n.value))
    finish()


main()
