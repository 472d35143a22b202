//! Images of one plane of an NV12 image (cl_intel_planar_yuv): clCreateImage with
//! CL_MEM_OBJECT_IMAGE2D, `mem_object` the NV12 image and `image_depth` the plane, 0 the Y
//! plane (CL_R, width × height) and 1 the UV plane (CL_RG, U in R and V in G, width / 2 ×
//! height / 2), in CL_UNORM_INT8 or CL_UNSIGNED_INT8; width and height are ignored and derived
//! from the NV12 image. The plane is a umd view of the NV12 image's memory
//! ([`umd::image::Image::plane`]): kernels and the host read and write the NV12 image's bytes.
//! Its access flags are the NV12 image's unless given, and may not widen them unless that was
//! made with CL_MEM_ACCESS_FLAGS_UNRESTRICTED_INTEL (the extension's CL_INVALID_VALUE rules).

use std::sync::Arc;

use opencl_sys::*;
use umd::image::{ImageDesc, ImageFormat, ImageType};

use crate::core::context::Context;
use crate::core::handle::Handle;
use crate::core::image_desc::{Checked, ClImage};
use crate::core::memory::{check_flags, Mem, KERNEL_ACCESS, NO_ACCESS, UNRESTRICTED};

/// The NV12 image `d` names as its memory object, if it names one.
pub fn planar_parent(d: &cl_image_desc) -> Option<Arc<Handle<Mem>>> {
    let m = Handle::<Mem>::get(d.buffer).ok()?;
    let planar = m
        .obj
        .image
        .as_ref()
        .is_some_and(|i| i.image.format.is_planar_yuv());
    planar.then_some(m)
}

/// The image of plane `d.image_depth` of `parent` in `format` with `flags`, or the
/// specification's error: CL_INVALID_VALUE for bad flags, host-memory flags (the extension's
/// rule 4) or access the parent's flags rule out; CL_INVALID_HOST_PTR for a host pointer;
/// CL_INVALID_IMAGE_FORMAT_DESCRIPTOR for no format, another channel order than the plane's
/// (CL_R for Y, CL_RG for UV) or another channel type than CL_UNORM_INT8 and CL_UNSIGNED_INT8;
/// CL_INVALID_IMAGE_DESCRIPTOR for another image type, a plane other than 0 and 1, pitches,
/// mip-maps or samples; CL_INVALID_CONTEXT for a parent of another context.
pub fn create(
    c: Arc<Handle<Context>>,
    properties: Vec<cl_mem_properties>,
    flags: cl_mem_flags,
    format: Option<&cl_image_format>,
    d: &cl_image_desc,
    parent: Arc<Handle<Mem>>,
    has_host_ptr: bool,
) -> Result<cl_mem, cl_int> {
    check_flags(flags)?;
    let host_memory = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
    if flags & host_memory != 0 {
        return Err(CL_INVALID_VALUE);
    }
    if has_host_ptr {
        return Err(CL_INVALID_HOST_PTR);
    }
    let f = format.ok_or(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)?;
    let plane = d.image_depth;
    let extras = d.image_row_pitch != 0
        || d.image_slice_pitch != 0
        || d.num_mip_levels > 1
        || d.num_samples != 0;
    if d.image_type != CL_MEM_OBJECT_IMAGE2D || plane > 1 || extras {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let order = if plane == 0 { CL_R } else { CL_RG };
    let types = [CL_UNORM_INT8, CL_UNSIGNED_INT8];
    if f.image_channel_order != order || !types.contains(&f.image_channel_data_type) {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    if !Arc::ptr_eq(&parent.obj.context, &c) {
        return Err(CL_INVALID_CONTEXT);
    }
    let flags = inherit(flags, parent.obj.flags)?;
    let format = ImageFormat::from_cl(f.image_channel_order, f.image_channel_data_type)
        .ok_or(CL_IMAGE_FORMAT_NOT_SUPPORTED)?;
    let whole = parent
        .obj
        .image
        .as_ref()
        .map(|i| &i.image)
        .ok_or(CL_INVALID_MEM_OBJECT)?;
    let image = whole
        .plane(plane as u32, format)
        .map_err(|_| CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)?;
    debug_assert_eq!(image.ty, ImageType::D2);
    let row = image.row_bytes();
    let checked = Checked {
        desc: ImageDesc::d2(image.width, image.height),
        object_type: CL_MEM_OBJECT_IMAGE2D,
        host_row_pitch: row,
        host_slice_pitch: row * image.height as usize,
        num_mip_levels: 0,
        buffer: d.buffer,
    };
    let size = image.pitch as usize * image.height as usize;
    let device = parent.obj.device.clone();
    let cl = ClImage::new(image, &checked, format);
    Ok(Mem::new_image(
        c,
        device,
        flags,
        size,
        properties,
        cl,
        Some(parent),
    ))
}

/// The plane's flags: `flags`, with the parent's kernel and host access where `flags` names
/// none; CL_INVALID_VALUE where they name access the parent's rule out (write-only against
/// read, read-only against write, no access against any; host likewise), unless the parent
/// was made with CL_MEM_ACCESS_FLAGS_UNRESTRICTED_INTEL.
fn inherit(mut flags: cl_mem_flags, parent: cl_mem_flags) -> Result<cl_mem_flags, cl_int> {
    let forbids = [
        (CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY),
        (CL_MEM_READ_ONLY, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY),
        (
            NO_ACCESS,
            CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE,
        ),
        (CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY),
        (CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY),
        (
            CL_MEM_HOST_NO_ACCESS,
            CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
        ),
    ];
    let unrestricted = parent & UNRESTRICTED != 0;
    if !unrestricted
        && forbids
            .iter()
            .any(|&(p, f)| parent & p != 0 && flags & f != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    let host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    for group in [KERNEL_ACCESS, host] {
        if flags & group == 0 {
            flags |= parent & group;
        }
    }
    Ok(flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plane_inherits_and_may_not_widen_restricted_access() {
        let ro_hna = CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
        assert_eq!(inherit(0, ro_hna), Ok(ro_hna));
        assert_eq!(inherit(CL_MEM_READ_WRITE, ro_hna), Err(CL_INVALID_VALUE));
        assert_eq!(
            inherit(CL_MEM_HOST_WRITE_ONLY, ro_hna),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(
            inherit(CL_MEM_READ_ONLY, NO_ACCESS | CL_MEM_HOST_NO_ACCESS),
            Err(CL_INVALID_VALUE)
        );
        // Unrestricted: any access, the unnamed groups inherited.
        let free = ro_hna | UNRESTRICTED;
        assert_eq!(
            inherit(CL_MEM_READ_WRITE, free),
            Ok(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS)
        );
        assert_eq!(
            inherit(CL_MEM_HOST_WRITE_ONLY, free),
            Ok(CL_MEM_HOST_WRITE_ONLY | CL_MEM_READ_ONLY)
        );
    }
}
