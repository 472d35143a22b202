//! Builders for legacy data-port (HDC) messages: OWord block, media block, untyped, scattered,
//! atomics and fences. Field positions: [`crate::sendmsg::hdc`].

use platform::Platform;

use super::{finish, regs, BuildError, Message, Result, BTI_SLM, BTI_STATELESS};
use crate::sendmsg::fields::with_bits;
use crate::sendmsg::hdc::types::*;
use crate::sendmsg::hdc::MSG_TYPE;
use crate::sendmsg::sfid::Sfid;

fn hdc_message(msg_type: u32, control: u32, bti: u8) -> u32 {
    let d = with_bits(0, MSG_TYPE.0, MSG_TYPE.1, msg_type);
    let d = with_bits(d, 8, 6, control);
    with_bits(d, 0, 8, u32::from(bti))
}

/// OWord block sizes \[10:8\]: 1 (low half), 2, 4, 8 OWords; 16 on Xe-HPG.
fn oword_code(platform: Platform, owords: u32) -> Result<u32> {
    match owords {
        1 => Ok(0),
        2 => Ok(2),
        4 => Ok(3),
        8 => Ok(4),
        16 if platform >= Platform::Dg2 => Ok(5),
        16 => Err(BuildError::Unsupported {
            what: "a 16-OWord block",
            platform,
        }),
        got => Err(BuildError::BadValue {
            what: "OWord count",
            allowed: "1, 2, 4, 8, 16",
            got,
        }),
    }
}

/// OWord block read through a binding table entry (DC0): a header with the address in OWords
/// (unaligned) or bytes-aligned-to-16 (aligned); returns `owords` x 16 bytes, transposed.
pub fn oword_block_read(
    platform: Platform,
    bti: u8,
    owords: u32,
    aligned: bool,
) -> Result<Message> {
    let code = oword_code(platform, owords)?;
    let desc = hdc_message(
        if aligned {
            DC0_OWORD_READ_UNALIGNED
        } else {
            DC0_OWORD_READ
        },
        code,
        bti,
    );
    finish(Sfid::Dc0, desc, 0, 1, 0, regs(owords * 16), true)
}

/// OWord block write through a binding table entry (DC0): header in src0, data in src1.
pub fn oword_block_write(platform: Platform, bti: u8, owords: u32) -> Result<Message> {
    let code = oword_code(platform, owords)?;
    let desc = hdc_message(DC0_OWORD_WRITE, code, bti);
    finish(Sfid::Dc0, desc, 0, 1, regs(owords * 16), 0, true)
}

/// A64 (stateless) OWord block read (DC1): the header holds the 64-bit address.
pub fn a64_oword_block_read(platform: Platform, owords: u32, aligned: bool) -> Result<Message> {
    let code = oword_code(platform, owords)?;
    let control = code | (u32::from(aligned) << 3);
    let desc = hdc_message(DC1_A64_BLOCK_READ, control, BTI_STATELESS);
    finish(Sfid::Dc1, desc, 0, 1, 0, regs(owords * 16), true)
}

/// A64 (stateless) OWord block write (DC1, unaligned form).
pub fn a64_oword_block_write(platform: Platform, owords: u32) -> Result<Message> {
    let code = oword_code(platform, owords)?;
    let desc = hdc_message(DC1_A64_BLOCK_WRITE, code, BTI_STATELESS);
    finish(Sfid::Dc1, desc, 0, 1, regs(owords * 16), 0, true)
}

/// Registers a media block of `width` bytes by `height` rows occupies: rows are padded to a
/// power-of-two pitch.
fn media_regs(width: u32, height: u32) -> Result<u32> {
    if !(1..=64).contains(&width) {
        return Err(BuildError::BadValue {
            what: "media block width (bytes)",
            allowed: "1..=64",
            got: width,
        });
    }
    if !(1..=64).contains(&height) {
        return Err(BuildError::BadValue {
            what: "media block height (rows)",
            allowed: "1..=64",
            got: height,
        });
    }
    let bytes = width.next_power_of_two() * height;
    if bytes > 256 {
        return Err(BuildError::TooLong {
            what: "a media block message",
            regs: regs(bytes),
            max: 8,
        });
    }
    Ok(regs(bytes))
}

/// Media block read of a 2D surface (DC1): header with x (bytes), y (rows) and the block size.
pub fn media_block_read(_platform: Platform, bti: u8, width: u32, height: u32) -> Result<Message> {
    let r = media_regs(width, height)?;
    finish(
        Sfid::Dc1,
        hdc_message(DC1_MEDIA_READ, 0, bti),
        0,
        1,
        0,
        r,
        true,
    )
}

/// Media block write of a 2D surface (DC1): header in src0, data in src1.
pub fn media_block_write(_platform: Platform, bti: u8, width: u32, height: u32) -> Result<Message> {
    let r = media_regs(width, height)?;
    finish(
        Sfid::Dc1,
        hdc_message(DC1_MEDIA_WRITE, 0, bti),
        0,
        1,
        r,
        0,
        true,
    )
}

/// SIMD width of a SIMD8/16 message.
fn simd_regs(simd: u32, bytes_per_lane: u32) -> Result<u32> {
    match simd {
        8 | 16 => Ok(regs(simd * bytes_per_lane)),
        got => Err(BuildError::BadValue {
            what: "SIMD width",
            allowed: "8, 16",
            got,
        }),
    }
}

/// Channels x, y, z, w enabled by `channels` (bit 0 = x); the descriptor holds the disable mask.
fn channel_count(channels: u8) -> Result<u32> {
    if channels == 0 || channels > 0xF {
        return Err(BuildError::BadValue {
            what: "channel mask",
            allowed: "0x1..=0xF",
            got: u32::from(channels),
        });
    }
    Ok(channels.count_ones())
}

/// Untyped surface read/write (DC1), 32-bit addresses: `bti` may be [`BTI_SLM`] or stateless.
fn untyped(read: bool, a64: bool, simd: u32, bti: u8, channels: u8) -> Result<Message> {
    let n = channel_count(channels)?;
    let addr = simd_regs(simd, if a64 { 8 } else { 4 })?;
    let data = simd_regs(simd, 4)? * n;
    // SIMD mode [13:12]: 1 = SIMD16, 2 = SIMD8.
    let mode = if simd == 16 { 1 } else { 2 };
    let control = (mode << 4) | u32::from(!channels & 0xF);
    let msg_type = match (read, a64) {
        (true, false) => DC1_UNTYPED_READ,
        (false, false) => DC1_UNTYPED_WRITE,
        (true, true) => DC1_A64_UNTYPED_READ,
        (false, true) => DC1_A64_UNTYPED_WRITE,
    };
    let bti = if a64 { BTI_STATELESS } else { bti };
    let desc = hdc_message(msg_type, control, bti);
    if read {
        finish(Sfid::Dc1, desc, 0, addr, 0, data, false)
    } else {
        finish(Sfid::Dc1, desc, 0, addr, data, 0, false)
    }
}

/// Untyped surface read of `channels` (bit 0 = x) 32-bit values per lane.
pub fn untyped_surface_read(
    _platform: Platform,
    bti: u8,
    simd: u32,
    channels: u8,
) -> Result<Message> {
    untyped(true, false, simd, bti, channels)
}

/// Untyped surface write: addresses in src0, data in src1.
pub fn untyped_surface_write(
    _platform: Platform,
    bti: u8,
    simd: u32,
    channels: u8,
) -> Result<Message> {
    untyped(false, false, simd, bti, channels)
}

/// A64 untyped surface read (stateless, 64-bit addresses).
pub fn a64_untyped_surface_read(_platform: Platform, simd: u32, channels: u8) -> Result<Message> {
    untyped(true, true, simd, BTI_STATELESS, channels)
}

/// A64 untyped surface write.
pub fn a64_untyped_surface_write(_platform: Platform, simd: u32, channels: u8) -> Result<Message> {
    untyped(false, true, simd, BTI_STATELESS, channels)
}

/// Bytes per address of a byte-scattered message -> \[11:10\].
fn byte_size_code(bytes: u32) -> Result<u32> {
    match bytes {
        1 => Ok(0),
        2 => Ok(1),
        4 => Ok(2),
        got => Err(BuildError::BadValue {
            what: "bytes per address",
            allowed: "1, 2, 4",
            got,
        }),
    }
}

/// Byte scattered read/write (DC0): each lane reads 1, 2 or 4 bytes into a DWord.
pub fn byte_scattered(
    _platform: Platform,
    read: bool,
    bti: u8,
    simd: u32,
    bytes: u32,
) -> Result<Message> {
    let size = byte_size_code(bytes)?;
    let r = simd_regs(simd, 4)?;
    let control = (size << 2) | u32::from(simd == 16);
    let desc = hdc_message(
        if read {
            DC0_BYTE_GATHER
        } else {
            DC0_BYTE_SCATTER
        },
        control,
        bti,
    );
    if read {
        finish(Sfid::Dc0, desc, 0, r, 0, r, false)
    } else {
        finish(Sfid::Dc0, desc, 0, r, r, 0, false)
    }
}

/// DWord scattered read/write (DC0), one DWord per lane.
pub fn dword_scattered(_platform: Platform, read: bool, bti: u8, simd: u32) -> Result<Message> {
    let r = simd_regs(simd, 4)?;
    // [9] is the legacy SIMD-mode bit that must be set, [8] selects SIMD16.
    let control = 0b10 | u32::from(simd == 16);
    let desc = hdc_message(
        if read {
            DC0_DWORD_GATHER
        } else {
            DC0_DWORD_SCATTER
        },
        control,
        bti,
    );
    if read {
        finish(Sfid::Dc0, desc, 0, r, 0, r, false)
    } else {
        finish(Sfid::Dc0, desc, 0, r, r, 0, false)
    }
}

/// Element kind of an A64 scattered message, \[9:8\].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum A64Element {
    /// 1, 2 or 4 bytes widened to a DWord per lane.
    Bytes(u32),
    Dword,
    Qword,
}

/// A64 scattered read/write (DC1) with 64-bit addresses.
pub fn a64_scattered(
    _platform: Platform,
    read: bool,
    simd: u32,
    element: A64Element,
) -> Result<Message> {
    let addr = simd_regs(simd, 8)?;
    let (sub, size, lane_bytes) = match element {
        A64Element::Bytes(b) => (0, byte_size_code(b)?, 4),
        A64Element::Dword => (1, 0, 4),
        A64Element::Qword => (2, 0, 8),
    };
    let data = simd_regs(simd, lane_bytes)?;
    let control = (u32::from(simd == 16) << 4) | (size << 2) | sub;
    let desc = hdc_message(
        if read {
            DC1_A64_GATHER
        } else {
            DC1_A64_SCATTER
        },
        control,
        BTI_STATELESS,
    );
    if read {
        finish(Sfid::Dc1, desc, 0, addr, 0, data, false)
    } else {
        finish(Sfid::Dc1, desc, 0, addr, data, 0, false)
    }
}

/// Integer atomic operations, in descriptor order (\[11:8\]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicOp {
    And = 1,
    Or,
    Xor,
    Mov,
    Inc,
    Dec,
    Add,
    Sub,
    RevSub,
    IMax,
    IMin,
    UMax,
    UMin,
    CmpXchg,
    PreDec,
}

impl AtomicOp {
    /// Data operands the op takes (0 for inc/dec, 2 for compare-exchange).
    fn operands(self) -> u32 {
        match self {
            AtomicOp::Inc | AtomicOp::Dec | AtomicOp::PreDec => 0,
            AtomicOp::CmpXchg => 2,
            _ => 1,
        }
    }
}

/// Untyped 32-bit integer atomic (DC1) through `bti` (or SLM), SIMD8/16.
pub fn untyped_atomic(
    _platform: Platform,
    bti: u8,
    simd: u32,
    op: AtomicOp,
    returns: bool,
) -> Result<Message> {
    let r = simd_regs(simd, 4)?;
    // [13] return data, [12] SIMD8 when set.
    let control = (u32::from(returns) << 5) | (u32::from(simd == 8) << 4) | op as u32;
    let desc = hdc_message(DC1_ATOMIC, control, bti);
    finish(
        Sfid::Dc1,
        desc,
        0,
        r,
        r * op.operands(),
        if returns { r } else { 0 },
        false,
    )
}

/// A64 untyped integer atomic (DC1), always SIMD8, 32- or 64-bit data.
pub fn a64_untyped_atomic(
    _platform: Platform,
    op: AtomicOp,
    bits64: bool,
    returns: bool,
) -> Result<Message> {
    let addr = regs(8 * 8);
    let data = regs(8 * if bits64 { 8 } else { 4 });
    // [13] return data, [12] 64-bit data.
    let control = (u32::from(returns) << 5) | (u32::from(bits64) << 4) | op as u32;
    let desc = hdc_message(DC1_A64_ATOMIC, control, BTI_STATELESS);
    finish(
        Sfid::Dc1,
        desc,
        0,
        addr,
        data * op.operands(),
        if returns { data } else { 0 },
        false,
    )
}

/// What an HDC fence orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenceTarget {
    Global,
    Slm,
}

/// HDC memory fence (DC0, Gen9 to Gen12LP; also present on Xe-HPG). With `commit` the fence
/// writes back one register when done, which the thread waits on.
pub fn hdc_fence(_platform: Platform, target: FenceTarget, commit: bool) -> Result<Message> {
    let bti = match target {
        FenceTarget::Global => 0,
        FenceTarget::Slm => BTI_SLM,
    };
    let desc = hdc_message(DC0_FENCE, u32::from(commit) << 5, bti);
    finish(Sfid::Dc0, desc, 0, 1, 0, u32::from(commit), true)
}
