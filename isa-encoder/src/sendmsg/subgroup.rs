//! Lowering of the cl_intel_subgroups / _short / _char block built-ins
//! (`intel_sub_group_block_read*` / `_write*`, `_us`, `_uc`) to send messages, per platform.
//!
//! The choices follow what Intel's compiler (ocloc 22.43, IGC 1.0.12504) emits, which
//! `tests/sendmsg_subgroup.rs` checks kernel by kernel:
//! - buffers before Xe-HPG: OWord block messages of at most 8 OWords (aligned reads, unaligned
//!   writes; DC0 through a BTI, DC1 A64 when stateless); an 8-byte block (uchar, SIMD8) is a
//!   2-lane byte gather/scatter of DWords instead, since the smallest OWord block is 16 bytes;
//! - buffers on Xe-HPG: transposed LSC messages, `d32` loads of at most 32 elements (128 bytes)
//!   and `d64` stores of at most 32 elements (256 bytes), cached / write-back;
//! - images everywhere: media block messages at most 32 bytes wide, one row per vector element.

use platform::Platform;

use super::build::{
    self, A64Element, BuildError, LscAccess, LscCache, LscData, LscSurface, Message,
};
use super::sfid::Sfid;

/// Where a block built-in reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockSurface {
    /// A buffer through binding-table entry `bti` (32-bit offsets).
    Buffer { bti: u8 },
    /// A buffer by 64-bit address (stateless).
    BufferA64,
    /// A 2D image through binding-table entry `bti`.
    Image { bti: u8 },
}

/// One block built-in call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockIo {
    pub write: bool,
    /// Sub-group size: 8 or 16 (block IO is not available at SIMD32).
    pub simd: u32,
    /// Element bytes: 4 (`uint`), 2 (`_us`), 1 (`_uc`).
    pub elem_bytes: u32,
    /// Elements per work item: 1, 2, 4, 8 (and 16 for `_uc`).
    pub vector: u32,
}

/// One send of a lowered built-in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoweredSend {
    pub message: Message,
    /// The execution size the send needs (block messages address by header or one lane).
    pub lanes: u8,
}

/// Largest OWord block per message (8 OWords = 128 bytes).
const OWORD_CHUNK: u32 = 128;
/// Largest transposed LSC load (d32 x 32) and store (d64 x 32).
const LSC_LOAD_CHUNK: u32 = 128;
const LSC_STORE_CHUNK: u32 = 256;
/// Widest media block per message.
const MEDIA_WIDTH: u32 = 32;

fn chunks(total: u32, max: u32) -> impl Iterator<Item = u32> {
    (0..total.div_ceil(max)).map(move |i| (total - i * max).min(max))
}

fn one(message: Message, lanes: u8) -> LoweredSend {
    LoweredSend { message, lanes }
}

/// The sends implementing `io` on `surface`, in order.
pub fn block_io(
    platform: Platform,
    io: BlockIo,
    surface: BlockSurface,
) -> Result<Vec<LoweredSend>, BuildError> {
    if !matches!(io.simd, 8 | 16) {
        return Err(BuildError::BadValue {
            what: "block IO sub-group size",
            allowed: "8, 16",
            got: io.simd,
        });
    }
    let max_vector = match io.elem_bytes {
        4 | 2 => 8,
        1 => 16,
        got => {
            return Err(BuildError::BadValue {
                what: "block IO element bytes",
                allowed: "1, 2, 4",
                got,
            })
        }
    };
    if !io.vector.is_power_of_two() || io.vector > max_vector {
        return Err(BuildError::BadValue {
            what: "block IO vector size",
            allowed: "1, 2, 4, 8 (16 for uchar)",
            got: io.vector,
        });
    }
    let bytes = io.simd * io.elem_bytes * io.vector;
    match surface {
        BlockSurface::Image { bti } => {
            let width = io.simd * io.elem_bytes;
            chunks(width, MEDIA_WIDTH)
                .map(|w| {
                    let m = if io.write {
                        build::media_block_write(platform, bti, w, io.vector)?
                    } else {
                        build::media_block_read(platform, bti, w, io.vector)?
                    };
                    Ok(one(m, 8))
                })
                .collect()
        }
        BlockSurface::Buffer { .. } | BlockSurface::BufferA64 if platform >= Platform::Dg2 => {
            let lsc_surface = match surface {
                BlockSurface::Buffer { bti } => LscSurface::Bti(bti),
                _ => LscSurface::Flat,
            };
            let addr_bits = if lsc_surface == LscSurface::Flat {
                64
            } else {
                32
            };
            let (data, cache, chunk) = if io.write {
                (LscData::D64, LscCache::InvalidateCached, LSC_STORE_CHUNK)
            } else {
                (LscData::D32, LscCache::CachedCached, LSC_LOAD_CHUNK)
            };
            let elem = if io.write { 8 } else { 4 };
            chunks(bytes, chunk)
                .map(|c| {
                    let access = LscAccess {
                        port: Sfid::Ugm,
                        surface: lsc_surface,
                        simd: 1,
                        data,
                        vector: c / elem,
                        transposed: true,
                        addr_bits,
                        cache,
                    };
                    let m = if io.write {
                        build::lsc_store(platform, &access)?
                    } else {
                        build::lsc_load(platform, &access)?
                    };
                    Ok(one(m, 1))
                })
                .collect()
        }
        BlockSurface::Buffer { bti } if bytes < 16 => {
            // Two lanes of DWords.
            Ok(vec![one(
                build::byte_scattered(platform, !io.write, bti, 8, 4)?,
                2,
            )])
        }
        BlockSurface::BufferA64 if bytes < 16 => Ok(vec![one(
            build::a64_scattered(platform, !io.write, 8, A64Element::Bytes(4))?,
            2,
        )]),
        BlockSurface::Buffer { bti } => chunks(bytes, OWORD_CHUNK)
            .map(|c| {
                let m = if io.write {
                    build::oword_block_write(platform, bti, c / 16)?
                } else {
                    build::oword_block_read(platform, bti, c / 16, true)?
                };
                Ok(one(m, 1))
            })
            .collect(),
        BlockSurface::BufferA64 => chunks(bytes, OWORD_CHUNK)
            .map(|c| {
                let m = if io.write {
                    build::a64_oword_block_write(platform, c / 16)?
                } else {
                    build::a64_oword_block_read(platform, c / 16, true)?
                };
                Ok(one(m, 1))
            })
            .collect(),
    }
}
