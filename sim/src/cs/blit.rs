//! The copy engine's commands: XY_BLOCK_COPY_BLT and XY_FAST_COLOR_BLT on linear surfaces, and
//! MI_FLUSH_DW's post-sync write; and which engine runs which command.
//!
//! A blit rectangle spans X1..X2 and Y1..Y2, the second corner exclusive (an empty rectangle
//! writes nothing); pixel (x, y) of a linear surface is at `base + y * pitch + x * bytes per
//! pixel`, the pitch field holding the pitch in bytes minus one (as IGT's `intel_blt.c` and the
//! kernel's `intel_migrate.c` program it). The packets carry no clip rectangle: coordinates
//! outside 0..=0x7fff are a bad command, as are tiled, compressed or offset surfaces, which the
//! simulator does not model (reported as unsupported).

use batchbuffer::{
    DestinationAddressType, MiFlushDw, Packet, PacketId, XyBlockCopyBlt, XyFastColorBlt,
};
use platform::Platform;

use super::exec::{bad, Cs, Space};
use crate::device_info::EngineClass;
use crate::gpu::{GpuErrorKind, HangReason};
use crate::mem::VA_MASK;

/// MI_FLUSH_DW post-sync operations (the PRM's encoding; genxml lists no values).
const POST_SYNC_NONE: u32 = 0;
const POST_SYNC_IMMEDIATE: u32 = 1;
const POST_SYNC_TIMESTAMP: u32 = 3;

/// Whether an engine of `class` on `p` executes `packet`. MI commands run everywhere except
/// MI_FLUSH_DW, which genxml gives to the blitter (and, from Xe-HPG on, the compute engine);
/// blitter commands run only on the copy engine, and pipeline state and walkers only on the
/// render and compute engines.
pub(crate) fn engine_runs(p: Platform, class: EngineClass, packet: PacketId) -> bool {
    let blitter = matches!(packet, PacketId::XyBlockCopyBlt | PacketId::XyFastColorBlt);
    let mi = packet.name().starts_with("MI_");
    match (class, packet) {
        (EngineClass::Copy, _) => mi || blitter,
        (EngineClass::Compute, PacketId::MiFlushDw) => p >= Platform::Dg2,
        (_, PacketId::MiFlushDw) => false,
        _ => !blitter,
    }
}

fn unsupported(what: impl Into<String>) -> GpuErrorKind {
    GpuErrorKind::Hang(HangReason::Unsupported {
        packet: what.into(),
    })
}

/// One linear surface of a blit: where its rectangle's first pixel is and its pitch.
struct Surface {
    base: u64,
    pitch: u64,
}

/// A checked rectangle: its first pixel and its size in pixels (possibly empty).
struct Rect {
    x: u64,
    y: u64,
    width: u64,
    height: u64,
}

impl Rect {
    fn new(header: u32, x1: i32, y1: i32, x2: i32, y2: i32) -> Result<Rect, GpuErrorKind> {
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

    fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0
    }
}

/// The fields a linear surface must have: anything else is a surface the simulator lacks.
fn linear(
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
    if aux != 0 || compressed {
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
        };
        self.check_row_fits(cmd[0], &rect, bpp, &dst)?;
        for y in rect.y..rect.y + rect.height {
            let at = dst.base + y * dst.pitch + rect.x * bpp as u64;
            self.ppgtt.write(at, &row)?;
        }
        Ok(())
    }

    fn block_copy(&mut self, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let b = XyBlockCopyBlt::unpack(self.platform, cmd).map_err(|e| bad(cmd[0], e))?;
        if b.special_mode_of_operation != 0 {
            return Err(unsupported("XY_BLOCK_COPY_BLT with a special mode"));
        }
        linear(
            "XY_BLOCK_COPY_BLT destination",
            b.destination_tiling,
            b.destination_auxiliary_surface_mode,
            b.destination_compression_enable,
            b.destination_x_offset,
            b.destination_y_offset,
        )?;
        linear(
            "XY_BLOCK_COPY_BLT source",
            b.source_tiling,
            b.source_auxiliary_surface_mode,
            b.source_compression_enable,
            b.source_x_offset,
            b.source_y_offset,
        )?;
        let rect = Rect::new(
            cmd[0],
            b.destination_x1,
            b.destination_y1,
            b.destination_x2,
            b.destination_y2,
        )?;
        // The source rectangle has the destination's size from (Source X1, Source Y1).
        let from = Rect::new(cmd[0], b.source_x1, b.source_y1, b.source_x1, b.source_y1)?;
        if rect.is_empty() {
            return Ok(());
        }
        let bpp = b.color_depth.bytes();
        let dst = Surface {
            base: b.destination_base_address & VA_MASK,
            pitch: u64::from(b.destination_pitch) + 1,
        };
        let src = Surface {
            base: b.source_base_address & VA_MASK,
            pitch: u64::from(b.source_pitch) + 1,
        };
        let src_rect = Rect {
            x: from.x,
            y: from.y,
            ..rect
        };
        self.check_row_fits(cmd[0], &rect, bpp, &dst)?;
        self.check_row_fits(cmd[0], &src_rect, bpp, &src)?;
        let mut row = vec![0u8; rect.width as usize * bpp];
        for dy in 0..rect.height {
            let s = src.base + (from.y + dy) * src.pitch + from.x * bpp as u64;
            let d = dst.base + (rect.y + dy) * dst.pitch + rect.x * bpp as u64;
            self.ppgtt.read(s, &mut row)?;
            self.ppgtt.write(d, &row)?;
        }
        Ok(())
    }

    /// A row must fit in its pitch (rows of a linear surface do not overlap) and the surface in
    /// the 48-bit address space.
    fn check_row_fits(
        &self,
        header: u32,
        rect: &Rect,
        bpp: usize,
        s: &Surface,
    ) -> Result<(), GpuErrorKind> {
        let right = (rect.x + rect.width) * bpp as u64;
        if right > s.pitch {
            return Err(bad(
                header,
                format!(
                    "blit row ends at byte {right}, past the surface pitch of {} bytes",
                    s.pitch
                ),
            ));
        }
        let end = s.base + (rect.y + rect.height) * s.pitch;
        if end > 1 << 48 {
            return Err(bad(
                header,
                format!("blit surface ends at {end:#x}, past 48 bits"),
            ));
        }
        Ok(())
    }
}
