//! Buffer copies and fills on the copy engine.
//!
//! Where the platform's blitter has a packet for the job and the device lists a copy engine,
//! [`Queue::copy_buffer`] and [`Queue::fill_buffer`] queue a batch on it like a dispatch: they
//! return an [`Event`] at once, honour `wait_for` through the kernel, and keep the queue's
//! order with its walkers (each switch of engine waits for the queue's previous submission).
//! Otherwise they return `None` and the caller copies on the CPU once the dependencies have
//! completed. Which packets a platform uses follows from batchbuffer's packet list
//! ([`Blitter::of`]): XY_BLOCK_COPY_BLT and XY_FAST_COLOR_BLT where genxml has them (Gen12,
//! Xe-HPG), else XY_SRC_COPY_BLT and XY_COLOR_BLT (Gen9, Gen11).
//!
//! A copy is rows of 8-bit pixels 16 KiB wide (the surface pitch), then one shorter row; a
//! fill is rows of 4096 pixels as wide as the pattern, whose size must be a colour depth of the
//! fill packet that is a power of two (1, 2, 4, 8 or 16 bytes for XY_FAST_COLOR_BLT; 1, 2 or 4
//! for XY_COLOR_BLT), so any byte address and length works.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use batchbuffer::{
    MiBatchBufferEnd, MiFlushDw, Packet, PacketId, XyBlockCopyBlt, XyColorBlt, XyColorDepth,
    XyFastColorBlt, XyLegacyColorDepth, XySrcCopyBlt,
};
use platform::Platform;

use super::{Event, Fence, Queue, Ready, FENCE_AT, NEXT_FENCE};
use crate::device::Engine;
use crate::error::{Error, Result};
use crate::memory::Buffer;

/// Bytes per row of a copy (8-bit pixels): the surface pitch.
pub(super) const COPY_ROW: u64 = 16 << 10;
/// Pixels per row of a fill.
const FILL_ROW: u64 = 4096;
/// Rows per blit: the coordinates are 16-bit signed.
pub(super) const MAX_ROWS: u64 = 0x7fff;
/// MI_FLUSH_DW post-sync operation "write immediate data".
const WRITE_IMMEDIATE: u32 = 1;

/// The copy and fill packets of a platform's blitter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blitter {
    /// XY_BLOCK_COPY_BLT and XY_FAST_COLOR_BLT (pitch fields hold the pitch minus one).
    Block,
    /// XY_SRC_COPY_BLT and XY_COLOR_BLT (pitch fields hold the pitch, signed 16-bit).
    Legacy,
}

impl Blitter {
    /// The packets `p` has, from batchbuffer's packet list; `None` without either set.
    pub(crate) fn of(p: Platform) -> Option<Blitter> {
        if PacketId::XyBlockCopyBlt.exists_on(p) && PacketId::XyFastColorBlt.exists_on(p) {
            Some(Blitter::Block)
        } else if PacketId::XySrcCopyBlt.exists_on(p) && PacketId::XyColorBlt.exists_on(p) {
            Some(Blitter::Legacy)
        } else {
            None
        }
    }

    /// Whether the fill packet has a colour depth of `n` bytes.
    pub(crate) fn fills(self, n: usize) -> bool {
        match self {
            Blitter::Block => depth_of(n).is_some(),
            Blitter::Legacy => legacy_depth_of(n).is_some(),
        }
    }
}

/// The colour depth of a fill pattern of `n` bytes, if XY_FAST_COLOR_BLT has one.
fn depth_of(n: usize) -> Option<XyColorDepth> {
    Some(match n {
        1 => XyColorDepth::Bpp8,
        2 => XyColorDepth::Bpp16,
        4 => XyColorDepth::Bpp32,
        8 => XyColorDepth::Bpp64,
        16 => XyColorDepth::Bpp128,
        _ => return None,
    })
}

/// The colour depth of a fill pattern of `n` bytes, if XY_COLOR_BLT has one (the 16-bit
/// depths write the colour's bits as they are).
fn legacy_depth_of(n: usize) -> Option<XyLegacyColorDepth> {
    Some(match n {
        1 => XyLegacyColorDepth::Bpp8,
        2 => XyLegacyColorDepth::Bpp16Rgb565,
        4 => XyLegacyColorDepth::Bpp32,
        _ => return None,
    })
}

/// The raster operation that writes the source (XY_SRC_COPY_BLT).
const ROP_SOURCE: u32 = 0xcc;
/// The raster operation that writes the pattern, a solid colour (XY_COLOR_BLT).
const ROP_PATTERN: u32 = 0xf0;

pub(super) fn put(p: Platform, out: &mut Vec<u32>, pk: &impl Packet) -> Result<()> {
    let mut buf = [0u32; 32];
    let n = pk
        .pack(p, &mut buf)
        .map_err(|e| Error::Argument(e.to_string()))?;
    out.extend_from_slice(&buf[..n]);
    Ok(())
}

/// One blit of 8-bit pixels: `width` bytes by `height` rows, each side with its own pitch.
pub(super) struct CopyRect {
    pub src: u64,
    pub src_pitch: u64,
    pub dst: u64,
    pub dst_pitch: u64,
    pub width: u64,
    pub height: u64,
}

/// Appends the copy packet of `blitter` for `r` (the caller keeps width, height and pitches
/// within the packet's fields).
pub(super) fn copy_blit(
    p: Platform,
    blitter: Blitter,
    r: &CopyRect,
    out: &mut Vec<u32>,
) -> Result<()> {
    match blitter {
        Blitter::Block => put(
            p,
            out,
            &XyBlockCopyBlt {
                color_depth: XyColorDepth::Bpp8,
                destination_pitch: (r.dst_pitch - 1) as u32,
                destination_x2: r.width as i32,
                destination_y2: r.height as i32,
                destination_base_address: r.dst,
                source_pitch: (r.src_pitch - 1) as u32,
                source_base_address: r.src,
                ..Default::default()
            },
        ),
        Blitter::Legacy => put(
            p,
            out,
            &XySrcCopyBlt {
                raster_operation: ROP_SOURCE,
                color_depth: XyLegacyColorDepth::Bpp8,
                destination_pitch: r.dst_pitch as i32,
                destination_x2: r.width as i32,
                destination_y2: r.height as i32,
                destination_base_address: r.dst,
                source_pitch: r.src_pitch as i32,
                source_base_address: r.src,
                ..Default::default()
            },
        ),
    }
}

/// Rows of `row` units from `len` units: (full rows, the last row's length).
fn rows(len: u64, row: u64) -> (u64, u64) {
    (len / row, len % row)
}

/// Blits copying `len` bytes from `src` to `dst`.
pub(crate) fn copy_commands(
    p: Platform,
    src: u64,
    dst: u64,
    len: u64,
    out: &mut Vec<u32>,
) -> Result<()> {
    let blitter =
        Blitter::of(p).ok_or_else(|| Error::Argument(format!("{p} has no blitter copy packet")))?;
    let (full, tail) = rows(len, COPY_ROW);
    let blit = |at: u64, height: u64, width: u64, out: &mut Vec<u32>| {
        let rect = CopyRect {
            src: src + at,
            src_pitch: COPY_ROW,
            dst: dst + at,
            dst_pitch: COPY_ROW,
            width,
            height,
        };
        copy_blit(p, blitter, &rect, out)
    };
    let mut done = 0;
    while done < full {
        let h = (full - done).min(MAX_ROWS);
        blit(done * COPY_ROW, h, COPY_ROW, out)?;
        done += h;
    }
    if tail > 0 {
        blit(full * COPY_ROW, 1, tail, out)?;
    }
    Ok(())
}

/// Blits filling `len` bytes at `dst` with `pattern` (whose length is a colour depth of the
/// platform's fill packet, and divides `len`).
pub(crate) fn fill_commands(
    p: Platform,
    dst: u64,
    len: u64,
    pattern: &[u8],
    out: &mut Vec<u32>,
) -> Result<()> {
    let blitter =
        Blitter::of(p).ok_or_else(|| Error::Argument(format!("{p} has no blitter fill packet")))?;
    if !blitter.fills(pattern.len()) {
        return Err(Error::Argument(format!(
            "no blitter colour depth of {} bytes on {p}",
            pattern.len()
        )));
    }
    let bpp = pattern.len() as u64;
    let mut colour = [0u32; 4];
    for (i, b) in pattern.iter().enumerate() {
        colour[i / 4] |= u32::from(*b) << (8 * (i % 4));
    }
    let (full, tail) = rows(len / bpp, FILL_ROW);
    let blit = |at: u64, height: u64, width: u64, out: &mut Vec<u32>| match blitter {
        Blitter::Block => put(
            p,
            out,
            &XyFastColorBlt {
                color_depth: depth_of(pattern.len()).unwrap_or_default(),
                destination_pitch: (FILL_ROW * bpp - 1) as u32,
                destination_x2: width as i32,
                destination_y2: height as i32,
                destination_base_address: dst + at,
                fill_color: colour,
                ..Default::default()
            },
        ),
        Blitter::Legacy => put(
            p,
            out,
            &XyColorBlt {
                write_rgb: true,
                write_alpha: true,
                raster_operation: ROP_PATTERN,
                color_depth: legacy_depth_of(pattern.len()).unwrap_or_default(),
                destination_pitch: (FILL_ROW * bpp) as i32,
                destination_x2: width as i32,
                destination_y2: height as i32,
                destination_base_address: dst + at,
                solid_pattern_color: colour[0],
                ..Default::default()
            },
        ),
    };
    let mut done = 0;
    while done < full {
        let h = (full - done).min(MAX_ROWS);
        blit(done * FILL_ROW * bpp, h, FILL_ROW, out)?;
        done += h;
    }
    if tail > 0 {
        blit(full * FILL_ROW * bpp, 1, tail, out)?;
    }
    Ok(())
}

fn check_range(what: &str, b: &Buffer, offset: u64, len: u64) -> Result<()> {
    match offset.checked_add(len) {
        Some(end) if end <= b.size() => Ok(()),
        _ => Err(Error::OutOfRange(format!(
            "{what}: {len} bytes at offset {offset} leave the {}-byte buffer",
            b.size()
        ))),
    }
}

impl Queue {
    /// Whether this queue's device runs blits (see the module docs).
    pub fn has_blitter(&self) -> bool {
        let dev = &self.inner.dev;
        Blitter::of(dev.info.platform).is_some() && dev.backend().has_copy_engine()
    }

    /// Whether [`Queue::fill_buffer`] runs a fill with a pattern of `pattern_len` bytes on the
    /// copy engine (the device has a blitter whose fill packet has that colour depth).
    pub fn blitter_fills(&self, pattern_len: usize) -> bool {
        self.has_blitter()
            && Blitter::of(self.inner.dev.info.platform).is_some_and(|b| b.fills(pattern_len))
    }

    /// Queues a copy of `len` bytes from `src` at `src_offset` to `dst` at `dst_offset` on the
    /// copy engine after `wait_for`; `None` when the device has no blitter for it (copy on the
    /// CPU after the dependencies). Overlapping ranges of one buffer are refused.
    pub fn copy_buffer(
        &self,
        src: &Buffer,
        src_offset: u64,
        dst: &Buffer,
        dst_offset: u64,
        len: u64,
        wait_for: &[Event],
    ) -> Result<Option<Event>> {
        check_range("copy source", src, src_offset, len)?;
        check_range("copy destination", dst, dst_offset, len)?;
        if len == 0 {
            return Err(Error::Argument("a copy of 0 bytes".into()));
        }
        let (s, d) = (
            src.gpu_address() + src_offset,
            dst.gpu_address() + dst_offset,
        );
        if s < d + len && d < s + len {
            return Err(Error::Argument(format!(
                "the copy's source {s:#x} and destination {d:#x} overlap over {len} bytes"
            )));
        }
        if !self.has_blitter() {
            return Ok(None);
        }
        let p = self.inner.dev.info.platform;
        let mut cmds = Vec::new();
        copy_commands(p, s, d, len, &mut cmds)?;
        self.blit(cmds, &[(src, false), (dst, true)], wait_for)
            .map(Some)
    }

    /// Queues a fill of `len` bytes of `dst` from `offset` with `pattern` on the copy engine
    /// after `wait_for`; `None` when the device has no blitter for it, or the pattern has no
    /// colour depth of the platform's fill packet (fill on the CPU after the dependencies). `offset` and `len` are
    /// multiples of the pattern's size.
    pub fn fill_buffer(
        &self,
        dst: &Buffer,
        offset: u64,
        len: u64,
        pattern: &[u8],
        wait_for: &[Event],
    ) -> Result<Option<Event>> {
        check_range("fill", dst, offset, len)?;
        let n = pattern.len() as u64;
        if n == 0 || len == 0 || !offset.is_multiple_of(n) || !len.is_multiple_of(n) {
            return Err(Error::Argument(format!(
                "a fill of {len} bytes at {offset} with a {n}-byte pattern"
            )));
        }
        if !self.blitter_fills(pattern.len()) {
            return Ok(None);
        }
        let p = self.inner.dev.info.platform;
        let mut cmds = Vec::new();
        fill_commands(p, dst.gpu_address() + offset, len, pattern, &mut cmds)?;
        self.blit(cmds, &[(dst, true)], wait_for).map(Some)
    }

    /// Submits blitter commands on the copy engine, with MI_FLUSH_DW writing the fence.
    pub(super) fn blit(
        &self,
        mut cmds: Vec<u32>,
        buffers: &[(&Buffer, bool)],
        wait_for: &[Event],
    ) -> Result<Event> {
        let q = &self.inner;
        let p = q.dev.info.platform;
        // The sanitizer's initcheck: the destination counts as written (all of it: a copy or
        // fill never reads what it overwrites).
        for (b, write) in buffers {
            if *write {
                b.mark_written(0, b.size());
            }
        }
        let mut st = q.lock();
        let arena = q.arena(&mut st)?;
        // The blit overwrites whatever dispatch batch the arena held.
        crate::batch_memo::ArenaMemo::forget(&mut st.memos, &arena);
        let fence_value = NEXT_FENCE.fetch_add(1, Ordering::Relaxed);
        put(
            p,
            &mut cmds,
            &MiFlushDw {
                post_sync_operation: WRITE_IMMEDIATE,
                address: arena.gpu_address + FENCE_AT as u64,
                immediate_data: fence_value,
                ..Default::default()
            },
        )?;
        put(p, &mut cmds, &MiBatchBufferEnd::default())?;
        if cmds.len() * 4 > FENCE_AT {
            st.free_arenas.push(arena);
            return Err(Error::OutOfRange(format!(
                "a blit batch of {} dwords does not fit the arena",
                cmds.len()
            )));
        }
        let bytes: Vec<u8> = cmds.iter().flat_map(|d| d.to_le_bytes()).collect();
        arena.map.write(0, &bytes)?;
        arena.map.store_u64(FENCE_AT, 0)?;
        let mut objects = st.spare_objects();
        objects.extend(arena.exec_object(true));
        let mut keep = st.spare_keep();
        for (i, (b, write)) in buffers.iter().enumerate() {
            // Two ranges of one BO (sub-buffers) are one object, written if either is.
            if buffers[..i].iter().any(|(o, _)| Arc::ptr_eq(&o.bo, &b.bo)) {
                continue;
            }
            let write = buffers.iter().any(|(o, w)| *w && Arc::ptr_eq(&o.bo, &b.bo)) || *write;
            objects.extend(b.bo.exec_object(write));
            keep.push(b.bo.clone());
        }
        let ready = Ready {
            engine: Engine::Copy,
            objects,
            fence: Fence {
                bo: arena.clone(),
                offset: FENCE_AT,
                value: fence_value,
                ticks: None,
            },
            keep,
            arena: Some(arena),
            isa: None,
        };
        q.enqueue(&mut st, ready, wait_for)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchbuffer::identify;

    /// The commands' packets and lengths as `identify` reads them back.
    fn packets(p: Platform, dw: &[u32]) -> Vec<PacketId> {
        let mut at = 0;
        let mut out = Vec::new();
        while at < dw.len() {
            let id = identify(p, &dw[at..]).unwrap();
            out.push(id.packet);
            at += id.len;
        }
        out
    }

    #[test]
    fn a_copy_is_full_rows_then_a_tail() {
        let p = Platform::Dg2;
        let mut out = Vec::new();
        copy_commands(p, 0x1000, 0x9_0000, 3 * COPY_ROW + 5, &mut out).unwrap();
        assert_eq!(packets(p, &out), [PacketId::XyBlockCopyBlt; 2]);
        let first = XyBlockCopyBlt::unpack(p, &out).unwrap();
        assert_eq!(
            (first.destination_x2, first.destination_y2),
            (COPY_ROW as i32, 3)
        );
        let second = XyBlockCopyBlt::unpack(p, &out[22..]).unwrap();
        assert_eq!((second.destination_x2, second.destination_y2), (5, 1));
        assert_eq!(second.source_base_address, 0x1000 + 3 * COPY_ROW);
        assert_eq!(second.destination_base_address, 0x9_0000 + 3 * COPY_ROW);
    }

    #[test]
    fn a_fill_packs_the_pattern_little_endian() {
        let p = Platform::Tgllp;
        let mut out = Vec::new();
        fill_commands(p, 0x2000, 16 * 3, &[1, 2, 3, 4, 5, 6, 7, 8], &mut out).unwrap();
        let f = XyFastColorBlt::unpack(p, &out).unwrap();
        assert_eq!(f.fill_color, [0x0403_0201, 0x0807_0605, 0, 0]);
        assert_eq!(f.color_depth, XyColorDepth::Bpp64);
        assert_eq!((f.destination_x2, f.destination_y2), (6, 1));
        assert!(fill_commands(p, 0, 32, &[0; 32], &mut out).is_err());
    }

    #[test]
    fn gen9_and_gen11_copy_and_fill_with_the_legacy_packets() {
        for p in [Platform::Skl, Platform::Icllp] {
            assert_eq!(Blitter::of(p), Some(Blitter::Legacy));
            let mut out = Vec::new();
            copy_commands(p, 0x1000, 0x9_0000, COPY_ROW + 5, &mut out).unwrap();
            assert_eq!(packets(p, &out), [PacketId::XySrcCopyBlt; 2]);
            let first = XySrcCopyBlt::unpack(p, &out).unwrap();
            assert_eq!(first.destination_pitch, COPY_ROW as i32);
            assert_eq!(first.raster_operation, 0xcc);
            let mut out = Vec::new();
            fill_commands(p, 0x2000, 8, &[1, 2, 3, 4], &mut out).unwrap();
            let f = XyColorBlt::unpack(p, &out).unwrap();
            assert_eq!(f.solid_pattern_color, 0x0403_0201);
            assert!(f.write_rgb && f.write_alpha);
            assert_eq!((f.destination_x2, f.destination_y2), (2, 1));
            // XY_COLOR_BLT has no 64- or 128-bit depth.
            assert!(!Blitter::Legacy.fills(8) && !Blitter::Legacy.fills(16));
            assert!(fill_commands(p, 0, 32, &[0; 8], &mut out).is_err());
        }
        for p in [Platform::Tgllp, Platform::Dg2] {
            assert_eq!(Blitter::of(p), Some(Blitter::Block));
        }
    }
}
