//! Texels: a surface format's bytes to the four 32-bit channel values typed messages and the
//! sampler return (R, G, B, A), and back.
//!
//! Conversions (OpenCL C "Conversion Rules", which state what the hardware does): normalized
//! integers read as `v / (2^n - 1)` (signed: `max(v / (2^(n-1) - 1), -1)`); writes clamp to
//! the channel's range and round to nearest even (`convert_uchar_sat_rte(f * 255.0f)`);
//! integer writes saturate; 16-bit floats convert with round to nearest even. Channels a
//! format lacks read as 0, alpha as 1 (integer 1 or 1.0).
//!
//! The 4:2:2 YCbCr formats (YCRCB_*) keep two texels in one DWord: texel `x` reads as Cr, its
//! own Y, Cb and 1.0 from the DWord of its pair ([`decode_in_unit`]); the planar 4:2:0 format
//! (PLANAR_420_8) reads its planes in `typed::load`. They are read-only (the sampler's
//! formats), so [`encode`] leaves them alone and typed writes refuse them.

use batchbuffer::surface_format::{ChannelOrder, ChannelType, SurfaceFormat};

use crate::convert::{f16_to_f32, f32_to_f16, rint, INTEGRAL};

/// The value of a missing alpha channel.
fn one(t: ChannelType) -> u32 {
    match t {
        ChannelType::Uint | ChannelType::Sint => 1,
        _ => 1.0f32.to_bits(),
    }
}

fn low_bits(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

fn sign_extend(raw: u32, bits: u32) -> i32 {
    if bits >= 32 {
        raw as i32
    } else {
        ((raw << (32 - bits)) as i32) >> (32 - bits)
    }
}

/// The R, G, B, A values of texel `index` (`x % texels_per_unit`) of the unit in `bytes`
/// (`bytes_per_element * texels_per_unit` long): a 4:2:2 texel's Cr, Y (its own), Cb as
/// UNORM8 and 1.0; any other texel as [`decode`] reads it.
pub(crate) fn decode_in_unit(f: &SurfaceFormat, bytes: &[u8], index: u32) -> [u32; 4] {
    let ChannelOrder::Ycrcb(p) = f.order else {
        return decode(f, bytes);
    };
    let unorm = |at: u8| unorm8_bits(bytes.get(usize::from(at)).copied().unwrap_or(0));
    [
        unorm(p.cr),
        unorm(p.y[(index & 1) as usize]),
        unorm(p.cb),
        1.0f32.to_bits(),
    ]
}

/// `v / 255.0` for every UNORM8 value `v` (the same quotients, looked up: image reads of the
/// commonest formats divide once per channel otherwise).
const UNORM8: [f32; 256] = {
    let mut t = [0f32; 256];
    let mut v = 0;
    while v < 256 {
        t[v] = v as f32 / 255.0;
        v += 1;
    }
    t
};

/// The f32 bits a UNORM8 channel reads as.
#[inline]
pub(crate) fn unorm8_bits(v: u8) -> u32 {
    UNORM8[usize::from(v)].to_bits()
}

/// The R, G, B, A values of the texel in `bytes` (at least `bytes_per_element` long).
pub(crate) fn decode(f: &SurfaceFormat, bytes: &[u8]) -> [u32; 4] {
    let mut out = [[0; 4]];
    decode_row(f, bytes, &mut out);
    out[0]
}

/// [`decode`] of consecutive texels: texel k's bytes start `bytes_per_element * k` into
/// `bytes`, its values go to `out[k]`. The format is read once for all of them.
pub(crate) fn decode_row(f: &SurfaceFormat, bytes: &[u8], out: &mut [[u32; 4]]) {
    let t = f.channel_type;
    let bits = f.channel_bits();
    let init = [0, 0, 0, one(t)];
    let each = Channels {
        order: f.order.channels(),
        size: (bits / 8) as usize,
        stride: f.bytes_per_element as usize,
    };
    match t {
        ChannelType::Float if bits == 16 => {
            each.load(bytes, out, init, |raw| f16_to_f32(raw as u16).to_bits())
        }
        ChannelType::Uint | ChannelType::Raw | ChannelType::Float => {
            each.load(bytes, out, init, |raw| raw)
        }
        ChannelType::Sint => each.load(bytes, out, init, |raw| sign_extend(raw, bits) as u32),
        ChannelType::Unorm if bits == 8 => {
            each.load(bytes, out, init, |raw| unorm8_bits(raw as u8))
        }
        ChannelType::Unorm => {
            let max = low_bits(bits) as f32;
            each.load(bytes, out, init, |raw| (raw as f32 / max).to_bits())
        }
        ChannelType::Snorm => {
            let max = low_bits(bits - 1) as f32;
            each.load(bytes, out, init, |raw| {
                (sign_extend(raw, bits) as f32 / max).max(-1.0).to_bits()
            })
        }
    }
}

/// `x` clamped to `lo..=hi`, scaled (an f32 product, as the spec's `f * 255.0f`) and rounded
/// to nearest even; NaN gives 0.
fn norm(x: f32, lo: f32, hi: f32, scale: u32) -> i64 {
    if x.is_nan() {
        return 0;
    }
    rint(x.clamp(lo, hi) * scale as f32) as i64
}

/// [`norm`] for UNORM8 (`convert_uchar_sat_rte(x * 255.0f)`, NaN 0): the product, 0 to 255,
/// plus 2^23 leaves the rounded integer (ties to even, as the addition rounds) in the low
/// bits of the sum.
fn unorm8(x: f32) -> u32 {
    if x.is_nan() {
        return 0;
    }
    (x.clamp(0.0, 1.0) * 255.0 + INTEGRAL).to_bits() & 0xff
}

/// Stores `value`'s channels whose bit is set in `mask` (bit 0 R .. bit 3 A) into the texel
/// `bytes`, leaving the others as they are.
pub(crate) fn encode(f: &SurfaceFormat, value: [u32; 4], mask: u32, bytes: &mut [u8]) {
    encode_row(f, &[value], mask, bytes);
}

/// [`encode`] of consecutive texels: `values[k]` into the texel `bytes_per_element * k` into
/// `bytes`. The format is read once for all of them.
pub(crate) fn encode_row(f: &SurfaceFormat, values: &[[u32; 4]], mask: u32, bytes: &mut [u8]) {
    if f.order.is_ycbcr() {
        return;
    }
    let bits = f.channel_bits();
    let each = Channels {
        order: f.order.channels(),
        size: (bits / 8) as usize,
        stride: f.bytes_per_element as usize,
    };
    let (v, m) = (values, mask);
    match f.channel_type {
        ChannelType::Uint | ChannelType::Raw => {
            let max = low_bits(bits);
            each.store(v, m, bytes, |x| x.min(max))
        }
        ChannelType::Sint => {
            let max = low_bits(bits - 1) as i32;
            each.store(v, m, bytes, |x| (x as i32).clamp(-max - 1, max) as u32)
        }
        ChannelType::Unorm if bits == 8 => each.store(v, m, bytes, |x| unorm8(f32::from_bits(x))),
        ChannelType::Unorm => {
            let max = low_bits(bits);
            each.store(v, m, bytes, |x| {
                norm(f32::from_bits(x), 0.0, 1.0, max) as u32
            })
        }
        ChannelType::Snorm => {
            let max = low_bits(bits - 1);
            each.store(v, m, bytes, |x| {
                norm(f32::from_bits(x), -1.0, 1.0, max) as u32
            })
        }
        ChannelType::Float if bits == 16 => {
            each.store(v, m, bytes, |x| u32::from(f32_to_f16(f32::from_bits(x))))
        }
        ChannelType::Float => each.store(v, m, bytes, |x| x),
    }
}

/// The channels `f` stores, bit 0 R .. bit 3 A (a write that disables one of them keeps
/// its bytes).
pub(crate) fn stored_channels(f: &SurfaceFormat) -> u32 {
    f.order.channels().iter().map(|c| 1 << c).sum()
}

/// A format's stored channels: their order (the R, G, B, A index of each in memory order),
/// bytes per channel and bytes from one texel to the next. Its loops take the channel type's
/// conversion as a parameter, so each type's loop is compiled on its own (no choice of type
/// per channel of every texel).
struct Channels {
    order: &'static [usize],
    size: usize,
    stride: usize,
}

impl Channels {
    /// The texels of `bytes`, one per element of `out`: each starts as `init` (the values of
    /// channels the format lacks), then gets its stored channels, converted.
    #[inline(always)]
    fn load(&self, bytes: &[u8], out: &mut [[u32; 4]], init: [u32; 4], conv: impl Fn(u32) -> u32) {
        // Each channel size's loop on its own: no choice of size per channel of every texel.
        match self.size {
            1 => self.load_sized::<1>(bytes, out, init, conv),
            2 => self.load_sized::<2>(bytes, out, init, conv),
            4 => self.load_sized::<4>(bytes, out, init, conv),
            _ => self.load_sized::<0>(bytes, out, init, conv),
        }
    }

    /// [`Channels::load`] with channels of `N` bytes (0: of `self.size`).
    #[inline(always)]
    fn load_sized<const N: usize>(
        &self,
        bytes: &[u8],
        out: &mut [[u32; 4]],
        init: [u32; 4],
        conv: impl Fn(u32) -> u32,
    ) {
        let size = if N == 0 { self.size } else { N };
        for (o, b) in out.iter_mut().zip(bytes.chunks(self.stride.max(1))) {
            *o = init;
            for (k, &c) in self.order.iter().enumerate() {
                o[c] = conv(channel(b, k, size));
            }
        }
    }

    /// Each stored channel enabled in `mask` of each of `values`, converted, into its texel
    /// of `bytes`.
    #[inline(always)]
    fn store(&self, values: &[[u32; 4]], mask: u32, bytes: &mut [u8], conv: impl Fn(u32) -> u32) {
        match self.size {
            1 => self.store_sized::<1>(values, mask, bytes, conv),
            2 => self.store_sized::<2>(values, mask, bytes, conv),
            4 => self.store_sized::<4>(values, mask, bytes, conv),
            _ => self.store_sized::<0>(values, mask, bytes, conv),
        }
    }

    /// [`Channels::store`] with channels of `N` bytes (0: of `self.size`).
    #[inline(always)]
    fn store_sized<const N: usize>(
        &self,
        values: &[[u32; 4]],
        mask: u32,
        bytes: &mut [u8],
        conv: impl Fn(u32) -> u32,
    ) {
        let size = if N == 0 { self.size } else { N };
        for (value, b) in values.iter().zip(bytes.chunks_mut(self.stride.max(1))) {
            for (k, &c) in self.order.iter().enumerate() {
                if mask & (1 << c) != 0 {
                    put_channel(b, k, size, conv(value[c]));
                }
            }
        }
    }
}

/// Channel `k` of `size` bytes of a texel, little-endian; 0 past its end. Sizes 1, 2 and 4
/// (every format's) are read without a copy of variable length, once per channel of every
/// texel an image message touches.
#[inline(always)]
fn channel(bytes: &[u8], k: usize, size: usize) -> u32 {
    let at = |n: usize| bytes.get(k * n..(k + 1) * n);
    match size {
        1 => bytes.get(k).map_or(0, |&b| u32::from(b)),
        2 => at(2).map_or(0, |b| u32::from(u16::from_le_bytes([b[0], b[1]]))),
        4 => at(4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        _ => {
            let mut word = [0u8; 4];
            if let Some(b) = at(size).filter(|b| b.len() <= 4) {
                word[..size].copy_from_slice(b);
            }
            u32::from_le_bytes(word)
        }
    }
}

/// Stores the low `size` bytes of `raw` as channel `k` of a texel ([`channel`]'s inverse);
/// nothing past its end.
#[inline(always)]
fn put_channel(bytes: &mut [u8], k: usize, size: usize, raw: u32) {
    let le = raw.to_le_bytes();
    match bytes.get_mut(k * size..(k + 1) * size) {
        Some([b]) => *b = le[0],
        Some([b0, b1]) => [*b0, *b1] = [le[0], le[1]],
        Some([b0, b1, b2, b3]) => [*b0, *b1, *b2, *b3] = le,
        Some(b) if b.len() <= 4 => b.copy_from_slice(&le[..size]),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchbuffer::surface_format as sf;

    /// cl_intel_packed_yuv's layouts (YUYV: Y0 U Y1 V; UYVY: U Y0 V Y1; YVYU: Y0 V Y1 U; VYUY:
    /// V Y0 U Y1) read as (V, Y, U, 1.0), each texel of a pair with its own Y.
    #[test]
    fn packed_yuv_texels_read_v_y_u_one() {
        let (y0, y1, u, v) = (10u8, 20u8, 30u8, 40u8);
        let n = |b: u8| (f32::from(b) / 255.0).to_bits();
        for (f, bytes) in [
            (sf::YCRCB_NORMAL, [y0, u, y1, v]),
            (sf::YCRCB_SWAPY, [u, y0, v, y1]),
            (sf::YCRCB_SWAPUV, [y0, v, y1, u]),
            (sf::YCRCB_SWAPUVY, [v, y0, u, y1]),
        ] {
            let one = 1.0f32.to_bits();
            assert_eq!(decode_in_unit(&f, &bytes, 0), [n(v), n(y0), n(u), one]);
            assert_eq!(decode_in_unit(&f, &bytes, 1), [n(v), n(y1), n(u), one]);
        }
    }

    #[test]
    fn unorm8_reads_as_v_over_255_and_writes_rounded_to_even() {
        assert_eq!(
            decode(&sf::R8_UNORM, &[51]),
            [0.2f32.to_bits(), 0, 0, 0x3f80_0000]
        );
        let mut b = [0u8];
        // 0.5 * 255 = 127.5: ties to even gives 128.
        encode(&sf::R8_UNORM, [0.5f32.to_bits(), 0, 0, 0], 1, &mut b);
        assert_eq!(b, [128]);
        encode(&sf::R8_UNORM, [2.0f32.to_bits(), 0, 0, 0], 1, &mut b);
        assert_eq!(b, [255]);
        encode(&sf::R8_UNORM, [f32::NAN.to_bits(), 0, 0, 0], 1, &mut b);
        assert_eq!(b, [0]);
    }

    #[test]
    fn unorm8_table_holds_the_quotients() {
        for v in 0..=255u8 {
            assert_eq!(
                decode(&sf::R8_UNORM, &[v])[0],
                (f32::from(v) / 255.0).to_bits(),
                "{v}"
            );
        }
    }

    /// The UNORM8 write agrees with the spec's rounding on every f32 from -0.5 to 1.5 in
    /// steps of 2^-16 (ties at each n + 0.5 over 255 among them), NaN and the infinities.
    #[test]
    fn unorm8_writes_round_to_nearest_even() {
        let edge = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0, 1.0];
        let steps = (-(1i32 << 15)..=(3 << 15)).map(|i| i as f32 / 65536.0);
        let ties = (0..255).map(|n| (n as f32 + 0.5) / 255.0);
        for x in edge.into_iter().chain(steps).chain(ties) {
            for y in [x, x.next_up(), x.next_down()] {
                // convert_uchar_sat_rte(y * 255.0f), NaN 0, by the standard library.
                let want = if y.is_nan() {
                    0
                } else {
                    (y.clamp(0.0, 1.0) * 255.0).round_ties_even() as u32
                };
                assert_eq!(unorm8(y), want, "{y:e}");
            }
        }
    }

    #[test]
    fn bgra_swaps_red_and_blue_in_memory() {
        let rgba = decode(&sf::B8G8R8A8_UNORM, &[255, 0, 0, 255]);
        assert_eq!(rgba[2], 1.0f32.to_bits());
        assert_eq!(rgba[0], 0);
        let mut b = [0u8; 4];
        encode(&sf::B8G8R8A8_UNORM, rgba, 0xf, &mut b);
        assert_eq!(b, [255, 0, 0, 255]);
    }

    #[test]
    fn integer_writes_saturate_and_sint_sign_extends() {
        let mut b = [0u8; 2];
        encode(&sf::R8G8_UINT, [300, 7, 0, 0], 0b11, &mut b);
        assert_eq!(b, [255, 7]);
        encode(&sf::R8G8_SINT, [(-200i32) as u32, 100, 0, 0], 0b11, &mut b);
        assert_eq!(b, [0x80, 100]);
        assert_eq!(decode(&sf::R8G8_SINT, &b)[..2], [(-128i32) as u32, 100]);
        // A disabled channel keeps its bytes.
        encode(&sf::R8G8_UINT, [1, 2, 0, 0], 0b01, &mut b);
        assert_eq!(b, [1, 100]);
    }

    #[test]
    fn missing_channels_read_as_zero_and_alpha_one() {
        assert_eq!(decode(&sf::R32_UINT, &[5, 0, 0, 0]), [5, 0, 0, 1]);
        assert_eq!(
            decode(&sf::R16G16_FLOAT, &[0x00, 0x3c, 0x00, 0xc0]),
            [1.0f32.to_bits(), (-2.0f32).to_bits(), 0, 1.0f32.to_bits()]
        );
        assert_eq!(decode(&sf::R8_SNORM, &[0x80])[0], (-1.0f32).to_bits());
    }
}
