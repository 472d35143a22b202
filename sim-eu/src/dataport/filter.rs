//! Filtering for the sampler's `sample_lz`: texel coordinates from the message's float
//! coordinates under a SAMPLER_STATE (genxml fields, batchbuffer's `SamplerState`).
//!
//! - Coordinates are normalized (multiplied by the surface's size) unless Non-normalized
//!   Coordinate Enable is set.
//! - MAPFILTER_NEAREST takes texel `floor(u)`; MAPFILTER_LINEAR the two texels around
//!   `u - 0.5` in each filtered dimension, weighted by the fraction, which the sampler keeps
//!   to 8 bits (1/256 steps, truncated): the sub-texel precision OpenCL's linear-filter
//!   tolerance allows for. Min and mag filters must agree (OpenCL samplers set both; the
//!   simulator computes no LOD to choose between them).
//! - Texture Coordinate Mode per axis (TCX, TCY, TCZ), on texel indices: WRAP (0) repeats,
//!   MIRROR (1) mirrors every other period, CLAMP (2) clamps to the edge texel, CLAMP_BORDER
//!   (4) gives the border color outside. Other modes fail as unsupported.
//! - The array layer of a 1D or 2D array is `clamp(rint(c), 0, layers - 1)` (OpenCL's rule).
//! - The border color is the sampler's SAMPLER_BORDER_COLOR_STATE, with the channels the
//!   surface format lacks read as the format's own missing channels (0, and 1 for alpha), so a
//!   format without alpha borders with alpha 1, as OpenCL's CLK_ADDRESS_CLAMP asks.
//! - Linear filtering of integer formats is refused (OpenCL allows only nearest for them).
//! - Levels (`sample_l`'s LOD; 0 for `sample_lz`): the LOD is clamped to the sampler's Min LOD
//!   and Max LOD (unsigned 4.8), then Mip Mode Filter picks the level: NONE the surface's
//!   first (Surface Min LOD), NEAREST the LOD rounded (`floor(lod + 0.5)`), LINEAR the two
//!   levels around it weighted by its fraction (kept to 8 bits, as the LOD's fixed point);
//!   levels past MIP Count / LOD are the last one. Each level is filtered at its own size.

use batchbuffer::surface_format::ChannelType;
use batchbuffer::{MapFilter, TextureCoordinateMode as Tcm};

use crate::convert::{floor_i64, rint};
use crate::error::EuErrorKind;

use super::{ImageSurface, Sampler};

/// Sub-texel steps of the linear filter's weights.
const SUBTEXEL_STEPS: f32 = 256.0;

/// One texel of a filter footprint along one axis: its index, or None for the border.
type Tap = (Option<u32>, f32);

/// A sampler applied to one surface.
pub(super) struct Sampling {
    linear: bool,
    normalized: bool,
    /// Address modes of the filtered axes (X, Y, Z).
    modes: [Tcm; 3],
    /// Axes filtered: the surface's dimensions (the array coordinate is a layer).
    axes: usize,
    array: bool,
    float: bool,
    border: [u32; 4],
    img: ImageSurface,
    /// Min LOD and Max LOD.
    lod_range: (f32, f32),
    mip_filter: u32,
}

/// genxml Mip Mode Filter values.
const MIPFILTER_NONE: u32 = 0;
const MIPFILTER_NEAREST: u32 = 1;
const MIPFILTER_LINEAR: u32 = 3;

/// An unsigned 4.8 fixed-point field's value.
fn u4_8(v: u32) -> f32 {
    v as f32 / 256.0
}

impl Sampling {
    pub(super) fn new(s: &Sampler, img: &ImageSurface) -> Result<Sampling, EuErrorKind> {
        let st = &s.state;
        if st.min_mode_filter != st.mag_mode_filter {
            return Err(EuErrorKind::Unsupported(format!(
                "SAMPLER_STATE with min filter {:?} and mag filter {:?} (only equal ones are modelled)",
                st.min_mode_filter, st.mag_mode_filter
            )));
        }
        let linear = match st.min_mode_filter {
            MapFilter::Nearest => false,
            MapFilter::Linear => true,
            other => {
                return Err(EuErrorKind::Unsupported(format!(
                    "SAMPLER_STATE filter {other:?} (only NEAREST and LINEAR are modelled)"
                )))
            }
        };
        let modes = [
            st.tcx_address_control_mode,
            st.tcy_address_control_mode,
            st.tcz_address_control_mode,
        ];
        let axes = usize::from(img.dims);
        if let Some(m) = modes[..axes]
            .iter()
            .find(|m| ![Tcm::Wrap, Tcm::Mirror, Tcm::Clamp, Tcm::ClampBorder].contains(m))
        {
            return Err(EuErrorKind::Unsupported(format!(
                "texture coordinate mode {m:?} (WRAP, MIRROR, CLAMP and CLAMP_BORDER are modelled)"
            )));
        }
        let t = img.format.channel_type;
        let float = !matches!(t, ChannelType::Uint | ChannelType::Sint | ChannelType::Raw);
        if linear && !float {
            return Err(EuErrorKind::Unsupported(format!(
                "linear filtering of {} (an integer format)",
                img.format.name
            )));
        }
        if ![MIPFILTER_NONE, MIPFILTER_NEAREST, MIPFILTER_LINEAR].contains(&st.mip_mode_filter) {
            return Err(EuErrorKind::Illegal(format!(
                "SAMPLER_STATE Mip Mode Filter {} (reserved)",
                st.mip_mode_filter
            )));
        }
        let mut border = [0, 0, 0, if float { 1.0f32.to_bits() } else { 1 }];
        for &c in img.format.order.channels() {
            border[c] = s.border[c];
        }
        Ok(Sampling {
            linear,
            normalized: !st.non_normalized_coordinate_enable,
            modes,
            axes,
            array: img.array,
            float,
            border,
            img: *img,
            lod_range: (u4_8(st.min_lod), u4_8(st.max_lod)),
            mip_filter: st.mip_mode_filter,
        })
    }

    /// The LOD of a footprint: `grads` holds each dimension's (d/dx, d/dy), scaled to level 0's
    /// texels when coordinates are normalized; the LOD is log2 of the longer of the x and y
    /// vectors' lengths.
    pub(super) fn lod_of_gradients(&self, grads: &[[f32; 2]]) -> f32 {
        let mut len = [0f32; 2];
        for (a, g) in grads.iter().enumerate() {
            let scale = if self.normalized {
                self.img.size[a] as f32
            } else {
                1.0
            };
            for (l, d) in len.iter_mut().zip(g) {
                *l += (d * scale) * (d * scale);
            }
        }
        len[0].max(len[1]).sqrt().log2()
    }

    /// The levels (counted from Surface Min LOD) a sampling at `lod` reads, with weights.
    fn levels(&self, lod: f32) -> [(u32, f32); 2] {
        let (lo, hi) = self.lod_range;
        let lod = if lod.is_nan() { 0.0 } else { lod }.max(lo).min(hi);
        let last = self.img.mip.count;
        let level = |l: f32| (l.max(0.0) as u32).min(last);
        match self.mip_filter {
            MIPFILTER_NEAREST => [(level((lod + 0.5).floor()), 1.0), (0, 0.0)],
            MIPFILTER_LINEAR => {
                let base = lod.floor();
                let frac = ((lod - base) * SUBTEXEL_STEPS).floor() / SUBTEXEL_STEPS;
                let l0 = level(base);
                [(l0, 1.0 - frac), ((l0 + 1).min(last), frac)]
            }
            _ => [(0, 1.0), (0, 0.0)],
        }
    }

    /// The filtered R, G, B, A at coordinates `c` (then the layer, for arrays) and `lod`;
    /// `fetch` reads the texel at (u, v, r) of a level (counted from Surface Min LOD) as typed
    /// messages address it (the layer after the last dimension).
    pub(super) fn sample(
        &self,
        c: [f32; 3],
        lod: f32,
        mut fetch: impl FnMut([u32; 4]) -> Result<[u32; 4], EuErrorKind>,
    ) -> Result<[u32; 4], EuErrorKind> {
        if let Some(one) = self.nearest_texel(c, lod) {
            return one.map_or(Ok(self.border), fetch);
        }
        let [(l0, w0), (l1, w1)] = self.levels(lod);
        let mut at = |l: u32| {
            let size = super::texel_place::level_size(&self.img, self.img.mip.min_lod + l);
            self.at_level(c, size, |[x, y, z]| fetch([x, y, z, l]))
        };
        let a = at(l0)?;
        if w1 == 0.0 || !self.float {
            return Ok(a);
        }
        let b = at(l1)?;
        Ok(std::array::from_fn(|i| {
            (w0 * f32::from_bits(a[i]) + w1 * f32::from_bits(b[i])).to_bits()
        }))
    }

    /// The one texel (u, v, r and level, as typed messages address it) a sampling at `c` and
    /// `lod` reads, or `Some(None)` for the border; `None` when it weighs several texels
    /// (linear filtering, or two levels of a float format).
    pub(super) fn nearest_texel(&self, c: [f32; 3], lod: f32) -> Option<Option<[u32; 4]>> {
        if self.linear {
            return None;
        }
        let [(l0, _), (_, w1)] = self.levels(lod);
        if w1 != 0.0 && self.float {
            return None;
        }
        let size = super::texel_place::level_size(&self.img, self.img.mip.min_lod + l0);
        Some(
            self.nearest_at_level(c, size)
                .map(|[x, y, z]| [x, y, z, l0]),
        )
    }

    /// The texel at coordinates `c` of one level of `size` texels without filtering (each
    /// axis's nearest index, the layer after the last dimension), or `None` for the border
    /// (an axis outside).
    fn nearest_at_level(&self, c: [f32; 3], size: [u32; 3]) -> Option<[u32; 3]> {
        let mut t = [0u32; 3];
        for (a, i) in t.iter_mut().enumerate().take(self.axes) {
            *i = self.nearest(c[a], size[a], self.modes[a])?;
        }
        if let Some(l) = self.layer(c, size) {
            t[self.axes] = l;
        }
        Some(t)
    }

    /// The layer of an array at coordinates `c` of a level of `size` (`size[2]` layers): the
    /// coordinate after the last dimension, rounded and clamped.
    fn layer(&self, c: [f32; 3], size: [u32; 3]) -> Option<u32> {
        self.array
            .then(|| rint(c[self.axes]).clamp(0.0, (size[2] - 1) as f32) as u32)
    }

    /// The filtered R, G, B, A at coordinates `c` of one level of `size` texels.
    fn at_level(
        &self,
        c: [f32; 3],
        size: [u32; 3],
        mut fetch: impl FnMut([u32; 3]) -> Result<[u32; 4], EuErrorKind>,
    ) -> Result<[u32; 4], EuErrorKind> {
        if !self.linear {
            return self
                .nearest_at_level(c, size)
                .map_or(Ok(self.border), fetch);
        }
        let layer = self.layer(c, size);
        let mut taps = [[(Some(0), 1.0), (None, 0.0)]; 3];
        for (a, t) in taps.iter_mut().enumerate().take(self.axes) {
            *t = self.axis(c[a], size[a], self.modes[a]);
        }
        if let Some(l) = layer {
            taps[self.axes] = [(Some(l), 1.0), (None, 0.0)];
        }
        let mut sum = [0f32; 4];
        for tz in taps[2] {
            for ty in taps[1] {
                for tx in taps[0] {
                    let w = tx.1 * ty.1 * tz.1;
                    if w == 0.0 {
                        continue;
                    }
                    let texel = match (tx.0, ty.0, tz.0) {
                        (Some(x), Some(y), Some(z)) => fetch([x, y, z])?,
                        _ => self.border,
                    };
                    for (s, t) in sum.iter_mut().zip(texel) {
                        *s += w * f32::from_bits(t);
                    }
                }
            }
        }
        Ok(sum.map(f32::to_bits))
    }

    /// The nearest texel's index along an axis of `size` texels, None for the border.
    fn nearest(&self, c: f32, size: u32, mode: Tcm) -> Option<u32> {
        let u = if self.normalized { c * size as f32 } else { c };
        wrap(floor_i64(u), size, mode)
    }

    /// The two texels along an axis of `size` texels a linear filter weighs.
    fn axis(&self, c: f32, size: u32, mode: Tcm) -> [Tap; 2] {
        let u = if self.normalized { c * size as f32 } else { c };
        let t = u - 0.5;
        let i0 = t.floor();
        let a = ((t - i0) * SUBTEXEL_STEPS).floor() / SUBTEXEL_STEPS;
        let i0 = i0 as i64;
        [
            (wrap(i0, size, mode), 1.0 - a),
            (wrap(i0 + 1, size, mode), a),
        ]
    }
}

/// Texel index `i` of an axis of `size` texels under address mode `mode`; None for the border.
fn wrap(i: i64, size: u32, mode: Tcm) -> Option<u32> {
    let n = i64::from(size);
    let i = match mode {
        Tcm::Wrap => i.rem_euclid(n),
        Tcm::Mirror => {
            let m = i.rem_euclid(2 * n);
            if m >= n {
                2 * n - 1 - m
            } else {
                m
            }
        }
        Tcm::Clamp => i.clamp(0, n - 1),
        _ => {
            if !(0..n).contains(&i) {
                return None;
            }
            i
        }
    };
    Some(i as u32)
}
