//! Tiled surface layouts: where byte `x` of row `y` (and, in a volume tile, slice `z`) of a
//! surface lies in memory.
//!
//! A tiled surface is a row-major grid of tiles (4 KiB; 64 KiB for Tile-64), `pitch / tile
//! width` tiles across (the pitch a whole number of tiles); inside a tile, each address bit is
//! one bit of the byte's column `u` (x within the tile), its row `v` (y within the tile) or, in
//! the volume tiles of a 3D Tile-64 surface, its slice `s` (z within the tile). The tables
//! below are those bit assignments, lowest address bit first, as the PRM defines the layouts
//! (Mesa's isl tiling tests, IGT's `intel_bufops.c` and GmmLib's swizzle descriptors in
//! `CpuSwizzleBlt.c` state the same):
//!
//! | layout | tile | address bits, high to low |
//! |---|---|---|
//! | Tile-X | 512 B × 8 rows | v2 v1 v0 u8 … u0 (rows of 512 B) |
//! | legacy Tile-Y | 128 B × 32 rows | u6 u5 u4 v4 … v0 u3 … u0 (16-byte OWord columns of 32 rows) |
//! | Tile-4 (Xe-HPG) | 128 B × 32 rows | v4 v3 u6 v2 u5 u4 v1 v0 u3 … u0 (64 B blocks of 4 rows, in 512 B blocks of 8 rows) |
//! | Tile-64 (Xe-HPG), 2D, one sample | 16 Tile-4 tiles | bits 15..12 by element size (GmmLib `INTEL_TILE_64_<bpp>`): 1 B v7 v6 v5 u7; 2 and 4 B v6 v5 u8 u7; 8 and 16 B v5 u9 u8 u7; bits 11..0 as Tile-4 |
//! | Tile-64 (Xe-HPG), 3D | 64 × 32 × 32 (1 and 2 B), 128 × 32 × 16 (4 B), 256 × 16 × 16 (8 and 16 B) bytes × rows × slices | bits 15..10 by element size (GmmLib `INTEL_TILE_64_3D_<bpp>`): 1 B s4 s3 s2 u5 v4 v3; 2 B s4 s3 s2 v4 v3 u5; 4 B s3 s2 v4 u6 v3 u5; 8 and 16 B s3 s2 v3 u7 u6 u5; bits 9..0 s1 v2 s0 u4 v1 v0 u3 … u0 |
//!
//! A 3D Tile-64 surface is a stack of slabs, each as many slices deep as its tiles: slab `k`
//! (slices `k * depth` up to the next slab) starts Surface QPitch rows after slab `k - 1` in
//! the tile grid — a row of tiles there being `pitch × tile rows × depth` bytes — so slice `z`
//! lies in slab `z / depth` at slice `z % depth` of its tiles (GmmLib: QPitch is "the distance
//! in rows between R-slices", aligned to the tile height, and a slab's byte distance is QPitch
//! × pitch × the tile depth). Every other layout's tiles are flat (one slice deep), so this is
//! the array layout: slice `z` starts `z` QPitches down.
//!
//! No bit-6 address swizzling: i915 reports none on Gen9 and later. The other layouts a
//! RENDER_SURFACE_STATE can name (W-major, Tile-Yf/Ys) are refused by name, as is Tile-64 of a
//! multisampled surface (other bit orders) and of 12-byte elements (which it lacks).

use std::fmt;

/// One bit of the byte coordinate inside a tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bit {
    /// Bit n of the byte column.
    U(u8),
    /// Bit n of the row.
    V(u8),
    /// Bit n of the slice (volume tiles only).
    S(u8),
}

use Bit::{S, U, V};

const TILE_X: [Bit; 12] = [
    U(0),
    U(1),
    U(2),
    U(3),
    U(4),
    U(5),
    U(6),
    U(7),
    U(8),
    V(0),
    V(1),
    V(2),
];
const TILE_Y: [Bit; 12] = [
    U(0),
    U(1),
    U(2),
    U(3),
    V(0),
    V(1),
    V(2),
    V(3),
    V(4),
    U(4),
    U(5),
    U(6),
];
const TILE_4: [Bit; 12] = [
    U(0),
    U(1),
    U(2),
    U(3),
    V(0),
    V(1),
    U(4),
    U(5),
    V(2),
    U(6),
    V(3),
    V(4),
];

/// Tile-64's address bits 12..15 after Tile-4's twelve, by log2 of the element size.
const TILE_64_HIGH: [[Bit; 4]; 5] = [
    [U(7), V(5), V(6), V(7)],
    [U(7), U(8), V(5), V(6)],
    [U(7), U(8), V(5), V(6)],
    [U(7), U(8), U(9), V(5)],
    [U(7), U(8), U(9), V(5)],
];

/// The address bits 0..9 every 3D Tile-64 layout shares (GmmLib's `INTEL_TILE_64_3D_*`
/// descriptors, whose low ten are `Z Y Z X Y Y X X X X`, bit 9 first).
const TILE_64_3D_LOW: [Bit; 10] = [U(0), U(1), U(2), U(3), V(0), V(1), U(4), S(0), V(2), S(1)];

/// 3D Tile-64's address bits 10..15 after those ten, by log2 of the element size: GmmLib's
/// `CpuSwizzleBlt.c` descriptors, bit 15 first, are
/// `INTEL_TILE_64_3D_8`   `Z Z Z X Y Y`,
/// `INTEL_TILE_64_3D_16`  `Z Z Z Y Y X`,
/// `INTEL_TILE_64_3D_32`  `Z Z Y X Y X`,
/// `INTEL_TILE_64_3D_64`  `Z Z Y X X X` and
/// `INTEL_TILE_64_3D_128` `Z Z Y X X X` (the number is bits per element).
const TILE_64_3D_HIGH: [[Bit; 6]; 5] = [
    [V(3), V(4), U(5), S(2), S(3), S(4)],
    [U(5), V(3), V(4), S(2), S(3), S(4)],
    [U(5), V(3), U(6), V(4), S(2), S(3)],
    [U(5), U(6), U(7), V(3), S(2), S(3)],
    [U(5), U(6), U(7), V(3), S(2), S(3)],
];

/// Sixteen address bits: `low`'s then `high`'s.
const fn join<const L: usize, const H: usize>(low: &[Bit; L], high: &[Bit; H]) -> [Bit; 16] {
    let mut t = [U(0); 16];
    let mut i = 0;
    while i < L {
        t[i] = low[i];
        i += 1;
    }
    while i < L + H && i < 16 {
        t[i] = high[i - L];
        i += 1;
    }
    t
}

/// Tile-64's sixteen address bits for each element size (1, 2, 4, 8, 16 bytes).
const TILE_64: [[Bit; 16]; 5] = {
    let mut t = [[U(0); 16]; 5];
    let mut e = 0;
    while e < 5 {
        t[e] = join(&TILE_4, &TILE_64_HIGH[e]);
        e += 1;
    }
    t
};

/// 3D Tile-64's sixteen address bits for each element size (1, 2, 4, 8, 16 bytes).
const TILE_64_3D: [[Bit; 16]; 5] = {
    let mut t = [[U(0); 16]; 5];
    let mut e = 0;
    while e < 5 {
        t[e] = join(&TILE_64_3D_LOW, &TILE_64_3D_HIGH[e]);
        e += 1;
    }
    t
};

/// The memory layout of a surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tiling {
    /// Row `y` at `y * pitch`.
    #[default]
    Linear,
    /// Tile-X: 512 B × 8 rows.
    X,
    /// Legacy Tile-Y: 128 B × 32 rows of 16-byte columns.
    Y,
    /// Tile-4 (Xe-HPG): 128 B × 32 rows.
    Tile4,
    /// Tile-64 (Xe-HPG) of a 2D single-sampled surface whose elements are `1 << log2_bpe`
    /// bytes: 64 KiB tiles, 256 × 256 elements for 1 byte down to 64 × 64 for 16.
    Tile64 {
        /// log2 of the bytes per element, 0..=4.
        log2_bpe: u8,
    },
    /// Tile-64 of a 3D surface (see [`Tiling::volume`]) whose elements are `1 << log2_bpe`
    /// bytes: 64 KiB volume tiles, 64 × 32 × 32 elements for 1 byte down to 16 × 16 × 16 for
    /// 16.
    Tile64Volume {
        /// log2 of the bytes per element, 0..=4.
        log2_bpe: u8,
    },
}

/// A layout a surface names that the simulator does not model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedTiling(pub &'static str);

impl fmt::Display for UnsupportedTiling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} tiling is not modelled", self.0)
    }
}

/// What a Tile Mode field names.
#[derive(Debug, Clone, Copy)]
enum Named {
    Is(Tiling),
    /// Tile-64, whose bit order depends on the element size.
    Tile64,
    Refused(&'static str),
}

/// RENDER_SURFACE_STATE Tile Mode values 0..=3 on Gen9–Gen12LP (genxml: LINEAR, WMAJOR, XMAJOR,
/// YMAJOR; Gen12LP leaves 1 reserved). YMAJOR is legacy Tile-Y when Tiled Resource Mode is
/// NONE, Tile-Yf (4KB) or Tile-Ys (64KB) otherwise.
const RSS_GEN9_12: [Named; 4] = [
    Named::Is(Tiling::Linear),
    Named::Refused("W-major (stencil)"),
    Named::Is(Tiling::X),
    Named::Is(Tiling::Y),
];

/// RENDER_SURFACE_STATE Tile Mode values on Xe-HPG (genxml: LINEAR, TILE64, XMAJOR, TILE4).
const RSS_XE_HPG: [Named; 4] = [
    Named::Is(Tiling::Linear),
    Named::Tile64,
    Named::Is(Tiling::X),
    Named::Is(Tiling::Tile4),
];

/// Tiled Resource Mode values of Gen9–Gen12LP (genxml: NONE, 4KB = TILEYF, 64KB = TILEYS).
const TILED_RESOURCE: [Option<&str>; 4] = [
    None,
    Some("Tile-Yf"),
    Some("Tile-Ys"),
    Some("reserved tiled resource mode 3"),
];

/// XY_BLOCK_COPY_BLT Source/Destination Tiling values on Xe-HPG (genxml: LINEAR, X, 4, 64).
const BLT_XE_HPG: [Named; 4] = [
    Named::Is(Tiling::Linear),
    Named::Is(Tiling::X),
    Named::Is(Tiling::Tile4),
    Named::Tile64,
];

/// XY_BLOCK_COPY_BLT tiling values on Gen12LP (genxml names LINEAR and Y only).
const BLT_GEN12: [Named; 4] = [
    Named::Is(Tiling::Linear),
    Named::Refused("Gen12 block-copy Tile-Y (legacy or Yf: not modelled)"),
    Named::Refused("reserved block-copy tiling 2"),
    Named::Refused("reserved block-copy tiling 3"),
];

fn named(table: &[Named; 4], value: u32, bpe: u32) -> Result<Tiling, UnsupportedTiling> {
    match table[(value & 3) as usize] {
        Named::Is(t) => Ok(t),
        Named::Tile64 => Tiling::tile64(bpe),
        Named::Refused(what) => Err(UnsupportedTiling(what)),
    }
}

impl Tiling {
    /// Tile-64 of a 2D single-sampled surface of `bpe`-byte elements.
    pub fn tile64(bpe: u32) -> Result<Tiling, UnsupportedTiling> {
        match bpe {
            1 | 2 | 4 | 8 | 16 => Ok(Tiling::Tile64 {
                log2_bpe: bpe.trailing_zeros() as u8,
            }),
            _ => Err(UnsupportedTiling(
                "Tile-64 of elements other than 1, 2, 4, 8 or 16 bytes",
            )),
        }
    }

    /// The layout a RENDER_SURFACE_STATE of `bpe`-byte elements names with Tile Mode
    /// `tile_mode` and (before Xe-HPG, which has no such field: pass 0) Tiled Resource Mode
    /// `tiled_resource_mode`. Tile-64 is the 2D single-sample layout: a 3D surface's is its
    /// [`Tiling::volume`], and the caller refuses multisampled ones.
    pub fn from_surface_state(
        xe_hpg: bool,
        tile_mode: u32,
        tiled_resource_mode: u32,
        bpe: u32,
    ) -> Result<Tiling, UnsupportedTiling> {
        if xe_hpg {
            return named(&RSS_XE_HPG, tile_mode, bpe);
        }
        let t = named(&RSS_GEN9_12, tile_mode, bpe)?;
        match (t, TILED_RESOURCE[(tiled_resource_mode & 3) as usize]) {
            (_, None) => Ok(t),
            (Tiling::Y, Some(what)) => Err(UnsupportedTiling(what)),
            (_, Some(_)) => Err(UnsupportedTiling(
                "tiled resource mode on a surface that is not Y-major",
            )),
        }
    }

    /// The layout an XY_BLOCK_COPY_BLT tiling field `value` names for `bpe`-byte pixels (of a
    /// 2D surface: a 3D one's is its [`Tiling::volume`]).
    pub fn from_block_copy(
        xe_hpg: bool,
        value: u32,
        bpe: u32,
    ) -> Result<Tiling, UnsupportedTiling> {
        named(if xe_hpg { &BLT_XE_HPG } else { &BLT_GEN12 }, value, bpe)
    }

    /// The layout this tiling gives a 3D surface: Tile-64's volume tiles; every other layout
    /// the same as a 2D surface's (its slices lie as an array's layers).
    pub fn volume(self) -> Tiling {
        match self {
            Tiling::Tile64 { log2_bpe } => Tiling::Tile64Volume { log2_bpe },
            t => t,
        }
    }

    fn bits(self) -> Option<&'static [Bit]> {
        match self {
            Tiling::Linear => None,
            Tiling::X => Some(&TILE_X),
            Tiling::Y => Some(&TILE_Y),
            Tiling::Tile4 => Some(&TILE_4),
            Tiling::Tile64 { log2_bpe } => TILE_64.get(usize::from(log2_bpe)).map(|t| &t[..]),
            Tiling::Tile64Volume { log2_bpe } => {
                TILE_64_3D.get(usize::from(log2_bpe)).map(|t| &t[..])
            }
        }
    }

    /// log2 of the tile's width in bytes, height in rows and depth in slices (0 for linear).
    fn log2_extent(self) -> (u32, u32, u32) {
        let mut e = (0, 0, 0);
        for b in self.bits().unwrap_or(&[]) {
            match b {
                U(_) => e.0 += 1,
                V(_) => e.1 += 1,
                S(_) => e.2 += 1,
            }
        }
        e
    }

    /// Bytes of one tile (1 for linear).
    pub fn tile_bytes(self) -> u64 {
        self.bits().map_or(1, |b| 1 << b.len())
    }

    /// Tile width in bytes and height in rows (1 × 1 for linear).
    pub fn tile_size(self) -> (u64, u64) {
        let (u, v, _) = self.log2_extent();
        (1 << u, 1 << v)
    }

    /// Slices one tile spans: 1 but for 3D Tile-64's volume tiles.
    pub fn tile_depth(self) -> u64 {
        1 << self.log2_extent().2
    }

    /// Whether `pitch` (bytes) is a whole number of tiles across.
    pub fn pitch_fits(self, pitch: u64) -> bool {
        let (w, _) = self.tile_size();
        pitch > 0 && pitch.is_multiple_of(w)
    }

    /// Where slice `slice` of a 3D surface (or layer of an array) whose slices are
    /// `qpitch_rows` rows apart (Surface QPitch) starts in a tiled layout: its first row and
    /// its slice within the tiles, for [`Tiling::volume_offset`]. Flat tiles put slice `z` `z`
    /// QPitches down; volume tiles put it in slab `z / depth`, slabs QPitch rows apart.
    pub fn slice_start(self, slice: u64, qpitch_rows: u64) -> (u64, u64) {
        let d = self.tile_depth();
        ((slice / d) * qpitch_rows, slice % d)
    }

    /// Byte offset of byte column `x` of row `y` in a surface of `pitch` bytes per row (a
    /// whole number of tiles, see [`Tiling::pitch_fits`]).
    #[inline]
    pub fn offset(self, pitch: u64, x: u64, y: u64) -> u64 {
        self.volume_offset(pitch, x, y, 0)
    }

    /// [`Tiling::offset`] of slice `z` within the tiles (below [`Tiling::tile_depth`]; higher
    /// bits are ignored, and flat tiles ignore it): a row of tiles spans `pitch` × tile rows
    /// × tile depth bytes.
    #[inline]
    pub fn volume_offset(self, pitch: u64, x: u64, y: u64, z: u64) -> u64 {
        let Some(bits) = self.bits() else {
            return y * pitch + x;
        };
        // Each table names bits 0.. of each coordinate in order, so the bits it names are the
        // coordinate within the tile and the rest count whole tiles.
        let (mut inside, mut nu, mut nv, mut ns) = (0, 0u32, 0u32, 0u32);
        for (i, b) in bits.iter().enumerate() {
            let bit = match *b {
                U(n) => {
                    nu += 1;
                    (x >> n) & 1
                }
                V(n) => {
                    nv += 1;
                    (y >> n) & 1
                }
                S(n) => {
                    ns += 1;
                    (z >> n) & 1
                }
            };
            inside |= bit << i;
        }
        // Tile rows are pitch × tile rows × tile depth bytes apart, tiles 2^bits bytes.
        (((y >> nv) * pitch) << (nv + ns)) + ((x >> nu) << bits.len()) + inside
    }

    /// How many bytes from byte column `x` on lie contiguously in memory (within one row):
    /// the rest of the row for linear surfaces, else up to the next 16-byte column (every
    /// modelled tile keeps 16 bytes of a row together).
    #[inline]
    pub fn run(self, x: u64) -> u64 {
        match self {
            Tiling::Linear => u64::MAX,
            _ => 16 - x % 16,
        }
    }

    /// Calls `f(offset, start, n)` for each contiguous piece of the `len` bytes from byte column
    /// `x` of row `y` (slice `z` within the tiles, see [`Tiling::volume_offset`]): bytes
    /// `start..start + n` of the span lie at `offset`. A linear row is one piece.
    pub fn pieces<E>(
        self,
        pitch: u64,
        x: u64,
        y: u64,
        z: u64,
        len: usize,
        mut f: impl FnMut(u64, usize, usize) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut done = 0;
        while done < len {
            let xi = x + done as u64;
            let n = self.run(xi).min((len - done) as u64) as usize;
            f(self.volume_offset(pitch, xi, y, z), done, n)?;
            done += n;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_is_a_permutation_of_its_tile() {
        let tile64 = (0..5).map(|e| Tiling::tile64(1 << e).unwrap());
        let volume = (0..5).map(|e| Tiling::tile64(1 << e).unwrap().volume());
        for t in [Tiling::X, Tiling::Y, Tiling::Tile4]
            .into_iter()
            .chain(tile64)
            .chain(volume)
        {
            let (w, h) = t.tile_size();
            let d = t.tile_depth();
            assert_eq!(w * h * d, t.tile_bytes());
            let mut seen = vec![false; t.tile_bytes() as usize];
            for z in 0..d {
                for y in 0..h {
                    for x in 0..w {
                        let o = t.volume_offset(w, x, y, z) as usize;
                        assert!(!seen[o], "{t:?} ({x}, {y}, {z})");
                        seen[o] = true;
                    }
                }
            }
        }
    }

    #[test]
    fn sixteen_byte_runs_stay_together() {
        for t in [
            Tiling::X,
            Tiling::Y,
            Tiling::Tile4,
            Tiling::Tile64 { log2_bpe: 2 },
            Tiling::Tile64Volume { log2_bpe: 0 },
            Tiling::Tile64Volume { log2_bpe: 4 },
        ] {
            for z in 0..3 {
                for y in 0..40 {
                    for x in (0..512).step_by(16) {
                        let o = t.volume_offset(1024, x, y, z);
                        for k in 1..16 {
                            assert_eq!(t.volume_offset(1024, x + k, y, z), o + k, "{t:?}");
                        }
                    }
                }
            }
        }
    }
}
