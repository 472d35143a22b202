//! clEnqueue{Read,Write,Copy}BufferRect: 3D regions of bytes with row and slice pitches.

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;

use crate::api::entry::entry;
use crate::api::info;
use crate::api::memory::command;
use crate::api::queue::enqueue;
use crate::core::handle::Handle;
use crate::core::host_ptr::HostPtr;
use crate::core::memory::{Mem, EXEC_FAILED};
use crate::core::queue::{BlitRun, Queue, Work};

/// One side of a rect copy: where it starts and its pitches, with the spec's defaults
/// (a row pitch of 0 is the region's width, a slice pitch of 0 is rows x row pitch).
#[derive(Clone, Copy)]
struct Side {
    origin: [usize; 3],
    row: usize,
    slice: usize,
}

impl Side {
    fn new(
        origin: [usize; 3],
        region: [usize; 3],
        row: usize,
        slice: usize,
    ) -> Result<Side, cl_int> {
        let row = if row == 0 { region[0] } else { row };
        let slice = if slice == 0 {
            region[1].checked_mul(row).ok_or(CL_INVALID_VALUE)?
        } else {
            slice
        };
        if row < region[0] || slice < region[1] * row || !slice.is_multiple_of(row) {
            return Err(CL_INVALID_VALUE);
        }
        Ok(Side { origin, row, slice })
    }

    /// Byte offset of row `y` of slice `z` of the region.
    fn at(&self, y: usize, z: usize) -> Option<usize> {
        let z = (self.origin[2] + z).checked_mul(self.slice)?;
        let y = (self.origin[1] + y).checked_mul(self.row)?;
        z.checked_add(y)?.checked_add(self.origin[0])
    }

    /// The side as umd's rectangular copy takes it.
    fn umd(&self) -> umd::queue::RectSide {
        umd::queue::RectSide {
            origin: self.origin.map(|x| x as u64),
            row_pitch: self.row as u64,
            slice_pitch: self.slice as u64,
        }
    }

    /// One past the last byte the region touches.
    fn end(&self, region: [usize; 3]) -> Option<usize> {
        self.at(region[1] - 1, region[2] - 1)?
            .checked_add(region[0])
    }
}

/// Whether two regions of one buffer with the same pitches share a byte: the test of the
/// OpenCL specification's appendix "Checking for Memory Copy Overlap". Byte spans that
/// interleave do not overlap when one region's rows fit in the other's gaps between rows, or
/// its slices in the gaps between slices. Both sides lie inside the buffer (`buffer_side`).
fn rects_overlap(a: &Side, b: &Side, region: [usize; 3]) -> bool {
    let (row, slice) = (a.row, a.slice);
    let (a0, b0) = (a.at(0, 0).unwrap_or(0), b.at(0, 0).unwrap_or(0));
    let (a1, b1) = (a.end(region).unwrap_or(0), b.end(region).unwrap_or(0));
    if a1 <= b0 || b1 <= a0 {
        return false;
    }
    // `inner` bytes starting at `p` and at `q`, repeating every `period`: apart when one
    // fits between the other's end and its next repetition.
    let apart = |p: usize, q: usize, inner: usize, period: usize| {
        (q >= p + inner && q + inner <= p + period) || (p >= q + inner && p + inner <= q + period)
    };
    let slice_bytes = (region[1] - 1) * row + region[0];
    !(apart(a.origin[0] % row, b.origin[0] % row, region[0], row)
        || apart(
            (a.origin[1] * row + a.origin[0]) % slice,
            (b.origin[1] * row + b.origin[0]) % slice,
            slice_bytes,
            slice,
        ))
}

/// Three size_t values at `p`.
///
/// # Safety
/// `p` NULL or pointing at three values.
unsafe fn triple(p: *const usize) -> Result<[usize; 3], cl_int> {
    if p.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: the caller's array of three.
    Ok(unsafe { [*p, *p.add(1), *p.add(2)] })
}

/// The buffer side, checked to lie inside `m`.
fn buffer_side(
    m: &Mem,
    origin: [usize; 3],
    region: [usize; 3],
    row: usize,
    slice: usize,
) -> Result<Side, cl_int> {
    let side = Side::new(origin, region, row, slice)?;
    match side.end(region) {
        Some(end) if end <= m.size => Ok(side),
        _ => Err(CL_INVALID_VALUE),
    }
}

fn rows(region: [usize; 3]) -> impl Iterator<Item = (usize, usize)> {
    (0..region[2]).flat_map(move |z| (0..region[1]).map(move |y| (y, z)))
}

/// Reads (`to_host`) or writes rows between a buffer and host memory.
///
/// # Safety
/// As clEnqueueReadBufferRect / clEnqueueWriteBufferRect define their arguments.
#[allow(clippy::too_many_arguments)]
unsafe fn host_rect(
    queue: cl_command_queue,
    buffer: cl_mem,
    to_host: bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    pitches: [usize; 4],
    ptr: *mut c_void,
    blocking: bool,
    n: cl_uint,
    wait: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let (q, m): (Arc<Handle<Queue>>, Arc<Handle<Mem>>) = command(queue, buffer, 0, 0)?;
    // SAFETY: the application's arrays of three.
    let (bo, ho, region) = unsafe {
        (
            triple(buffer_origin)?,
            triple(host_origin)?,
            triple(region)?,
        )
    };
    if ptr.is_null() || region.contains(&0) {
        return Err(CL_INVALID_VALUE);
    }
    let forbidden = if to_host {
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
    } else {
        CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS
    };
    if m.obj.flags & forbidden != 0 {
        return Err(CL_INVALID_OPERATION);
    }
    let b = buffer_side(&m.obj, bo, region, pitches[0], pitches[1])?;
    let h = Side::new(ho, region, pitches[2], pitches[3])?;
    h.end(region).ok_or(CL_INVALID_VALUE)?;
    let command = if to_host {
        CL_COMMAND_READ_BUFFER_RECT
    } else {
        CL_COMMAND_WRITE_BUFFER_RECT
    };
    let host_ptr = HostPtr(ptr as usize);
    let work = Work::Host(Box::new(move || {
        for (y, z) in rows(region) {
            let (bat, hat) = (
                b.at(y, z).ok_or(CL_INVALID_VALUE)?,
                h.at(y, z).ok_or(CL_INVALID_VALUE)?,
            );
            // SAFETY: the application's host memory covers the host side of the region
            // until the command completes.
            let host = unsafe { host_ptr.bytes_mut(hat, region[0]) };
            if to_host {
                m.obj
                    .buffer
                    .read(bat as u64, host)
                    .map_err(|_| EXEC_FAILED)?;
            } else {
                m.obj
                    .buffer
                    .write(bat as u64, host)
                    .map_err(|_| EXEC_FAILED)?;
            }
        }
        Ok(())
    }));
    // SAFETY: the application's wait list and event pointer.
    unsafe { enqueue(&q, command, n, wait, event, blocking, work) }
}

entry! {
    fn clEnqueueReadBufferRect(
        queue: cl_command_queue,
        buffer: cl_mem,
        blocking: cl_bool,
        buffer_origin: *const usize,
        host_origin: *const usize,
        region: *const usize,
        buffer_row_pitch: usize,
        buffer_slice_pitch: usize,
        host_row_pitch: usize,
        host_slice_pitch: usize,
        ptr: *mut c_void,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let pitches = [
            buffer_row_pitch,
            buffer_slice_pitch,
            host_row_pitch,
            host_slice_pitch,
        ];
        info::guard(CL_OUT_OF_HOST_MEMORY, || {
            // SAFETY: forwarded.
            unsafe {
                host_rect(
                    queue,
                    buffer,
                    true,
                    buffer_origin,
                    host_origin,
                    region,
                    pitches,
                    ptr,
                    blocking != CL_FALSE,
                    n,
                    wait,
                    event,
                )
            }
            .map_or_else(|e| e, |_| CL_SUCCESS)
        })
    }
}

entry! {
    fn clEnqueueWriteBufferRect(
        queue: cl_command_queue,
        buffer: cl_mem,
        blocking: cl_bool,
        buffer_origin: *const usize,
        host_origin: *const usize,
        region: *const usize,
        buffer_row_pitch: usize,
        buffer_slice_pitch: usize,
        host_row_pitch: usize,
        host_slice_pitch: usize,
        ptr: *const c_void,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let pitches = [
            buffer_row_pitch,
            buffer_slice_pitch,
            host_row_pitch,
            host_slice_pitch,
        ];
        info::guard(CL_OUT_OF_HOST_MEMORY, || {
            // SAFETY: forwarded; a write only reads the host memory.
            unsafe {
                host_rect(
                    queue,
                    buffer,
                    false,
                    buffer_origin,
                    host_origin,
                    region,
                    pitches,
                    ptr.cast_mut(),
                    blocking != CL_FALSE,
                    n,
                    wait,
                    event,
                )
            }
            .map_or_else(|e| e, |_| CL_SUCCESS)
        })
    }
}

entry! {
    fn clEnqueueCopyBufferRect(
        queue: cl_command_queue,
        src_buffer: cl_mem,
        dst_buffer: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        src_row_pitch: usize,
        src_slice_pitch: usize,
        dst_row_pitch: usize,
        dst_slice_pitch: usize,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        info::status(|| {
            let (q, s) = command(queue, src_buffer, 0, 0)?;
            let (_, d) = command(queue, dst_buffer, 0, 0)?;
            // SAFETY: the application's arrays of three.
            let (so, dor, region) =
                unsafe { (triple(src_origin)?, triple(dst_origin)?, triple(region)?) };
            if region.contains(&0) {
                return Err(CL_INVALID_VALUE);
            }
            let src = buffer_side(&s.obj, so, region, src_row_pitch, src_slice_pitch)?;
            let dst = buffer_side(&d.obj, dor, region, dst_row_pitch, dst_slice_pitch)?;
            if Arc::ptr_eq(&s, &d) {
                // The same buffer: its pitches must agree, and the regions must not overlap.
                if src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch {
                    return Err(CL_INVALID_VALUE);
                }
                if rects_overlap(&src, &dst, region) {
                    return Err(CL_MEM_COPY_OVERLAP);
                }
            }
            // The copy engine where its packet holds the pitches (umd's `copy_buffer_rect`) and
            // the two spans are apart in memory (sub-buffers of one buffer may share bytes).
            let (us, ud, r) = (src.umd(), dst.umd(), region.map(|x| x as u64));
            let span = |m: &Mem, x: &Side| {
                let base = m.buffer.gpu_address();
                (
                    base + x.at(0, 0).unwrap_or(0) as u64,
                    base + x.end(region).unwrap_or(0) as u64,
                )
            };
            let ((a0, a1), (b0, b1)) = (span(&s.obj, &src), span(&d.obj, &dst));
            if (a1 <= b0 || b1 <= a0) && q.obj.blitter_copies_rect(&us, &ud, r) {
                let (sb, db) = (s.obj.buffer.clone(), d.obj.buffer.clone());
                let work = Work::Blit(BlitRun {
                    what: "clEnqueueCopyBufferRect",
                    submit: Box::new(move |umd, deps| {
                        umd.copy_buffer_rect((&sb, us), (&db, ud), r, deps)
                    }),
                    mems: vec![s, d],
                });
                // SAFETY: the application's wait list and event pointer.
                return unsafe {
                    enqueue(&q, CL_COMMAND_COPY_BUFFER_RECT, n, wait, event, false, work)
                };
            }
            let work = Work::Host(Box::new(move || {
                let mut row = vec![0u8; region[0]];
                for (y, z) in rows(region) {
                    let (sat, dat) = (
                        src.at(y, z).ok_or(CL_INVALID_VALUE)?,
                        dst.at(y, z).ok_or(CL_INVALID_VALUE)?,
                    );
                    s.obj
                        .buffer
                        .read(sat as u64, &mut row)
                        .map_err(|_| EXEC_FAILED)?;
                    d.obj
                        .buffer
                        .write(dat as u64, &row)
                        .map_err(|_| EXEC_FAILED)?;
                }
                Ok(())
            }));
            // SAFETY: the application's wait list and event pointer.
            unsafe { enqueue(&q, CL_COMMAND_COPY_BUFFER_RECT, n, wait, event, false, work) }
        })
    }
}
