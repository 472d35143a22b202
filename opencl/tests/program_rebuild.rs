//! clBuildProgram refuses a program with kernel objects attached (CL_INVALID_OPERATION), and a
//! kernel stops being attached when the application releases it — even while a queued command
//! still runs it (OpenCL 3.0, clReleaseKernel / clBuildProgram). Found by CTS test_compiler
//! `multiple_build_program`, which rebuilds right after clReleaseKernel and raced the queue's
//! clean-up of the finished command.

use crate::in_process;
use in_process::context;

use std::ptr::{null, null_mut};

use intel_gpu_opencl::api::{event, kernel, memory, program, queue};
use opencl_sys::*;
use oracles::{require, Oracle};

const SRC: &str = "__kernel void k(__global int *o) { o[get_global_id(0)] = VAL; }\0";

fn build(p: cl_program, val: i32) -> cl_int {
    let opts = format!("-DVAL={val}\0");
    // SAFETY: a program handle and a NUL-terminated option string.
    unsafe { program::clBuildProgram(p, 0, null(), opts.as_ptr().cast(), None, null_mut()) }
}

#[test]
fn a_released_kernel_does_not_block_a_rebuild_while_its_command_waits() {
    let _ocloc = require!(Oracle::Ocloc);
    let (dev, ctx) = context();
    let mut err = 0;
    // SAFETY: valid handles and out-pointers throughout; buffers outlive their use.
    unsafe {
        let q = queue::clCreateCommandQueue(ctx, dev, 0, &mut err);
        assert_eq!(err, CL_SUCCESS);
        let mut text = SRC.as_ptr().cast::<std::ffi::c_char>();
        let p = program::clCreateProgramWithSource(ctx, 1, &mut text, null(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(build(p, 1), CL_SUCCESS);
        let buf = memory::clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 4, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        let k = kernel::clCreateKernel(p, c"k".as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            kernel::clSetKernelArg(k, 0, size_of::<cl_mem>(), (&buf as *const cl_mem).cast()),
            CL_SUCCESS
        );
        // While the application holds the kernel, the program cannot be rebuilt.
        assert_eq!(build(p, 2), CL_INVALID_OPERATION);

        // A command that holds the kernel until the user event completes.
        let gate = event::clCreateUserEvent(ctx, &mut err);
        assert_eq!(err, CL_SUCCESS);
        let global = 64usize;
        assert_eq!(
            kernel::clEnqueueNDRangeKernel(q, k, 1, null(), &global, null(), 1, &gate, null_mut()),
            CL_SUCCESS
        );
        assert_eq!(kernel::clReleaseKernel(k), CL_SUCCESS);
        // Released: no kernel object is attached any more, though the command still runs it.
        assert_eq!(build(p, 2), CL_SUCCESS);

        assert_eq!(event::clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
        assert_eq!(queue::clFinish(q), CL_SUCCESS);
        // The queued command ran the kernel it was given (VAL = 1), not the rebuilt one.
        let mut out = [0i32; 64];
        assert_eq!(
            memory::clEnqueueReadBuffer(
                q,
                buf,
                CL_TRUE,
                0,
                64 * 4,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(out, [1; 64]);

        // The rebuilt program's kernel gives the new value.
        let k2 = kernel::clCreateKernel(p, c"k".as_ptr(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            kernel::clSetKernelArg(k2, 0, size_of::<cl_mem>(), (&buf as *const cl_mem).cast()),
            CL_SUCCESS
        );
        assert_eq!(
            kernel::clEnqueueNDRangeKernel(
                q,
                k2,
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
        assert_eq!(
            memory::clEnqueueReadBuffer(
                q,
                buf,
                CL_TRUE,
                0,
                64 * 4,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(out, [2; 64]);
        assert_eq!(kernel::clReleaseKernel(k2), CL_SUCCESS);
        assert_eq!(event::clReleaseEvent(gate), CL_SUCCESS);
        assert_eq!(memory::clReleaseMemObject(buf), CL_SUCCESS);
        assert_eq!(program::clReleaseProgram(p), CL_SUCCESS);
        assert_eq!(queue::clReleaseCommandQueue(q), CL_SUCCESS);
    }
}
