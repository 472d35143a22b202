//! Where a texel of an image surface lies: its level's size and its place in memory, as typed
//! messages and the sampler address texels (`(u, v, r, lod)`).

use batchbuffer::mip::{minify, MipShape};

use super::{ImageSurface, Place, Surface, Tiling};

/// Texel `(u, v, r, lod)` of `img` in `surface`, if in bounds. The coordinate after the last
/// dimension is the layer of an array. The LOD counts from the surface's Surface Min LOD and
/// may not pass its MIP Count / LOD; the level's sizes are level 0's halved (layers stay), and
/// it starts where `batchbuffer::mip` places it. On a tiled surface layer (or 3D slice) `z`
/// starts `slice_pitch / row_pitch` rows (the QPitch) after layer `z - 1`, or in volume tiles
/// where [`Tiling::slice_start`] puts it.
pub(super) fn texel_place(surface: &Surface, img: &ImageSurface, c: [u32; 4]) -> Option<Place> {
    let [u, v, r, lod] = c;
    let (y, z) = match (img.dims, img.array) {
        (1, false) => (0, 0),
        (1, true) => (0, v),
        (2, false) => (v, 0),
        _ => (v, r),
    };
    if lod > img.mip.count {
        return None;
    }
    let level = img.mip.min_lod + lod;
    let [w, h, d] = level_size(img, level);
    if !(u < w && y < h && z < d) {
        return None;
    }
    let (lx, ly) = if level == 0 {
        (0, 0)
    } else {
        let (halign, valign) = img.mip.align;
        MipShape {
            dims: img.dims,
            width: img.size[0],
            height: img.size[1],
            halign,
            valign,
        }
        .origin(level)
    };
    let x = (lx + u64::from(u)) * u64::from(img.format.bytes_per_element);
    let y = ly + u64::from(y);
    Some(match surface.tiling {
        Tiling::Linear => Place::Linear(u64::from(z) * img.slice_pitch + y * img.row_pitch + x),
        t => {
            let qpitch_rows = img.slice_pitch / img.row_pitch.max(1);
            let (row, z) = t.slice_start(u64::from(z), qpitch_rows);
            Place::Tiled { x, y: row + y, z }
        }
    })
}

/// The width, height and depth (or layers) of `img`'s level `level`.
pub(super) fn level_size(img: &ImageSurface, level: u32) -> [u32; 3] {
    let [w, h, d] = img.size;
    let halves = |n: u32, yes: bool| if yes { minify(n, level) } else { n };
    [
        minify(w, level),
        halves(h, img.dims >= 2),
        halves(d, img.dims == 3),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataport::ImageMips;
    use batchbuffer::surface_format::R8_UNORM;

    /// A linear 16x8 R8 2D surface of 5 levels (HALIGN 4, VALIGN 4), rows 32 bytes apart.
    fn surface(min_lod: u32) -> (Surface, ImageSurface) {
        let img = ImageSurface {
            format: R8_UNORM,
            dims: 2,
            array: false,
            size: [16, 8, 1],
            slice_pitch: 32 * 24,
            row_pitch: 32,
            mip: ImageMips {
                min_lod,
                count: 4 - min_lod,
                align: (4, 4),
            },
            chroma_row: 0,
        };
        let s = Surface {
            image: Some(img),
            ..Surface::buffer(0, 32 * 24)
        };
        (s, img)
    }

    #[test]
    fn a_lod_addresses_its_level_where_the_layout_puts_it() {
        let (s, img) = surface(0);
        // Level 1 (8x4) under level 0: row 8; level 2 (4x2) right of it: column 8, row 8.
        assert_eq!(
            texel_place(&s, &img, [3, 1, 0, 1]),
            Some(Place::Linear(9 * 32 + 3))
        );
        assert_eq!(
            texel_place(&s, &img, [1, 1, 0, 2]),
            Some(Place::Linear(9 * 32 + 9))
        );
        // Bounds are the level's: 4x2 at level 2; the last level is 4.
        assert_eq!(texel_place(&s, &img, [4, 0, 0, 2]), None);
        assert_eq!(texel_place(&s, &img, [0, 2, 0, 2]), None);
        assert_eq!(texel_place(&s, &img, [0, 0, 0, 5]), None);
        // Surface Min LOD 2: LOD 0 is level 2, and the count shrinks with it.
        let (s, img) = surface(2);
        assert_eq!(
            texel_place(&s, &img, [1, 1, 0, 0]),
            Some(Place::Linear(9 * 32 + 9))
        );
        assert_eq!(texel_place(&s, &img, [0, 0, 0, 3]), None);
    }
}
