//! OpenCL samplers: the addressing mode, filter and coordinate normalization of a `sampler_t`,
//! as the SAMPLER_STATE fields the hardware reads (genxml names) and the values IGC's kernels
//! read from their sampler parameters.

use batchbuffer::{MapFilter, SamplerState, TextureCoordinateMode as Tcm};

/// `cl_addressing_mode`, with its cl.h value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum AddressingMode {
    None = 0x1130,
    ClampToEdge = 0x1131,
    Clamp = 0x1132,
    Repeat = 0x1133,
    MirroredRepeat = 0x1134,
}

/// `cl_filter_mode`, with its cl.h value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum FilterMode {
    Nearest = 0x1140,
    Linear = 0x1141,
}

/// A sampler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sampler {
    pub normalized: bool,
    pub addressing: AddressingMode,
    pub filter: FilterMode,
    /// How it reads mip-mapped images (cl_khr_mipmap_image).
    pub mip: MipSampling,
}

/// The cl_khr_mipmap_image sampler properties: the filter between levels and the range the
/// LOD is clamped to (as f32 bits, so samplers stay hashable).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MipSampling {
    pub filter: FilterMode,
    pub lod_min_bits: u32,
    pub lod_max_bits: u32,
}

/// The specification's defaults: CL_FILTER_NEAREST, LOD 0.0 to MAXFLOAT (program-scope
/// samplers always have these).
impl Default for MipSampling {
    fn default() -> Self {
        MipSampling {
            filter: FilterMode::Nearest,
            lod_min_bits: 0f32.to_bits(),
            lod_max_bits: f32::MAX.to_bits(),
        }
    }
}

impl MipSampling {
    pub fn lod_min(self) -> f32 {
        f32::from_bits(self.lod_min_bits)
    }

    pub fn lod_max(self) -> f32 {
        f32::from_bits(self.lod_max_bits)
    }
}

/// SAMPLER_STATE Min LOD and Max LOD are unsigned 4.8 fixed point: 0.0 to 15.996 (more than
/// the 15 levels a surface has).
fn lod_u4_8(lod: f32) -> u32 {
    (lod.clamp(0.0, 4095.0 / 256.0) * 256.0) as u32
}

/// genxml Mip Mode Filter values (MIPFILTER_NEAREST, MIPFILTER_LINEAR).
const MIPFILTER_NEAREST: u32 = 1;
const MIPFILTER_LINEAR: u32 = 3;

/// The one table: each addressing mode's genxml Texture Coordinate Mode (CLAMP is the
/// border color, CLAMP_TO_EDGE the edge texel; NONE leaves out-of-range reads undefined, so
/// it takes the border like NEO's) and the value IGC's kernels compare their sampler address
/// mode parameter with (NEO's `SamplerPatchValues`).
const ADDRESSING: [(AddressingMode, Tcm, u32); 5] = [
    (AddressingMode::None, Tcm::ClampBorder, 0),
    (AddressingMode::Clamp, Tcm::ClampBorder, 1),
    (AddressingMode::ClampToEdge, Tcm::Clamp, 2),
    (AddressingMode::Repeat, Tcm::Wrap, 3),
    (AddressingMode::MirroredRepeat, Tcm::Mirror, 4),
];

/// IGC's normalized-coordinates parameter value for normalized samplers (0 otherwise).
const NORMALIZED_COORDS_TRUE: u64 = 8;

impl Sampler {
    fn addressing_row(self) -> (Tcm, u32) {
        ADDRESSING
            .iter()
            .find(|(m, _, _)| *m == self.addressing)
            .map(|&(_, tcm, patch)| (tcm, patch))
            .unwrap_or((Tcm::ClampBorder, 0))
    }

    /// This sampler written over `base` (whose Border Color Pointer it keeps).
    pub fn state(self, base: SamplerState) -> SamplerState {
        let (tcm, _) = self.addressing_row();
        let filter = match self.filter {
            FilterMode::Nearest => MapFilter::Nearest,
            FilterMode::Linear => MapFilter::Linear,
        };
        SamplerState {
            min_mode_filter: filter,
            mag_mode_filter: filter,
            tcx_address_control_mode: tcm,
            tcy_address_control_mode: tcm,
            tcz_address_control_mode: tcm,
            non_normalized_coordinate_enable: !self.normalized,
            mip_mode_filter: match self.mip.filter {
                FilterMode::Nearest => MIPFILTER_NEAREST,
                FilterMode::Linear => MIPFILTER_LINEAR,
            },
            min_lod: lod_u4_8(self.mip.lod_min()),
            max_lod: lod_u4_8(self.mip.lod_max()),
            ..base
        }
    }

    /// The sampler address mode kernel parameter.
    pub fn address_mode_param(self) -> u64 {
        u64::from(self.addressing_row().1)
    }

    /// The normalized-coordinates kernel parameter.
    pub fn normalized_param(self) -> u64 {
        if self.normalized {
            NORMALIZED_COORDS_TRUE
        } else {
            0
        }
    }
}
