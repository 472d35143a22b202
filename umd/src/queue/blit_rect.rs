//! Rectangular buffer copies on the copy engine (OpenCL's clEnqueueCopyBufferRect).
//!
//! A region of `region[0]` bytes by `region[1]` rows by `region[2]` slices, each side with
//! its own origin and row/slice pitches, is one blit of 8-bit pixels per slice, cut into
//! pieces where the packet's coordinates (16-bit signed) cannot hold it: at most
//! [`COPY_ROW`] bytes wide and [`MAX_ROWS`] rows tall, the origin folded into the base
//! address. The pitch field bounds the rest: XY_BLOCK_COPY_BLT's holds pitches up to 256 KiB,
//! XY_SRC_COPY_BLT's up to 32767 bytes; larger pitches, and rectangles whose batch would not
//! fit the queue's arena, are the caller's to copy on the CPU ([`Queue::blitter_copies_rect`]).

use batchbuffer::PacketId;
use platform::Platform;

use super::blit::{copy_blit, Blitter, CopyRect, COPY_ROW, MAX_ROWS};
use super::{Event, Queue, FENCE_AT};
use crate::error::{Error, Result};
use crate::memory::Buffer;

/// One side of a rectangular copy: where the region starts and how rows and slices advance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RectSide {
    /// (byte, row, slice) of the region's first byte.
    pub origin: [u64; 3],
    pub row_pitch: u64,
    pub slice_pitch: u64,
}

impl RectSide {
    /// Byte offset of row `y` of slice `z` (relative to the origin).
    fn at(&self, y: u64, z: u64) -> Option<u64> {
        let o = self.origin;
        let row = o[1].checked_add(y)?.checked_mul(self.row_pitch)?;
        let slice = o[2].checked_add(z)?.checked_mul(self.slice_pitch)?;
        o[0].checked_add(row)?.checked_add(slice)
    }

    /// The bytes the region spans: [first, end).
    fn extent(&self, region: [u64; 3]) -> Option<(u64, u64)> {
        let first = self.at(0, 0)?;
        let last = self.at(region[1] - 1, region[2] - 1)?;
        Some((first, last.checked_add(region[0])?))
    }
}

/// The largest pitch a blitter's copy packet holds.
fn max_pitch(b: Blitter) -> u64 {
    match b {
        Blitter::Block => 1 << 18,
        Blitter::Legacy => 0x7fff,
    }
}

/// How many blits a region takes.
fn pieces(region: [u64; 3]) -> u64 {
    region[0].div_ceil(COPY_ROW) * region[1].div_ceil(MAX_ROWS) * region[2]
}

/// Dwords MI_FLUSH_DW and MI_BATCH_BUFFER_END add to a blit batch (at most).
const TAIL_DWORDS: u64 = 8;

/// Whether the blitter of `p` can copy `region` between these sides in one batch.
fn expressible(p: Platform, s: &RectSide, d: &RectSide, region: [u64; 3]) -> bool {
    let Some(b) = Blitter::of(p) else {
        return false;
    };
    let id = match b {
        Blitter::Block => PacketId::XyBlockCopyBlt,
        Blitter::Legacy => PacketId::XySrcCopyBlt,
    };
    let Some(per) = id.layout().len_on(p) else {
        return false;
    };
    let per = per as u64;
    let fits = |x: &RectSide| x.row_pitch >= region[0] && x.row_pitch <= max_pitch(b);
    fits(s)
        && fits(d)
        && pieces(region)
            .checked_mul(per)
            .is_some_and(|n| (n + TAIL_DWORDS) * 4 <= FENCE_AT as u64)
}

/// The blits copying `region` from `src` to `dst` (GPU addresses of offset 0 of each side).
fn rect_commands(
    p: Platform,
    src: (u64, &RectSide),
    dst: (u64, &RectSide),
    region: [u64; 3],
    out: &mut Vec<u32>,
) -> Result<()> {
    let b = Blitter::of(p).ok_or_else(|| Error::Argument(format!("{p} has no blitter")))?;
    let overflow = || Error::Argument("a copy rectangle past 64-bit addresses".into());
    for z in 0..region[2] {
        for y in (0..region[1]).step_by(MAX_ROWS as usize) {
            let h = (region[1] - y).min(MAX_ROWS);
            for x in (0..region[0]).step_by(COPY_ROW as usize) {
                let w = (region[0] - x).min(COPY_ROW);
                let s = src.0 + src.1.at(y, z).ok_or_else(overflow)? + x;
                let d = dst.0 + dst.1.at(y, z).ok_or_else(overflow)? + x;
                let rect = CopyRect {
                    src: s,
                    src_pitch: src.1.row_pitch,
                    dst: d,
                    dst_pitch: dst.1.row_pitch,
                    width: w,
                    height: h,
                };
                copy_blit(p, b, &rect, out)?;
            }
        }
    }
    Ok(())
}

impl Queue {
    /// Whether [`Queue::copy_buffer_rect`] runs this copy on the copy engine.
    pub fn blitter_copies_rect(&self, src: &RectSide, dst: &RectSide, region: [u64; 3]) -> bool {
        self.has_blitter()
            && !region.contains(&0)
            && expressible(self.inner.dev.info.platform, src, dst, region)
    }

    /// Queues a copy of `region` (bytes, rows, slices) from `src` to `dst` on the copy engine
    /// after `wait_for`; `None` when the blitter cannot express it (see the module docs).
    /// Both regions must lie inside their buffers and, within one buffer object, their
    /// spans must not overlap.
    pub fn copy_buffer_rect(
        &self,
        src: (&Buffer, RectSide),
        dst: (&Buffer, RectSide),
        region: [u64; 3],
        wait_for: &[Event],
    ) -> Result<Option<Event>> {
        if region.contains(&0) {
            return Err(Error::Argument(format!("a copy region of {region:?}")));
        }
        let span = |what: &str, (b, side): (&Buffer, RectSide)| {
            side.extent(region)
                .filter(|&(_, end)| end <= b.size())
                .map(|(first, end)| (b.gpu_address() + first, b.gpu_address() + end))
                .ok_or_else(|| {
                    Error::Argument(format!(
                        "the {what} region {region:?} at {side:?} leaves its {}-byte buffer",
                        b.size()
                    ))
                })
        };
        let (s0, s1) = span("source", src)?;
        let (d0, d1) = span("destination", dst)?;
        if s0 < d1 && d0 < s1 {
            return Err(Error::Argument(format!(
                "the copy's source {s0:#x}..{s1:#x} and destination {d0:#x}..{d1:#x} overlap"
            )));
        }
        if !self.blitter_copies_rect(&src.1, &dst.1, region) {
            return Ok(None);
        }
        let p = self.inner.dev.info.platform;
        let mut cmds = Vec::new();
        rect_commands(
            p,
            (src.0.gpu_address(), &src.1),
            (dst.0.gpu_address(), &dst.1),
            region,
            &mut cmds,
        )?;
        self.blit(cmds, &[(src.0, false), (dst.0, true)], wait_for)
            .map(Some)
    }
}
