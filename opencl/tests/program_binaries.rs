//! CL_PROGRAM_BINARIES round trips through clCreateProgramWithBinary, called in process on
//! sim:tgllp and sim:dg2: a compiled object, a library (also a library of a library made with
//! `-enable-link-options`) and an executable each come back with their CL_PROGRAM_BINARY_TYPE
//! and link or build into an executable whose kernel runs; a library's imports survive the trip
//! (linked alone it still fails for its undefined function); a binary for the other device, or
//! altered, cut short or of another format version, is refused with CL_INVALID_BINARY and the
//! per-device status, and `binary::Container` names the reason.

mod in_process;
use in_process::context_all;

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};
use std::sync::Once;

use intel_gpu_opencl::api::{context, kernel, memory, program, queue};
use intel_gpu_opencl::compiler::binary::{BinaryError, Container, Payload, MAGIC, VERSION};
use opencl_sys::*;
use oracles::{require, Oracle};

/// Both devices, tgllp first; set before the platform is first asked for (once per process).
fn devices() -> (cl_device_id, cl_device_id, cl_context) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| std::env::set_var("INTEL_GPU_DEVICES", "sim:tgllp,sim:dg2"));
    let (devs, ctx) = context_all();
    assert_eq!(devs.len(), 2, "INTEL_GPU_DEVICES names two devices");
    (devs[0], devs[1], ctx)
}

/// A function for other modules, with a kernel of its own.
const LIB: &CStr = c"int scale(int x) { return 3 * x + LIB_BIAS; }
kernel void lib_kernel(global int *o) { o[get_global_id(0)] = scale(1); }";
/// A kernel calling `scale`, which it does not define.
const MAIN: &CStr = c"int scale(int x);
kernel void apply(global int *o) { int i = get_global_id(0); o[i] = scale(i) + 1000; }";

fn source(ctx: cl_context, text: &CStr) -> cl_program {
    let mut err = 0;
    let mut t: *const c_char = text.as_ptr();
    // SAFETY: one NUL-terminated string.
    let p = unsafe { program::clCreateProgramWithSource(ctx, 1, &mut t, null(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    p
}

fn compile(p: cl_program, dev: cl_device_id, options: &CStr) {
    // SAFETY: a program and device of one context; no headers.
    let e = unsafe {
        program::clCompileProgram(
            p,
            1,
            &dev,
            options.as_ptr(),
            0,
            null(),
            null_mut(),
            None,
            null_mut(),
        )
    };
    assert_eq!(e, CL_SUCCESS, "clCompileProgram: {}", log(p, dev));
}

/// clLinkProgram's program and error code.
fn link(
    ctx: cl_context,
    dev: cl_device_id,
    options: &CStr,
    inputs: &[cl_program],
) -> (cl_program, cl_int) {
    let mut err = 0;
    // SAFETY: programs of the context.
    let p = unsafe {
        program::clLinkProgram(
            ctx,
            1,
            &dev,
            options.as_ptr(),
            inputs.len() as u32,
            inputs.as_ptr(),
            None,
            null_mut(),
            &mut err,
        )
    };
    (p, err)
}

fn log(p: cl_program, dev: cl_device_id) -> String {
    let mut buf = vec![0u8; 1 << 16];
    let mut n = 0;
    // SAFETY: a buffer of the size given.
    unsafe {
        program::clGetProgramBuildInfo(
            p,
            dev,
            CL_PROGRAM_BUILD_LOG,
            buf.len(),
            buf.as_mut_ptr().cast(),
            &mut n,
        )
    };
    String::from_utf8_lossy(&buf[..n.saturating_sub(1)]).into_owned()
}

fn binary_type(p: cl_program, dev: cl_device_id) -> cl_program_binary_type {
    let mut t: cl_program_binary_type = 0xffff;
    // SAFETY: a value of the queried type.
    let e = unsafe {
        program::clGetProgramBuildInfo(
            p,
            dev,
            CL_PROGRAM_BINARY_TYPE,
            std::mem::size_of_val(&t),
            (&mut t as *mut cl_program_binary_type).cast(),
            null_mut(),
        )
    };
    assert_eq!(e, CL_SUCCESS);
    t
}

/// CL_PROGRAM_BINARIES of a program for its first device (tgllp; a program from source has
/// both devices, the other one without a binary).
fn binary(p: cl_program) -> Vec<u8> {
    let mut n: cl_uint = 0;
    // SAFETY: arrays of the program's device count.
    unsafe {
        assert_eq!(
            program::clGetProgramInfo(
                p,
                CL_PROGRAM_NUM_DEVICES,
                std::mem::size_of::<cl_uint>(),
                (&mut n as *mut cl_uint).cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let mut sizes = vec![0usize; n as usize];
        assert_eq!(
            program::clGetProgramInfo(
                p,
                CL_PROGRAM_BINARY_SIZES,
                std::mem::size_of::<usize>() * sizes.len(),
                sizes.as_mut_ptr().cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert!(sizes[0] > 0);
        let mut bytes = vec![0u8; sizes[0]];
        let mut ptrs = vec![null_mut::<u8>(); n as usize];
        ptrs[0] = bytes.as_mut_ptr();
        assert_eq!(
            program::clGetProgramInfo(
                p,
                CL_PROGRAM_BINARIES,
                std::mem::size_of::<*mut u8>() * ptrs.len(),
                ptrs.as_mut_ptr().cast(),
                null_mut()
            ),
            CL_SUCCESS
        );
        bytes
    }
}

/// clCreateProgramWithBinary over `devs`, one binary each: the program (or NULL), its error
/// code and the per-device statuses.
fn from_binaries(
    ctx: cl_context,
    devs: &[cl_device_id],
    bins: &[&[u8]],
) -> (cl_program, cl_int, Vec<cl_int>) {
    let lens: Vec<usize> = bins.iter().map(|b| b.len()).collect();
    let mut ptrs: Vec<*const u8> = bins.iter().map(|b| b.as_ptr()).collect();
    let mut status = vec![1; devs.len()];
    let mut err = 1;
    // SAFETY: arrays of devs.len() elements.
    let p = unsafe {
        program::clCreateProgramWithBinary(
            ctx,
            devs.len() as u32,
            devs.as_ptr(),
            lens.as_ptr(),
            ptrs.as_mut_ptr(),
            status.as_mut_ptr(),
            &mut err,
        )
    };
    assert_eq!(p.is_null(), err != CL_SUCCESS);
    (p, err, status)
}

fn reload(ctx: cl_context, dev: cl_device_id, p: cl_program) -> cl_program {
    let (q, err, status) = from_binaries(ctx, &[dev], &[&binary(p)]);
    assert_eq!((err, status), (CL_SUCCESS, vec![CL_SUCCESS]));
    q
}

/// Runs `name` of `p` over 16 work-items on `dev` and returns what it wrote.
fn run(ctx: cl_context, dev: cl_device_id, p: cl_program, name: &CStr) -> Vec<i32> {
    const N: usize = 16;
    let mut err = 0;
    let mut got = vec![0i32; N];
    // SAFETY: objects made here, released here; buffers of the sizes given.
    unsafe {
        let k = kernel::clCreateKernel(p, name.as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        assert_eq!(err, CL_SUCCESS);
        let out = memory::clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 4 * N, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            kernel::clSetKernelArg(
                k,
                0,
                std::mem::size_of::<cl_mem>(),
                (&out as *const cl_mem).cast()
            ),
            CL_SUCCESS
        );
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
                4 * N,
                got.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        memory::clReleaseMemObject(out);
        queue::clReleaseCommandQueue(q);
        kernel::clReleaseKernel(k);
    }
    got
}

/// What `apply` computes with `scale` as LIB defines it for `bias` (OpenCL C's int arithmetic).
fn expected(bias: i32) -> Vec<i32> {
    (0..16).map(|i| 3 * i + bias + 1000).collect()
}

fn release(ps: &[cl_program]) {
    for p in ps {
        // SAFETY: programs made by the test.
        unsafe { program::clReleaseProgram(*p) };
    }
}

#[test]
fn compiled_object_round_trip_builds_and_links() {
    require!(Oracle::Ocloc);
    let (tgl, _, ctx) = devices();
    let lib = source(ctx, LIB);
    compile(lib, tgl, c"-DLIB_BIAS=5");
    assert_eq!(
        binary_type(lib, tgl),
        CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
    );
    let bytes = binary(lib);
    assert!(bytes.starts_with(&MAGIC));
    let back = reload(ctx, tgl, lib);
    assert_eq!(
        binary_type(back, tgl),
        CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
    );
    // The reloaded object gives the same binary back.
    assert_eq!(binary(back), bytes);
    // Linked with a second compiled object into an executable whose kernel runs.
    let main = source(ctx, MAIN);
    compile(main, tgl, c"");
    let (exe, err) = link(ctx, tgl, c"", &[main, back]);
    assert_eq!(err, CL_SUCCESS, "{}", log(exe, tgl));
    assert_eq!(binary_type(exe, tgl), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    assert_eq!(run(ctx, tgl, exe, c"apply"), expected(5));
    // clBuildProgram of the reloaded object alone: an executable of its own kernel.
    // SAFETY: a program of the context.
    let e = unsafe { program::clBuildProgram(back, 1, &tgl, null(), None, null_mut()) };
    assert_eq!(e, CL_SUCCESS, "{}", log(back, tgl));
    assert_eq!(binary_type(back, tgl), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    assert_eq!(run(ctx, tgl, back, c"lib_kernel"), vec![8; 16]);
    release(&[lib, back, main, exe]);
    // SAFETY: the context made by devices().
    unsafe { context::clReleaseContext(ctx) };
}

#[test]
fn library_round_trip_links_into_a_running_executable() {
    require!(Oracle::Ocloc);
    let (tgl, _, ctx) = devices();
    let lib = source(ctx, LIB);
    compile(lib, tgl, c"-DLIB_BIAS=-7");
    let (library, err) = link(ctx, tgl, c"-create-library", &[lib]);
    assert_eq!(err, CL_SUCCESS, "{}", log(library, tgl));
    assert_eq!(binary_type(library, tgl), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    let back = reload(ctx, tgl, library);
    assert_eq!(binary_type(back, tgl), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    let c = Container::decode(&binary(back)).expect("a container");
    assert_eq!(
        (c.kind, c.payload),
        (CL_PROGRAM_BINARY_TYPE_LIBRARY, Payload::LlvmBitcode)
    );
    assert!(c.exports.contains("scale"), "{:?}", c.exports);

    // A library of the reloaded library, with link options enabled, round-trips too.
    let (lib2, err) = link(ctx, tgl, c"-create-library -enable-link-options", &[back]);
    assert_eq!(err, CL_SUCCESS, "{}", log(lib2, tgl));
    assert_eq!(binary_type(lib2, tgl), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    let back2 = reload(ctx, tgl, lib2);
    assert_eq!(binary_type(back2, tgl), CL_PROGRAM_BINARY_TYPE_LIBRARY);

    let main = source(ctx, MAIN);
    compile(main, tgl, c"");
    // A compiled object and the twice-reloaded library → an executable; a math option given
    // at link time (allowed by the library's -enable-link-options).
    let (exe, err) = link(ctx, tgl, c"-cl-denorms-are-zero", &[main, back2]);
    assert_eq!(err, CL_SUCCESS, "{}", log(exe, tgl));
    assert_eq!(binary_type(exe, tgl), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    assert_eq!(run(ctx, tgl, exe, c"apply"), expected(-7));

    // The executable round-trips as ocloc's device binary and builds.
    let exe_back = reload(ctx, tgl, exe);
    assert_eq!(
        binary_type(exe_back, tgl),
        CL_PROGRAM_BINARY_TYPE_EXECUTABLE
    );
    assert!(!binary(exe_back).starts_with(&MAGIC));
    // SAFETY: a program of the context.
    let e = unsafe { program::clBuildProgram(exe_back, 1, &tgl, null(), None, null_mut()) };
    assert_eq!(e, CL_SUCCESS);
    assert_eq!(run(ctx, tgl, exe_back, c"apply"), expected(-7));
    assert_eq!(run(ctx, tgl, exe_back, c"lib_kernel"), vec![-4; 16]);
    release(&[lib, library, back, lib2, back2, main, exe, exe_back]);
    // SAFETY: the context made by devices().
    unsafe { context::clReleaseContext(ctx) };
}

#[test]
fn a_reloaded_library_keeps_its_undefined_names() {
    require!(Oracle::Ocloc);
    let (tgl, _, ctx) = devices();
    let main = source(ctx, MAIN);
    compile(main, tgl, c"");
    let (library, err) = link(ctx, tgl, c"-create-library", &[main]);
    assert_eq!(err, CL_SUCCESS, "{}", log(library, tgl));
    let back = reload(ctx, tgl, library);
    // Linked alone into an executable, `scale` is still missing.
    let (exe, err) = link(ctx, tgl, c"", &[back]);
    assert_eq!(err, CL_LINK_PROGRAM_FAILURE);
    assert!(log(exe, tgl).contains("scale"), "{}", log(exe, tgl));
    // clBuildProgram of it fails the same way.
    // SAFETY: a program of the context.
    let e = unsafe { program::clBuildProgram(back, 1, &tgl, null(), None, null_mut()) };
    assert_eq!(e, CL_BUILD_PROGRAM_FAILURE);
    assert!(log(back, tgl).contains("scale"), "{}", log(back, tgl));
    release(&[main, library, back, exe]);
    // SAFETY: the context made by devices().
    unsafe { context::clReleaseContext(ctx) };
}

#[test]
fn binaries_of_the_other_device_are_refused_per_device() {
    require!(Oracle::Ocloc);
    let (tgl, dg2, ctx) = devices();
    let lib = source(ctx, LIB);
    compile(lib, tgl, c"-DLIB_BIAS=1");
    let (library, err) = link(ctx, tgl, c"-create-library", &[lib]);
    assert_eq!(err, CL_SUCCESS);
    let main = source(ctx, MAIN);
    compile(main, tgl, c"");
    let (exe, err) = link(ctx, tgl, c"", &[main, lib]);
    assert_eq!(err, CL_SUCCESS);
    for p in [lib, library, exe] {
        let b = binary(p);
        let (q, err, status) = from_binaries(ctx, &[dg2], &[&b]);
        assert!(q.is_null());
        assert_eq!((err, status), (CL_INVALID_BINARY, vec![CL_INVALID_BINARY]));
        // Given for both devices, tgllp's status is success and dg2's is not.
        let (q, err, status) = from_binaries(ctx, &[dg2, tgl], &[&b, &b]);
        assert!(q.is_null());
        assert_eq!(
            (err, status),
            (CL_INVALID_BINARY, vec![CL_INVALID_BINARY, CL_SUCCESS])
        );
    }
    let b = binary(library);
    assert_eq!(
        Container::decode_for(&b, "dg2"),
        Err(BinaryError::WrongDevice {
            binary: "tgllp".into(),
            device: "dg2".into()
        })
    );
    release(&[lib, library, main, exe]);
    // SAFETY: the context made by devices().
    unsafe { context::clReleaseContext(ctx) };
}

#[test]
fn damaged_containers_are_refused_with_their_reason() {
    require!(Oracle::Ocloc);
    let (tgl, _, ctx) = devices();
    let lib = source(ctx, LIB);
    compile(lib, tgl, c"-DLIB_BIAS=1");
    let (library, err) = link(ctx, tgl, c"-create-library", &[lib]);
    assert_eq!(err, CL_SUCCESS);
    for good in [binary(lib), binary(library)] {
        assert!(Container::decode_for(&good, "tgllp").is_ok());
        let refused = |bad: &[u8], why: BinaryError| {
            assert_eq!(Container::decode(bad), Err(why));
            let (q, err, status) = from_binaries(ctx, &[tgl], &[bad]);
            assert!(q.is_null());
            assert_eq!((err, status), (CL_INVALID_BINARY, vec![CL_INVALID_BINARY]));
        };
        // One payload byte changed (the checksum's last 8 bytes follow the payload).
        let mut bad = good.clone();
        let k = good.len() - 20;
        bad[k] ^= 0x10;
        refused(&bad, BinaryError::Checksum);
        // Cut short, inside the payload: its length field promises more than is left.
        let payload_at = good.len() - 8 - Container::decode(&good).unwrap().bytes.len();
        refused(&good[..good.len() - 9], BinaryError::Truncated(payload_at));
        // A byte past the checksum.
        let mut long = good.clone();
        long.push(0);
        refused(&long, BinaryError::Trailing(1));
        // Another format version.
        let mut other = good.clone();
        other[8..12].copy_from_slice(&(VERSION + 1).to_le_bytes());
        refused(&other, BinaryError::Version(VERSION + 1));
        // Only the magic.
        refused(&good[..8], BinaryError::Truncated(8));
    }
    release(&[lib, library]);
    // SAFETY: the context made by devices().
    unsafe { context::clReleaseContext(ctx) };
}
