//! RENDER_SURFACE_STATE for the surface kinds compute kernels use: raw and typed buffers, linear 2D
//! surfaces (media block IO) and linear images (1D, 2D, their arrays, 3D), with the size
//! fields bounds checks read.

use super::platform_data::{gen_data, mocs_wb};
use super::BuildError;
use crate::packets::{RenderSurfaceState, ShaderChannelSelect};
use platform::Platform;

/// genxml SURFACE_TYPE values.
pub mod surface_type {
    /// SURFTYPE_1D.
    pub const SURF_1D: u32 = 0;
    /// SURFTYPE_2D.
    pub const SURF_2D: u32 = 1;
    /// SURFTYPE_3D.
    pub const SURF_3D: u32 = 2;
    /// SURFTYPE_BUFFER.
    pub const BUFFER: u32 = 4;
    /// SURFTYPE_SCRATCH (Xe-HPG: the per-thread scratch space).
    pub const SCRATCH: u32 = 6;
    /// SURFTYPE_NULL.
    pub const NULL: u32 = 7;
}

/// Surface formats (the one table: [`crate::surface_format`]).
pub use crate::surface_format as format;

/// Largest raw buffer a surface state can describe: 2^31 bytes (31 size bits).
pub const MAX_BUFFER_BYTES: u64 = 1 << 31;

/// A raw buffer of `bytes` at `address`. Buffer sizes split across Width (bits 6:0 of
/// size − 1), Height (bits 20:7) and Depth (bits 30:21).
pub fn buffer_surface(
    p: Platform,
    address: u64,
    bytes: u64,
) -> Result<RenderSurfaceState, BuildError> {
    if bytes == 0 || bytes > MAX_BUFFER_BYTES {
        return Err(BuildError::BadSurface("buffer size must be 1..=2^31 bytes"));
    }
    let n = (bytes - 1) as u32;
    let g = gen_data(p);
    Ok(RenderSurfaceState {
        surface_type: surface_type::BUFFER,
        surface_format: format::RAW.number,
        surface_horizontal_alignment: g.halign,
        surface_vertical_alignment: g.valign,
        width: n & 0x7F,
        height: (n >> 7) & 0x3FFF,
        depth: (n >> 21) & 0x3FF,
        surface_pitch: 0,
        mocs: mocs_wb(p),
        surface_base_address: address,
        ..identity_swizzle()
    })
}

/// Most elements a typed buffer surface holds: 2^27 (PRM, RENDER_SURFACE_STATE Height: "for
/// typed buffer and structured buffer surfaces, the number of entries in the buffer ranges from
/// 1 to 2^27"), so Depth carries 6 bits of the count.
pub const MAX_TYPED_BUFFER_ELEMENTS: u32 = 1 << 27;

/// A typed buffer (OpenCL's image1d_buffer): `elements` elements of `format`, `element_bytes`
/// each, at `address`. The count minus one splits across Width (bits 6:0), Height (bits
/// 20:7) and Depth (bits 26:21); Surface Pitch holds the element size minus one.
pub fn typed_buffer_surface(
    p: Platform,
    address: u64,
    format: u32,
    elements: u32,
    element_bytes: u32,
) -> Result<RenderSurfaceState, BuildError> {
    if !(1..=MAX_TYPED_BUFFER_ELEMENTS).contains(&elements) {
        return Err(BuildError::BadSurface(
            "a typed buffer holds 1..=2^27 elements",
        ));
    }
    if !(1..=16).contains(&element_bytes) || format == format::RAW.number {
        return Err(BuildError::BadSurface(
            "a typed buffer has a typed format of 1..=16-byte elements",
        ));
    }
    let n = elements - 1;
    let g = gen_data(p);
    Ok(RenderSurfaceState {
        surface_type: surface_type::BUFFER,
        surface_format: format,
        surface_horizontal_alignment: g.halign,
        surface_vertical_alignment: g.valign,
        width: n & 0x7F,
        height: (n >> 7) & 0x3FFF,
        depth: (n >> 21) & 0x3F,
        surface_pitch: element_bytes - 1,
        mocs: mocs_wb(p),
        surface_base_address: address,
        ..identity_swizzle()
    })
}

/// A linear (untiled) 2D surface: `width` × `height` elements of `format`, rows `pitch` bytes
/// apart. Sizes are stored minus one.
pub fn linear_2d_surface(
    p: Platform,
    address: u64,
    format: u32,
    width: u32,
    height: u32,
    pitch: u32,
) -> Result<RenderSurfaceState, BuildError> {
    if width == 0 || height == 0 || pitch == 0 || width > 1 << 14 || height > 1 << 14 {
        return Err(BuildError::BadSurface(
            "2D size must be 1..=16384 and pitch nonzero",
        ));
    }
    let g = gen_data(p);
    Ok(RenderSurfaceState {
        surface_type: surface_type::SURF_2D,
        surface_format: format,
        surface_horizontal_alignment: g.halign,
        surface_vertical_alignment: g.valign,
        width: width - 1,
        height: height - 1,
        surface_pitch: pitch - 1,
        mocs: mocs_wb(p),
        surface_base_address: address,
        ..identity_swizzle()
    })
}

/// The shape of a linear image surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinearImage {
    /// [`surface_type::SURF_1D`], [`surface_type::SURF_2D`] or [`surface_type::SURF_3D`].
    pub surface_type: u32,
    /// A 1D or 2D array (`depth` is then the number of layers).
    pub array: bool,
    pub format: u32,
    /// Texels per row, rows (1 for 1D), 3D depth or array layers (1 otherwise).
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    /// Bytes from one row to the next (ignored by the hardware for 1D surfaces).
    pub pitch: u32,
    /// Distance from one array layer or 3D slice to the next: rows for 2D and 3D, texels for
    /// 1D arrays (Gen9+ lays 1D layers out along a row). A multiple of 4 ([`QPITCH_UNIT`]).
    pub qpitch: u32,
    /// Mip levels (1 for an image without mip-maps), placed as [`crate::mip`] says; all of
    /// them are visible (Surface Min LOD 0, MIP Count / LOD the last level).
    pub levels: u32,
}

/// Surface QPitch counts in units of 4 (rows, or texels for 1D): the field holds the layer
/// distance shifted right by 2, so the distance must be a multiple of 4 (which VALIGN_4 asks
/// of it too).
pub const QPITCH_UNIT: u32 = 4;

/// A linear image. Sizes are stored minus one; Depth holds the 3D depth or the array layers.
pub fn linear_image_surface(
    p: Platform,
    address: u64,
    img: &LinearImage,
) -> Result<RenderSurfaceState, BuildError> {
    use surface_type::*;
    let layered = img.surface_type == SURF_3D || img.array;
    // Field limits: Width and Height 14 bits, Depth 11 bits (3D depth at most 2048), Surface
    // Pitch 18 bits, Surface QPitch 15 bits.
    let ok = match img.surface_type {
        SURF_1D => img.height == 1 && (img.array || img.depth == 1),
        SURF_2D => img.array || img.depth == 1,
        SURF_3D => !img.array,
        _ => false,
    } && (1..=1 << 14).contains(&img.width)
        && (1..=1 << 14).contains(&img.height)
        && (1..=1 << 11).contains(&img.depth)
        && (1..=1 << 18).contains(&img.pitch)
        && img.qpitch.is_multiple_of(QPITCH_UNIT)
        && img.qpitch / QPITCH_UNIT < 1 << 15
        && (!layered || img.qpitch > 0)
        && (1..=crate::mip::MAX_LEVELS).contains(&img.levels);
    if !ok {
        return Err(BuildError::BadSurface(
            "image shape out of the surface state's range (type, sizes, pitch, qpitch, levels)",
        ));
    }
    let g = gen_data(p);
    Ok(RenderSurfaceState {
        surface_type: img.surface_type,
        surface_array: img.array,
        surface_format: img.format,
        surface_horizontal_alignment: g.halign,
        surface_vertical_alignment: g.valign,
        surface_qpitch: if layered { img.qpitch / QPITCH_UNIT } else { 0 },
        width: img.width - 1,
        height: img.height - 1,
        depth: img.depth - 1,
        // The layers typed writes may address (Mesa sets it for storage images too).
        render_target_view_extent: img.depth - 1,
        surface_pitch: img.pitch - 1,
        mip_count_lod: img.levels - 1,
        mocs: mocs_wb(p),
        surface_base_address: address,
        ..identity_swizzle()
    })
}

/// Shader channel selects R, G, B, A in place (typed reads return zeros without them).
fn identity_swizzle() -> RenderSurfaceState {
    RenderSurfaceState {
        shader_channel_select_red: ShaderChannelSelect::Red,
        shader_channel_select_green: ShaderChannelSelect::Green,
        shader_channel_select_blue: ShaderChannelSelect::Blue,
        shader_channel_select_alpha: ShaderChannelSelect::Alpha,
        ..Default::default()
    }
}
