//! The sampler's unfiltered loads: `ld` (message type 0x07) and `ld_lz` (0x1A, LOD 0), which
//! IGC emits for `read_image*` with integer coordinates and no sampler (and with a sampler
//! whose filter is nearest and coordinates unnormalized, when the coordinates are integers);
//! and `sample_lz` (0x18, LOD 0) and `sample_l` (0x02), which IGC emits for `read_image*`
//! with a sampler and float coordinates (see `filter`). Other messages (`sample` with
//! derivatives, gathers, comparisons) are absent: they fail as unsupported.
//!
//! Descriptor (isa-encoder `sendmsg::other`): \[30\] 16-bit return, \[29\],\[18:17\] SIMD mode
//! (1 SIMD8, 2 SIMD16), \[16:12\] message type, \[19\] header, \[11:8\] sampler index (unused by
//! loads), \[7:0\] binding table index. Parameters after the optional header, one per SIMD
//! width of DWords, in the order Gen9+ defines: `ld` U, V, LOD, R; `ld_lz` U, V, R (absent
//! trailing ones are 0). With a header, DWord 2 bits \[15:12\] disable R, G, B, A in the
//! response; the response packs the enabled channels, one SIMD width of DWords each. An
//! address out of bounds returns 0 in every channel (as typed reads do).
//!
//! In SIMD mode 3 (SIMD32/64) message type 0x1F is the sampler cache flush, which IGC sends
//! after a fence in kernels with `read_write` images (their reads are sampler loads, their
//! writes typed data-port writes). The simulated sampler reads memory directly and keeps no
//! cache, so the flush has nothing to do; its response is only a dependency for the thread
//! and is left as it was.

use isa_encoder::sendmsg::other::{SAMPLER_CACHE_FLUSH, SIMD32_64};
use platform::Platform;

use crate::error::EuErrorKind;
use crate::regfile::REG_BYTES;

use super::typed::texel_place;
use super::{filter, lanes_of, texel, Memory, Msg};

const LD: u32 = 0x07;
const LD_LZ: u32 = 0x1A;
const SAMPLE_LZ: u32 = 0x18;
const SAMPLE_L: u32 = 0x02;

/// Where `sample_l`'s LOD parameter is: after U, V, R before Xe-HPG, first on Xe-HPG (IGC's
/// dg2 code sends LOD in src0 and U, V in src1). The surfaces have one level, which every
/// LOD clamps to; with the min and mag filters equal (the only sampler states modelled) the
/// LOD selects nothing, so `sample_l` samples like `sample_lz`.
fn sample_l_lod_first(p: Platform) -> bool {
    matches!(p, Platform::Dg2)
}

pub(super) fn execute(msg: &mut Msg, mem: &mut dyn Memory) -> Result<(), EuErrorKind> {
    let op = msg.field(12, 5);
    let mode = msg.field(17, 2) | msg.field(29, 1) << 2;
    if mode == SIMD32_64 && op == SAMPLER_CACHE_FLUSH {
        return Ok(());
    }
    let lanes = match mode {
        1 => 8,
        2 => 16,
        _ => {
            return Err(EuErrorKind::Unsupported(format!(
                "sampler SIMD mode {mode} (desc {:#010x})",
                msg.desc
            )))
        }
    };
    if msg.field(30, 1) != 0 {
        return Err(EuErrorKind::Unsupported(
            "sampler messages with 16-bit return".into(),
        ));
    }
    if ![LD, LD_LZ, SAMPLE_LZ, SAMPLE_L].contains(&op) {
        return Err(EuErrorKind::Unsupported(format!(
            "sampler message type {op:#x} (only ld, ld_lz, sample_lz and sample_l are modelled)"
        )));
    }
    let bti = msg.desc & 0xff;
    let surface = mem.surface(bti)?;
    let Some(img) = surface.image else {
        return Err(EuErrorKind::Surface(format!(
            "sampler load of binding table index {bti}: not a 1D, 2D or 3D surface"
        )));
    };
    let header = msg.field(19, 1) != 0;
    let h = if header { REG_BYTES } else { 0 };
    let chans = if header {
        !(msg.u32_at(8) >> 12) & 0xf
    } else {
        0xf
    };
    let width = 4 * lanes;
    let params = msg.payload.len().saturating_sub(h) / width;
    let first = usize::from(op == SAMPLE_L && sample_l_lod_first(msg.platform));
    let sampler = if op == SAMPLE_LZ || op == SAMPLE_L {
        Some(filter::Sampling::new(&mem.sampler(msg.field(8, 4))?, &img)?)
    } else {
        None
    };
    let bpe = img.format.bytes_per_element as usize;
    let mut buf = [0u8; 16];
    for i in lanes_of(msg.lane_bits(lanes)) {
        let p = |j: usize| {
            if j < params {
                msg.u32_at(h + j * width + 4 * i)
            } else {
                0
            }
        };
        if let Some(smp) = &sampler {
            let c = [p(first), p(first + 1), p(first + 2)].map(f32::from_bits);
            let value = smp.sample(c, |t| {
                let Some(at) = texel_place(&surface, &img, [t[0], t[1], t[2], 0]) else {
                    return Ok([0; 4]);
                };
                let b = &mut buf[..bpe];
                surface.read_place(mem, at, b)?;
                Ok(texel::decode(&img.format, b))
            })?;
            for (k, ch) in lanes_of(chans).enumerate() {
                msg.put(k * width + 4 * i, &value[ch].to_le_bytes());
            }
            continue;
        }
        // (u, v, r, lod)
        let c = if op == LD {
            [p(0), p(1), p(3), p(2)]
        } else {
            [p(0), p(1), p(2), 0]
        };
        let value = match texel_place(&surface, &img, c) {
            Some(at) => {
                let b = &mut buf[..bpe];
                surface.read_place(mem, at, b)?;
                texel::decode(&img.format, b)
            }
            None => [0; 4],
        };
        for (k, ch) in lanes_of(chans).enumerate() {
            msg.put(k * width + 4 * i, &value[ch].to_le_bytes());
        }
    }
    Ok(())
}
