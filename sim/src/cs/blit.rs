//! The copy engine's commands: XY_FAST_COLOR_BLT on linear surfaces and MI_FLUSH_DW's post-sync
//! write (XY_BLOCK_COPY_BLT is `block_copy.rs`, Gen9/Gen11's packets `blit_legacy.rs`); which
//! engine runs which command; the rectangle checks and the row copy the copies share.
//!
//! A blit rectangle spans X1..X2 and Y1..Y2, the second corner exclusive (an empty rectangle
//! writes nothing); pixel (x, y) of a linear surface is at `base + y * pitch + x * bytes per
//! pixel`, the pitch field holding the pitch in bytes minus one (as IGT's `intel_blt.c` and the
//! kernel's `intel_migrate.c` program it); a tiled surface's byte `x * bytes per pixel` of row
//! `y` is placed by `mem::tiling`. The packets carry no clip rectangle: coordinates outside
//! 0..=0x7fff are a bad command.

use batchbuffer::{DestinationAddressType, MiFlushDw, Packet, PacketId, XyFastColorBlt};
use platform::Platform;
// The Gen9/Gen11 packets' handlers live in `blit_legacy.rs`.
use super::exec::{bad, Cs, Space};
use crate::device_info::DeviceInfo;
use crate::gpu_error::{GpuErrorKind, HangReason};
use crate::mem::tiling::Tiling;
use crate::mem::VA_MASK;

/// MI_FLUSH_DW post-sync operations (the PRM's encoding; genxml lists no values).
const POST_SYNC_NONE: u32 = 0;
const POST_SYNC_IMMEDIATE: u32 = 1;
const POST_SYNC_TIMESTAMP: u32 = 3;

pub(super) fn unsupported(what: impl Into<String>) -> GpuErrorKind {
    GpuErrorKind::Hang(HangReason::Unsupported {
        packet: what.into(),
    })
}

/// One surface of a blit: its base, pitch and layout, and the slice within its tiles the
/// blit's rows lie in (a 3D Tile-64 surface's volume tiles; 0 for flat ones).
pub(super) struct Surface {
    pub(super) base: u64,
    pub(super) pitch: u64,
    pub(super) tiling: Tiling,
    pub(super) slice: u64,
}

impl Surface {
    /// The linear address of pixel `x` of row `y` at `bpp` bytes a pixel.
    pub(super) fn linear_at(&self, x: u64, y: u64, bpp: usize) -> u64 {
        self.base + y * self.pitch + x * bpp as u64
    }
}

/// A checked rectangle: its first pixel and its size in pixels (possibly empty).
pub(super) struct Rect {
    pub(super) x: u64,
    pub(super) y: u64,
    pub(super) width: u64,
    pub(super) height: u64,
}

impl Rect {
    pub(super) fn new(
        header: u32,
        x1: i32,
        y1: i32,
        x2: i32,
        y2: i32,
    ) -> Result<Rect, GpuErrorKind> {
        if x1 < 0 || y1 < 0 || x2 < 0 || y2 < 0 {
            return Err(bad(
                header,
                format!("negative blit coordinates ({x1}, {y1})..({x2}, {y2})"),
            ));
        }
        Ok(Rect {
            x: x1 as u64,
            y: y1 as u64,
            width: (x2 - x1).max(0) as u64,
            height: (y2 - y1).max(0) as u64,
        })
    }

    pub(super) fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0
    }
}

/// The blitter's Auxiliary Surface Mode for a CCS-compressed surface (genxml gen125
/// `XY_AUX_CCS_E`); 0 is none.
const AUX_CCS_E: u32 = 5;

/// Whether a surface with auxiliary surface mode `aux` and compression `compressed` can be
/// used on `p`: uncompressed, or compressed through flat CCS ([`DeviceInfo::flat_ccs`]: CCS_E
/// or no auxiliary mode), which leaves the data as the simulator keeps it.
pub(crate) fn plain_data(p: Platform, aux: u32, compressed: bool) -> bool {
    let flat = DeviceInfo::get(p).flat_ccs;
    match aux {
        0 => !compressed || flat,
        AUX_CCS_E => flat,
        _ => false,
    }
}

/// The fields a linear surface must have: anything else is a surface the simulator lacks.
fn linear(
    p: Platform,
    name: &str,
    tiling: u32,
    aux: u32,
    compressed: bool,
    x_offset: u32,
    y_offset: u32,
) -> Result<(), GpuErrorKind> {
    if tiling != 0 {
        return Err(unsupported(format!("{name} with a tiled surface")));
    }
    plain(p, name, aux, compressed, x_offset, y_offset)
}

/// A surface of plain data ([`plain_data`]) without X/Y offsets.
fn plain(
    p: Platform,
    name: &str,
    aux: u32,
    compressed: bool,
    x_offset: u32,
    y_offset: u32,
) -> Result<(), GpuErrorKind> {
    if !plain_data(p, aux, compressed) {
        return Err(unsupported(format!("{name} with a compressed surface")));
    }
    if x_offset != 0 || y_offset != 0 {
        return Err(unsupported(format!("{name} with a surface X/Y offset")));
    }
    Ok(())
}

impl Cs<'_> {
    /// Executes a copy-engine command.
    pub(super) fn blit(
        &mut self,
        space: Space,
        packet: PacketId,
        cmd: &[u32],
    ) -> Result<(), GpuErrorKind> {
        match packet {
            PacketId::MiFlushDw => self.flush_dw(space, cmd),
            PacketId::XyFastColorBlt => self.fast_color(cmd),
            PacketId::XyBlockCopyBlt => self.block_copy(cmd),
            PacketId::XySrcCopyBlt => self.src_copy(cmd),
            PacketId::XyColorBlt => self.color_blt(cmd),
            PacketId::XyFastCopyBlt => self.fast_copy(cmd),
            other => Err(bad(
                cmd[0],
                format!("{} is not a blitter command", other.name()),
            )),
        }
    }

    fn flush_dw(&mut self, space: Space, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        // The 4-dword form (DWord Length 2) stores a dword, the 5-dword form a qword; the short
        // form is unpacked as the long one with its fifth dword zero.
        let mut full = [0u32; 5];
        full[..cmd.len().min(5)].copy_from_slice(&cmd[..cmd.len().min(5)]);
        full[0] = (full[0] & !0x3f) | 3;
        let f = MiFlushDw::unpack(self.platform, &full).map_err(|e| bad(cmd[0], e))?;
        let value = match f.post_sync_operation {
            POST_SYNC_NONE => return Ok(()),
            POST_SYNC_IMMEDIATE => f.immediate_data,
            POST_SYNC_TIMESTAMP => self.clock.ticks(),
            op => return Err(bad(cmd[0], format!("reserved post-sync operation {op}"))),
        };
        if f.store_data_index != 0 {
            return Err(unsupported("MI_FLUSH_DW with Store Data Index"));
        }
        let global = f.destination_address_type == DestinationAddressType::Ggtt;
        let mem = self.target(space, global);
        if cmd.len() == 4 {
            mem.write_u32(f.address, value as u32)?;
        } else {
            mem.write_u64(f.address, value)?;
        }
        Ok(())
    }

    fn fast_color(&mut self, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let b = XyFastColorBlt::unpack(self.platform, cmd).map_err(|e| bad(cmd[0], e))?;
        if b.special_mode_of_operation != 0 {
            return Err(unsupported("XY_FAST_COLOR_BLT with a special mode"));
        }
        linear(
            self.platform,
            "XY_FAST_COLOR_BLT",
            b.destination_tiling,
            b.destination_auxiliary_surface_mode,
            b.destination_compression_enable,
            b.destination_x_offset,
            b.destination_y_offset,
        )?;
        let rect = Rect::new(
            cmd[0],
            b.destination_x1,
            b.destination_y1,
            b.destination_x2,
            b.destination_y2,
        )?;
        if rect.is_empty() {
            return Ok(());
        }
        let bpp = b.color_depth.bytes();
        let colour: Vec<u8> = b.fill_color.iter().flat_map(|d| d.to_le_bytes()).collect();
        let row: Vec<u8> = colour[..bpp]
            .iter()
            .copied()
            .cycle()
            .take(rect.width as usize * bpp)
            .collect();
        let dst = Surface {
            base: b.destination_base_address & VA_MASK,
            pitch: u64::from(b.destination_pitch) + 1,
            tiling: Tiling::Linear,
            slice: 0,
        };
        self.check_row_fits(cmd[0], &rect, bpp, &dst)?;
        for y in rect.y..rect.y + rect.height {
            self.ppgtt.write(dst.linear_at(rect.x, y, bpp), &row)?;
        }
        Ok(())
    }

    /// The destination rectangle of a copy (X1, Y1, X2, Y2) and the source rectangle of its
    /// size from `source` (X1, Y1), each checked against its surface; `None` when empty.
    pub(super) fn copy_rects(
        &self,
        header: u32,
        [x1, y1, x2, y2]: [i32; 4],
        source: (i32, i32),
        bpp: usize,
        dst: &Surface,
        src: &Surface,
    ) -> Result<Option<(Rect, Rect)>, GpuErrorKind> {
        let rect = Rect::new(header, x1, y1, x2, y2)?;
        let from = Rect::new(header, source.0, source.1, source.0, source.1)?;
        if rect.is_empty() {
            return Ok(None);
        }
        let from = Rect {
            x: from.x,
            y: from.y,
            ..rect
        };
        self.check_row_fits(header, &rect, bpp, dst)?;
        self.check_row_fits(header, &from, bpp, src)?;
        Ok(Some((rect, from)))
    }

    /// Copies rectangle `from` of `src` to `rect` of `dst` (same size), row by row through
    /// each surface's tiling.
    pub(super) fn copy_rows(
        &mut self,
        src: &Surface,
        from: &Rect,
        dst: &Surface,
        rect: &Rect,
        bpp: usize,
    ) -> Result<(), GpuErrorKind> {
        let mut row = vec![0u8; rect.width as usize * bpp];
        for dy in 0..rect.height {
            let (sx, sy) = (from.x * bpp as u64, from.y + dy);
            src.tiling
                .pieces(src.pitch, sx, sy, src.slice, row.len(), |at, start, n| {
                    self.ppgtt.read(src.base + at, &mut row[start..start + n])
                })?;
            let (dx, dy) = (rect.x * bpp as u64, rect.y + dy);
            dst.tiling
                .pieces(dst.pitch, dx, dy, dst.slice, row.len(), |at, start, n| {
                    self.ppgtt.write(dst.base + at, &row[start..start + n])
                })?;
        }
        Ok(())
    }

    /// A row must fit in its pitch (rows of a linear surface do not overlap) and the surface in
    /// the 48-bit address space.
    pub(super) fn check_row_fits(
        &self,
        header: u32,
        rect: &Rect,
        bpp: usize,
        s: &Surface,
    ) -> Result<(), GpuErrorKind> {
        let right = (rect.x + rect.width) * bpp as u64;
        if right > s.pitch || !s.tiling.pitch_fits(s.pitch) {
            return Err(bad(
                header,
                format!(
                    "blit row ends at byte {right}, past the surface pitch of {} bytes (or the \
                     pitch is not a whole number of {:?} tiles)",
                    s.pitch, s.tiling
                ),
            ));
        }
        let (_, tile_rows) = s.tiling.tile_size();
        let rows = (rect.y + rect.height).next_multiple_of(tile_rows);
        let end = s.base + rows * s.pitch * s.tiling.tile_depth();
        if end > 1 << 48 {
            return Err(bad(
                header,
                format!("blit surface ends at {end:#x}, past 48 bits"),
            ));
        }
        Ok(())
    }
}
