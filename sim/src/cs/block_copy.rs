//! XY_BLOCK_COPY_BLT: a rectangle of 8- to 128-bit pixels from one surface to another, each
//! surface linear or tiled, and on Xe-HPG one slice of an array or 3D surface.
//!
//! A tiled surface's pitch field holds the pitch in DWords minus one (NEO programs a tiled
//! image's row pitch / 4; IGT's `blt_create_object` a 32-bpp tiled object's width in pixels
//! where a linear one gets bytes), a linear one's the pitch in bytes minus one.
//!
//! Slices (Xe-HPG's surface description, DWords 16–21): slice `a` (the Array Index; the depth
//! coordinate of a 3D surface) of a surface whose slices lie QPitch rows apart starts at row
//! `a * QPitch` of the surface's 2D layout — the PRM's array layout, the one the data port's
//! typed messages use for arrays and 3D surfaces — with QPitch in the field times four rows
//! (NEO writes GmmLib's QPitch / 4, RENDER_SURFACE_STATE's encoding). A 3D surface in Tile-64
//! has volume tiles instead: slice `a` is slice `a % depth` of the tiles of the slab `a / depth`
//! QPitches down, by the same tables and slab rule as the data port's (`mem::tiling`). NEO 22.43
//! on dg2 addresses slices of a linear image through the base address and those of a tiled one
//! through the Array Index (slice `a` as `a`; Surface Width/Height/Depth as size minus one;
//! Mip Tail Start LOD 15 for its Tile-64 images, 0 for linear ones; QPitch its tile-height
//! aligned slice height, 48 rows for a 37-row 3D image of 16-byte pixels, 64 for 4-byte ones:
//! decoded from its batches), and writes, reads and copies its 3D images' slices this way.
//! What the simulator lacks is refused by name: compressed surfaces, clear values, X/Y
//! offsets, depth/stencil layouts, LODs other than 0 (the mip layout and its tail) and Gen12's
//! block-copy Tile-Y.

use batchbuffer::{Packet, XyBlockCopyBlt, XySurfaceType};
use platform::Platform;

use super::blit::{plain_data, unsupported, Surface};
use super::exec::{bad, Cs};
use crate::gpu_error::GpuErrorKind;
use crate::mem::tiling::Tiling;
use crate::mem::VA_MASK;

/// One side of the copy as the packet describes it.
struct Side {
    name: &'static str,
    base: u64,
    pitch: u32,
    tiling: u32,
    aux: u32,
    compressed: bool,
    clear_value: bool,
    x_offset: u32,
    y_offset: u32,
    surface_type: XySurfaceType,
    lod: u32,
    qpitch: u32,
    depth: u32,
    mip_tail_start_lod: u32,
    depth_stencil: bool,
    array_index: u32,
}

impl Side {
    fn destination(b: &XyBlockCopyBlt) -> Side {
        Side {
            name: "XY_BLOCK_COPY_BLT destination",
            base: b.destination_base_address,
            pitch: b.destination_pitch,
            tiling: b.destination_tiling,
            aux: b.destination_auxiliary_surface_mode,
            compressed: b.destination_compression_enable,
            clear_value: b.destination_clear_value_enable,
            x_offset: b.destination_x_offset,
            y_offset: b.destination_y_offset,
            surface_type: b.destination_surface_type,
            lod: b.destination_lod,
            qpitch: b.destination_surface_qpitch,
            depth: b.destination_surface_depth,
            mip_tail_start_lod: b.destination_mip_tail_start_lod,
            depth_stencil: b.destination_depth_stencil_resource,
            array_index: b.destination_array_index,
        }
    }

    fn source(b: &XyBlockCopyBlt) -> Side {
        Side {
            name: "XY_BLOCK_COPY_BLT source",
            base: b.source_base_address,
            pitch: b.source_pitch,
            tiling: b.source_tiling,
            aux: b.source_auxiliary_surface_mode,
            compressed: b.source_compression_enable,
            clear_value: b.source_clear_value_enable,
            x_offset: b.source_x_offset,
            y_offset: b.source_y_offset,
            surface_type: b.source_surface_type,
            lod: b.source_lod,
            qpitch: b.source_surface_qpitch,
            depth: b.source_surface_depth,
            mip_tail_start_lod: b.source_mip_tail_start_lod,
            depth_stencil: b.source_depth_stencil_resource,
            array_index: b.source_array_index,
        }
    }

    /// The surface (with the addressed slice's place within its tiles) and the first row of
    /// the addressed slice in its layout.
    fn surface(
        &self,
        p: Platform,
        header: u32,
        bpp: usize,
    ) -> Result<(Surface, u64), GpuErrorKind> {
        let name = self.name;
        if !plain_data(p, self.aux, self.compressed) {
            return Err(unsupported(format!("{name} with a compressed surface")));
        }
        if self.clear_value {
            return Err(unsupported(format!("{name} with a clear value")));
        }
        if self.x_offset != 0 || self.y_offset != 0 {
            return Err(unsupported(format!("{name} with a surface X/Y offset")));
        }
        if self.depth_stencil {
            return Err(unsupported(format!("{name} of a depth/stencil resource")));
        }
        if self.lod != 0 {
            return Err(unsupported(format!(
                "{name} of LOD {} (only level 0 is modelled)",
                self.lod
            )));
        }
        let tiling = Tiling::from_block_copy(p >= Platform::Dg2, self.tiling, bpp as u32)
            .map_err(|e| unsupported(format!("{name}: {e}")))?;
        // A 3D surface's Tile-64 is made of volume tiles.
        let tiling = if self.surface_type == XySurfaceType::ThreeD {
            tiling.volume()
        } else {
            tiling
        };
        // Of the block copy's tilings only Tile-64 packs small levels into a mip tail (NEO
        // programs GmmLib's Mip Tail Start LOD: 15, none, for its Tile-64 images; 0 for linear).
        let tile64 = matches!(tiling, Tiling::Tile64 { .. } | Tiling::Tile64Volume { .. });
        if tile64 && self.lod >= self.mip_tail_start_lod {
            return Err(unsupported(format!(
                "{name}: LOD {} in the mip tail (from LOD {}) is not modelled",
                self.lod, self.mip_tail_start_lod
            )));
        }
        // Surface Depth holds the slice count (array size or 3D depth) minus one (IGT's
        // `fill_data_ext` leaves it as given; NEO writes 5 for its 6-slice arrays).
        if self.array_index > self.depth {
            return Err(bad(
                header,
                format!(
                    "{name} array index {} past the surface's {} slices",
                    self.array_index,
                    self.depth + 1
                ),
            ));
        }
        let unit = if tiling == Tiling::Linear { 1 } else { 4 };
        let (first_row, slice) =
            tiling.slice_start(u64::from(self.array_index), u64::from(self.qpitch) * 4);
        let surface = Surface {
            base: self.base & VA_MASK,
            pitch: (u64::from(self.pitch) + 1) * unit,
            tiling,
            slice,
        };
        Ok((surface, first_row))
    }
}

impl Cs<'_> {
    pub(super) fn block_copy(&mut self, cmd: &[u32]) -> Result<(), GpuErrorKind> {
        let b = XyBlockCopyBlt::unpack(self.platform, cmd).map_err(|e| bad(cmd[0], e))?;
        if b.special_mode_of_operation != 0 {
            return Err(unsupported("XY_BLOCK_COPY_BLT with a special mode"));
        }
        let bpp = b.color_depth.bytes();
        let (dst, dst_row) = Side::destination(&b).surface(self.platform, cmd[0], bpp)?;
        let (src, src_row) = Side::source(&b).surface(self.platform, cmd[0], bpp)?;
        let corners = [
            b.destination_x1,
            b.destination_y1,
            b.destination_x2,
            b.destination_y2,
        ];
        let Some((mut rect, mut from)) =
            self.copy_rects(cmd[0], corners, (b.source_x1, b.source_y1), bpp, &dst, &src)?
        else {
            return Ok(());
        };
        rect.y += dst_row;
        from.y += src_row;
        self.check_row_fits(cmd[0], &rect, bpp, &dst)?;
        self.check_row_fits(cmd[0], &from, bpp, &src)?;
        self.copy_rows(&src, &from, &dst, &rect, bpp)
    }
}
