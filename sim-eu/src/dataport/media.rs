//! Media block read/write on 2D surfaces (the image side of `intel_sub_group_block_read/write`).
//!
//! Header: DWord 0 the X offset in bytes, DWord 1 the Y offset in rows (both signed), DWord 2
//! the block width minus one in bytes \[5:0\] and height minus one in rows \[21:16\]. In the
//! registers each row takes the width rounded up to a power of two, rows packed in order.
//!
//! A row holds Width + 1 units of the texel size, but at least a DWord: Intel's runtime binds
//! an image that `intel_sub_group_media_block_read/write` use with Width = its row's DWord
//! count and its 8- or 16-bit format kept (NEO's `setWidthForMediaBlockSurfaceState`: an R8
//! image 256 texels wide gets Width 63), and the images of `intel_sub_group_block_read/write`
//! with Width in texels (a 16-texel RGBA16 image keeps Width 15), and both give the extensions'
//! answers on hardware. Bounds follow cl_intel_subgroups ("bounds-check to the image width in
//! units of uints"): a read outside the surface returns the nearest edge uint (clamp to edge), a
//! write outside it is dropped, both decided per uint. Rows are placed by the surface's tiling. Reads "may read from any arbitrary byte offset": a uint
//! of the block that lies inside its row is read at its own byte address, aligned or not.

use super::{Memory, Msg};
use crate::error::EuErrorKind;
use crate::regfile::REG_BYTES;

struct Block {
    x: i64,
    y: i64,
    width: usize,
    height: usize,
    pitch: usize,
}

fn block(msg: &Msg) -> Block {
    let width = (msg.u32_at(8) & 0x3f) as usize + 1;
    let height = ((msg.u32_at(8) >> 16) & 0x3f) as usize + 1;
    Block {
        x: i64::from(msg.u32_at(0) as i32),
        y: i64::from(msg.u32_at(4) as i32),
        width,
        height,
        pitch: width.next_power_of_two().max(4),
    }
}

/// Bytes in a row of `s` for media block messages: Width + 1 texels of at least a DWord each
/// (buffers: their size).
fn row_bytes(s: &super::Surface) -> u64 {
    s.image.as_ref().map_or(s.width, |i| {
        u64::from(i.size[0]) * u64::from(i.format.bytes_per_element.max(4))
    })
}

pub(super) fn read(msg: &mut Msg, mem: &mut dyn Memory) -> Result<(), EuErrorKind> {
    let s = mem.surface(msg.desc & 0xff)?;
    let b = block(msg);
    let row = row_bytes(&s);
    let row_uints = (row / 4).max(1) as i64;
    let rows = i64::from(s.height.max(1));
    for r in 0..b.height {
        let y = (b.y + r as i64).clamp(0, rows - 1) as u64;
        for k in (0..b.width).step_by(4) {
            let n = 4.min(b.width - k);
            let x = b.x + k as i64;
            // Inside the row: the bytes at x; outside: the edge uint.
            let offset = if x >= 0 && x + n as i64 <= row as i64 {
                x as u64
            } else {
                x.div_euclid(4).clamp(0, row_uints - 1) as u64 * 4
            };
            let mut v = [0u8; 4];
            s.read_place(mem, s.place(offset, y), &mut v[..n])?;
            msg.put(r * b.pitch + k, &v[..n]);
        }
    }
    Ok(())
}

pub(super) fn write(msg: &mut Msg, mem: &mut dyn Memory) -> Result<(), EuErrorKind> {
    let s = mem.surface(msg.desc & 0xff)?;
    let b = block(msg);
    let row = row_bytes(&s);
    for r in 0..b.height {
        let y = b.y + r as i64;
        if y < 0 || y >= i64::from(s.height) {
            continue;
        }
        for k in (0..b.width).step_by(4) {
            let x = b.x + k as i64;
            let n = 4.min(b.width - k);
            if x < 0 || x + n as i64 > row as i64 {
                continue;
            }
            s.write_place(
                mem,
                s.place(x as u64, y as u64),
                msg.data(REG_BYTES + r * b.pitch + k, n),
            )?;
        }
    }
    Ok(())
}
