//! The sampler's unfiltered loads: `ld` (message type 0x07) and `ld_lz` (0x1A, LOD 0), which
//! IGC emits for `read_image*` with integer coordinates and no sampler (and with a sampler
//! whose filter is nearest and coordinates unnormalized, when the coordinates are integers);
//! and `sample_lz` (0x18, LOD 0) and `sample_l` (0x02), which IGC emits for `read_image*`
//! with a sampler and float coordinates (see `filter`), and `sample_d` (0x04), which IGC emits
//! for cl_khr_mipmap_image's reads with gradients: the LOD is the base-2 logarithm of the
//! longer of the two footprint vectors (d/dx and d/dy across the dimensions, in texels of
//! level 0: the PRM's LOD computation without anisotropy). Other messages (`sample` with
//! implicit derivatives, gathers, comparisons) are absent: they fail as unsupported.
//!
//! Descriptor (isa-encoder `sendmsg::other`): \[30\] 16-bit return, \[29\],\[18:17\] SIMD mode
//! (1 SIMD8, 2 SIMD16), \[16:12\] message type, \[19\] header, \[11:8\] sampler index (unused by
//! loads), \[7:0\] binding table index. Parameters after the optional header, one per SIMD
//! width of DWords, in the order Gen9+ defines: `ld` U, V, LOD, R; `ld_lz` U, V, R; `sample_l`
//! LOD, U, V, R; `sample_d` U, dU/dx, dU/dy, V, dV/dx, dV/dy, R, dR/dx, dR/dy (absent trailing
//! ones are 0). With a header, DWord 2 bits \[15:12\] disable R, G, B, A in the
//! response; the response packs the enabled channels, one SIMD width of DWords each. An
//! address out of bounds returns 0 in every channel (as typed reads do).
//!
//! In SIMD mode 3 (SIMD32/64) message type 0x1F is the sampler cache flush, which IGC sends
//! after a fence in kernels with `read_write` images (their reads are sampler loads, their
//! writes typed data-port writes). The simulated sampler reads memory directly and keeps no
//! cache, so the flush has nothing to do; its response is only a dependency for the thread
//! and is left as it was.

use isa_encoder::sendmsg::other::{SAMPLER_CACHE_FLUSH, SIMD32_64};

use crate::error::EuErrorKind;
use crate::regfile::REG_BYTES;

use super::typed::load;
use super::{filter, lanes_of, texel_row, Memory, Msg};

const LD: u32 = 0x07;
const LD_LZ: u32 = 0x1A;
const SAMPLE_LZ: u32 = 0x18;
const SAMPLE_L: u32 = 0x02;
const SAMPLE_D: u32 = 0x04;

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
    if ![LD, LD_LZ, SAMPLE_LZ, SAMPLE_L, SAMPLE_D].contains(&op) {
        return Err(EuErrorKind::Unsupported(format!(
            "sampler message type {op:#x} (only ld, ld_lz, sample_lz, sample_l and sample_d are \
             modelled)"
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
    let sampler = if [SAMPLE_LZ, SAMPLE_L, SAMPLE_D].contains(&op) {
        Some(filter::Sampling::new(&mem.sampler(msg.field(8, 4))?, &img)?)
    } else {
        None
    };
    let p = |msg: &Msg, i: usize, j: usize| {
        if j < params {
            msg.u32_at(h + j * width + 4 * i)
        } else {
            0
        }
    };
    // A lane's coordinates: the sampler's (U, V, R and the LOD), or the load's texel
    // `(u, v, r, lod)`.
    let sampled = |msg: &Msg, i: usize| {
        let p = |j| p(msg, i, j);
        if op == SAMPLE_L {
            // `sample_l` sends the LOD first, then U, V, R (IGC's code on all four platforms: a
            // 1D read sends two parameters, the LOD argument then the coordinate).
            ([p(1), p(2), p(3)].map(f32::from_bits), f32::from_bits(p(0)))
        } else if op == SAMPLE_D {
            let f = |j| f32::from_bits(p(j));
            // (coordinate, d/dx, d/dy) per dimension, U, V, R; an array's layer is the
            // coordinate after the last dimension's.
            let d = usize::from(img.dims);
            let mut c = [0f32; 3];
            let mut grads = [[0f32; 2]; 3];
            for a in 0..d {
                c[a] = f(3 * a);
                grads[a] = [f(3 * a + 1), f(3 * a + 2)];
            }
            if img.array && d < 3 {
                c[d] = f(3 * d);
            }
            let lod = sampler
                .as_ref()
                .map_or(0.0, |s| s.lod_of_gradients(&grads[..d]));
            (c, lod)
        } else {
            ([p(0), p(1), p(2)].map(f32::from_bits), 0.0)
        }
    };
    let loaded = |msg: &Msg, i: usize| {
        let p = |j| p(msg, i, j);
        if op == LD {
            [p(0), p(1), p(3), p(2)]
        } else {
            [p(0), p(1), p(2), 0]
        }
    };
    // Every lane one texel, the lanes consecutive texels of a row: read as one.
    let enabled = msg.lane_bits(lanes);
    if enabled == (1 << lanes) - 1 {
        let mut coords = [[0u32; 4]; texel_row::MAX_LANES];
        let one = (0..lanes).all(|i| {
            let texel = match &sampler {
                Some(smp) => {
                    let (c, lod) = sampled(msg, i);
                    smp.nearest_texel(c, lod).flatten()
                }
                None => Some(loaded(msg, i)),
            };
            texel.map(|t| coords[i] = t).is_some()
        });
        let mut values = [[0u32; 4]; texel_row::MAX_LANES];
        if one
            && texel_row::consecutive(&coords[..lanes]).is_some_and(|first| {
                texel_row::load(&surface, &img, first, mem, &mut values[..lanes])
            })
        {
            for (i, value) in values[..lanes].iter().enumerate() {
                for (k, ch) in lanes_of(chans).enumerate() {
                    msg.put(k * width + 4 * i, &value[ch].to_le_bytes());
                }
            }
            return Ok(());
        }
    }
    for i in lanes_of(enabled) {
        let value = match &sampler {
            Some(smp) => {
                let (c, lod) = sampled(msg, i);
                smp.sample(c, lod, |t| load(&surface, &img, t, mem))?
            }
            None => load(&surface, &img, loaded(msg, i), mem)?,
        };
        for (k, ch) in lanes_of(chans).enumerate() {
            msg.put(k * width + 4 * i, &value[ch].to_le_bytes());
        }
    }
    Ok(())
}
