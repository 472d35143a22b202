//! Typed builders for the send messages this stack emits: OWord block IO (BTI and A64), media
//! block IO, untyped and scattered IO (and A64 forms), atomics, LSC loads/stores/fences (Xe-HPG),
//! HDC fences, end of thread and barrier. Each returns the descriptors and payload lengths, or a
//! [`BuildError`] for a combination the hardware (or this stack) does not support.
//!
//! Field positions come from the family tables in [`super::hdc`], [`super::lsc`] and
//! [`super::gateway`]; `describe` of a built message names it as iga64 does
//! (`tests/sendmsg_build.rs` checks that through iga64).

use platform::Platform;

use super::fields::with_bits;
use super::sfid::Sfid;

mod hdc;
mod lsc;
mod thread;

pub use hdc::*;
pub use lsc::*;
pub use thread::*;

pub(crate) use platform::GRF_BYTES;
/// BTI values with a special meaning in HDC descriptors.
pub const BTI_SLM: u8 = 0xFE;
pub const BTI_STATELESS: u8 = 0xFF;
pub const BTI_STATELESS_NONCOHERENT: u8 = 0xFD;

/// Whether binding-table index `bti` names no surface but the stateless (A32, General State
/// relative) space: 255, or 253 for its non-coherent form.
pub fn is_stateless_bti(bti: u32) -> bool {
    bti == u32::from(BTI_STATELESS) || bti == u32::from(BTI_STATELESS_NONCOHERENT)
}

/// A send message ready to encode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Message {
    pub sfid: Sfid,
    /// Message descriptor (includes mlen in \[28:25\] and rlen in \[24:20\]).
    pub desc: u32,
    /// Extended descriptor without the SFID nibble and without the src1 length.
    pub ex_desc: u32,
    /// Registers of src0 (address/header payload).
    pub mlen: u8,
    /// Registers of src1 (data payload of a split send).
    pub src1_len: u8,
    /// Registers written back.
    pub rlen: u8,
}

impl Message {
    /// The SFID field encoding on `platform`.
    pub fn sfid_bits(&self, platform: Platform) -> Option<u8> {
        self.sfid.encode(platform)
    }

    /// The extended descriptor as IGA text writes it on `platform`: Gen9/Gen11 carry the SFID
    /// in \[3:0\] and the src1 length in \[10:6\], Gen12LP the src1 length, Xe-HPG neither (its
    /// src1 length is the `r7:2` suffix).
    pub fn ex_desc_text(&self, platform: Platform) -> u32 {
        let xlen = u32::from(self.src1_len) << 6;
        match platform {
            Platform::Skl | Platform::Icllp => {
                self.ex_desc | xlen | u32::from(self.sfid_bits(platform).unwrap_or(0))
            }
            Platform::Tgllp => self.ex_desc | xlen,
            Platform::Dg2 => self.ex_desc,
        }
    }
}

/// Why a message cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("{what} is not available on {platform}")]
    Unsupported {
        what: &'static str,
        platform: Platform,
    },
    #[error("{what} must be one of {allowed}, got {got}")]
    BadValue {
        what: &'static str,
        allowed: &'static str,
        got: u32,
    },
    #[error("payload of {regs} registers exceeds the {max}-register limit of {what}")]
    TooLong {
        what: &'static str,
        regs: u32,
        max: u32,
    },
    #[error("{0}")]
    BadCombination(&'static str),
}

pub(crate) type Result<T> = std::result::Result<T, BuildError>;

pub(crate) fn regs(bytes: u32) -> u32 {
    bytes.div_ceil(GRF_BYTES)
}

/// Descriptor with the payload lengths and header bit set, and the checks that keep them in range.
pub(crate) fn finish(
    sfid: Sfid,
    desc: u32,
    ex_desc: u32,
    mlen: u32,
    src1: u32,
    rlen: u32,
    header: bool,
) -> Result<Message> {
    for (what, n, max) in [
        ("src0", mlen, 15),
        ("src1", src1, 31),
        ("the destination", rlen, 31),
    ] {
        if n > max {
            return Err(BuildError::TooLong { what, regs: n, max });
        }
    }
    let mut d = with_bits(desc, 25, 4, mlen);
    d = with_bits(d, 20, 5, rlen);
    // Bit 19 is the header flag of HDC messages; LSC uses it for cache control.
    if header {
        d = with_bits(d, 19, 1, 1);
    }
    Ok(Message {
        sfid,
        desc: d,
        ex_desc,
        mlen: mlen as u8,
        src1_len: src1 as u8,
        rlen: rlen as u8,
    })
}

pub(crate) fn require(ok: bool, what: &'static str, platform: Platform) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(BuildError::Unsupported { what, platform })
    }
}
