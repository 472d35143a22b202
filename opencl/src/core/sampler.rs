//! Sampler objects: clCreateSampler, clCreateSamplerWithProperties, clGetSamplerInfo and the
//! reference counts, over `umd::sampler::Sampler` (which a sampler kernel argument hands to
//! umd as its SAMPLER_STATE and IGC's sampler parameters).
//!
//! OpenCL 3.0 refuses a sampler with CL_INVALID_OPERATION in a context none of whose devices
//! supports images; the arguments are checked first, so a bad one gets its own error there too.

use std::sync::Arc;

use opencl_sys::*;
use umd::sampler::{AddressingMode, FilterMode, MipSampling};

use crate::core::context::Context;
use crate::core::handle::{ClObject, Handle, Kind};

pub struct Sampler {
    pub context: Arc<Handle<Context>>,
    pub sampler: umd::sampler::Sampler,
    /// The property list as the application gave it, with its terminating 0 (empty when it
    /// gave none): CL_SAMPLER_PROPERTIES.
    pub properties: Vec<cl_sampler_properties>,
}

impl ClObject for Sampler {
    const KIND: Kind = Kind::Sampler;
    const INVALID: cl_int = CL_INVALID_SAMPLER;
}

/// The cl.h values of each enum, by the umd value they name (one table each).
const ADDRESSING: [(cl_addressing_mode, AddressingMode); 5] = [
    (CL_ADDRESS_NONE, AddressingMode::None),
    (CL_ADDRESS_CLAMP_TO_EDGE, AddressingMode::ClampToEdge),
    (CL_ADDRESS_CLAMP, AddressingMode::Clamp),
    (CL_ADDRESS_REPEAT, AddressingMode::Repeat),
    (CL_ADDRESS_MIRRORED_REPEAT, AddressingMode::MirroredRepeat),
];
const FILTERS: [(cl_filter_mode, FilterMode); 2] = [
    (CL_FILTER_NEAREST, FilterMode::Nearest),
    (CL_FILTER_LINEAR, FilterMode::Linear),
];

/// The sampler the three values describe, or CL_INVALID_VALUE when one is not a value of its
/// type (a cl_bool other than CL_TRUE/CL_FALSE included).
pub fn describe(
    normalized: cl_bool,
    addressing: cl_addressing_mode,
    filter: cl_filter_mode,
) -> Result<umd::sampler::Sampler, cl_int> {
    let normalized = match normalized {
        CL_TRUE => true,
        CL_FALSE => false,
        _ => return Err(CL_INVALID_VALUE),
    };
    let addressing = ADDRESSING
        .iter()
        .find(|(v, _)| *v == addressing)
        .map(|&(_, m)| m)
        .ok_or(CL_INVALID_VALUE)?;
    let filter = FILTERS
        .iter()
        .find(|(v, _)| *v == filter)
        .map(|&(_, m)| m)
        .ok_or(CL_INVALID_VALUE)?;
    Ok(umd::sampler::Sampler {
        normalized,
        addressing,
        filter,
        mip: MipSampling::default(),
    })
}

/// The filter mode `v` names, or CL_INVALID_VALUE.
fn filter_of(v: u64) -> Result<FilterMode, cl_int> {
    FILTERS
        .iter()
        .find(|(f, _)| u64::from(*f) == v)
        .map(|&(_, m)| m)
        .ok_or(CL_INVALID_VALUE)
}

/// A float sampler property: the value's low 32 bits (how applications and NEO pass a cl_float
/// in a cl_sampler_properties list); a LOD is not negative nor NaN.
fn lod_of(v: u64) -> Result<f32, cl_int> {
    let f = f32::from_bits(v as u32);
    if f.is_nan() || f < 0.0 {
        return Err(CL_INVALID_VALUE);
    }
    Ok(f)
}

/// The sampler a property list describes (OpenCL 3.0 defaults: normalized coordinates,
/// CL_ADDRESS_CLAMP, CL_FILTER_NEAREST; cl_khr_mipmap_image's: mip filter CL_FILTER_NEAREST,
/// LOD 0.0 to MAXFLOAT), or CL_INVALID_VALUE for a name that is not a sampler property of this
/// platform, a value that is not valid (a LOD minimum above the maximum included), or a name
/// given twice.
pub fn from_properties(list: &[cl_sampler_properties]) -> Result<umd::sampler::Sampler, cl_int> {
    let (mut normalized, mut addressing, mut filter) = (None, None, None);
    let (mut mip_filter, mut lod_min, mut lod_max) = (None, None, None);
    let mut pairs = list.chunks(2);
    for pair in pairs.by_ref() {
        let name = pair[0];
        if name == 0 {
            break;
        }
        let value = *pair.get(1).ok_or(CL_INVALID_VALUE)?;
        let slot = match u32::try_from(name).map_err(|_| CL_INVALID_VALUE)? {
            CL_SAMPLER_NORMALIZED_COORDS => &mut normalized,
            CL_SAMPLER_ADDRESSING_MODE => &mut addressing,
            CL_SAMPLER_FILTER_MODE => &mut filter,
            CL_SAMPLER_MIP_FILTER_MODE => &mut mip_filter,
            CL_SAMPLER_LOD_MIN => &mut lod_min,
            CL_SAMPLER_LOD_MAX => &mut lod_max,
            _ => return Err(CL_INVALID_VALUE),
        };
        if slot.replace(value).is_some() {
            return Err(CL_INVALID_VALUE);
        }
    }
    let value = |v: Option<u64>, default: u32| match v {
        None => Ok(default),
        Some(v) => u32::try_from(v).map_err(|_| CL_INVALID_VALUE),
    };
    let mut s = describe(
        value(normalized, CL_TRUE)?,
        value(addressing, CL_ADDRESS_CLAMP)?,
        value(filter, CL_FILTER_NEAREST)?,
    )?;
    let d = MipSampling::default();
    let (lo, hi) = (
        lod_min.map(lod_of).transpose()?.unwrap_or(d.lod_min()),
        lod_max.map(lod_of).transpose()?.unwrap_or(d.lod_max()),
    );
    if lo > hi {
        return Err(CL_INVALID_VALUE);
    }
    s.mip = MipSampling {
        filter: mip_filter.map(filter_of).transpose()?.unwrap_or(d.filter),
        lod_min_bits: lo.to_bits(),
        lod_max_bits: hi.to_bits(),
    };
    Ok(s)
}

/// A sampler handle in `c` (the image-support rule already applied).
pub fn create(
    c: Arc<Handle<Context>>,
    sampler: umd::sampler::Sampler,
    properties: Vec<cl_sampler_properties>,
) -> cl_sampler {
    Handle::create(Sampler {
        context: c,
        sampler,
        properties,
    })
    .0
}

/// The checks common to both constructors, in the specification's order of arguments: the
/// context, then the values, then whether any device of the context supports images.
pub fn checked(
    context: cl_context,
    sampler: impl FnOnce() -> Result<umd::sampler::Sampler, cl_int>,
) -> Result<(Arc<Handle<Context>>, umd::sampler::Sampler), cl_int> {
    let c = Handle::<Context>::get(context)?;
    let s = sampler()?;
    if !c.obj.devices.iter().any(|d| d.obj.image_support()) {
        return Err(CL_INVALID_OPERATION);
    }
    Ok((c, s))
}
