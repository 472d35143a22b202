//! Sampler objects: clCreateSampler, clCreateSamplerWithProperties, clGetSamplerInfo and the
//! reference counts, over `umd::sampler::Sampler` (which a sampler kernel argument hands to
//! umd as its SAMPLER_STATE and IGC's sampler parameters).
//!
//! OpenCL 3.0 refuses a sampler with CL_INVALID_OPERATION in a context none of whose devices
//! supports images; the arguments are checked first, so a bad one gets its own error there too.

use std::sync::Arc;

use opencl_sys::*;
use umd::sampler::{AddressingMode, FilterMode};

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
    })
}

/// The sampler a property list describes (OpenCL 3.0 defaults: normalized coordinates,
/// CL_ADDRESS_CLAMP, CL_FILTER_NEAREST), or CL_INVALID_VALUE for a name that is not a sampler
/// property of this platform (the cl_khr_mipmap_image ones included: it is not supported), a
/// value that is not valid, or a name given twice.
pub fn from_properties(list: &[cl_sampler_properties]) -> Result<umd::sampler::Sampler, cl_int> {
    let (mut normalized, mut addressing, mut filter) = (None, None, None);
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
    describe(
        value(normalized, CL_TRUE)?,
        value(addressing, CL_ADDRESS_CLAMP)?,
        value(filter, CL_FILTER_NEAREST)?,
    )
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
