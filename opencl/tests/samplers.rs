//! Sampler objects and sampler kernel arguments, called in process: the errors OpenCL 3.0
//! gives clCreateSampler, clCreateSamplerWithProperties, clGetSamplerInfo, clRetainSampler,
//! clReleaseSampler and clSetKernelArg (for a sampler_t argument), and a kernel taking a
//! sampler argument run on the default device.

use crate::in_process;
use in_process::context;

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use intel_gpu_opencl::api::{context, device, image, kernel, memory, program, queue, sampler};
use intel_gpu_opencl::core::handle::Handle;
use intel_gpu_opencl::core::sampler::{self as sampler_core, describe, from_properties};
use opencl_sys::*;
use oracles::{require, Oracle};
use umd::sampler::{AddressingMode, FilterMode};

fn bogus() -> *mut c_void {
    static JUNK: [u64; 8] = [0x55; 8];
    JUNK.as_ptr() as *mut c_void
}

fn image_support(dev: cl_device_id) -> bool {
    let mut v: cl_bool = 7;
    // SAFETY: a cl_bool-sized out-pointer.
    let e = unsafe {
        device::clGetDeviceInfo(
            dev,
            CL_DEVICE_IMAGE_SUPPORT,
            4,
            (&mut v as *mut cl_bool).cast(),
            null_mut(),
        )
    };
    assert_eq!(e, CL_SUCCESS);
    assert!(v == CL_TRUE || v == CL_FALSE);
    v == CL_TRUE
}

fn info_u32(s: cl_sampler, name: cl_sampler_info) -> u32 {
    let mut v = 0u32;
    // SAFETY: a 4-byte out-pointer.
    let e =
        unsafe { sampler::clGetSamplerInfo(s, name, 4, (&mut v as *mut u32).cast(), null_mut()) };
    assert_eq!(e, CL_SUCCESS, "query {name:#x}");
    v
}

#[test]
fn cl_h_values_name_the_same_modes() {
    let a = [
        (CL_ADDRESS_NONE, AddressingMode::None),
        (CL_ADDRESS_CLAMP_TO_EDGE, AddressingMode::ClampToEdge),
        (CL_ADDRESS_CLAMP, AddressingMode::Clamp),
        (CL_ADDRESS_REPEAT, AddressingMode::Repeat),
        (CL_ADDRESS_MIRRORED_REPEAT, AddressingMode::MirroredRepeat),
    ];
    for (v, m) in a {
        assert_eq!(
            describe(CL_TRUE, v, CL_FILTER_NEAREST).unwrap().addressing,
            m
        );
    }
    let f = [
        (CL_FILTER_NEAREST, FilterMode::Nearest),
        (CL_FILTER_LINEAR, FilterMode::Linear),
    ];
    for (v, m) in f {
        assert_eq!(describe(CL_FALSE, CL_ADDRESS_NONE, v).unwrap().filter, m);
    }
    // Not values of their types.
    assert_eq!(
        describe(CL_TRUE, 0x1135, CL_FILTER_NEAREST),
        Err(CL_INVALID_VALUE)
    );
    assert_eq!(
        describe(CL_TRUE, CL_ADDRESS_CLAMP, 0x1142),
        Err(CL_INVALID_VALUE)
    );
    assert_eq!(
        describe(2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST),
        Err(CL_INVALID_VALUE)
    );
}

#[test]
fn property_lists_take_the_specifications_defaults_and_refuse_repeats() {
    // OpenCL 3.0, clCreateSamplerWithProperties: normalized, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST.
    let d = from_properties(&[0]).unwrap();
    assert!(d.normalized);
    assert_eq!(d.addressing, AddressingMode::Clamp);
    assert_eq!(d.filter, FilterMode::Nearest);
    let s = from_properties(&[
        CL_SAMPLER_FILTER_MODE as u64,
        CL_FILTER_LINEAR as u64,
        CL_SAMPLER_NORMALIZED_COORDS as u64,
        CL_FALSE as u64,
        0,
    ])
    .unwrap();
    assert!(!s.normalized);
    assert_eq!(s.addressing, AddressingMode::Clamp);
    assert_eq!(s.filter, FilterMode::Linear);
    let twice = [
        CL_SAMPLER_FILTER_MODE as u64,
        CL_FILTER_LINEAR as u64,
        CL_SAMPLER_FILTER_MODE as u64,
        CL_FILTER_NEAREST as u64,
        0,
    ];
    assert_eq!(from_properties(&twice), Err(CL_INVALID_VALUE));
    // cl_khr_mipmap_image's properties (cl_ext.h names; defaults CL_FILTER_NEAREST, 0.0 and
    // MAXFLOAT): a float value in the low 32 bits; a negative or NaN LOD, a minimum above the
    // maximum and a filter that is not one are CL_INVALID_VALUE.
    let lod = |f: f32| u64::from(f.to_bits());
    let m = from_properties(&[
        CL_SAMPLER_MIP_FILTER_MODE_KHR,
        CL_FILTER_LINEAR as u64,
        CL_SAMPLER_LOD_MIN_KHR,
        lod(0.5),
        CL_SAMPLER_LOD_MAX_KHR,
        lod(3.0),
        0,
    ])
    .unwrap()
    .mip;
    assert_eq!(
        (m.filter, m.lod_min(), m.lod_max()),
        (FilterMode::Linear, 0.5, 3.0)
    );
    let d = from_properties(&[0]).unwrap().mip;
    assert_eq!(
        (d.filter, d.lod_min(), d.lod_max()),
        (FilterMode::Nearest, 0.0, f32::MAX)
    );
    for bad in [
        [CL_SAMPLER_LOD_MIN_KHR, lod(-1.0), 0],
        [CL_SAMPLER_LOD_MAX_KHR, lod(f32::NAN), 0],
        [CL_SAMPLER_MIP_FILTER_MODE_KHR, 0x1142, 0],
    ] {
        assert_eq!(from_properties(&bad), Err(CL_INVALID_VALUE), "{bad:?}");
    }
    assert_eq!(
        from_properties(&[
            CL_SAMPLER_LOD_MIN_KHR,
            lod(2.0),
            CL_SAMPLER_LOD_MAX_KHR,
            lod(1.0),
            0
        ]),
        Err(CL_INVALID_VALUE)
    );
    assert_eq!(
        from_properties(&[CL_SAMPLER_ADDRESSING_MODE as u64, 0x1135, 0]),
        Err(CL_INVALID_VALUE)
    );
}

#[test]
fn constructors_check_context_values_then_image_support() {
    let (dev, ctx) = context();
    let images = image_support(dev);
    let mut err = 0;
    // SAFETY: valid pointers; deliberately bad handles and values.
    unsafe {
        let s = sampler::clCreateSampler(
            bogus(),
            CL_TRUE,
            CL_ADDRESS_CLAMP,
            CL_FILTER_NEAREST,
            &mut err,
        );
        assert!(s.is_null());
        assert_eq!(err, CL_INVALID_CONTEXT);
        sampler::clCreateSampler(ctx, CL_TRUE, 0x1135, CL_FILTER_NEAREST, &mut err);
        assert_eq!(err, CL_INVALID_VALUE);
        sampler::clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0, &mut err);
        assert_eq!(err, CL_INVALID_VALUE);
        let props = [
            CL_SAMPLER_ADDRESSING_MODE as u64,
            CL_ADDRESS_REPEAT as u64,
            CL_SAMPLER_ADDRESSING_MODE as u64,
            CL_ADDRESS_REPEAT as u64,
            0,
        ];
        sampler::clCreateSamplerWithProperties(ctx, props.as_ptr(), &mut err);
        assert_eq!(err, CL_INVALID_VALUE);

        // Valid arguments: a context with no image-capable device refuses samplers.
        let s =
            sampler::clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &mut err);
        let mut err_p = 0;
        let p = sampler::clCreateSamplerWithProperties(ctx, null(), &mut err_p);
        if images {
            assert_eq!((err, err_p), (CL_SUCCESS, CL_SUCCESS));
            assert_eq!(info_u32(s, CL_SAMPLER_FILTER_MODE), CL_FILTER_LINEAR);
            assert_eq!(sampler::clReleaseSampler(s), CL_SUCCESS);
            assert_eq!(sampler::clReleaseSampler(p), CL_SUCCESS);
        } else {
            assert_eq!((err, err_p), (CL_INVALID_OPERATION, CL_INVALID_OPERATION));
            assert!(s.is_null() && p.is_null());
        }
        assert_eq!(context::clReleaseContext(ctx), CL_SUCCESS);
    }
}

#[test]
fn sampler_queries_and_reference_counts() {
    let (_dev, ctx) = context();
    let c = Handle::get(ctx).unwrap();
    let props = vec![
        CL_SAMPLER_ADDRESSING_MODE as u64,
        CL_ADDRESS_MIRRORED_REPEAT as u64,
        0,
    ];
    let smp = from_properties(&props).unwrap();
    // The object itself, made past the image-support rule (no device of this platform has
    // images yet): its queries and reference counts are the specification's.
    let s = sampler_core::create(c, smp, props.clone());
    // SAFETY: valid out-pointers; bogus() is deliberately no sampler.
    unsafe {
        assert_eq!(info_u32(s, CL_SAMPLER_REFERENCE_COUNT), 1);
        assert_eq!(info_u32(s, CL_SAMPLER_NORMALIZED_COORDS), CL_TRUE);
        assert_eq!(
            info_u32(s, CL_SAMPLER_ADDRESSING_MODE),
            CL_ADDRESS_MIRRORED_REPEAT
        );
        assert_eq!(info_u32(s, CL_SAMPLER_FILTER_MODE), CL_FILTER_NEAREST);
        let mut owner: cl_context = null_mut();
        let mut size = 0usize;
        assert_eq!(
            sampler::clGetSamplerInfo(
                s,
                CL_SAMPLER_CONTEXT,
                8,
                (&mut owner as *mut cl_context).cast(),
                &mut size
            ),
            CL_SUCCESS
        );
        assert_eq!((owner, size), (ctx, 8));
        let mut got = [0u64; 3];
        assert_eq!(
            sampler::clGetSamplerInfo(
                s,
                CL_SAMPLER_PROPERTIES,
                24,
                got.as_mut_ptr().cast(),
                &mut size
            ),
            CL_SUCCESS
        );
        assert_eq!((got.to_vec(), size), (props, 24));
        // Too small a buffer, an unknown query.
        assert_eq!(
            sampler::clGetSamplerInfo(
                s,
                CL_SAMPLER_FILTER_MODE,
                2,
                got.as_mut_ptr().cast(),
                null_mut()
            ),
            CL_INVALID_VALUE
        );
        assert_eq!(
            sampler::clGetSamplerInfo(s, 0x1159, 8, got.as_mut_ptr().cast(), null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(sampler::clRetainSampler(s), CL_SUCCESS);
        assert_eq!(info_u32(s, CL_SAMPLER_REFERENCE_COUNT), 2);
        assert_eq!(sampler::clReleaseSampler(s), CL_SUCCESS);
        assert_eq!(sampler::clReleaseSampler(s), CL_SUCCESS);
        assert_eq!(sampler::clRetainSampler(s), CL_INVALID_SAMPLER);
        assert_eq!(sampler::clReleaseSampler(bogus()), CL_INVALID_SAMPLER);
        assert_eq!(
            sampler::clGetSamplerInfo(
                bogus(),
                CL_SAMPLER_FILTER_MODE,
                4,
                got.as_mut_ptr().cast(),
                null_mut()
            ),
            CL_INVALID_SAMPLER
        );
        // A context handle is no sampler either.
        assert_eq!(sampler::clRetainSampler(ctx), CL_INVALID_SAMPLER);
        assert_eq!(context::clReleaseContext(ctx), CL_SUCCESS);
    }
}

#[test]
fn supported_image_formats_refuse_a_type_that_is_no_image() {
    let (_dev, ctx) = context();
    let mut n = 9;
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(
            image::clGetSupportedImageFormats(
                ctx,
                CL_MEM_READ_ONLY,
                CL_MEM_OBJECT_BUFFER,
                0,
                null_mut(),
                &mut n
            ),
            CL_INVALID_VALUE
        );
        assert_eq!(context::clReleaseContext(ctx), CL_SUCCESS);
    }
}

/// A sampler_t argument: the errors of clSetKernelArg, then a sampler set and the kernel run.
#[test]
fn sampler_kernel_arguments() {
    require!(Oracle::Ocloc);
    let (dev, ctx) = context();
    let src = c"kernel void k(sampler_t s, global int *o) { o[get_global_id(0)] = 7; }";
    let mut err = 0;
    // SAFETY: valid pointers throughout; bogus() and the wrong sizes are deliberate.
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
        let b = bogus();
        let ptr_size = std::mem::size_of::<cl_sampler>();
        assert_eq!(
            kernel::clSetKernelArg(k, 0, ptr_size, (&b as *const cl_sampler).cast()),
            CL_INVALID_SAMPLER
        );
        assert_eq!(
            kernel::clSetKernelArg(k, 0, 4, (&b as *const cl_sampler).cast()),
            CL_INVALID_ARG_SIZE
        );
        // A NULL arg_value is no valid sampler object either (the CTS's
        // negative_invalid_arg_sampler asks for CL_INVALID_SAMPLER).
        assert_eq!(
            kernel::clSetKernelArg(k, 0, ptr_size, null()),
            CL_INVALID_SAMPLER
        );
        // A sampler of another context.
        let (_d2, other) = context();
        let foreign = sampler_core::create(
            Handle::get(other).unwrap(),
            from_properties(&[0]).unwrap(),
            vec![],
        );
        assert_eq!(
            kernel::clSetKernelArg(k, 0, ptr_size, (&foreign as *const cl_sampler).cast()),
            CL_INVALID_SAMPLER
        );
        let s = sampler_core::create(
            Handle::get(ctx).unwrap(),
            from_properties(&[0]).unwrap(),
            vec![],
        );
        assert_eq!(
            kernel::clSetKernelArg(k, 0, ptr_size, (&s as *const cl_sampler).cast()),
            CL_SUCCESS
        );
        // A kernel does not hold its sampler argument: it may go once set.
        assert_eq!(sampler::clReleaseSampler(s), CL_SUCCESS);
        let out = memory::clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            kernel::clSetKernelArg(k, 1, ptr_size, (&out as *const cl_mem).cast()),
            CL_SUCCESS
        );
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        assert_eq!(err, CL_SUCCESS);
        let global = 16usize;
        assert_eq!(
            kernel::clEnqueueNDRangeKernel(q, k, 1, null(), &global, null(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        let mut got = [0i32; 16];
        assert_eq!(
            memory::clEnqueueReadBuffer(
                q,
                out,
                CL_TRUE,
                0,
                64,
                got.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(got, [7; 16]);
        assert_eq!(sampler::clReleaseSampler(foreign), CL_SUCCESS);
    }
}
