//! Native (uncompacted, 128-bit) instruction encodings, one codec per encoding family.
//!
//! A codec is a pair of plain functions over the shared model:
//!
//! ```text
//! pub fn decode(platform: Platform, bits: &[u8; 16]) -> Result<Instruction, DecodeError>;
//! pub fn encode(platform: Platform, inst: &Instruction) -> Result<[u8; 16], EncodeError>;
//! ```
//!
//! `decode` never panics and ignores the CompactControl bit (29) — compacted words are
//! expanded by [`crate::compact`] before they reach it, and the caller sets
//! [`InstOpts::COMPACTED`](crate::model::InstOpts) itself. `encode` always produces the native
//! form with bit 29 clear. [`Bits`] gives both codecs field access by bit range.
//!
//! Families: [`gen12`] covers Gen12LP (12p1) and Xe-HPG (12p71); [`gen9_11`] covers Gen9 and
//! Gen11. A build without a family's codec answers `None` from [`codec`] and callers report
//! [`DecodeError::NoCodec`].

pub mod bits;
pub mod gen12;
pub mod gen9_11;
mod shared;

pub use bits::Bits;

use platform::Platform;

use crate::error::{DecodeError, EncodeError};
use crate::model::Instruction;

/// A native codec: the decode/encode pair for one encoding family.
#[derive(Clone, Copy)]
pub struct Codec {
    pub decode: fn(Platform, &[u8; 16]) -> Result<Instruction, DecodeError>,
    pub encode: fn(Platform, &Instruction) -> Result<[u8; 16], EncodeError>,
}

/// The codec for `platform`, if this build has one.
pub fn codec(platform: Platform) -> Option<Codec> {
    match platform {
        Platform::Tgllp | Platform::Dg2 => Some(Codec {
            decode: gen12::decode,
            encode: gen12::encode,
        }),
        Platform::Skl | Platform::Icllp => Some(Codec {
            decode: gen9_11::decode,
            encode: gen9_11::encode,
        }),
    }
}

/// Decodes one native instruction.
pub fn decode(platform: Platform, bits: &[u8; 16]) -> Result<Instruction, DecodeError> {
    let c = codec(platform).ok_or(DecodeError::NoCodec(platform))?;
    (c.decode)(platform, bits)
}

/// Encodes one instruction in native form.
pub fn encode(platform: Platform, inst: &Instruction) -> Result<[u8; 16], EncodeError> {
    let c = codec(platform).ok_or(EncodeError::NoCodec(platform))?;
    (c.encode)(platform, inst)
}
