//! The sampler entry points ([`crate::core::sampler`]).

use opencl_sys::*;

use crate::api::entry::{entry, retain_release};
use crate::core::handle::Handle;
use crate::core::info::Info;
use crate::core::sampler::{checked, create, describe, from_properties, Sampler};

/// The property list at `p` up to and including its terminating 0 (empty for NULL).
///
/// # Safety
/// `p` NULL or a 0-terminated list of name/value pairs.
unsafe fn read_list(p: *const cl_sampler_properties) -> Vec<cl_sampler_properties> {
    let mut list = Vec::new();
    if p.is_null() {
        return list;
    }
    let mut i = 0;
    loop {
        // SAFETY: the caller's list runs to its terminating name 0.
        let name = unsafe { *p.add(i) };
        list.push(name);
        if name == 0 {
            return list;
        }
        // SAFETY: a non-zero name is followed by its value.
        list.push(unsafe { *p.add(i + 1) });
        i += 2;
    }
}

entry! {
    fn clCreateSampler(
        context: cl_context,
        normalized_coords: cl_bool,
        addressing_mode: cl_addressing_mode,
        filter_mode: cl_filter_mode,
    ) -> cl_sampler, errcode_ret {
        let (c, s) = checked(context, || {
            describe(normalized_coords, addressing_mode, filter_mode)
        })?;
        Ok(create(c, s, Vec::new()))
    }
}

entry! {
    fn clCreateSamplerWithProperties(
        context: cl_context,
        sampler_properties: *const cl_sampler_properties,
    ) -> cl_sampler, errcode_ret {
        // SAFETY: the application's 0-terminated list (or NULL).
        let list = unsafe { read_list(sampler_properties) };
        let (c, s) = checked(context, || from_properties(&list))?;
        Ok(create(c, s, list))
    }
}

retain_release!(clRetainSampler, clReleaseSampler, sampler: cl_sampler => Sampler);

entry! {
    fn clGetSamplerInfo(sampler: cl_sampler, param_name: cl_sampler_info) -> query {
        Handle::<Sampler>::get(sampler).and_then(|s| {
            let smp = s.obj.sampler;
            Ok(match param_name {
                CL_SAMPLER_REFERENCE_COUNT => Info::Uint(s.ref_count()),
                CL_SAMPLER_CONTEXT => Info::Ptr(s.obj.context.raw()),
                CL_SAMPLER_NORMALIZED_COORDS => Info::Bool(smp.normalized),
                CL_SAMPLER_ADDRESSING_MODE => Info::Uint(smp.addressing as u32),
                CL_SAMPLER_FILTER_MODE => Info::Uint(smp.filter as u32),
                CL_SAMPLER_PROPERTIES => Info::Ulongs(s.obj.properties.clone()),
                CL_SAMPLER_MIP_FILTER_MODE => Info::Uint(smp.mip.filter as u32),
                CL_SAMPLER_LOD_MIN => Info::Bytes(smp.mip.lod_min().to_ne_bytes().to_vec()),
                CL_SAMPLER_LOD_MAX => Info::Bytes(smp.mip.lod_max().to_ne_bytes().to_vec()),
                _ => return Err(crate::core::reason::unknown_query("sampler", param_name)),
            })
        })
    }
}
