//! Where the levels of a mip-mapped surface lie (PRM, "Surface Layout": Gen9+ layouts, which
//! Xe-HPG keeps for the tilings its images use). One function of the surface's shape and its
//! RENDER_SURFACE_STATE alignment fields, so the driver that lays an image out and the
//! simulator that addresses it read the same facts.
//!
//! - 2D and 3D surfaces and 2D arrays ("MIPLAYOUT_BELOW"): level 0 at the origin, level 1
//!   below it, level 2 to the right of level 1, every further level below the one before.
//!   Each level's width is padded to HALIGN texels and its height to VALIGN rows. A 3D
//!   surface's slices, like an array's layers, are Surface QPitch rows apart, each level's
//!   slices starting at that level's place in slice 0.
//! - 1D surfaces and 1D arrays (the Gen9 1D layout): levels side by side along the row, each
//!   padded to HALIGN texels; layers Surface QPitch texels apart.
//!
//! Level `l` of a dimension of `n` texels has `max(1, n >> l)` (OpenCL and the PRM halve and
//! round down).

use platform::Platform;

/// The size of dimension `n` at level `l`.
#[inline]
pub fn minify(n: u32, l: u32) -> u32 {
    n.checked_shr(l).unwrap_or(0).max(1)
}

/// Most levels a surface may have: MIP Count / LOD is 4 bits (levels − 1), and a 2^14 texel
/// dimension has 15 levels.
pub const MAX_LEVELS: u32 = 15;

/// The levels a full chain of a surface whose largest dimension is `n` has:
/// `floor(log2(n)) + 1`.
pub fn full_chain(n: u32) -> u32 {
    32 - n.max(1).leading_zeros()
}

/// HALIGN (texels) and VALIGN (rows) of the RENDER_SURFACE_STATE alignment field values on
/// `p` (genxml: before Xe-HPG HALIGN_4/8/16 are 1/2/3; on Xe-HPG HALIGN_16/32/64/128 are
/// 0..3; VALIGN_4/8/16 are 1/2/3 everywhere). `None` for a reserved value.
pub fn alignment(p: Platform, halign: u32, valign: u32) -> Option<(u32, u32)> {
    let h = if p >= Platform::Dg2 {
        16u32.checked_shl(halign).filter(|_| halign <= 3)
    } else {
        match halign {
            1..=3 => Some(2u32 << halign),
            _ => None,
        }
    };
    let v = match valign {
        1..=3 => Some(2u32 << valign),
        _ => None,
    };
    Some((h?, v?))
}

/// A surface's shape as its levels' places depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MipShape {
    /// 1 for 1D surfaces and arrays (levels along the row), 2 or 3 otherwise.
    pub dims: u8,
    /// Level 0's width and height (1 for 1D).
    pub width: u32,
    pub height: u32,
    /// HALIGN in texels, VALIGN in rows ([`alignment`]).
    pub halign: u32,
    pub valign: u32,
}

impl MipShape {
    /// Level `l`'s first texel, in texels right of and rows below level 0's.
    pub fn origin(&self, l: u32) -> (u64, u64) {
        let aw = |l| u64::from(minify(self.width, l).next_multiple_of(self.halign));
        let ah = |l| u64::from(minify(self.height, l).next_multiple_of(self.valign));
        if self.dims == 1 {
            return ((0..l).map(aw).sum(), 0);
        }
        match l {
            0 => (0, 0),
            1 => (0, ah(0)),
            _ => (aw(1), ah(0) + (2..l).map(ah).sum::<u64>()),
        }
    }

    /// The texels (`.0`) and rows (`.1`) one layer or slice of `levels` levels spans: level
    /// 0's padded size, and whatever further level reaches past it. Surface QPitch is at least
    /// the rows (2D, 3D) or the texels (1D).
    pub fn extent(&self, levels: u32) -> (u64, u64) {
        let mut w = 0;
        let mut h = 0;
        for l in 0..levels.max(1) {
            let (x, y) = self.origin(l);
            w = w.max(x + u64::from(minify(self.width, l).next_multiple_of(self.halign)));
            let rows = if self.dims == 1 {
                1
            } else {
                u64::from(minify(self.height, l).next_multiple_of(self.valign))
            };
            h = h.max(y + rows);
        }
        (w, h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_below_then_right_then_below() {
        // A 16x8 2D surface, HALIGN 4, VALIGN 4: level 1 (8x4) under level 0, level 2 (4x2)
        // right of level 1, level 3 (2x1) under level 2.
        let s = MipShape {
            dims: 2,
            width: 16,
            height: 8,
            halign: 4,
            valign: 4,
        };
        assert_eq!(s.origin(0), (0, 0));
        assert_eq!(s.origin(1), (0, 8));
        assert_eq!(s.origin(2), (8, 8));
        assert_eq!(s.origin(3), (8, 12));
        assert_eq!(s.origin(4), (8, 16));
        assert_eq!(s.extent(5), (16, 20));
    }

    #[test]
    fn one_d_levels_side_by_side() {
        let s = MipShape {
            dims: 1,
            width: 10,
            height: 1,
            halign: 4,
            valign: 4,
        };
        // Widths 10, 5, 2, 1 padded to 12, 8, 4, 4.
        assert_eq!(s.origin(1), (12, 0));
        assert_eq!(s.origin(3), (24, 0));
        assert_eq!(s.extent(4), (28, 1));
    }

    #[test]
    fn chains_and_alignments() {
        assert_eq!(full_chain(1), 1);
        assert_eq!(full_chain(16), 5);
        assert_eq!(full_chain(17), 5);
        assert_eq!(full_chain(1 << 14), MAX_LEVELS);
        assert_eq!(minify(5, 1), 2);
        assert_eq!(minify(5, 9), 1);
        assert_eq!(alignment(Platform::Skl, 1, 1), Some((4, 4)));
        assert_eq!(alignment(Platform::Tgllp, 3, 2), Some((16, 8)));
        assert_eq!(alignment(Platform::Dg2, 0, 1), Some((16, 4)));
        assert_eq!(alignment(Platform::Skl, 0, 1), None);
    }
}
