//! Builders for Xe-HPG LSC messages: loads, stores and fences. Field positions:
//! [`crate::sendmsg::lsc`].

use platform::Platform;

use super::{finish, regs, require, BuildError, Message, Result};
use crate::sendmsg::fields::with_bits;
use crate::sendmsg::lsc;
use crate::sendmsg::sfid::Sfid;

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
