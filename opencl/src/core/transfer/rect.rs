//! clEnqueue{Read,Write,Copy}BufferRect: 3D regions of bytes with row and slice pitches.

use std::sync::Arc;

use opencl_sys::*;

use crate::core::host_ptr::HostPtr;
use crate::core::memory::Mem;
use crate::core::queue::Command;
use crate::core::transfer::{
    buffer_command, copy_bytes, copy_on_blitter, host_memory, on_host, Way,
};

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

/// clEnqueueReadBufferRect and clEnqueueWriteBufferRect: rows between the buffer at
/// `buffer_origin` and host memory at `host_origin`; `pitches` are the buffer's row and slice
/// pitch, then the host's.
pub fn read_write_rect(
    queue: cl_command_queue,
    buffer: cl_mem,
    way: Way,
    origins: (Option<[usize; 3]>, Option<[usize; 3]>),
    region: Option<[usize; 3]>,
    pitches: [usize; 4],
    (ptr, blocking): (Option<HostPtr>, bool),
) -> Result<Command, cl_int> {
    let (q, m) = buffer_command(queue, buffer, 0, 0)?;
    let (Some(bo), Some(ho), Some(region)) = (origins.0, origins.1, region) else {
        return Err(CL_INVALID_VALUE);
    };
    if region.contains(&0) {
        return Err(CL_INVALID_VALUE);
    }
    let host_ptr = host_memory(&m.obj, way, ptr)?;
    let b = buffer_side(&m.obj, bo, region, pitches[0], pitches[1])?;
    let h = Side::new(ho, region, pitches[2], pitches[3])?;
    h.end(region).ok_or(CL_INVALID_VALUE)?;
    let kind = way.kind(CL_COMMAND_READ_BUFFER_RECT, CL_COMMAND_WRITE_BUFFER_RECT);
    Ok(on_host(&q, kind, blocking, move || {
        for (y, z) in rows(region) {
            let (bat, hat) = (
                b.at(y, z).ok_or(CL_INVALID_VALUE)?,
                h.at(y, z).ok_or(CL_INVALID_VALUE)?,
            );
            // SAFETY: the application's host memory covers the host side of the region
            // until the command completes (a write only reads it).
            let host = unsafe { host_ptr.bytes_mut(hat, region[0]) };
            way.buffer_bytes(&m.obj, bat, host)?;
        }
        Ok(())
    }))
}

/// clEnqueueCopyBufferRect: on the copy engine where its packet holds the pitches; `pitches`
/// are the source's row and slice pitch, then the destination's.
pub fn copy_rect(
    queue: cl_command_queue,
    (src_buffer, src_origin): (cl_mem, Option<[usize; 3]>),
    (dst_buffer, dst_origin): (cl_mem, Option<[usize; 3]>),
    region: Option<[usize; 3]>,
    pitches: [usize; 4],
) -> Result<Command, cl_int> {
    let (q, s) = buffer_command(queue, src_buffer, 0, 0)?;
    let (_, d) = buffer_command(queue, dst_buffer, 0, 0)?;
    let (Some(so), Some(dor), Some(region)) = (src_origin, dst_origin, region) else {
        return Err(CL_INVALID_VALUE);
    };
    if region.contains(&0) {
        return Err(CL_INVALID_VALUE);
    }
    let src = buffer_side(&s.obj, so, region, pitches[0], pitches[1])?;
    let dst = buffer_side(&d.obj, dor, region, pitches[2], pitches[3])?;
    if Arc::ptr_eq(&s, &d) {
        // The same buffer: its pitches must agree, and the regions must not overlap.
        if pitches[..2] != pitches[2..] {
            return Err(CL_INVALID_VALUE);
        }
        if rects_overlap(&src, &dst, region) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
    }
    // The copy engine where its packet holds the pitches (umd's `copy_buffer_rect`) and the two
    // spans are apart in memory (sub-buffers of one buffer may share bytes).
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
        let how = (CL_COMMAND_COPY_BUFFER_RECT, "clEnqueueCopyBufferRect");
        return Ok(copy_on_blitter(
            &q,
            how,
            (s, d),
            move |umd, sb, db, deps| umd.copy_buffer_rect((sb, us), (db, ud), r, deps),
        ));
    }
    Ok(on_host(&q, CL_COMMAND_COPY_BUFFER_RECT, false, move || {
        let mut row = vec![0u8; region[0]];
        for (y, z) in rows(region) {
            let (sat, dat) = (
                src.at(y, z).ok_or(CL_INVALID_VALUE)?,
                dst.at(y, z).ok_or(CL_INVALID_VALUE)?,
            );
            copy_bytes(&s.obj, sat, &d.obj, dat, &mut row)?;
        }
        Ok(())
    }))
}
