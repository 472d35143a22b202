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
use super::gateway::{GATEWAY_BARRIER, GATEWAY_EOT, SPAWNER_EOT_BIT};
use super::lsc;
use super::sfid::Sfid;

/// Bytes in one GRF on every platform here.
const GRF_BYTES: u32 = 32;
/// BTI values with a special meaning in HDC descriptors.
pub const BTI_SLM: u8 = 0xFE;
pub const BTI_STATELESS: u8 = 0xFF;
pub const BTI_STATELESS_NONCOHERENT: u8 = 0xFD;

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

type Result<T> = std::result::Result<T, BuildError>;

fn regs(bytes: u32) -> u32 {
    bytes.div_ceil(GRF_BYTES)
}

/// Descriptor with the payload lengths and header bit set, and the checks that keep them in range.
fn finish(
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

fn require(ok: bool, what: &'static str, platform: Platform) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(BuildError::Unsupported { what, platform })
    }
}

fn hdc_message(msg_type: u32, control: u32, bti: u8) -> u32 {
    let d = with_bits(0, 14, 5, msg_type);
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
    let desc = hdc_message(if aligned { 0x01 } else { 0x00 }, code, bti);
    finish(Sfid::Dc0, desc, 0, 1, 0, regs(owords * 16), true)
}

/// OWord block write through a binding table entry (DC0): header in src0, data in src1.
pub fn oword_block_write(platform: Platform, bti: u8, owords: u32) -> Result<Message> {
    let code = oword_code(platform, owords)?;
    let desc = hdc_message(0x08, code, bti);
    finish(Sfid::Dc0, desc, 0, 1, regs(owords * 16), 0, true)
}

/// A64 (stateless) OWord block read (DC1): the header holds the 64-bit address.
pub fn a64_oword_block_read(platform: Platform, owords: u32, aligned: bool) -> Result<Message> {
    let code = oword_code(platform, owords)?;
    let control = code | (u32::from(aligned) << 3);
    let desc = hdc_message(0x14, control, BTI_STATELESS);
    finish(Sfid::Dc1, desc, 0, 1, 0, regs(owords * 16), true)
}

/// A64 (stateless) OWord block write (DC1, unaligned form).
pub fn a64_oword_block_write(platform: Platform, owords: u32) -> Result<Message> {
    let code = oword_code(platform, owords)?;
    let desc = hdc_message(0x15, code, BTI_STATELESS);
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
    finish(Sfid::Dc1, hdc_message(0x04, 0, bti), 0, 1, 0, r, true)
}

/// Media block write of a 2D surface (DC1): header in src0, data in src1.
pub fn media_block_write(_platform: Platform, bti: u8, width: u32, height: u32) -> Result<Message> {
    let r = media_regs(width, height)?;
    finish(Sfid::Dc1, hdc_message(0x0A, 0, bti), 0, 1, r, 0, true)
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
        (true, false) => 0x01,
        (false, false) => 0x09,
        (true, true) => 0x11,
        (false, true) => 0x19,
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
    let desc = hdc_message(if read { 0x04 } else { 0x0C }, control, bti);
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
    let desc = hdc_message(if read { 0x03 } else { 0x0B }, control, bti);
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
    let desc = hdc_message(if read { 0x10 } else { 0x1A }, control, BTI_STATELESS);
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
    let desc = hdc_message(0x02, control, bti);
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
    let desc = hdc_message(0x12, control, BTI_STATELESS);
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
    let desc = hdc_message(0x07, u32::from(commit) << 5, bti);
    finish(Sfid::Dc0, desc, 0, 1, 0, u32::from(commit), true)
}

/// End of thread: to the thread spawner before Xe-HPG, to the gateway on Xe-HPG. src0 is r0's
/// copy (usually r127).
pub fn end_of_thread(platform: Platform) -> Result<Message> {
    if platform >= Platform::Dg2 {
        finish(
            Sfid::Gateway,
            GATEWAY_EOT | 1 << SPAWNER_EOT_BIT,
            0,
            1,
            0,
            0,
            false,
        )
    } else {
        finish(Sfid::ThreadSpawner, 1 << SPAWNER_EOT_BIT, 0, 1, 0, 0, false)
    }
}

/// Barrier signal to the gateway: src0 holds the barrier id and counts (from r0.2).
pub fn barrier(_platform: Platform) -> Result<Message> {
    finish(Sfid::Gateway, GATEWAY_BARRIER, 0, 1, 0, 0, false)
}

/// LSC address space and surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LscSurface {
    /// Flat (stateless) addresses.
    Flat,
    /// Binding table index in ex_desc\[31:24\].
    Bti(u8),
    /// Surface state offset (64-byte aligned) in ex_desc\[31:11\].
    SurfaceState(u32),
    /// Bindless surface state offset in ex_desc\[31:11\].
    BindlessSurfaceState(u32),
}

/// LSC data size per element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LscData {
    D8,
    D16,
    D32,
    D64,
    /// 8 bits in memory, widened to 32 in registers.
    D8U32,
    /// 16 bits in memory, widened to 32 in registers.
    D16U32,
}

impl LscData {
    fn code(self) -> u32 {
        match self {
            LscData::D8 => 0,
            LscData::D16 => 1,
            LscData::D32 => 2,
            LscData::D64 => 3,
            LscData::D8U32 => 4,
            LscData::D16U32 => 5,
        }
    }

    fn reg_bytes(self) -> u32 {
        match self {
            LscData::D8 => 1,
            LscData::D16 => 2,
            LscData::D64 => 8,
            _ => 4,
        }
    }
}

/// LSC cache controls \[19:17\] (L1, L3), in the load spelling; stores use the write policy the
/// same code means (see [`lsc::CACHE_CONTROLS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LscCache {
    Default = 0,
    UncachedUncached,
    UncachedCached,
    CachedUncached,
    CachedCached,
    StreamingUncached,
    StreamingCached,
    /// Loads: read-invalidate L1, cached L3; stores: write-back both.
    InvalidateCached,
}

/// One LSC load or store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LscAccess {
    pub port: Sfid,
    pub surface: LscSurface,
    /// Lanes (the send's execution size); 1 for transposed (block) access.
    pub simd: u32,
    pub data: LscData,
    /// Elements per address: 1, 2, 3, 4, 8 (and 16, 32, 64 when transposed).
    pub vector: u32,
    /// Transposed: one address, `vector` consecutive elements in one register block.
    pub transposed: bool,
    /// Address size in bits: 16, 32 or 64.
    pub addr_bits: u32,
    pub cache: LscCache,
}

fn lsc_desc(platform: Platform, a: &LscAccess, opcode: u32) -> Result<(u32, u32, u32, u32)> {
    require(platform >= Platform::Dg2, "LSC", platform)?;
    if !a.port.is_lsc() || a.port == Sfid::Tgm {
        return Err(BuildError::BadCombination(
            "LSC loads/stores go to UGM, UGML or SLM",
        ));
    }
    let vec_code = lsc::VECTOR_SIZES
        .iter()
        .position(|&v| v == a.vector)
        .ok_or(BuildError::BadValue {
            what: "LSC vector size",
            allowed: "1, 2, 3, 4, 8, 16, 32, 64",
            got: a.vector,
        })? as u32;
    if a.transposed {
        if a.simd != 1 {
            return Err(BuildError::BadCombination("transposed LSC access is SIMD1"));
        }
        if !matches!(a.data, LscData::D32 | LscData::D64) {
            return Err(BuildError::BadCombination(
                "transposed LSC access takes d32 or d64 data",
            ));
        }
    } else {
        if a.vector > 8 {
            return Err(BuildError::BadCombination(
                "vectors above 8 need a transposed LSC access",
            ));
        }
        if !matches!(a.simd, 1 | 2 | 4 | 8 | 16 | 32) {
            return Err(BuildError::BadValue {
                what: "LSC SIMD width",
                allowed: "1, 2, 4, 8, 16, 32",
                got: a.simd,
            });
        }
        if matches!(a.data, LscData::D8 | LscData::D16) {
            return Err(BuildError::BadCombination(
                "non-transposed d8/d16 access uses d8u32/d16u32",
            ));
        }
    }
    let addr_code = match a.addr_bits {
        16 => 1,
        32 => 2,
        64 => 3,
        got => {
            return Err(BuildError::BadValue {
                what: "LSC address size",
                allowed: "16, 32, 64",
                got,
            })
        }
    };
    if a.port == Sfid::Slm && (a.surface != LscSurface::Flat || a.cache != LscCache::Default) {
        return Err(BuildError::BadCombination(
            "SLM access is flat and has no cache controls",
        ));
    }
    let (addr_type, ex_desc) = match a.surface {
        LscSurface::Flat => (lsc::ADDR_FLAT, 0),
        LscSurface::Bti(b) => (lsc::ADDR_BTI, u32::from(b) << 24),
        LscSurface::SurfaceState(off) | LscSurface::BindlessSurfaceState(off) => {
            if off & 0x7FF != 0 {
                return Err(BuildError::BadCombination(
                    "surface state offsets in ex_desc are 2 KiB aligned",
                ));
            }
            let t = if matches!(a.surface, LscSurface::SurfaceState(_)) {
                lsc::ADDR_SS
            } else {
                lsc::ADDR_BSS
            };
            (t, off)
        }
    };
    let mut d = with_bits(0, lsc::OPCODE.0, lsc::OPCODE.1, opcode);
    d = with_bits(d, lsc::ADDR_SIZE.0, lsc::ADDR_SIZE.1, addr_code);
    d = with_bits(d, lsc::DATA_SIZE.0, lsc::DATA_SIZE.1, a.data.code());
    d = with_bits(d, lsc::VECTOR.0, lsc::VECTOR.1, vec_code);
    d = with_bits(
        d,
        lsc::TRANSPOSED.0,
        lsc::TRANSPOSED.1,
        u32::from(a.transposed),
    );
    d = with_bits(d, lsc::CACHE.0, lsc::CACHE.1, a.cache as u32);
    d = with_bits(d, lsc::ADDR_TYPE.0, lsc::ADDR_TYPE.1, addr_type);
    let addr_regs = regs(a.simd * a.addr_bits / 8);
    let data_regs = if a.transposed {
        regs(a.vector * a.data.reg_bytes())
    } else {
        a.vector * regs(a.simd * a.data.reg_bytes())
    };
    Ok((d, ex_desc, addr_regs, data_regs))
}

/// LSC load (Xe-HPG): addresses in src0, `rlen` registers back.
pub fn lsc_load(platform: Platform, access: &LscAccess) -> Result<Message> {
    let (d, ex, m, r) = lsc_desc(platform, access, 0x00)?;
    finish(access.port, d, ex, m, 0, r, false)
}

/// LSC store (Xe-HPG): addresses in src0, data in src1.
pub fn lsc_store(platform: Platform, access: &LscAccess) -> Result<Message> {
    let (d, ex, m, r) = lsc_desc(platform, access, 0x04)?;
    finish(access.port, d, ex, m, r, 0, false)
}

/// LSC fence flush operations \[14:12\].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LscFlush {
    None = 0,
    Evict,
    Invalidate,
    Discard,
    Clean,
    FlushL3,
}

/// LSC fence scopes \[11:9\].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LscScope {
    Group = 0,
    Local,
    Tile,
    Gpu,
    Gpus,
    SystemRelease,
    SystemAcquire,
}

/// LSC fence on `port` (UGM, UGML, SLM, TGM), Xe-HPG. The fence returns one register the
/// thread waits on, as IGC emits it.
pub fn lsc_fence(
    platform: Platform,
    port: Sfid,
    flush: LscFlush,
    scope: LscScope,
) -> Result<Message> {
    require(platform >= Platform::Dg2, "LSC", platform)?;
    if !port.is_lsc() {
        return Err(BuildError::BadCombination(
            "LSC fences go to UGM, UGML, SLM or TGM",
        ));
    }
    let mut d = with_bits(0, lsc::OPCODE.0, lsc::OPCODE.1, 0x1F);
    d = with_bits(d, lsc::FENCE_FLUSH.0, lsc::FENCE_FLUSH.1, flush as u32);
    d = with_bits(d, lsc::FENCE_SCOPE.0, lsc::FENCE_SCOPE.1, scope as u32);
    finish(port, d, 0, 1, 0, 1, false)
}
