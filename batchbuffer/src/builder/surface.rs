//! RENDER_SURFACE_STATE for the two surface kinds compute kernels use: raw buffers and linear
//! 2D surfaces (media block IO), with the size fields bounds checks read.

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
