//! clEnqueue{Read,Write,Copy}BufferRect: 3D regions of bytes with row and slice pitches
//! ([`crate::core::transfer::rect`]).

use std::ffi::c_void;

use opencl_sys::*;

use crate::api::entry::entry;
use crate::api::info::triple;
use crate::core::host_ptr::HostPtr;
use crate::core::transfer::rect::{copy_rect, read_write_rect};
use crate::core::transfer::Way;

/// clEnqueueReadBufferRect and clEnqueueWriteBufferRect: one body, the way apart.
macro_rules! read_write_rect_entry {
    ($name:ident, $way:expr, ptr: $ptr:ty) => {
        entry! {
            fn $name(
                queue: cl_command_queue, buffer: cl_mem, blocking: cl_bool,
                buffer_origin: *const usize, host_origin: *const usize, region: *const usize,
                buffer_row_pitch: usize, buffer_slice_pitch: usize,
                host_row_pitch: usize, host_slice_pitch: usize,
                ptr: $ptr,
            ) -> enqueue [n, wait, event] {
                let pitches =
                    [buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch];
                // SAFETY: the application's arrays of three.
                let origins = unsafe { (triple(buffer_origin), triple(host_origin)) };
                // SAFETY: as above.
                let size = unsafe { triple(region) };
                let host = (HostPtr::of(ptr), blocking != CL_FALSE);
                read_write_rect(queue, buffer, $way, origins, size, pitches, host)
            }
        }
    };
}

read_write_rect_entry!(clEnqueueReadBufferRect, Way::Read, ptr: *mut c_void);
read_write_rect_entry!(clEnqueueWriteBufferRect, Way::Write, ptr: *const c_void);

entry! {
    fn clEnqueueCopyBufferRect(
        queue: cl_command_queue, src_buffer: cl_mem, dst_buffer: cl_mem,
        src_origin: *const usize, dst_origin: *const usize, region: *const usize,
        src_row_pitch: usize, src_slice_pitch: usize,
        dst_row_pitch: usize, dst_slice_pitch: usize,
    ) -> enqueue [n, wait, event] {
        let pitches = [src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch];
        // SAFETY: the application's arrays of three.
        let (so, d_o) = unsafe { (triple(src_origin), triple(dst_origin)) };
        // SAFETY: as above.
        let size = unsafe { triple(region) };
        copy_rect(queue, (src_buffer, so), (dst_buffer, d_o), size, pitches)
    }
}
