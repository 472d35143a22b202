//! Host overhead per `clEnqueueNDRangeKernel` with the kernel and buffers warm: the time from
//! the call to its return (the command queued for the queue's runtime thread, no event asked
//! for) and the heap allocations the calling thread makes in it. The GPU's execution and the
//! runtime thread's submission are outside the figure; each enqueue is followed by `clFinish`
//! outside the timing, so the simulated GPU is idle when the next one starts.
//!
//! The C entry points are called directly (as the ocl-icd loader forwards them), on sim:tgllp
//! through i915 and xe and on sim:dg2 through xe. The kernel (`out[i] = k * i`) is built from
//! source by Intel's libocloc in process; without it the bench says so and stops.
//!
//! `cargo bench -p opencl --bench enqueue_host`

#[path = "../../batchbuffer/tests/counting_alloc/mod.rs"]
mod counting_alloc;

use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};
use std::time::Instant;

use intel_gpu_opencl::api::{context, device, kernel, memory, platform, program, queue};
use opencl_sys::*;

const DEVICES: &str = "sim:tgllp@i915,sim:tgllp@xe,sim:dg2@xe";
const SOURCE: &str = "kernel void fill(global uint *out, uint k) {\n\
                      \x20   size_t i = get_global_id(0);\n\
                      \x20   out[i] = k * (uint)i;\n\
                      }\n";
const WARM: usize = 32;
const N: usize = 2000;

fn check(what: &str, err: cl_int) {
    assert_eq!(err, CL_SUCCESS, "{what}");
}

fn device_name(d: cl_device_id) -> String {
    let mut buf = [0u8; 256];
    let mut len = 0usize;
    // SAFETY: a buffer of the size passed and a valid length pointer.
    let e = unsafe {
        device::clGetDeviceInfo(
            d,
            CL_DEVICE_NAME,
            buf.len(),
            buf.as_mut_ptr().cast(),
            &mut len,
        )
    };
    check("clGetDeviceInfo", e);
    String::from_utf8_lossy(&buf[..len.saturating_sub(1)]).into_owned()
}

/// Median and allocations per call of `N` enqueues on `dev`; None when the build failed.
fn measure(dev: cl_device_id) -> Option<(f64, f64)> {
    let mut err = 0;
    // SAFETY: every pointer passed is valid for the call; handles come from the calls before.
    unsafe {
        let ctx = context::clCreateContext(null(), 1, &dev, None, null_mut(), &mut err);
        check("clCreateContext", err);
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        check("clCreateCommandQueue", err);
        let src = CString::new(SOURCE).expect("source");
        let mut ptr = src.as_ptr();
        let prog = program::clCreateProgramWithSource(ctx, 1, &mut ptr, null(), &mut err);
        check("clCreateProgramWithSource", err);
        let built = program::clBuildProgram(prog, 1, &dev, null(), None, null_mut());
        if built != CL_SUCCESS {
            let mut log = vec![0u8; 16 << 10];
            let mut len = 0usize;
            program::clGetProgramBuildInfo(
                prog,
                dev,
                CL_PROGRAM_BUILD_LOG,
                log.len(),
                log.as_mut_ptr().cast(),
                &mut len,
            );
            eprintln!(
                "SKIP enqueue_host: clBuildProgram returned {built}: {}",
                String::from_utf8_lossy(&log[..len.min(log.len())])
            );
            return None;
        }
        let name = CString::new("fill").expect("name");
        let k = kernel::clCreateKernel(prog, name.as_ptr(), &mut err);
        check("clCreateKernel", err);
        let global = 1024usize;
        let buf = memory::clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * global, null_mut(), &mut err);
        check("clCreateBuffer", err);
        check(
            "clSetKernelArg 0",
            kernel::clSetKernelArg(
                k,
                0,
                std::mem::size_of::<cl_mem>(),
                (&buf as *const cl_mem).cast::<c_void>(),
            ),
        );
        let three = 3u32;
        check(
            "clSetKernelArg 1",
            kernel::clSetKernelArg(k, 1, 4, (&three as *const u32).cast()),
        );
        let local = 64usize;
        let enqueue = || {
            kernel::clEnqueueNDRangeKernel(q, k, 1, null(), &global, &local, 0, null(), null_mut())
        };
        for _ in 0..WARM {
            check("clEnqueueNDRangeKernel", enqueue());
            check("clFinish", queue::clFinish(q));
        }
        // The kernel really ran: out[i] = 3 * i.
        let mut out = vec![0u32; global];
        check(
            "clEnqueueReadBuffer",
            memory::clEnqueueReadBuffer(
                q,
                buf,
                CL_TRUE,
                0,
                4 * global,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut(),
            ),
        );
        assert!(out.iter().enumerate().all(|(i, &v)| v == 3 * i as u32));

        let mut times = Vec::with_capacity(N);
        let mut allocs = 0;
        for _ in 0..N {
            let a = counting_alloc::thread_allocations();
            let start = Instant::now();
            let e = enqueue();
            let t = start.elapsed();
            allocs += counting_alloc::thread_allocations() - a;
            check("clEnqueueNDRangeKernel", e);
            times.push(t.as_nanos() as f64);
            check("clFinish", queue::clFinish(q));
        }
        times.sort_by(f64::total_cmp);
        check("clReleaseMemObject", memory::clReleaseMemObject(buf));
        check("clReleaseKernel", kernel::clReleaseKernel(k));
        check("clReleaseProgram", program::clReleaseProgram(prog));
        check("clReleaseCommandQueue", queue::clReleaseCommandQueue(q));
        check("clReleaseContext", context::clReleaseContext(ctx));
        Some((times[N / 2], allocs as f64 / N as f64))
    }
}

fn main() {
    // Before the platform is first opened (it reads the variable once).
    std::env::set_var("INTEL_GPU_DEVICES", DEVICES);
    let mut plat = null_mut();
    let mut devs = [null_mut(); 3];
    let mut n = 0;
    // SAFETY: valid out-pointers of the sizes passed.
    unsafe {
        check(
            "clGetPlatformIDs",
            platform::clGetPlatformIDs(1, &mut plat, null_mut()),
        );
        check(
            "clGetDeviceIDs",
            device::clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 3, devs.as_mut_ptr(), &mut n),
        );
    }
    assert_eq!(n, 3, "{DEVICES}");
    for (d, which) in devs.into_iter().zip(DEVICES.split(',')) {
        let Some((median, allocs)) = measure(d) else {
            return;
        };
        eprintln!(
            "{which} ({}): clEnqueueNDRangeKernel median {:.2} µs, {allocs:.2} heap allocations \
             per call (calling thread)",
            device_name(d),
            median / 1e3
        );
    }
}
