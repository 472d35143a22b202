//! Typed surface read and write (HDC DC1 message types 0x05 and 0x0D), the data port messages
//! of OpenCL `read_image*`/`write_image*` without a sampler (IGC emits the write for every
//! `write_image*`).
//!
//! Descriptor (isa-encoder `sendmsg::hdc`, `Kind::Typed`): \[19\] header, \[13:12\] slot
//! group, \[11:8\] channel-disable mask (R, G, B, A), \[7:0\] binding table index. The message
//! is SIMD8: the instruction's eight lanes (IGC sends `(8|M8)` etc. with the low slot group
//! for the other quarters of a SIMD16/32 thread). Payload after the optional header: one
//! register of U, then V, R and LOD when present (how many is the payload length less the
//! header and, for writes, the enabled channels: IGC sends U in src0 and V with the data in
//! src1), then for writes one register per enabled channel. A read returns one register per
//! enabled channel. Coordinates are unsigned: out of bounds (a coordinate at or past the
//! level's size, or a LOD past the surface's last level) reads return 0 in every
//! channel and writes are dropped (PRM, "Typed Surface Read/Write": out-of-bounds accesses).
//! A typed buffer (SURFTYPE_BUFFER in a typed format: image1d_buffer) is a 1D surface of its
//! element count here, as it is to the sampler's loads.

use batchbuffer::surface_format::ChannelOrder;

use crate::error::EuErrorKind;
use crate::regfile::REG_BYTES;

use super::texel_place::{level_size, texel_place};
use super::{
    lanes_of, texel, texel_row, ImageSurface, Memory, Msg, OutOfImage, Place, Surface, Tiling,
};

/// Lanes of a typed message.
const LANES: usize = 8;

/// The R, G, B, A of texel `c` (`(u, v, r, lod)`) of `img`, 0 in every channel out of bounds.
/// A texel sharing its bytes (the 4:2:2 formats) reads the unit it is in; a planar texel
/// (PLANAR_420_8) its Y byte and the Cb, Cr pair of its 2x2 block in the chroma plane.
pub(super) fn load(
    surface: &Surface,
    img: &ImageSurface,
    c: [u32; 4],
    mem: &mut dyn Memory,
) -> Result<[u32; 4], EuErrorKind> {
    if img.format.order == ChannelOrder::Planar420 {
        return load_planar(surface, img, c, mem);
    }
    let per_unit = img.format.order.texels_per_unit();
    let at = texel_place(surface, img, c);
    // The first texel of a unit is in bounds when any of its texels is.
    let at = if per_unit == 1 {
        at
    } else {
        at.and(texel_place(
            surface,
            img,
            [c[0] - c[0] % per_unit, c[1], c[2], c[3]],
        ))
    };
    let Some(at) = at else {
        return Ok([0; 4]);
    };
    let mut buf = [0u8; 16];
    let b = &mut buf[..(img.format.bytes_per_element * per_unit) as usize];
    surface.read_place(mem, at, b)?;
    Ok(texel::decode_in_unit(&img.format, b, c[0] % per_unit))
}

/// [`load`] of a PLANAR_420_8 texel: (Cr, Y, Cb, 1.0) as UNORM8. The chroma pair of texel
/// (u, v) is at byte `u & !1` of row `chroma_row + v / 2`.
fn load_planar(
    surface: &Surface,
    img: &ImageSurface,
    c: [u32; 4],
    mem: &mut dyn Memory,
) -> Result<[u32; 4], EuErrorKind> {
    let Some(at) = texel_place(surface, img, c) else {
        return Ok([0; 4]);
    };
    let mut y = [0u8; 1];
    surface.read_place(mem, at, &mut y)?;
    let (x, row) = (
        u64::from(c[0] & !1),
        u64::from(img.chroma_row) + u64::from(c[1] / 2),
    );
    let chroma = match surface.tiling {
        Tiling::Linear => Place::Linear(row * img.row_pitch + x),
        _ => Place::Tiled { x, y: row, z: 0 },
    };
    let mut cbcr = [0u8; 2];
    surface.read_place(mem, chroma, &mut cbcr)?;
    Ok([
        texel::unorm8_bits(cbcr[1]),
        texel::unorm8_bits(y[0]),
        texel::unorm8_bits(cbcr[0]),
        1.0f32.to_bits(),
    ])
}

/// What the sanitizer hears of texel `c` (`coords` of them sent) lying outside `img`.
fn outside(
    surface: &Surface,
    img: &ImageSurface,
    c: [u32; 4],
    coords: usize,
    write: bool,
) -> OutOfImage {
    let lod = c[3];
    let size = if lod > img.mip.count {
        [0; 3]
    } else {
        level_size(img, img.mip.min_lod + lod)
    };
    OutOfImage {
        base: surface.base,
        texel: c,
        coords,
        size,
        write,
    }
}

pub(super) fn execute(msg: &mut Msg, mem: &mut dyn Memory, write: bool) -> Result<(), EuErrorKind> {
    let bti = msg.desc & 0xff;
    let surface = mem.surface(bti)?;
    let Some(img) = surface.image else {
        return Err(EuErrorKind::Surface(format!(
            "typed surface {} of binding table index {bti}: not a 1D, 2D, 3D or typed buffer \
             surface",
            if write { "write" } else { "read" }
        )));
    };
    let chans = !msg.field(8, 4) & 0xf;
    let header = usize::from(msg.field(19, 1) != 0);
    let regs = msg.payload.len() / REG_BYTES;
    let data_regs = if write {
        chans.count_ones() as usize
    } else {
        0
    };
    let coords = regs.saturating_sub(header + data_regs);
    if !(1..=4).contains(&coords) {
        return Err(EuErrorKind::Illegal(format!(
            "typed surface message of {regs} registers with {} channels: {coords} coordinates",
            chans.count_ones()
        )));
    }
    if write && img.format.order.is_ycbcr() {
        return Err(EuErrorKind::Unsupported(format!(
            "typed write to a {} surface (a sampler-only format)",
            img.format.name
        )));
    }
    let h = header * REG_BYTES;
    let bpe = img.format.bytes_per_element as usize;
    let data = h + coords * REG_BYTES;
    let coord = |msg: &Msg, i: usize| {
        let mut c = [0u32; 4];
        for (j, cj) in c.iter_mut().enumerate().take(coords) {
            *cj = msg.u32_at(h + j * REG_BYTES + 4 * i);
        }
        c
    };
    let sent = |msg: &Msg, i: usize| {
        let mut value = [0u32; 4];
        for (k, ch) in lanes_of(chans).enumerate() {
            value[ch] = msg.u32_at(data + k * REG_BYTES + 4 * i);
        }
        value
    };
    // Every lane enabled, the lanes consecutive texels of a row: one access.
    let enabled = msg.lane_bits(LANES);
    if enabled == (1 << LANES) - 1 {
        let all: [[u32; 4]; LANES] = std::array::from_fn(|i| coord(msg, i));
        if let Some(first) = texel_row::consecutive(&all) {
            if write {
                let values: [[u32; 4]; LANES] = std::array::from_fn(|i| sent(msg, i));
                if texel_row::store(&surface, &img, first, mem, &values, chans) {
                    return Ok(());
                }
            } else {
                let mut values = [[0u32; 4]; LANES];
                if texel_row::load(&surface, &img, first, mem, &mut values) {
                    for (i, value) in values.iter().enumerate() {
                        for (k, ch) in lanes_of(chans).enumerate() {
                            msg.put(k * REG_BYTES + 4 * i, &value[ch].to_le_bytes());
                        }
                    }
                    return Ok(());
                }
            }
        }
    }
    let mut texel = [0u8; 16];
    for i in lanes_of(enabled) {
        let c = coord(msg, i);
        let at = texel_place(&surface, &img, c);
        if at.is_none() {
            mem.out_of_image(&outside(&surface, &img, c, coords, write));
        }
        let buf = &mut texel[..bpe];
        if write {
            let Some(addr) = at else { continue };
            let value = sent(msg, i);
            // Channels the message disables keep their memory bytes.
            if texel::stored_channels(&img.format) & !chans != 0 {
                surface.read_place(mem, addr, buf)?;
            }
            texel::encode(&img.format, value, chans, buf);
            surface.write_place(mem, addr, buf)?;
        } else {
            let value = load(&surface, &img, c, mem)?;
            for (k, ch) in lanes_of(chans).enumerate() {
                msg.put(k * REG_BYTES + 4 * i, &value[ch].to_le_bytes());
            }
        }
    }
    Ok(())
}
