//! CL_MEM_USE_HOST_PTR images, called in process: clCreateImage's errors for them (OpenCL 3.0,
//! 5.3.1), the host-access flags' CL_INVALID_OPERATION on the refused commands, which
//! layouts are zero-copy and which are kept as a device copy, and a kernel reading and writing
//! such images of each type with padded pitches on the default device, the application's
//! memory checked against values worked out here (texel * 3 + coordinates).

use crate::in_process;
use in_process::context;

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use intel_gpu_opencl::api::{image, kernel, memory, program, queue};
use intel_gpu_opencl::core::handle::Handle;
use intel_gpu_opencl::core::image::host::is_mirrored;
use intel_gpu_opencl::core::memory::Mem;
use opencl_sys::*;
use oracles::{require, Oracle};

const R32UI: cl_image_format = cl_image_format {
    image_channel_order: CL_R,
    image_channel_data_type: CL_UNSIGNED_INT32,
};

/// A description of `ty` of width `w`, `h` rows (2D, 2D arrays, 3D) and `n` layers or slices
/// (arrays, 3D), with the given pitches.
fn desc(
    ty: cl_mem_object_type,
    w: usize,
    h: usize,
    n: usize,
    pitches: (usize, usize),
) -> cl_image_desc {
    cl_image_desc {
        image_type: ty,
        image_width: w,
        image_height: h,
        image_depth: n,
        image_array_size: n,
        image_row_pitch: pitches.0,
        image_slice_pitch: pitches.1,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: null_mut(),
    }
}

fn create(
    ctx: cl_context,
    flags: cl_mem_flags,
    d: &cl_image_desc,
    host: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let mut err = 0;
    // SAFETY: valid pointers or deliberate NULLs; `host` holds the image when not NULL.
    let m = unsafe { image::clCreateImage(ctx, flags, &R32UI, d, host, &mut err) };
    assert_eq!(m.is_null(), err != CL_SUCCESS);
    if m.is_null() {
        Err(err)
    } else {
        Ok(m)
    }
}

fn release(m: cl_mem) {
    // SAFETY: an image made here.
    unsafe { memory::clReleaseMemObject(m) };
}

#[test]
fn creation_errors() {
    let (_, ctx) = context();
    let mut host = vec![0u32; 1024];
    let hp = host.as_mut_ptr().cast::<c_void>();
    let d2 = |pitch| desc(CL_MEM_OBJECT_IMAGE2D, 8, 4, 1, (pitch, 0));
    let use_ = CL_MEM_USE_HOST_PTR;
    assert_eq!(
        create(ctx, use_, &d2(0), null_mut()),
        Err(CL_INVALID_HOST_PTR)
    );
    assert_eq!(
        create(ctx, use_ | CL_MEM_COPY_HOST_PTR, &d2(0), hp),
        Err(CL_INVALID_VALUE)
    );
    assert_eq!(
        create(ctx, use_ | CL_MEM_ALLOC_HOST_PTR, &d2(0), hp),
        Err(CL_INVALID_VALUE)
    );
    // Row pitch below width × element size, or not a multiple of the element size.
    assert_eq!(
        create(ctx, use_, &d2(28), hp),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    assert_eq!(
        create(ctx, use_, &d2(34), hp),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    // A 3D slice pitch below the slice, or not a multiple of the row pitch.
    let d3 = |slice| desc(CL_MEM_OBJECT_IMAGE3D, 8, 4, 2, (48, slice));
    assert_eq!(
        create(ctx, use_, &d3(144), hp),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    assert_eq!(
        create(ctx, use_, &d3(200), hp),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    let img = create(ctx, use_, &d3(240), hp).expect("3D image over host memory");
    let h = Handle::<Mem>::get(img).unwrap();
    assert_eq!(h.obj.host_ptr, hp, "CL_MEM_HOST_PTR");
    let mut pitch = [0usize; 2];
    // SAFETY: valid out-pointers.
    unsafe {
        for (i, q) in [CL_IMAGE_ROW_PITCH, CL_IMAGE_SLICE_PITCH]
            .into_iter()
            .enumerate()
        {
            let p = (&mut pitch[i] as *mut usize).cast();
            assert_eq!(image::clGetImageInfo(img, q, 8, p, null_mut()), CL_SUCCESS);
        }
    }
    assert_eq!(pitch, [48, 240], "the application's pitches");
    release(img);
}

/// Zero-copy where the surface state describes the application's layout; a device copy where
/// it does not (base not aligned to the element, layers not a multiple of 4 rows or texels).
#[test]
fn zero_copy_where_the_surface_state_describes_the_layout() {
    let (_, ctx) = context();
    let mut host = vec![0u32; 4096];
    let base = host.as_mut_ptr();
    let cases: [(cl_mem_object_type, (usize, usize), usize, bool); 8] = [
        (CL_MEM_OBJECT_IMAGE2D, (48, 0), 0, false),
        (CL_MEM_OBJECT_IMAGE2D, (36, 0), 0, false),
        // 2 bytes past the element size.
        (CL_MEM_OBJECT_IMAGE2D, (48, 0), 2, true),
        (CL_MEM_OBJECT_IMAGE2D_ARRAY, (48, 48 * 8), 0, false),
        // Layers 5 rows apart: Surface QPitch counts 4 rows.
        (CL_MEM_OBJECT_IMAGE2D_ARRAY, (48, 48 * 5), 0, true),
        (CL_MEM_OBJECT_IMAGE3D, (48, 48 * 4), 0, false),
        // 1D array layers 12 and 10 texels apart (4-texel units).
        (CL_MEM_OBJECT_IMAGE1D_ARRAY, (48, 48), 0, false),
        (CL_MEM_OBJECT_IMAGE1D_ARRAY, (40, 40), 0, true),
    ];
    for (ty, pitches, skew, mirrored) in cases {
        let d = desc(ty, 8, 4, 3, pitches);
        // SAFETY: inside `host`.
        let hp = unsafe { base.cast::<u8>().add(skew) }.cast();
        let img = create(ctx, CL_MEM_USE_HOST_PTR, &d, hp).expect("image over host memory");
        let h = Handle::<Mem>::get(img).unwrap();
        assert_eq!(is_mirrored(&h.obj), mirrored, "{ty:#x} {pitches:?} +{skew}");
        release(img);
    }
}

/// CL_MEM_HOST_NO_ACCESS / READ_ONLY / WRITE_ONLY: reads, writes and maps they forbid fail
/// with CL_INVALID_OPERATION (clEnqueueReadImage, clEnqueueWriteImage, clEnqueueMapImage).
#[test]
fn host_access_flags_refuse_their_commands() {
    let (dev, ctx) = context();
    let mut host = vec![5u32; 64];
    let hp = host.as_mut_ptr().cast::<c_void>();
    let d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, (0, 0));
    let mut err = 0;
    let (origin, region) = ([0usize; 3], [4usize, 4, 1]);
    let mut out = [0u32; 16];
    // SAFETY: valid pointers.
    unsafe {
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        assert_eq!(err, CL_SUCCESS);
        for (host_flag, read_ok, write_ok) in [
            (CL_MEM_HOST_NO_ACCESS, false, false),
            (CL_MEM_HOST_READ_ONLY, true, false),
            (CL_MEM_HOST_WRITE_ONLY, false, true),
            (0, true, true),
        ] {
            for alloc in [CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR] {
                let p = if alloc == CL_MEM_USE_HOST_PTR {
                    hp
                } else {
                    null_mut()
                };
                let img = create(ctx, alloc | host_flag, &d, p).unwrap();
                let read = image::clEnqueueReadImage(
                    q,
                    img,
                    CL_TRUE,
                    origin.as_ptr(),
                    region.as_ptr(),
                    0,
                    0,
                    out.as_mut_ptr().cast(),
                    0,
                    null(),
                    null_mut(),
                );
                let write = image::clEnqueueWriteImage(
                    q,
                    img,
                    CL_TRUE,
                    origin.as_ptr(),
                    region.as_ptr(),
                    0,
                    0,
                    out.as_ptr().cast(),
                    0,
                    null(),
                    null_mut(),
                );
                let want = |ok: bool| if ok { CL_SUCCESS } else { CL_INVALID_OPERATION };
                assert_eq!(read, want(read_ok), "read, flags {host_flag:#x}");
                assert_eq!(write, want(write_ok), "write, flags {host_flag:#x}");
                let mut rp = 0;
                let ptr = image::clEnqueueMapImage(
                    q,
                    img,
                    CL_TRUE,
                    CL_MAP_WRITE,
                    origin.as_ptr(),
                    region.as_ptr(),
                    &mut rp,
                    null_mut(),
                    0,
                    null(),
                    null_mut(),
                    &mut err,
                );
                assert_eq!(err, want(write_ok), "map for writing, flags {host_flag:#x}");
                if !ptr.is_null() {
                    if alloc == CL_MEM_USE_HOST_PTR {
                        assert_eq!(ptr, hp, "a map of host memory points into it");
                        assert_eq!(rp, 16);
                    }
                    let unmap = memory::clEnqueueUnmapMemObject(q, img, ptr, 0, null(), null_mut());
                    assert_eq!(unmap, CL_SUCCESS);
                }
                assert_eq!(queue::clFinish(q), CL_SUCCESS);
                release(img);
            }
        }
        queue::clReleaseCommandQueue(q);
    }
}

const SOURCE: &str = "
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
kernel void op_2da(read_only image2d_array_t a, write_only image2d_array_t b) {
    int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imageui(b, c, read_imageui(a, c) * 3 + (uint4)(c.x + 10 * c.y + 100 * c.z));
}
kernel void op_1da(read_only image1d_array_t a, write_only image1d_array_t b) {
    int2 c = (int2)(get_global_id(0), get_global_id(1));
    write_imageui(b, c, read_imageui(a, c) * 3 + (uint4)(c.x + 100 * c.y));
}
kernel void op_3d(read_only image3d_t a, write_only image3d_t b) {
    int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imageui(b, c, read_imageui(a, c) * 3 + (uint4)(c.x + 10 * c.y + 100 * c.z));
}
kernel void op_2d(read_only image2d_t a, write_only image2d_t b) {
    int2 c = (int2)(get_global_id(0), get_global_id(1));
    write_imageui(b, c, read_imageui(a, c) * 3 + (uint4)(c.x + 10 * c.y));
}
kernel void op_1d(read_only image1d_t a, write_only image1d_t b) {
    int c = get_global_id(0);
    write_imageui(b, c, read_imageui(a, c) * 3 + (uint4)(c));
}
";

/// A kernel reads one CL_MEM_USE_HOST_PTR image and writes another, of each type, zero-copy
/// and as a device copy; after clFinish the host memory holds texel * 3 + x + 10 y + 100
/// slice, and the padding (0xffffffff) is untouched.
#[test]
fn kernels_read_and_write_host_memory() {
    require!(Oracle::Ocloc);
    let (dev, ctx) = context();
    let mut err = 0;
    // SAFETY: valid pointers throughout; the host memory outlives the images.
    unsafe {
        let mut text = SOURCE.as_ptr().cast();
        let len = SOURCE.len();
        let p = program::clCreateProgramWithSource(ctx, 1, &mut text, &len, &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            program::clBuildProgram(p, 1, &dev, null(), None, null_mut()),
            CL_SUCCESS
        );
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        assert_eq!(err, CL_SUCCESS);
        let (w, h, n) = (9usize, 5usize, 3usize);
        // (type, kernel, rows, slices, pitches in texels, skew in bytes, device copy?)
        let cases = [
            (CL_MEM_OBJECT_IMAGE1D, "op_1d", 1, 1, (12, 12), 0, false),
            (CL_MEM_OBJECT_IMAGE1D, "op_1d", 1, 1, (12, 12), 2, true),
            (
                CL_MEM_OBJECT_IMAGE1D_ARRAY,
                "op_1da",
                1,
                n,
                // A slice pitch is a multiple of the row pitch (cl_image_desc).
                (12, 24),
                0,
                false,
            ),
            (
                CL_MEM_OBJECT_IMAGE1D_ARRAY,
                "op_1da",
                1,
                n,
                (11, 11),
                0,
                true,
            ),
            (CL_MEM_OBJECT_IMAGE2D, "op_2d", h, 1, (13, 13 * h), 0, false),
            (CL_MEM_OBJECT_IMAGE2D, "op_2d", h, 1, (13, 13 * h), 2, true),
            (
                CL_MEM_OBJECT_IMAGE2D_ARRAY,
                "op_2da",
                h,
                n,
                (11, 11 * 8),
                0,
                false,
            ),
            (
                CL_MEM_OBJECT_IMAGE2D_ARRAY,
                "op_2da",
                h,
                n,
                (11, 11 * 6),
                0,
                true,
            ),
            (CL_MEM_OBJECT_IMAGE3D, "op_3d", h, n, (10, 10 * 8), 0, false),
            (CL_MEM_OBJECT_IMAGE3D, "op_3d", h, n, (10, 10 * 7), 0, true),
        ];
        for (ty, name, rows, slices, (row, slice), skew, mirrored) in cases {
            let words = slices * slice + 16;
            let texel = |s: usize, y: usize, x: usize| s * slice + y * row + x;
            // One word more than is checked: the skew shifts the checked words that far past it.
            let mut src_mem = vec![u32::MAX; words + 1];
            let mut dst_mem = vec![u32::MAX; words + 1];
            // Bytes from the vectors' starts: the skew moves the image off 4-byte alignment.
            let at = |v: &mut Vec<u32>| v.as_mut_ptr().cast::<u8>().add(skew);
            let mut want = vec![None; words];
            for s in 0..slices {
                for y in 0..rows {
                    for x in 0..w {
                        let v = (7 * x + 13 * y + 29 * s) as u32 % 1000;
                        let i = texel(s, y, x);
                        let c = x + 10 * y + 100 * s;
                        write_word(at(&mut src_mem), i, v);
                        want[i] = Some(v * 3 + c as u32);
                    }
                }
            }
            let d = desc(ty, w, h, n, (row * 4, slice * 4));
            let a = create(
                ctx,
                CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                &d,
                at(&mut src_mem).cast(),
            )
            .unwrap();
            let b = create(
                ctx,
                CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR,
                &d,
                at(&mut dst_mem).cast(),
            )
            .unwrap();
            let what = format!("{name} pitches {row}/{slice} skew {skew}");
            let hb = Handle::<Mem>::get(b).unwrap();
            assert_eq!(is_mirrored(&hb.obj), mirrored, "{what}");
            let cname = std::ffi::CString::new(name).unwrap();
            let k = kernel::clCreateKernel(p, cname.as_ptr(), &mut err);
            assert_eq!(err, CL_SUCCESS, "{what}");
            for (i, m) in [a, b].iter().enumerate() {
                let arg = (m as *const cl_mem).cast();
                let r = kernel::clSetKernelArg(k, i as u32, std::mem::size_of::<cl_mem>(), arg);
                assert_eq!(r, CL_SUCCESS);
            }
            let (dims, global) = match ty {
                CL_MEM_OBJECT_IMAGE1D => (1, [w, 1, 1]),
                CL_MEM_OBJECT_IMAGE1D_ARRAY => (2, [w, n, 1]),
                CL_MEM_OBJECT_IMAGE2D => (2, [w, h, 1]),
                _ => (3, [w, h, n]),
            };
            let r = kernel::clEnqueueNDRangeKernel(
                q,
                k,
                dims,
                null(),
                global.as_ptr(),
                null(),
                0,
                null(),
                null_mut(),
            );
            assert_eq!(r, CL_SUCCESS, "{what}");
            assert_eq!(queue::clFinish(q), CL_SUCCESS, "{what}");
            for (i, want) in want.iter().enumerate() {
                let got = read_word(at(&mut dst_mem), i);
                let want = want.unwrap_or(u32::MAX);
                assert_eq!(got, want, "{what}: word {i} of the host memory");
            }
            kernel::clReleaseKernel(k);
            release(a);
            release(b);
        }
        queue::clReleaseCommandQueue(q);
        program::clReleaseProgram(p);
    }
}

/// Word `i` (4 bytes) from `base`, which need not be aligned.
///
/// # Safety
/// Inside the caller's vector.
unsafe fn read_word(base: *mut u8, i: usize) -> u32 {
    // SAFETY: the caller's promise.
    unsafe { base.add(4 * i).cast::<u32>().read_unaligned() }
}

/// # Safety
/// Inside the caller's vector.
unsafe fn write_word(base: *mut u8, i: usize, v: u32) {
    // SAFETY: the caller's promise.
    unsafe { base.add(4 * i).cast::<u32>().write_unaligned(v) }
}
