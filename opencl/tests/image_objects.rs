//! Image objects, called in process: the errors OpenCL 3.0 gives clCreateImage (and
//! clCreateImage2D/3D), clGetImageInfo and clSetKernelArg for image arguments, then an image
//! made with CL_MEM_COPY_HOST_PTR read by `read_imagef` through nearest and linear samplers
//! on the default device, against values worked out here from the texels.

use crate::in_process;
use in_process::context;

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use intel_gpu_opencl::api::{context, device, image, kernel, memory, program, queue, sampler};
use intel_gpu_opencl::core::handle::Handle;
use intel_gpu_opencl::core::image::{self as image_core, check_desc, format_of};
use intel_gpu_opencl::core::sampler::{self as sampler_core, describe};
use opencl_sys::*;
use oracles::{require, Oracle};
use umd::image::ImageFormat;

fn bogus() -> *mut c_void {
    static JUNK: [u64; 8] = [0x55; 8];
    JUNK.as_ptr() as *mut c_void
}

const RGBA_FLOAT: cl_image_format = cl_image_format {
    image_channel_order: CL_RGBA,
    image_channel_data_type: CL_FLOAT,
};

fn desc2d(w: usize, h: usize, row_pitch: usize) -> cl_image_desc {
    cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE2D,
        image_width: w,
        image_height: h,
        image_depth: 0,
        image_array_size: 0,
        image_row_pitch: row_pitch,
        image_slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: null_mut(),
    }
}

fn create(
    ctx: cl_context,
    flags: cl_mem_flags,
    f: *const cl_image_format,
    d: *const cl_image_desc,
    host: *mut c_void,
) -> cl_int {
    let mut err = 0;
    // SAFETY: valid pointers or deliberate NULLs.
    let m = unsafe { image::clCreateImage(ctx, flags, f, d, host, &mut err) };
    assert_eq!(m.is_null(), err != CL_SUCCESS);
    if !m.is_null() {
        // SAFETY: the image just made.
        unsafe { memory::clReleaseMemObject(m) };
    }
    err
}

#[test]
fn formats_follow_the_specifications_tables() {
    let f = |o, t| {
        format_of(Some(&cl_image_format {
            image_channel_order: o,
            image_channel_data_type: t,
        }))
    };
    assert_eq!(format_of(None), Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR));
    // CL_RGB only with the packed types; the packed types only with CL_RGB/CL_RGBx.
    assert_eq!(
        f(CL_RGB, CL_UNORM_INT8),
        Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    );
    assert_eq!(
        f(CL_RGBA, CL_UNORM_SHORT_565),
        Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    );
    // sRGB orders take CL_UNORM_INT8 only; CL_BGRA 8-bit types only.
    assert_eq!(
        f(CL_sRGBA, CL_FLOAT),
        Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    );
    assert_eq!(
        f(CL_BGRA, CL_FLOAT),
        Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    );
    assert_eq!(f(0x10A0, CL_FLOAT), Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR));
    // A format of the tables that is outside OpenCL 3.0's minimum list umd implements.
    assert_eq!(
        f(CL_RGB, CL_UNORM_SHORT_565),
        Err(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    );
    assert_eq!(
        f(CL_RGBA, CL_FLOAT),
        Ok(ImageFormat::from_cl(CL_RGBA, CL_FLOAT).unwrap())
    );
    assert!(f(CL_BGRA, CL_UNORM_INT8).is_ok());
    assert!(f(CL_R, CL_UNSIGNED_INT16).is_ok());
}

#[test]
fn descriptions_follow_the_specification() {
    let d = desc2d(4, 2, 0);
    let ok = check_desc(Some(&d), 16, false).unwrap();
    assert_eq!(
        (ok.desc.width, ok.desc.height, ok.host_row_pitch),
        (4, 2, 64)
    );
    let bad = |d: cl_image_desc, host: bool| check_desc(Some(&d), 16, host).err();
    assert_eq!(
        check_desc(None, 16, false).err(),
        Some(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    assert_eq!(
        bad(desc2d(0, 2, 0), false),
        Some(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    assert_eq!(
        bad(desc2d(4, 0, 0), false),
        Some(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    assert_eq!(bad(desc2d(16385, 1, 0), false), Some(CL_INVALID_IMAGE_SIZE));
    assert_eq!(
        bad(
            cl_image_desc {
                image_type: CL_MEM_OBJECT_BUFFER,
                ..d
            },
            false
        ),
        Some(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    assert_eq!(
        bad(
            cl_image_desc {
                num_samples: 1,
                ..d
            },
            false
        ),
        Some(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    // A row pitch without a host pointer; one below the row or not a multiple of the element.
    assert_eq!(
        bad(desc2d(4, 2, 64), false),
        Some(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    assert_eq!(
        bad(desc2d(4, 2, 48), true),
        Some(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    assert_eq!(
        bad(desc2d(4, 2, 72), true),
        Some(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    assert_eq!(
        check_desc(Some(&desc2d(4, 2, 80)), 16, true)
            .unwrap()
            .host_row_pitch,
        80
    );
    // 3D: a slice pitch below row pitch × height.
    let d3 = cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE3D,
        image_depth: 3,
        image_slice_pitch: 64,
        ..desc2d(4, 2, 64)
    };
    assert_eq!(bad(d3, true), Some(CL_INVALID_IMAGE_DESCRIPTOR));
    let d3 = cl_image_desc {
        image_slice_pitch: 192,
        ..d3
    };
    assert_eq!(check_desc(Some(&d3), 16, true).unwrap().desc.depth, 3);
    // The 1D array's height is ignored; its layers count.
    let a1 = cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE1D_ARRAY,
        image_height: 0,
        image_array_size: 5,
        ..desc2d(4, 0, 0)
    };
    let c = check_desc(Some(&a1), 16, false).unwrap();
    assert_eq!((c.desc.height, c.desc.array_size), (1, 5));
    // image1d_buffer needs a buffer (the rest: tests/image_buffers.rs).
    let b1 = cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE1D_BUFFER,
        ..a1
    };
    assert_eq!(bad(b1, false), Some(CL_INVALID_IMAGE_DESCRIPTOR));
}

#[test]
fn create_image_errors() {
    let (_dev, ctx) = context();
    let d = desc2d(4, 2, 0);
    let mut host = [0f32; 32];
    let hp = host.as_mut_ptr().cast();
    assert_eq!(
        create(bogus(), 0, &RGBA_FLOAT, &d, null_mut()),
        CL_INVALID_CONTEXT
    );
    assert_eq!(
        create(
            ctx,
            CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
            &RGBA_FLOAT,
            &d,
            null_mut()
        ),
        CL_INVALID_VALUE
    );
    assert_eq!(
        create(ctx, 0, null(), &d, null_mut()),
        CL_INVALID_IMAGE_FORMAT_DESCRIPTOR
    );
    assert_eq!(
        create(ctx, 0, &RGBA_FLOAT, null(), null_mut()),
        CL_INVALID_IMAGE_DESCRIPTOR
    );
    assert_eq!(
        create(ctx, CL_MEM_COPY_HOST_PTR, &RGBA_FLOAT, &d, null_mut()),
        CL_INVALID_HOST_PTR
    );
    assert_eq!(create(ctx, 0, &RGBA_FLOAT, &d, hp), CL_INVALID_HOST_PTR);
    // Well-formed: refused while no device of the context supports images.
    let mut images: cl_bool = 0;
    let (dev, _) = (_dev, ());
    // SAFETY: valid out-pointer.
    unsafe {
        device::clGetDeviceInfo(
            dev,
            CL_DEVICE_IMAGE_SUPPORT,
            4,
            (&mut images as *mut cl_bool).cast(),
            null_mut(),
        );
    }
    let want = if images == CL_TRUE {
        CL_SUCCESS
    } else {
        CL_INVALID_OPERATION
    };
    assert_eq!(create(ctx, CL_MEM_COPY_HOST_PTR, &RGBA_FLOAT, &d, hp), want);
    let mut err = 0;
    // SAFETY: valid pointers.
    unsafe {
        let m = image::clCreateImage2D(ctx, 0, &RGBA_FLOAT, 0, 2, 0, null_mut(), &mut err);
        assert!(m.is_null());
        assert_eq!(err, CL_INVALID_IMAGE_SIZE);
        let m = image::clCreateImage3D(ctx, 0, &RGBA_FLOAT, 4, 2, 0, 0, 0, null_mut(), &mut err);
        assert!(m.is_null());
        assert_eq!(err, CL_INVALID_IMAGE_SIZE);
        let mut v = 0usize;
        assert_eq!(
            image::clGetImageInfo(
                bogus(),
                CL_IMAGE_WIDTH,
                8,
                (&mut v as *mut usize).cast(),
                null_mut()
            ),
            CL_INVALID_MEM_OBJECT
        );
        let buf = memory::clCreateBuffer(ctx, 0, 64, null_mut(), &mut err);
        assert_eq!(
            image::clGetImageInfo(
                buf,
                CL_IMAGE_WIDTH,
                8,
                (&mut v as *mut usize).cast(),
                null_mut()
            ),
            CL_INVALID_MEM_OBJECT
        );
        memory::clReleaseMemObject(buf);
        context::clReleaseContext(ctx);
    }
}

fn size_info(m: cl_mem, name: cl_image_info) -> usize {
    let mut v = 0usize;
    // SAFETY: a size_t out-pointer.
    let e = unsafe { image::clGetImageInfo(m, name, 8, (&mut v as *mut usize).cast(), null_mut()) };
    assert_eq!(e, CL_SUCCESS);
    v
}

/// Texel (x, y) channel c of the test image.
fn texel(x: usize, y: usize, c: usize) -> f32 {
    (x * 10 + y * 100 + c) as f32
}

/// A 4×2 CL_RGBA/CL_FLOAT image from a host array with padded rows, its queries, and
/// `read_imagef` through nearest and linear samplers with CL_ADDRESS_CLAMP (border colour
/// (0,0,0,0) for CL_RGBA) and unnormalized coordinates (texel centres at +0.5).
#[test]
fn image_kernel_arguments_and_sampling() {
    require!(Oracle::Ocloc);
    let (dev, ctx) = context();
    let (w, h, pitch_floats) = (4usize, 2usize, 20usize);
    let mut host = vec![-1f32; pitch_floats * h];
    for y in 0..h {
        for x in 0..w {
            for c in 0..4 {
                host[y * pitch_floats + x * 4 + c] = texel(x, y, c);
            }
        }
    }
    let d = desc2d(w, h, pitch_floats * 4);
    let f = format_of(Some(&RGBA_FLOAT)).unwrap();
    let checked = check_desc(Some(&d), 16, true).unwrap();
    let c = Handle::get(ctx).unwrap();
    // SAFETY: host holds the image at the checked pitches.
    let img = unsafe {
        image_core::create(
            c,
            Vec::new(),
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            f,
            &checked,
            host.as_mut_ptr().cast(),
        )
    }
    .unwrap();
    assert_eq!(size_info(img, CL_IMAGE_WIDTH), 4);
    assert_eq!(size_info(img, CL_IMAGE_HEIGHT), 2);
    assert_eq!(size_info(img, CL_IMAGE_DEPTH), 0);
    assert_eq!(size_info(img, CL_IMAGE_ARRAY_SIZE), 0);
    assert_eq!(size_info(img, CL_IMAGE_ELEMENT_SIZE), 16);
    // The row pitch the image was made with (OpenCL 3.0: the application's, when given).
    assert_eq!(size_info(img, CL_IMAGE_ROW_PITCH), pitch_floats * 4);
    assert_eq!(size_info(img, CL_IMAGE_SLICE_PITCH), 0);
    let mut fmt = [0u32; 2];
    let mut ty = 0u32;
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(
            image::clGetImageInfo(img, CL_IMAGE_FORMAT, 8, fmt.as_mut_ptr().cast(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            memory::clGetMemObjectInfo(
                img,
                CL_MEM_TYPE,
                4,
                (&mut ty as *mut u32).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
    }
    assert_eq!(fmt, [CL_RGBA, CL_FLOAT]);
    assert_eq!(ty, CL_MEM_OBJECT_IMAGE2D);

    // Points: (x, y) unnormalized.
    let coords: [[f32; 2]; 6] = [
        [1.5, 0.5],
        [3.7, 1.2],
        [-2.0, 0.5],
        [1.0, 0.5],
        [2.0, 1.0],
        [0.0, 0.5],
    ];
    let src = c"kernel void k(read_only image2d_t img, sampler_t s, global float4 *o, global const float2 *c) { int i = get_global_id(0); o[i] = read_imagef(img, s, c[i]); }";
    let mut err = 0;
    // SAFETY: valid pointers throughout; the wrong arguments are deliberate.
    unsafe {
        let mut text = src.as_ptr();
        let p = program::clCreateProgramWithSource(ctx, 1, &mut text, null(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            program::clBuildProgram(p, 1, &dev, null(), None, null_mut()),
            CL_SUCCESS
        );
        let k = kernel::clCreateKernel(p, c"k".as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let ps = std::mem::size_of::<cl_mem>();
        let out = memory::clCreateBuffer(ctx, 0, 16 * coords.len(), null_mut(), &mut err);
        let cb = memory::clCreateBuffer(
            ctx,
            CL_MEM_COPY_HOST_PTR,
            8 * coords.len(),
            coords.as_ptr() as *mut c_void,
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        // A buffer where the image goes, the image where a buffer goes, a wrong size.
        assert_eq!(
            kernel::clSetKernelArg(k, 0, ps, (&out as *const cl_mem).cast()),
            CL_INVALID_MEM_OBJECT
        );
        assert_eq!(
            kernel::clSetKernelArg(k, 2, ps, (&img as *const cl_mem).cast()),
            CL_INVALID_MEM_OBJECT
        );
        assert_eq!(
            kernel::clSetKernelArg(k, 0, 4, (&img as *const cl_mem).cast()),
            CL_INVALID_ARG_SIZE
        );
        assert_eq!(
            kernel::clSetKernelArg(k, 0, ps, (&img as *const cl_mem).cast()),
            CL_SUCCESS
        );
        assert_eq!(
            kernel::clSetKernelArg(k, 2, ps, (&out as *const cl_mem).cast()),
            CL_SUCCESS
        );
        assert_eq!(
            kernel::clSetKernelArg(k, 3, ps, (&cb as *const cl_mem).cast()),
            CL_SUCCESS
        );
        // A buffer command on an image.
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        let mut junk = [0u8; 16];
        assert_eq!(
            memory::clEnqueueReadBuffer(
                q,
                img,
                CL_TRUE,
                0,
                16,
                junk.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_INVALID_MEM_OBJECT
        );
        let border = |x: i64, y: i64, ch: usize| {
            if (0..w as i64).contains(&x) && (0..h as i64).contains(&y) {
                texel(x as usize, y as usize, ch)
            } else {
                0.0
            }
        };
        for filter in [CL_FILTER_NEAREST, CL_FILTER_LINEAR] {
            let smp = describe(CL_FALSE, CL_ADDRESS_CLAMP, filter).unwrap();
            let s = sampler_core::create(Handle::get(ctx).unwrap(), smp, Vec::new());
            assert_eq!(
                kernel::clSetKernelArg(k, 1, ps, (&s as *const cl_sampler).cast()),
                CL_SUCCESS
            );
            let global = coords.len();
            assert_eq!(
                kernel::clEnqueueNDRangeKernel(
                    q,
                    k,
                    1,
                    null(),
                    &global,
                    null(),
                    0,
                    null(),
                    null_mut()
                ),
                CL_SUCCESS
            );
            let mut got = vec![0f32; 4 * coords.len()];
            assert_eq!(
                memory::clEnqueueReadBuffer(
                    q,
                    out,
                    CL_TRUE,
                    0,
                    16 * coords.len(),
                    got.as_mut_ptr().cast(),
                    0,
                    null(),
                    null_mut()
                ),
                CL_SUCCESS
            );
            for (i, [x, y]) in coords.iter().enumerate() {
                for ch in 0..4 {
                    let want = if filter == CL_FILTER_NEAREST {
                        border(x.floor() as i64, y.floor() as i64, ch)
                    } else {
                        // OpenCL 3.0's bilinear rule: i0 = floor(u - 0.5), a = frac(u - 0.5).
                        let (u, v) = (x - 0.5, y - 0.5);
                        let (i0, j0) = (u.floor() as i64, v.floor() as i64);
                        let (a, b) = (u - u.floor(), v - v.floor());
                        (1.0 - a) * (1.0 - b) * border(i0, j0, ch)
                            + a * (1.0 - b) * border(i0 + 1, j0, ch)
                            + (1.0 - a) * b * border(i0, j0 + 1, ch)
                            + a * b * border(i0 + 1, j0 + 1, ch)
                    };
                    let g = got[i * 4 + ch];
                    // The sampler interpolates with 8-bit sub-texel weights (as the hardware
                    // does): off by up to 1/256 of the largest texel for fractions that are
                    // not multiples of 1/256.
                    let tol = if filter == CL_FILTER_NEAREST {
                        1e-4
                    } else {
                        134.0 / 256.0
                    };
                    assert!(
                        (g - want).abs() <= tol,
                        "filter {filter:#x} at ({x}, {y}) channel {ch}: got {g}, want {want}"
                    );
                }
            }
            sampler::clReleaseSampler(s);
        }
        memory::clReleaseMemObject(img);
    }
}

/// clEnqueueWriteImage of a region with padded host pitches into a 3D image, read back whole
/// (packed) with clEnqueueReadImage; and the commands' errors.
#[test]
fn read_and_write_image_regions() {
    let (dev, ctx) = context();
    let r32ui = cl_image_format {
        image_channel_order: CL_R,
        image_channel_data_type: CL_UNSIGNED_INT32,
    };
    let d = cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE3D,
        image_depth: 2,
        ..desc2d(5, 3, 0)
    };
    let f = format_of(Some(&r32ui)).unwrap();
    let checked = check_desc(Some(&d), 4, false).unwrap();
    // SAFETY: no host pointer.
    let img = unsafe {
        image_core::create(
            Handle::get(ctx).unwrap(),
            Vec::new(),
            0,
            f,
            &checked,
            null_mut(),
        )
    }
    .unwrap();
    let mut err = 0;
    // Host rows of 4 texels (one of padding), slices of 3 rows (one of padding).
    let (row_pitch, slice_pitch) = (16usize, 48usize);
    let host: Vec<u32> = (0..24).map(|i| 1000 + i).collect();
    let origin = [1usize, 1, 0];
    let reg = [3usize, 2, 2];
    // SAFETY: valid pointers; the wrong arguments are deliberate.
    unsafe {
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        assert_eq!(err, CL_SUCCESS);
        let hp = host.as_ptr().cast();
        let w = |o: *const usize, r: *const usize, rp: usize, p: *const c_void| {
            image::clEnqueueWriteImage(
                q,
                img,
                CL_TRUE,
                o,
                r,
                rp,
                slice_pitch,
                p,
                0,
                null(),
                null_mut(),
            )
        };
        assert_eq!(w(null(), reg.as_ptr(), row_pitch, hp), CL_INVALID_VALUE);
        assert_eq!(
            w(origin.as_ptr(), [3usize, 3, 2].as_ptr(), row_pitch, hp),
            CL_INVALID_VALUE
        );
        assert_eq!(
            w(origin.as_ptr(), [3usize, 2, 0].as_ptr(), row_pitch, hp),
            CL_INVALID_VALUE
        );
        assert_eq!(w(origin.as_ptr(), reg.as_ptr(), 8, hp), CL_INVALID_VALUE);
        assert_eq!(
            w(origin.as_ptr(), reg.as_ptr(), row_pitch, null()),
            CL_INVALID_VALUE
        );
        let buf = memory::clCreateBuffer(ctx, 0, 64, null_mut(), &mut err);
        assert_eq!(
            image::clEnqueueWriteImage(
                q,
                buf,
                CL_TRUE,
                origin.as_ptr(),
                reg.as_ptr(),
                0,
                0,
                hp,
                0,
                null(),
                null_mut()
            ),
            CL_INVALID_MEM_OBJECT
        );
        assert_eq!(w(origin.as_ptr(), reg.as_ptr(), row_pitch, hp), CL_SUCCESS);
        let mut back = vec![0u32; 5 * 3 * 2];
        assert_eq!(
            image::clEnqueueReadImage(
                q,
                img,
                CL_TRUE,
                [0usize; 3].as_ptr(),
                [5usize, 3, 2].as_ptr(),
                0,
                0,
                back.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        for z in 0..2 {
            for y in 0..3 {
                for x in 0..5 {
                    let inside = (1..4).contains(&x) && (1..3).contains(&y);
                    let want = if inside {
                        host[z * slice_pitch / 4 + (y - 1) * row_pitch / 4 + (x - 1)]
                    } else {
                        0
                    };
                    assert_eq!(back[z * 15 + y * 5 + x], want, "texel ({x}, {y}, {z})");
                }
            }
        }
        // A 2D read of a 3D image's region with its third coordinate: one slice, padded rows.
        let mut one = vec![7u32; 2 * 6];
        assert_eq!(
            image::clEnqueueReadImage(
                q,
                img,
                CL_TRUE,
                [2usize, 1, 1].as_ptr(),
                [2usize, 2, 1].as_ptr(),
                24,
                0,
                one.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(&one[0..2], &host[12 + 1..12 + 3]);
        assert_eq!(&one[2..6], &[7; 4]);
        assert_eq!(&one[6..8], &host[12 + 4 + 1..12 + 4 + 3]);
        memory::clReleaseMemObject(buf);
        memory::clReleaseMemObject(img);
    }
}

/// clEnqueueCopyImage (3D → 2D), clEnqueueCopyImageToBuffer and clEnqueueCopyBufferToImage
/// against the texels written, and their errors.
#[test]
fn copies_between_images_and_buffers() {
    let (dev, ctx) = context();
    let r32ui = cl_image_format {
        image_channel_order: CL_R,
        image_channel_data_type: CL_UNSIGNED_INT32,
    };
    let f = format_of(Some(&r32ui)).unwrap();
    let make = |d: cl_image_desc, host: &mut [u32]| {
        let checked = check_desc(Some(&d), 4, true).unwrap();
        // SAFETY: host holds the image packed.
        unsafe {
            image_core::create(
                Handle::get(ctx).unwrap(),
                Vec::new(),
                CL_MEM_COPY_HOST_PTR,
                f,
                &checked,
                host.as_mut_ptr().cast(),
            )
        }
        .unwrap()
    };
    // A 4×3×2 3D image of texel (x, y, z) = 100z + 10y + x, and an empty 3×2 2D image.
    let mut t3: Vec<u32> = (0..24)
        .map(|i| (i / 12) * 100 + (i % 12 / 4) * 10 + i % 4)
        .collect();
    let a = make(
        cl_image_desc {
            image_type: CL_MEM_OBJECT_IMAGE3D,
            image_depth: 2,
            ..desc2d(4, 3, 0)
        },
        &mut t3,
    );
    let mut t2 = vec![0u32; 6];
    let b = make(desc2d(3, 2, 0), &mut t2);
    let rgba = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_UNSIGNED_INT8,
    };
    let fr = format_of(Some(&rgba)).unwrap();
    let cr = check_desc(Some(&desc2d(3, 2, 0)), 4, false).unwrap();
    // SAFETY: no host pointer.
    let other = unsafe {
        image_core::create(
            Handle::get(ctx).unwrap(),
            Vec::new(),
            0,
            fr,
            &cr,
            null_mut(),
        )
    }
    .unwrap();
    let mut err = 0;
    // SAFETY: valid pointers; the wrong arguments are deliberate.
    unsafe {
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        let copy = |s, d, so: [usize; 3], dor: [usize; 3], r: [usize; 3]| {
            image::clEnqueueCopyImage(
                q,
                s,
                d,
                so.as_ptr(),
                dor.as_ptr(),
                r.as_ptr(),
                0,
                null(),
                null_mut(),
            )
        };
        assert_eq!(
            copy(a, other, [0; 3], [0; 3], [3, 2, 1]),
            CL_IMAGE_FORMAT_MISMATCH
        );
        assert_eq!(
            copy(a, a, [0, 0, 0], [1, 1, 0], [2, 2, 1]),
            CL_MEM_COPY_OVERLAP
        );
        assert_eq!(
            copy(a, b, [1, 1, 1], [0, 0, 0], [3, 2, 2]),
            CL_INVALID_VALUE
        );
        assert_eq!(copy(a, b, [1, 1, 1], [0, 0, 0], [3, 2, 1]), CL_SUCCESS);
        let mut back = [0u32; 6];
        assert_eq!(
            image::clEnqueueReadImage(
                q,
                b,
                CL_TRUE,
                [0usize; 3].as_ptr(),
                [3usize, 2, 1].as_ptr(),
                0,
                0,
                back.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(back, [111, 112, 113, 121, 122, 123]);
        // Image → buffer at an offset, buffer → image.
        let buf = memory::clCreateBuffer(ctx, 0, 64, null_mut(), &mut err);
        let o = [0usize, 2, 0];
        let r = [4usize, 1, 2];
        assert_eq!(
            image::clEnqueueCopyImageToBuffer(
                q,
                a,
                buf,
                o.as_ptr(),
                r.as_ptr(),
                60,
                0,
                null(),
                null_mut()
            ),
            CL_INVALID_VALUE
        );
        assert_eq!(
            image::clEnqueueCopyImageToBuffer(
                q,
                buf,
                buf,
                o.as_ptr(),
                r.as_ptr(),
                0,
                0,
                null(),
                null_mut()
            ),
            CL_INVALID_MEM_OBJECT
        );
        assert_eq!(
            image::clEnqueueCopyImageToBuffer(
                q,
                a,
                buf,
                o.as_ptr(),
                r.as_ptr(),
                8,
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let mut words = [0u32; 16];
        assert_eq!(
            memory::clEnqueueReadBuffer(
                q,
                buf,
                CL_TRUE,
                0,
                64,
                words.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(&words[2..10], &[20, 21, 22, 23, 120, 121, 122, 123]);
        assert_eq!(
            image::clEnqueueCopyBufferToImage(
                q,
                buf,
                b,
                8,
                [0usize, 1, 0].as_ptr(),
                [3usize, 1, 1].as_ptr(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(
            image::clEnqueueReadImage(
                q,
                b,
                CL_TRUE,
                [0usize; 3].as_ptr(),
                [3usize, 2, 1].as_ptr(),
                0,
                0,
                back.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(back, [111, 112, 113, 20, 21, 22]);
        for m in [a, b, other, buf] {
            memory::clReleaseMemObject(m);
        }
    }
}

/// clEnqueueMapImage of a 2D region for reading and writing, the pitch it reports, a change
/// written back by clEnqueueUnmapMemObject, and the map's errors.
#[test]
fn map_and_unmap_an_image_region() {
    let (dev, ctx) = context();
    let r32ui = cl_image_format {
        image_channel_order: CL_R,
        image_channel_data_type: CL_UNSIGNED_INT32,
    };
    let f = format_of(Some(&r32ui)).unwrap();
    let checked = check_desc(Some(&desc2d(4, 3, 0)), 4, true).unwrap();
    let mut host: Vec<u32> = (0..12).collect();
    // SAFETY: host holds the image packed.
    let img = unsafe {
        image_core::create(
            Handle::get(ctx).unwrap(),
            Vec::new(),
            CL_MEM_COPY_HOST_PTR,
            f,
            &checked,
            host.as_mut_ptr().cast(),
        )
    }
    .unwrap();
    let mut err = 0;
    // SAFETY: valid pointers; the wrong arguments are deliberate.
    unsafe {
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        let (o, r) = ([1usize, 1, 0], [2usize, 2, 1]);
        let mut row_pitch = 0usize;
        let p = image::clEnqueueMapImage(
            q,
            img,
            CL_TRUE,
            CL_MAP_READ,
            o.as_ptr(),
            r.as_ptr(),
            null_mut(),
            null_mut(),
            0,
            null(),
            null_mut(),
            &mut err,
        );
        assert!(p.is_null());
        assert_eq!(err, CL_INVALID_VALUE);
        image::clEnqueueMapImage(
            q,
            img,
            CL_TRUE,
            CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
            o.as_ptr(),
            r.as_ptr(),
            &mut row_pitch,
            null_mut(),
            0,
            null(),
            null_mut(),
            &mut err,
        );
        assert_eq!(err, CL_INVALID_VALUE);
        let p = image::clEnqueueMapImage(
            q,
            img,
            CL_TRUE,
            CL_MAP_READ | CL_MAP_WRITE,
            o.as_ptr(),
            r.as_ptr(),
            &mut row_pitch,
            null_mut(),
            0,
            null(),
            null_mut(),
            &mut err,
        );
        assert_eq!(err, CL_SUCCESS);
        assert!(row_pitch >= 8);
        let at = |x: usize, y: usize| (p as *mut u8).add(y * row_pitch + x * 4) as *mut u32;
        assert_eq!([*at(0, 0), *at(1, 0), *at(0, 1), *at(1, 1)], [5, 6, 9, 10]);
        *at(1, 1) = 77;
        assert_eq!(
            memory::clEnqueueUnmapMemObject(q, img, p, 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            memory::clEnqueueUnmapMemObject(q, img, p, 0, null(), null_mut()),
            CL_INVALID_VALUE
        );
        let mut back = [0u32; 12];
        assert_eq!(
            image::clEnqueueReadImage(
                q,
                img,
                CL_TRUE,
                [0usize; 3].as_ptr(),
                [4usize, 3, 1].as_ptr(),
                0,
                0,
                back.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        host[10] = 77;
        assert_eq!(back.to_vec(), host);
        memory::clReleaseMemObject(img);
    }
}

fn color_f(v: [f32; 4]) -> [u8; 16] {
    let mut c = [0u8; 16];
    for (i, x) in v.iter().enumerate() {
        c[4 * i..4 * i + 4].copy_from_slice(&x.to_ne_bytes());
    }
    c
}

/// The fill colour's conversion (OpenCL 3.0 conversion rules) and clEnqueueFillImage of a
/// region, read back.
#[test]
fn fill_image_converts_the_colour_and_fills_the_region() {
    let fmt = |o, t| {
        format_of(Some(&cl_image_format {
            image_channel_order: o,
            image_channel_data_type: t,
        }))
        .unwrap()
    };
    // 0.5 × 255 = 127.5 rounds to even 128; 0.25 × 255 = 63.75 → 64; clamped 1.2 → 255, -0.3 → 0.
    let c = color_f([0.5, 1.2, -0.3, 0.25]);
    assert_eq!(
        image_core::fill_texel(fmt(CL_RGBA, CL_UNORM_INT8), c),
        [128, 255, 0, 64]
    );
    assert_eq!(
        image_core::fill_texel(fmt(CL_BGRA, CL_UNORM_INT8), c),
        [0, 255, 128, 64]
    );
    // snorm: -0.3 × 127 = -38.1 → -38.
    assert_eq!(
        image_core::fill_texel(fmt(CL_RG, CL_SNORM_INT8), c),
        [64, 127]
    );
    assert_eq!(
        image_core::fill_texel(fmt(CL_RGBA, CL_SNORM_INT8), c)[2],
        (-38i8) as u8
    );
    // Half: 1.5 is 0x3E00.
    assert_eq!(
        image_core::fill_texel(fmt(CL_R, CL_HALF_FLOAT), color_f([1.5, 0.0, 0.0, 0.0])),
        [0x00, 0x3E]
    );
    let mut ints = [0u8; 16];
    for (k, v) in [300i32, -200, 7, -1].iter().enumerate() {
        ints[4 * k..4 * k + 4].copy_from_slice(&v.to_ne_bytes());
    }
    // Saturated to the channel type.
    assert_eq!(
        image_core::fill_texel(fmt(CL_RGBA, CL_SIGNED_INT8), ints),
        [127, 128, 7, 255]
    );
    assert_eq!(
        image_core::fill_texel(fmt(CL_RG, CL_UNSIGNED_INT8), ints),
        [255, 255]
    );

    let (dev, ctx) = context();
    let f = fmt(CL_RGBA, CL_UNORM_INT8);
    let checked = check_desc(Some(&desc2d(4, 3, 0)), 4, false).unwrap();
    // SAFETY: no host pointer.
    let img = unsafe {
        image_core::create(
            Handle::get(ctx).unwrap(),
            Vec::new(),
            0,
            f,
            &checked,
            null_mut(),
        )
    }
    .unwrap();
    let mut err = 0;
    // SAFETY: valid pointers; the wrong arguments are deliberate.
    unsafe {
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        let (o, r) = ([1usize, 1, 0], [3usize, 2, 1]);
        assert_eq!(
            image::clEnqueueFillImage(
                q,
                img,
                null(),
                o.as_ptr(),
                r.as_ptr(),
                0,
                null(),
                null_mut()
            ),
            CL_INVALID_VALUE
        );
        assert_eq!(
            image::clEnqueueFillImage(
                q,
                img,
                c.as_ptr().cast(),
                o.as_ptr(),
                [4usize, 2, 1].as_ptr(),
                0,
                null(),
                null_mut()
            ),
            CL_INVALID_VALUE
        );
        assert_eq!(
            image::clEnqueueFillImage(
                q,
                img,
                c.as_ptr().cast(),
                o.as_ptr(),
                r.as_ptr(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let mut back = [0u8; 48];
        assert_eq!(
            image::clEnqueueReadImage(
                q,
                img,
                CL_TRUE,
                [0usize; 3].as_ptr(),
                [4usize, 3, 1].as_ptr(),
                0,
                0,
                back.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        for y in 0..3 {
            for x in 0..4 {
                let want: [u8; 4] = if x >= 1 && y >= 1 {
                    [128, 255, 0, 64]
                } else {
                    [0; 4]
                };
                assert_eq!(
                    back[(y * 4 + x) * 4..(y * 4 + x) * 4 + 4],
                    want,
                    "texel ({x}, {y})"
                );
            }
        }
        memory::clReleaseMemObject(img);
    }
}
