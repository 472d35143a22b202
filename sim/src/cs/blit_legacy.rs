//! The legacy blitter's XY_SRC_COPY_BLT, XY_COLOR_BLT and XY_FAST_COPY_BLT on linear
//! surfaces (`batchbuffer::packets::blit_legacy` names their sources).
//!
//! Rectangles are as in `blit.rs` (X1..X2, Y1..Y2, second corner exclusive), but the pitch
//! is in bytes as programmed (not minus one). XY_SRC_COPY_BLT and XY_COLOR_BLT combine
//! pattern (the solid colour), source and destination bytes through the 8-bit raster
//! operation (bit `4P + 2S + D` of it is the result for those input bits: 0xCC copies the
//! source, 0xF0 the pattern); at 32 bpp only the bytes their Write RGB (0-2) and Write
//! Alpha (3) bits select are written. XY_SRC_COPY_BLT has no pattern and XY_COLOR_BLT no
//! source: a raster operation that reads them is refused as unsupported, as are tiled
//! surfaces, negative pitches and the clipping those packets take from XY_SETUP_CLIP_BLT.

use batchbuffer::{Packet, XyColorBlt, XyFastCopyBlt, XyLegacyColorDepth, XySrcCopyBlt};

use super::blit::{unsupported, Rect, Surface};
use super::exec::{bad, Cs};
use crate::gpu_error::GpuErrorKind;
use crate::mem::tiling::Tiling;
use crate::mem::VA_MASK;

/// Which of pattern, source and destination an 8-bit raster operation reads.
struct RopInputs {
    pattern: bool,
    source: bool,
    destination: bool,
}

fn rop_inputs(rop: u8) -> RopInputs {
    RopInputs {
        pattern: (rop >> 4) & 0x0f != rop & 0x0f,
        source: (rop >> 2) & 0x33 != rop & 0x33,
        destination: (rop >> 1) & 0x55 != rop & 0x55,
    }
}

/// The raster operation `rop` applied bitwise to pattern, source and destination bytes.
fn rop_byte(rop: u8, p: u8, s: u8, d: u8) -> u8 {
    (0..8)
        .filter(|i| rop >> i & 1 == 1)
        .map(|i| {
            let pick = |bit: u8, v: u8| if i & bit != 0 { v } else { !v };
            pick(4, p) & pick(2, s) & pick(1, d)
        })
        .fold(0, |acc, m| acc | m)
}

/// The surface at `base` with a programmed pitch in bytes; a negative pitch (rows going up
/// in memory) is not modelled.
fn surface(what: &str, base: u64, pitch: i32) -> Result<Surface, GpuErrorKind> {
    if pitch < 0 {
        return Err(unsupported(format!("{what} with a negative pitch")));
    }
    Ok(Surface {
        base: base & VA_MASK,
        pitch: pitch as u64,
        tiling: Tiling::Linear,
        slice: 0,
    })
}

/// Which bytes of a pixel are written: all below 32 bpp, else those the RGB/alpha bits pick.
fn byte_mask(depth: XyLegacyColorDepth, rgb: bool, alpha: bool) -> [bool; 4] {
    match depth {
        XyLegacyColorDepth::Bpp32 => [rgb, rgb, rgb, alpha],
        _ => [true; 4],
    }
}

impl Cs<'_> {
    /// XY_SRC_COPY_BLT: destination = ROP(source, destination), row by row.
    pub(super) fn src_copy(&mut self, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let b = XySrcCopyBlt::unpack(self.platform, cmd).map_err(|e| bad(cmd[0], e))?;
        const NAME: &str = "XY_SRC_COPY_BLT";
        if b.destination_tiling_enable || b.source_tiling_enable {
            return Err(unsupported(format!("{NAME} with a tiled surface")));
        }
        let rop = b.raster_operation as u8;
        let uses = rop_inputs(rop);
        if uses.pattern {
            return Err(unsupported(format!(
                "{NAME} with raster operation {rop:#04x}, which reads a pattern"
            )));
        }
        let bpp = b.color_depth.bytes();
        let dst = surface(NAME, b.destination_base_address, b.destination_pitch)?;
        let src = surface(NAME, b.source_base_address, b.source_pitch)?;
        let corners = [
            b.destination_x1,
            b.destination_y1,
            b.destination_x2,
            b.destination_y2,
        ];
        let Some((rect, from)) =
            self.copy_rects(cmd[0], corners, (b.source_x1, b.source_y1), bpp, &dst, &src)?
        else {
            return Ok(());
        };
        let mask = byte_mask(b.color_depth, b.write_rgb, b.write_alpha);
        let mut s_row = vec![0u8; rect.width as usize * bpp];
        let mut d_row = vec![0u8; s_row.len()];
        for dy in 0..rect.height {
            let s = src.linear_at(from.x, from.y + dy, bpp);
            let d = dst.linear_at(rect.x, rect.y + dy, bpp);
            if uses.source {
                self.ppgtt.read(s, &mut s_row)?;
            }
            self.combine(d, &mut d_row, bpp, mask, uses.destination, |i, d| {
                rop_byte(rop, 0, s_row[i], d)
            })?;
        }
        Ok(())
    }

    /// XY_COLOR_BLT: destination = ROP(colour, destination).
    pub(super) fn color_blt(&mut self, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let b = XyColorBlt::unpack(self.platform, cmd).map_err(|e| bad(cmd[0], e))?;
        const NAME: &str = "XY_COLOR_BLT";
        if b.destination_tiling_enable {
            return Err(unsupported(format!("{NAME} with a tiled surface")));
        }
        let rop = b.raster_operation as u8;
        let uses = rop_inputs(rop);
        if uses.source {
            return Err(unsupported(format!(
                "{NAME} with raster operation {rop:#04x}, which reads a source"
            )));
        }
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
        let dst = surface(NAME, b.destination_base_address, b.destination_pitch)?;
        self.check_row_fits(cmd[0], &rect, bpp, &dst)?;
        let colour = b.solid_pattern_color.to_le_bytes();
        let mask = byte_mask(b.color_depth, b.write_rgb, b.write_alpha);
        let mut d_row = vec![0u8; rect.width as usize * bpp];
        for dy in 0..rect.height {
            let d = dst.linear_at(rect.x, rect.y + dy, bpp);
            self.combine(d, &mut d_row, bpp, mask, uses.destination, |i, d| {
                rop_byte(rop, colour[i % bpp], 0, d)
            })?;
        }
        Ok(())
    }

    /// XY_FAST_COPY_BLT: a plain copy of 8- to 128-bit pixels.
    pub(super) fn fast_copy(&mut self, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let b = XyFastCopyBlt::unpack(self.platform, cmd).map_err(|e| bad(cmd[0], e))?;
        const NAME: &str = "XY_FAST_COPY_BLT";
        if b.destination_tiling != 0
            || b.source_tiling != 0
            || b.destination_tiling_yf
            || b.source_tiling_yf
            || b.destination_tile4
            || b.source_tile4
        {
            return Err(unsupported(format!("{NAME} with a tiled surface")));
        }
        let bpp = b.color_depth.bytes();
        // The pitches are 16-bit fields: no sign to lose.
        let dst = surface(NAME, b.destination_base_address, b.destination_pitch as i32)?;
        let src = surface(NAME, b.source_base_address, b.source_pitch as i32)?;
        let corners = [
            b.destination_x1,
            b.destination_y1,
            b.destination_x2,
            b.destination_y2,
        ];
        let Some((rect, from)) =
            self.copy_rects(cmd[0], corners, (b.source_x1, b.source_y1), bpp, &dst, &src)?
        else {
            return Ok(());
        };
        self.copy_rows(&src, &from, &dst, &rect, bpp)
    }

    /// Writes one destination row at `at`: byte `i` becomes `f(i, old byte)` where `mask`
    /// selects it, and keeps its old value elsewhere. The old bytes are read only when the
    /// operation or the mask needs them.
    fn combine(
        &mut self,
        at: u64,
        row: &mut [u8],
        bpp: usize,
        mask: [bool; 4],
        reads_destination: bool,
        f: impl Fn(usize, u8) -> u8,
    ) -> Result<(), GpuErrorKind> {
        let partial = mask.iter().any(|m| !m);
        if reads_destination || partial {
            self.ppgtt.read(at, row)?;
        }
        for (i, b) in row.iter_mut().enumerate() {
            if mask[i % bpp % 4] {
                *b = f(i, *b);
            }
        }
        self.ppgtt.write(at, row)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raster_operations_by_their_truth_table() {
        let (p, s, d) = (0xf0u8, 0xccu8, 0xaau8);
        // Applied to the canonical inputs, a ROP yields itself.
        for rop in [0x00, 0xcc, 0xf0, 0x66, 0x88, 0xee, 0x33, 0x55, 0xff, 0x5a] {
            assert_eq!(rop_byte(rop, p, s, d), rop, "{rop:#x}");
        }
        let copy = rop_inputs(0xcc);
        assert!(copy.source && !copy.pattern && !copy.destination);
        let fill = rop_inputs(0xf0);
        assert!(fill.pattern && !fill.source && !fill.destination);
        let xor = rop_inputs(0x66);
        assert!(xor.source && xor.destination && !xor.pattern);
    }
}
