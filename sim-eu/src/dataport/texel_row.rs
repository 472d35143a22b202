//! Image messages whose lanes address consecutive texels of one row of a linear surface (a
//! kernel's `read_image*`/`write_image*` at `(x + lane, y)`, the commonest image access):
//! the row's bytes in one memory access and the format read once per message, where lane by
//! lane each texel is placed, read and converted on its own. Lanes read and write the same
//! bytes and values either way; anything else (a lane disabled, texels out of order, out of
//! bounds or on a tiled surface, formats sharing bytes between texels, memory that declines
//! one access) goes lane by lane.

use batchbuffer::surface_format::ChannelOrder;

use super::texel_place::texel_place;
use super::{texel, ImageSurface, Memory, Place, Surface};

/// Lanes of the widest image message (the sampler's SIMD16).
pub(super) const MAX_LANES: usize = 16;

/// Bytes of the widest texel.
const MAX_TEXEL_BYTES: usize = 16;

/// The first of `coords` (per lane `(u, v, r, lod)`, as typed messages address texels) when
/// they step by one in `u` and agree in the rest.
pub(super) fn consecutive(coords: &[[u32; 4]]) -> Option<[u32; 4]> {
    let first = *coords.first()?;
    coords
        .iter()
        .zip(0u32..)
        .all(|(c, i)| c[0] == first[0].wrapping_add(i) && c[1..] == first[1..])
        .then_some(first)
}

/// The address of texel `first` of `img` when it and the `n - 1` texels after it in its row
/// are all in bounds of a linear surface, one texel to a format unit, so that their bytes are
/// one run.
fn span(surface: &Surface, img: &ImageSurface, first: [u32; 4], n: usize) -> Option<u64> {
    if img.format.order == ChannelOrder::Planar420 || img.format.order.texels_per_unit() != 1 {
        return None;
    }
    let last_u = first[0].checked_add(u32::try_from(n.checked_sub(1)?).ok()?)?;
    let last = [last_u, first[1], first[2], first[3]];
    match (
        texel_place(surface, img, first)?,
        texel_place(surface, img, last)?,
    ) {
        (Place::Linear(at), Place::Linear(_)) => Some(surface.base.wrapping_add(at)),
        _ => None,
    }
}

/// Reads the `out.len()` (at most [`MAX_LANES`]) texels from `first` of its row into `out`,
/// R, G, B, A each; false, with nothing read, when they are not one run in memory or the
/// memory declines the access.
pub(super) fn load(
    surface: &Surface,
    img: &ImageSurface,
    first: [u32; 4],
    mem: &mut dyn Memory,
    out: &mut [[u32; 4]],
) -> bool {
    let bpe = img.format.bytes_per_element as usize;
    let Some(addr) = span(surface, img, first, out.len()) else {
        return false;
    };
    let mut buf = [0u8; MAX_LANES * MAX_TEXEL_BYTES];
    let Some(bytes) = buf.get_mut(..out.len() * bpe) else {
        return false;
    };
    if !mem.read_all(addr, bytes) {
        return false;
    }
    texel::decode_row(&img.format, bytes, out);
    true
}

/// Writes the channels `chans` (bit 0 R .. bit 3 A) of `values` (at most [`MAX_LANES`]) to
/// the texels from `first` of its row, the others keeping their bytes; false when they are not
/// one run in memory or the memory declines an access (the caller writes them lane by lane,
/// again where some were written).
pub(super) fn store(
    surface: &Surface,
    img: &ImageSurface,
    first: [u32; 4],
    mem: &mut dyn Memory,
    values: &[[u32; 4]],
    chans: u32,
) -> bool {
    let bpe = img.format.bytes_per_element as usize;
    let Some(addr) = span(surface, img, first, values.len()) else {
        return false;
    };
    let mut buf = [0u8; MAX_LANES * MAX_TEXEL_BYTES];
    let Some(bytes) = buf.get_mut(..values.len() * bpe) else {
        return false;
    };
    if texel::stored_channels(&img.format) & !chans != 0 && !mem.read_all(addr, bytes) {
        return false;
    }
    texel::encode_row(&img.format, values, chans, bytes);
    mem.write_all(addr, bytes)
}
