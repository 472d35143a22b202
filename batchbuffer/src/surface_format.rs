//! SURFACE_FORMAT: the hardware's surface-format numbers (PRM "Enumerations: SURFACE_FORMAT", as
//! Mesa's `isl_format.h` lists them) with their element sizes, for the formats compute surfaces
//! use. The one place these numbers live: the batch builder, the simulator's data port and the
//! UMD's images all read them from here.

/// How a channel's bits read as a number (Mesa's `isl_base_type` names the same kinds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChannelType {
    /// Unsigned normalized: `v / (2^bits - 1)`.
    Unorm,
    /// Signed normalized: `max(v / (2^(bits-1) - 1), -1)`.
    Snorm,
    Uint,
    Sint,
    /// IEEE float (16 or 32 bits).
    Float,
    /// Untyped bytes (RAW): no channels.
    Raw,
}

/// Which channels a format stores, in memory order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChannelOrder {
    R,
    Rg,
    Rgba,
    /// B, G, R, A in memory.
    Bgra,
    /// RAW: no channels.
    None,
    /// 4:2:2 packed YCbCr: two texels share a DWord holding a Y for each and one Cb and one
    /// Cr for both; the sampler returns Cr in R, Y in G, Cb in B and 1.0 in A (OpenCL's
    /// cl_intel_packed_yuv: "(V, Y, U, 1.0)"). The byte each sample has in the DWord.
    Ycrcb(PairBytes),
    /// 4:2:0 two-plane YCbCr (NV12): one byte of Y per texel, then, from the row RENDER_SURFACE_STATE's
    /// "Y Offset for U or UV Plane" names, a plane of interleaved Cb, Cr byte pairs for each 2x2
    /// texels; the sampler returns Cr, Y, Cb, 1.0 as for [`ChannelOrder::Ycrcb`].
    Planar420,
}

/// Where the samples of a 4:2:2 texel pair sit in its DWord (byte 0..3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PairBytes {
    /// Y of the even texel, Y of the odd texel.
    pub y: [u8; 2],
    pub cb: u8,
    pub cr: u8,
}

impl ChannelOrder {
    /// For each stored channel in memory order, the RGBA channel (0 R .. 3 A) it is.
    pub fn channels(self) -> &'static [usize] {
        match self {
            ChannelOrder::R => &[0],
            ChannelOrder::Rg => &[0, 1],
            ChannelOrder::Rgba => &[0, 1, 2, 3],
            ChannelOrder::Bgra => &[2, 1, 0, 3],
            ChannelOrder::None => &[],
            // Cr, Y and Cb: one byte each per texel, though stored shared by a pair.
            ChannelOrder::Ycrcb(_) | ChannelOrder::Planar420 => &[0, 1, 2],
        }
    }

    /// The YCbCr formats, which only the sampler reads (no typed writes).
    pub fn is_ycbcr(self) -> bool {
        matches!(self, ChannelOrder::Ycrcb(_) | ChannelOrder::Planar420)
    }

    /// Texels that share their bytes: 2 for the 4:2:2 formats, whose texel `x` reads the
    /// DWord of texels `x & !1` and `x | 1`; 1 otherwise.
    pub fn texels_per_unit(self) -> u32 {
        match self {
            ChannelOrder::Ycrcb(_) => 2,
            _ => 1,
        }
    }
}

/// One surface format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SurfaceFormat {
    /// The PRM's name, e.g. `R32_UINT`.
    pub name: &'static str,
    /// The value of RENDER_SURFACE_STATE's Surface Format field.
    pub number: u32,
    /// Bytes per element (RAW: byte-addressed, so 1).
    pub bytes_per_element: u32,
    /// The channels stored and their type; every channel has `bytes_per_element / channels`
    /// bytes.
    pub order: ChannelOrder,
    pub channel_type: ChannelType,
}

impl SurfaceFormat {
    /// Bits of one channel (0 for RAW).
    pub fn channel_bits(&self) -> u32 {
        if self.order.is_ycbcr() {
            return 8;
        }
        match self.order.channels().len() {
            0 => 0,
            n => self.bytes_per_element * 8 / n as u32,
        }
    }
}

const fn f(
    name: &'static str,
    number: u32,
    bytes_per_element: u32,
    order: ChannelOrder,
    channel_type: ChannelType,
) -> SurfaceFormat {
    SurfaceFormat {
        name,
        number,
        bytes_per_element,
        order,
        channel_type,
    }
}

use ChannelOrder::{Bgra, Rg, Rgba, R};
use ChannelType::{Float, Sint, Snorm, Uint, Unorm};

pub const R32G32B32A32_FLOAT: SurfaceFormat = f("R32G32B32A32_FLOAT", 0, 16, Rgba, Float);
pub const R32G32B32A32_SINT: SurfaceFormat = f("R32G32B32A32_SINT", 1, 16, Rgba, Sint);
pub const R32G32B32A32_UINT: SurfaceFormat = f("R32G32B32A32_UINT", 2, 16, Rgba, Uint);
pub const R16G16B16A16_UNORM: SurfaceFormat = f("R16G16B16A16_UNORM", 128, 8, Rgba, Unorm);
pub const R16G16B16A16_SNORM: SurfaceFormat = f("R16G16B16A16_SNORM", 129, 8, Rgba, Snorm);
pub const R16G16B16A16_SINT: SurfaceFormat = f("R16G16B16A16_SINT", 130, 8, Rgba, Sint);
pub const R16G16B16A16_UINT: SurfaceFormat = f("R16G16B16A16_UINT", 131, 8, Rgba, Uint);
pub const R16G16B16A16_FLOAT: SurfaceFormat = f("R16G16B16A16_FLOAT", 132, 8, Rgba, Float);
pub const R32G32_FLOAT: SurfaceFormat = f("R32G32_FLOAT", 133, 8, Rg, Float);
pub const R32G32_SINT: SurfaceFormat = f("R32G32_SINT", 134, 8, Rg, Sint);
pub const R32G32_UINT: SurfaceFormat = f("R32G32_UINT", 135, 8, Rg, Uint);
pub const B8G8R8A8_UNORM: SurfaceFormat = f("B8G8R8A8_UNORM", 192, 4, Bgra, Unorm);
pub const R8G8B8A8_UNORM: SurfaceFormat = f("R8G8B8A8_UNORM", 199, 4, Rgba, Unorm);
pub const R8G8B8A8_SNORM: SurfaceFormat = f("R8G8B8A8_SNORM", 201, 4, Rgba, Snorm);
pub const R8G8B8A8_SINT: SurfaceFormat = f("R8G8B8A8_SINT", 202, 4, Rgba, Sint);
pub const R8G8B8A8_UINT: SurfaceFormat = f("R8G8B8A8_UINT", 203, 4, Rgba, Uint);
pub const R16G16_UNORM: SurfaceFormat = f("R16G16_UNORM", 204, 4, Rg, Unorm);
pub const R16G16_SNORM: SurfaceFormat = f("R16G16_SNORM", 205, 4, Rg, Snorm);
pub const R16G16_SINT: SurfaceFormat = f("R16G16_SINT", 206, 4, Rg, Sint);
pub const R16G16_UINT: SurfaceFormat = f("R16G16_UINT", 207, 4, Rg, Uint);
pub const R16G16_FLOAT: SurfaceFormat = f("R16G16_FLOAT", 208, 4, Rg, Float);
pub const R32_SINT: SurfaceFormat = f("R32_SINT", 214, 4, R, Sint);
pub const R32_UINT: SurfaceFormat = f("R32_UINT", 215, 4, R, Uint);
pub const R32_FLOAT: SurfaceFormat = f("R32_FLOAT", 216, 4, R, Float);
pub const R8G8_UNORM: SurfaceFormat = f("R8G8_UNORM", 262, 2, Rg, Unorm);
pub const R8G8_SNORM: SurfaceFormat = f("R8G8_SNORM", 263, 2, Rg, Snorm);
pub const R8G8_SINT: SurfaceFormat = f("R8G8_SINT", 264, 2, Rg, Sint);
pub const R8G8_UINT: SurfaceFormat = f("R8G8_UINT", 265, 2, Rg, Uint);
pub const R16_UNORM: SurfaceFormat = f("R16_UNORM", 266, 2, R, Unorm);
pub const R16_SNORM: SurfaceFormat = f("R16_SNORM", 267, 2, R, Snorm);
pub const R16_SINT: SurfaceFormat = f("R16_SINT", 268, 2, R, Sint);
pub const R16_UINT: SurfaceFormat = f("R16_UINT", 269, 2, R, Uint);
pub const R16_FLOAT: SurfaceFormat = f("R16_FLOAT", 270, 2, R, Float);
pub const R8_UNORM: SurfaceFormat = f("R8_UNORM", 320, 1, R, Unorm);
pub const R8_SNORM: SurfaceFormat = f("R8_SNORM", 321, 1, R, Snorm);
pub const R8_SINT: SurfaceFormat = f("R8_SINT", 322, 1, R, Sint);
pub const R8_UINT: SurfaceFormat = f("R8_UINT", 323, 1, R, Uint);
// The 4:2:2 formats, in the PRM's names (numbers: NEO's and Mesa's SURFACE_FORMAT tables),
// the bytes of a pair as their names say: NORMAL is Y0 Cb Y1 Cr in memory (YUY2), SWAPY swaps
// each Y with its chroma neighbour (Cb Y0 Cr Y1), SWAPUV swaps Cb and Cr (Y0 Cr Y1 Cb), SWAPUVY
// both (Cr Y0 Cb Y1). Two bytes per texel.
const fn pair(y0: u8, cb: u8, y1: u8, cr: u8) -> ChannelOrder {
    ChannelOrder::Ycrcb(PairBytes {
        y: [y0, y1],
        cb,
        cr,
    })
}
pub const YCRCB_NORMAL: SurfaceFormat = f("YCRCB_NORMAL", 0x182, 2, pair(0, 1, 2, 3), Unorm);
pub const YCRCB_SWAPUVY: SurfaceFormat = f("YCRCB_SWAPUVY", 0x183, 2, pair(1, 2, 3, 0), Unorm);
pub const YCRCB_SWAPUV: SurfaceFormat = f("YCRCB_SWAPUV", 0x18F, 2, pair(0, 3, 2, 1), Unorm);
pub const YCRCB_SWAPY: SurfaceFormat = f("YCRCB_SWAPY", 0x190, 2, pair(1, 0, 3, 2), Unorm);
/// NV12: the Y plane's bytes are the elements (Width and Height are the Y plane's).
pub const PLANAR_420_8: SurfaceFormat = f("PLANAR_420_8", 0x1A5, 1, ChannelOrder::Planar420, Unorm);
/// Untyped, byte-addressed buffers.
pub const RAW: SurfaceFormat = f("RAW", 511, 1, ChannelOrder::None, ChannelType::Raw);

/// Every format this table knows.
pub const ALL: [SurfaceFormat; 43] = [
    R32G32B32A32_FLOAT,
    R32G32B32A32_SINT,
    R32G32B32A32_UINT,
    R16G16B16A16_UNORM,
    R16G16B16A16_SNORM,
    R16G16B16A16_SINT,
    R16G16B16A16_UINT,
    R16G16B16A16_FLOAT,
    R32G32_FLOAT,
    R32G32_SINT,
    R32G32_UINT,
    B8G8R8A8_UNORM,
    R8G8B8A8_UNORM,
    R8G8B8A8_SNORM,
    R8G8B8A8_SINT,
    R8G8B8A8_UINT,
    R16G16_UNORM,
    R16G16_SNORM,
    R16G16_SINT,
    R16G16_UINT,
    R16G16_FLOAT,
    R32_SINT,
    R32_UINT,
    R32_FLOAT,
    R8G8_UNORM,
    R8G8_SNORM,
    R8G8_SINT,
    R8G8_UINT,
    R16_UNORM,
    R16_SNORM,
    R16_SINT,
    R16_UINT,
    R16_FLOAT,
    R8_UNORM,
    R8_SNORM,
    R8_SINT,
    R8_UINT,
    YCRCB_NORMAL,
    YCRCB_SWAPUVY,
    YCRCB_SWAPUV,
    YCRCB_SWAPY,
    PLANAR_420_8,
    RAW,
];

/// The format whose Surface Format field value is `number`, if the table has it.
pub fn by_number(number: u32) -> Option<SurfaceFormat> {
    ALL.iter().copied().find(|f| f.number == number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_size_is_channels_times_channel_size() {
        // The name says the channels and their bits: R16G16_UNORM is two 16-bit channels.
        let named = |f: &&SurfaceFormat| f.order != ChannelOrder::None && !f.order.is_ycbcr();
        for fmt in ALL.iter().filter(named) {
            let bits: u32 = fmt
                .name
                .split('_')
                .next()
                .unwrap()
                .split(['R', 'G', 'B', 'A'])
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<u32>().unwrap())
                .sum();
            assert_eq!(bits, fmt.bytes_per_element * 8, "{}", fmt.name);
            assert_eq!(
                fmt.channel_bits() * fmt.order.channels().len() as u32,
                bits,
                "{}",
                fmt.name
            );
        }
    }

    #[test]
    fn numbers_are_unique_and_fit_the_field() {
        for (i, a) in ALL.iter().enumerate() {
            // Surface Format is 9 bits wide on Gen12.5 (bits 26:18), 10 bits before.
            assert!(a.number < 1 << 9, "{}", a.name);
            assert!(ALL[i + 1..]
                .iter()
                .all(|b| b.number != a.number && b.name != a.name));
        }
    }

    #[test]
    fn each_pair_holds_two_lumas_and_one_of_each_chroma() {
        for fmt in [YCRCB_NORMAL, YCRCB_SWAPUVY, YCRCB_SWAPUV, YCRCB_SWAPY] {
            let ChannelOrder::Ycrcb(p) = fmt.order else {
                panic!("{}", fmt.name)
            };
            let mut bytes = [p.y[0], p.y[1], p.cb, p.cr];
            bytes.sort();
            assert_eq!(bytes, [0, 1, 2, 3], "{}", fmt.name);
            assert_eq!(fmt.order.texels_per_unit() * fmt.bytes_per_element, 4);
        }
        // YUY2 (NORMAL): Y0 Cb Y1 Cr.
        assert_eq!(
            YCRCB_NORMAL.order,
            ChannelOrder::Ycrcb(PairBytes {
                y: [0, 2],
                cb: 1,
                cr: 3
            })
        );
    }

    #[test]
    fn lookup_by_number() {
        assert_eq!(by_number(323), Some(R8_UINT));
        assert_eq!(by_number(321).map(|f| f.name), Some("R8_SNORM"));
        assert_eq!(by_number(0), Some(R32G32B32A32_FLOAT));
        assert_eq!(by_number(3), None);
    }
}
