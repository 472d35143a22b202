//! 1D image buffers (CL_MEM_OBJECT_IMAGE1D_BUFFER), called in process: the errors OpenCL 3.0
//! gives clCreateImage for them (a description without a buffer or with pitches, a width past
//! the 2^27 elements of a typed buffer surface, a buffer too small for width × element size,
//! host-memory flags, access the buffer's flags forbid, a host pointer, an object that is no
//! buffer), then an image made past the image-support rule over a sub-buffer: its queries
//! (CL_IMAGE_BUFFER, CL_MEM_ASSOCIATED_MEMOBJECT, inherited flags, sizes) and a kernel that
//! reads one image buffer and writes another, seen through the buffers' own memory.

use crate::in_process;
use in_process::context;

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use intel_gpu_opencl::api::{context, device, image, kernel, memory, program, queue};
use intel_gpu_opencl::core::handle::Handle;
use intel_gpu_opencl::core::image::{self as image_core, check_desc, format_of};
use opencl_sys::*;
use oracles::{require, Oracle};

const RGBA_UI16: cl_image_format = cl_image_format {
    image_channel_order: CL_RGBA,
    image_channel_data_type: CL_UNSIGNED_INT16,
};

fn desc(width: usize, buffer: cl_mem) -> cl_image_desc {
    cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE1D_BUFFER,
        image_width: width,
        image_height: 0,
        image_depth: 0,
        image_array_size: 0,
        image_row_pitch: 0,
        image_slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        buffer,
    }
}

fn buffer(ctx: cl_context, flags: cl_mem_flags, size: usize) -> cl_mem {
    let mut err = 0;
    // SAFETY: valid pointers.
    let b = unsafe { memory::clCreateBuffer(ctx, flags, size, null_mut(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    b
}

/// clCreateImage's error code (releasing the image if one was made).
fn create(ctx: cl_context, flags: cl_mem_flags, d: &cl_image_desc, host: *mut c_void) -> cl_int {
    let mut err = 0;
    // SAFETY: valid pointers or deliberate NULLs.
    let m = unsafe { image::clCreateImage(ctx, flags, &RGBA_UI16, d, host, &mut err) };
    assert_eq!(m.is_null(), err != CL_SUCCESS);
    if !m.is_null() {
        // SAFETY: the image just made.
        unsafe { memory::clReleaseMemObject(m) };
    }
    err
}

fn info<T: Default>(m: cl_mem, name: cl_uint, image_info: bool) -> T {
    let mut v = T::default();
    let size = std::mem::size_of::<T>();
    let p = (&mut v as *mut T).cast();
    // SAFETY: an out-pointer of the query's size.
    let e = unsafe {
        if image_info {
            image::clGetImageInfo(m, name, size, p, null_mut())
        } else {
            memory::clGetMemObjectInfo(m, name, size, p, null_mut())
        }
    };
    assert_eq!(e, CL_SUCCESS, "query {name:#x}");
    v
}

#[test]
fn descriptions_and_create_errors() {
    let e = |d: cl_image_desc| check_desc(Some(&d), 8, false).err();
    let some = 0x1000 as cl_mem;
    assert_eq!(
        check_desc(Some(&desc(4, some)), 8, false).unwrap().buffer,
        some
    );
    assert_eq!(e(desc(4, null_mut())), Some(CL_INVALID_IMAGE_DESCRIPTOR));
    assert_eq!(e(desc(0, some)), Some(CL_INVALID_IMAGE_DESCRIPTOR));
    // A row pitch its one row of 4 x 8 bytes fits, or none: the CTS' kernel_image_methods
    // passes the packed row's (its 1Dbuffer sub-test).
    for pitch in [0, 32, 40] {
        let d = cl_image_desc {
            image_row_pitch: pitch,
            ..desc(4, some)
        };
        assert!(e(d).is_none(), "row pitch {pitch}");
    }
    for d in [
        cl_image_desc {
            image_row_pitch: 24,
            ..desc(4, some)
        },
        cl_image_desc {
            image_row_pitch: 36,
            ..desc(4, some)
        },
        cl_image_desc {
            num_mip_levels: 1,
            ..desc(4, some)
        },
    ] {
        assert_eq!(e(d), Some(CL_INVALID_IMAGE_DESCRIPTOR));
    }
    assert_eq!(e(desc((1 << 27) + 1, some)), Some(CL_INVALID_IMAGE_SIZE));
    assert!(e(desc(1 << 27, some)).is_none());

    let (dev, ctx) = context();
    let b = buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64);
    // 8 elements of 8 bytes fill it; 9 do not.
    assert_eq!(
        create(ctx, 0, &desc(9, b), null_mut()),
        CL_INVALID_IMAGE_SIZE
    );
    for flags in [
        CL_MEM_USE_HOST_PTR,
        CL_MEM_ALLOC_HOST_PTR,
        CL_MEM_COPY_HOST_PTR,
        CL_MEM_READ_WRITE,
        CL_MEM_WRITE_ONLY,
        CL_MEM_HOST_READ_ONLY,
    ] {
        assert_eq!(
            create(ctx, flags, &desc(8, b), null_mut()),
            CL_INVALID_VALUE,
            "{flags:#x}"
        );
    }
    let mut host = [0u8; 64];
    assert_eq!(
        create(ctx, 0, &desc(8, b), host.as_mut_ptr().cast()),
        CL_INVALID_HOST_PTR
    );
    let junk = [0x55u64; 8];
    assert_eq!(
        create(ctx, 0, &desc(8, junk.as_ptr() as cl_mem), null_mut()),
        CL_INVALID_IMAGE_DESCRIPTOR
    );
    // Well-formed: refused while no device of the context supports images.
    let mut images: cl_bool = 0;
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
    for flags in [0, CL_MEM_READ_ONLY, CL_MEM_HOST_NO_ACCESS] {
        assert_eq!(create(ctx, flags, &desc(8, b), null_mut()), want);
    }
    // An image is no buffer.
    let f = format_of(Some(&RGBA_UI16)).unwrap();
    let checked = check_desc(Some(&desc(8, b)), 8, false).unwrap();
    // SAFETY: no host pointer.
    let img = unsafe {
        image_core::create(
            Handle::get(ctx).unwrap(),
            vec![],
            0,
            f,
            &checked,
            null_mut(),
        )
    }
    .unwrap();
    assert_eq!(
        create(ctx, 0, &desc(1, img), null_mut()),
        CL_INVALID_IMAGE_DESCRIPTOR
    );
    // SAFETY: objects made here.
    unsafe {
        memory::clReleaseMemObject(img);
        memory::clReleaseMemObject(b);
        context::clReleaseContext(ctx);
    }
}

/// Elements of the images, and where the source's sub-buffer starts in its buffer
/// (CL_DEVICE_MEM_BASE_ADDR_ALIGN is at most 1024 bits).
const N: usize = 40;
const ORIGIN: usize = 256;

#[test]
fn image_buffers_over_sub_buffers_in_kernels() {
    require!(Oracle::Ocloc);
    let (dev, ctx) = context();
    let f = format_of(Some(&RGBA_UI16)).unwrap();
    let c = || Handle::get(ctx).unwrap();
    let mut err = 0;
    let big = buffer(ctx, CL_MEM_READ_ONLY, ORIGIN + 8 * N + 64);
    let region = cl_buffer_region {
        origin: ORIGIN,
        size: 8 * N,
    };
    // SAFETY: valid pointers.
    let sub = unsafe {
        memory::clCreateSubBuffer(
            big,
            0,
            CL_BUFFER_CREATE_TYPE_REGION,
            (&region as *const cl_buffer_region).cast(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let out = buffer(ctx, CL_MEM_HOST_READ_ONLY, 8 * N);
    let make = |b: cl_mem| {
        let checked = check_desc(Some(&desc(N, b)), 8, false).unwrap();
        // SAFETY: no host pointer.
        unsafe { image_core::create(c(), vec![], 0, f, &checked, null_mut()) }.unwrap()
    };
    let (src, dst) = (make(sub), make(out));
    // Queries: the buffer, the flags inherited from it, one row of N elements.
    assert_eq!(info::<cl_mem>(src, CL_IMAGE_BUFFER, true), sub);
    assert_eq!(info::<cl_mem>(src, CL_MEM_ASSOCIATED_MEMOBJECT, false), sub);
    assert_eq!(
        info::<u32>(src, CL_MEM_TYPE, false),
        CL_MEM_OBJECT_IMAGE1D_BUFFER
    );
    assert_eq!(info::<u64>(src, CL_MEM_FLAGS, false), CL_MEM_READ_ONLY);
    assert_eq!(
        info::<u64>(dst, CL_MEM_FLAGS, false),
        CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY
    );
    assert_eq!(info::<usize>(src, CL_IMAGE_WIDTH, true), N);
    assert_eq!(info::<usize>(src, CL_IMAGE_HEIGHT, true), 0);
    assert_eq!(info::<usize>(src, CL_IMAGE_ELEMENT_SIZE, true), 8);
    assert_eq!(info::<usize>(src, CL_IMAGE_ROW_PITCH, true), 8 * N);
    assert_eq!(info::<usize>(src, CL_IMAGE_SLICE_PITCH, true), 0);
    assert_eq!(info::<usize>(src, CL_MEM_SIZE, false), 8 * N);
    // The image keeps its buffer: released first, the buffer still answers through it.
    // SAFETY: objects made here.
    unsafe { memory::clReleaseMemObject(sub) };
    assert_eq!(info::<cl_mem>(src, CL_IMAGE_BUFFER, true), sub);

    let text = c"kernel void k(read_only image1d_buffer_t src, write_only image1d_buffer_t dst) { int i = get_global_id(0); write_imageui(dst, i, read_imageui(src, i) * (uint4)(2, 3, 1, 0) + (uint4)(i, 0, 7, 9)); }";
    let input: Vec<u16> = (0..4 * N as u16).map(|v| v * 7 + 1).collect();
    let mut got = vec![0u16; 4 * N];
    // SAFETY: valid pointers throughout.
    unsafe {
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        assert_eq!(err, CL_SUCCESS);
        // The sub-buffer's bytes, written through the whole buffer.
        assert_eq!(
            memory::clEnqueueWriteBuffer(
                q,
                big,
                CL_TRUE,
                ORIGIN,
                8 * N,
                input.as_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let mut t = text.as_ptr();
        let p = program::clCreateProgramWithSource(ctx, 1, &mut t, null(), &mut err);
        assert_eq!(
            program::clBuildProgram(p, 1, &dev, null(), None, null_mut()),
            CL_SUCCESS
        );
        let k = kernel::clCreateKernel(p, c"k".as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let ps = std::mem::size_of::<cl_mem>();
        for (i, m) in [src, dst].iter().enumerate() {
            assert_eq!(
                kernel::clSetKernelArg(k, i as u32, ps, (m as *const cl_mem).cast()),
                CL_SUCCESS
            );
        }
        assert_eq!(
            kernel::clEnqueueNDRangeKernel(q, k, 1, null(), &N, null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            memory::clEnqueueReadBuffer(
                q,
                out,
                CL_TRUE,
                0,
                8 * N,
                got.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        kernel::clReleaseKernel(k);
        program::clReleaseProgram(p);
        queue::clReleaseCommandQueue(q);
        for m in [src, dst, out, big] {
            memory::clReleaseMemObject(m);
        }
        context::clReleaseContext(ctx);
    }
    // write_imageui to CL_UNSIGNED_INT16 saturates (convert_ushort_sat).
    let want: Vec<u16> = input
        .chunks(4)
        .enumerate()
        .flat_map(|(i, t)| {
            let v = [
                u32::from(t[0]) * 2 + i as u32,
                u32::from(t[1]) * 3,
                u32::from(t[2]) + 7,
                9,
            ];
            v.map(|x| x.min(0xffff) as u16)
        })
        .collect();
    assert_eq!(got, want);
}
