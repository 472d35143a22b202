//! The image queries: every image limit of clGetDeviceInfo at least OpenCL 3.0's minimum for a
//! device with images (the specification's device query table), sizes equal to what image
//! creation accepts (one texel more is CL_INVALID_IMAGE_SIZE), and clGetSupportedImageFormats
//! per flags and image type: OpenCL 3.0's minimum list of formats where images are provided,
//! none for kernel read-and-write access (read-write images are not reported) or for a type not
//! provided.

use crate::in_process;
use in_process::context;

use std::ffi::c_void;
use std::ptr::null_mut;

use ::platform::Platform;
use intel_gpu_opencl::api::{context, device, image};
use intel_gpu_opencl::core::device::{ImageLimits, READ_WRITE_IMAGES};
use intel_gpu_opencl::core::facts;
use intel_gpu_opencl::core::image::{self as image_core, check_desc};
use intel_gpu_opencl::core::image_formats::supported;
use opencl_sys::*;

fn query<T: Default>(dev: cl_device_id, name: cl_device_info) -> T {
    let mut v = T::default();
    let mut size = 0usize;
    // SAFETY: a T-sized out-pointer.
    let r = unsafe {
        device::clGetDeviceInfo(
            dev,
            name,
            std::mem::size_of::<T>(),
            (&mut v as *mut T).cast::<c_void>(),
            &mut size,
        )
    };
    assert_eq!(r, CL_SUCCESS, "query {name:#x}");
    assert_eq!(size, std::mem::size_of::<T>(), "size of query {name:#x}");
    v
}

/// OpenCL 3.0's minimums for a device whose CL_DEVICE_IMAGE_SUPPORT is CL_TRUE.
fn assert_minimums(l: &ImageLimits, what: &str) {
    assert!(l.read_args >= 128, "{what}: {l:?}");
    assert!(l.write_args >= 64, "{what}: {l:?}");
    assert!(l.samplers >= 16, "{what}: {l:?}");
    assert!(l.width_2d >= 16384 && l.height_2d >= 16384, "{what}: {l:?}");
    assert!(
        l.width_3d >= 2048 && l.height_3d >= 2048 && l.depth_3d >= 2048,
        "{what}: {l:?}"
    );
    assert!(l.array_size >= 2048, "{what}: {l:?}");
    assert!(l.buffer_size >= 65536, "{what}: {l:?}");
    assert_eq!(l.read_write_args > 0, READ_WRITE_IMAGES, "{what}: {l:?}");
    if READ_WRITE_IMAGES {
        assert!(l.read_write_args >= 64, "{what}: {l:?}");
    }
}

fn desc(ty: cl_mem_object_type, w: usize, h: usize, d: usize, layers: usize) -> cl_image_desc {
    cl_image_desc {
        image_type: ty,
        image_width: w,
        image_height: h,
        image_depth: d,
        image_array_size: layers,
        image_row_pitch: 0,
        image_slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: null_mut(),
    }
}

#[test]
fn limits_reach_the_minimums_and_match_what_creation_accepts() {
    for p in Platform::ALL {
        if !facts::facts(p).images {
            continue;
        }
        let l = ImageLimits::of(p);
        assert_minimums(&l, p.name());
        let ok = |d: cl_image_desc| check_desc(Some(&d), 4, false).map(|_| ());
        use CL_MEM_OBJECT_IMAGE2D as D2;
        let (w, h) = (l.width_2d, l.height_2d);
        assert_eq!(ok(desc(D2, w, 1, 0, 0)), Ok(()), "{p:?}");
        assert_eq!(ok(desc(D2, 1, h, 0, 0)), Ok(()), "{p:?}");
        assert_eq!(ok(desc(D2, w + 1, 1, 0, 0)), Err(CL_INVALID_IMAGE_SIZE));
        assert_eq!(ok(desc(D2, 1, h + 1, 0, 0)), Err(CL_INVALID_IMAGE_SIZE));
        use CL_MEM_OBJECT_IMAGE3D as D3;
        assert_eq!(ok(desc(D3, l.width_3d, 1, 1, 0)), Ok(()), "{p:?}");
        assert_eq!(ok(desc(D3, 1, l.height_3d, 1, 0)), Ok(()), "{p:?}");
        assert_eq!(ok(desc(D3, 1, 1, l.depth_3d, 0)), Ok(()), "{p:?}");
        assert_eq!(
            ok(desc(D3, 1, 1, l.depth_3d + 1, 0)),
            Err(CL_INVALID_IMAGE_SIZE)
        );
        let a = CL_MEM_OBJECT_IMAGE2D_ARRAY;
        assert_eq!(ok(desc(a, 1, 1, 0, l.array_size)), Ok(()), "{p:?}");
        assert_eq!(
            ok(desc(a, 1, 1, 0, l.array_size + 1)),
            Err(CL_INVALID_IMAGE_SIZE)
        );
    }
}

#[test]
fn device_queries_report_the_limits() {
    let (dev, ctx) = context();
    let d = intel_gpu_opencl::core::platform::get().obj.devices[0]
        .obj
        .umd
        .platform();
    let images = facts::facts(d).images;
    assert_eq!(
        query::<cl_bool>(dev, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE,
        images
    );
    let l = if images {
        ImageLimits::of(d)
    } else {
        ImageLimits::default()
    };
    let u = |n| query::<cl_uint>(dev, n);
    let s = |n| query::<usize>(dev, n);
    assert_eq!(u(CL_DEVICE_MAX_READ_IMAGE_ARGS), l.read_args);
    assert_eq!(u(CL_DEVICE_MAX_WRITE_IMAGE_ARGS), l.write_args);
    assert_eq!(u(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS), l.read_write_args);
    assert_eq!(u(CL_DEVICE_MAX_SAMPLERS), l.samplers);
    assert_eq!(s(CL_DEVICE_IMAGE2D_MAX_WIDTH), l.width_2d);
    assert_eq!(s(CL_DEVICE_IMAGE2D_MAX_HEIGHT), l.height_2d);
    assert_eq!(s(CL_DEVICE_IMAGE3D_MAX_WIDTH), l.width_3d);
    assert_eq!(s(CL_DEVICE_IMAGE3D_MAX_HEIGHT), l.height_3d);
    assert_eq!(s(CL_DEVICE_IMAGE3D_MAX_DEPTH), l.depth_3d);
    assert_eq!(s(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE), l.array_size);
    assert_eq!(s(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), l.buffer_size);
    // Images from buffers (cl_khr_image2d_from_buffer): alignments in pixels, powers of two,
    // that give cl_intel_subgroups' image block IO its 64-byte row pitch and 32-byte host_ptr
    // for 1-byte pixels (umd's block-IO rules); 0 and 0 without images (OpenCL 3.0).
    let (pitch, base) = (
        u(CL_DEVICE_IMAGE_PITCH_ALIGNMENT),
        u(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT),
    );
    if images {
        assert!(
            pitch.is_power_of_two() && base.is_power_of_two(),
            "{pitch} {base}"
        );
        assert_eq!(
            u64::from(pitch),
            umd::blockio::Rule::ImageFromBufferPitch.bytes()
        );
        assert_eq!(
            u64::from(base),
            umd::blockio::Rule::ImageFromHostPtrBuffer.bytes()
        );
    } else {
        assert_eq!((pitch, base), (0, 0));
    }
    if images {
        assert_minimums(&l, d.name());
    }
    // SAFETY: the context made above.
    unsafe { context::clReleaseContext(ctx) };
}

/// OpenCL 3.0's minimum list for read-only, write-only and read-write images.
fn minimum_formats() -> Vec<(cl_channel_order, cl_channel_type)> {
    let types = [
        CL_UNORM_INT8,
        CL_UNORM_INT16,
        CL_SNORM_INT8,
        CL_SNORM_INT16,
        CL_SIGNED_INT8,
        CL_SIGNED_INT16,
        CL_SIGNED_INT32,
        CL_UNSIGNED_INT8,
        CL_UNSIGNED_INT16,
        CL_UNSIGNED_INT32,
        CL_HALF_FLOAT,
        CL_FLOAT,
    ];
    let mut v: Vec<_> = [CL_R, CL_RG, CL_RGBA]
        .iter()
        .flat_map(|&o| types.iter().map(move |&t| (o, t)))
        .collect();
    v.push((CL_BGRA, CL_UNORM_INT8));
    v
}

const TYPES: [cl_mem_object_type; 6] = [
    CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE2D_ARRAY,
    CL_MEM_OBJECT_IMAGE3D,
];

#[test]
fn supported_formats_per_flags_and_type() {
    let min = minimum_formats();
    for ty in TYPES {
        for flags in [
            0,
            CL_MEM_READ_ONLY,
            CL_MEM_WRITE_ONLY,
            CL_MEM_READ_WRITE,
            CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
        ] {
            let got: Vec<_> = supported(flags, ty, true)
                .unwrap()
                .iter()
                .map(|f| (f.image_channel_order, f.image_channel_data_type))
                .collect();
            if image_core::provides(ty) {
                for f in &min {
                    assert!(got.contains(f), "{ty:#x} {flags:#x}: {f:?} missing");
                }
                // Every format listed can be created.
                for (o, t) in &got {
                    let f = cl_image_format {
                        image_channel_order: *o,
                        image_channel_data_type: *t,
                    };
                    assert!(image_core::format_of(Some(&f)).is_ok(), "{o:#x} {t:#x}");
                }
            } else {
                assert!(got.is_empty(), "{ty:#x}: not provided, yet {got:?}");
            }
            assert!(supported(flags, ty, false).unwrap().is_empty());
        }
        let rw = supported(CL_MEM_KERNEL_READ_AND_WRITE, ty, true).unwrap();
        assert_eq!(
            rw.is_empty(),
            !READ_WRITE_IMAGES || !image_core::provides(ty)
        );
    }
    assert_eq!(
        supported(
            CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
            CL_MEM_OBJECT_IMAGE2D,
            true
        )
        .err(),
        Some(CL_INVALID_VALUE)
    );
    assert_eq!(
        supported(0, CL_MEM_OBJECT_BUFFER, true).err(),
        Some(CL_INVALID_VALUE)
    );
}

#[test]
fn supported_formats_entry_point_counts_and_fills() {
    let (dev, ctx) = context();
    let images = query::<cl_bool>(dev, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE;
    let mut n: cl_uint = 0;
    // SAFETY: valid pointers; the array holds n formats.
    unsafe {
        let q = |entries, out: *mut cl_image_format, n: *mut cl_uint| {
            image::clGetSupportedImageFormats(
                ctx,
                CL_MEM_READ_ONLY,
                CL_MEM_OBJECT_IMAGE2D,
                entries,
                out,
                n,
            )
        };
        assert_eq!(q(0, null_mut(), &mut n), CL_SUCCESS);
        assert_eq!(n as usize >= minimum_formats().len(), images);
        let mut v = vec![
            cl_image_format {
                image_channel_order: 0,
                image_channel_data_type: 0
            };
            n as usize
        ];
        if n > 0 {
            assert_eq!(q(n, v.as_mut_ptr(), null_mut()), CL_SUCCESS);
            for f in minimum_formats() {
                assert!(v
                    .iter()
                    .any(|g| (g.image_channel_order, g.image_channel_data_type) == f));
            }
            // Fewer entries than formats: the first ones, no error.
            assert_eq!(q(1, v.as_mut_ptr(), null_mut()), CL_SUCCESS);
        }
        assert_eq!(q(0, v.as_mut_ptr(), null_mut()), CL_INVALID_VALUE);
        context::clReleaseContext(ctx);
    }
}
