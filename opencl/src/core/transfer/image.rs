//! The image commands: clEnqueueReadImage, clEnqueueWriteImage, the copies between images and
//! buffers, and clEnqueueFillImage, on the queue's thread after their dependencies (copies go
//! through host memory). An image exists only on an image-capable device (clCreateImage
//! refuses others), so the commands' own CL_INVALID_OPERATION for such devices cannot arise.

use std::sync::Arc;

use opencl_sys::*;
use umd::image::ImageType;

use crate::core::host_ptr::HostPtr;
use crate::core::image::{copy_rows, fill_texel, gather, scatter, umd_image};
use crate::core::image_desc::Region;
use crate::core::queue::Command;
use crate::core::transfer::{buffer_command, host_memory, image_command, on_host, Way};

/// Where a mip-mapped image of type `ty` takes the mip level in an origin (cl_khr_mipmap_image:
/// the coordinate after the image's last one, the layer included).
pub fn level_coordinate(ty: ImageType) -> usize {
    match ty {
        ImageType::D1 | ImageType::D1Buffer => 1,
        ImageType::D1Array | ImageType::D2 => 2,
        ImageType::D2Array | ImageType::D3 => 3,
    }
}

/// The region at `origin` of size `size` in `im`, with the host pitches, or CL_INVALID_VALUE
/// (OpenCL 3.0, clEnqueueReadImage: no origin or region, a zero region, a region outside the
/// image or not of its type, pitches smaller than the region's rows and slices, an odd x or
/// width on a packed YUV image). An NV12 image's region is one of its Y plane, the image's
/// element a Y byte (cl_intel_planar_yuv's element size), as NEO's host commands take it. Of a
/// mip-mapped image the origin's coordinate after the image's names the level
/// ([`level_coordinate`]; CL_INVALID_MIP_LEVEL past the last), whose sizes bound the region.
pub fn region(
    im: &umd::image::Image,
    origin: Option<[usize; 4]>,
    size: Option<[usize; 3]>,
    row_pitch: usize,
    slice_pitch: usize,
) -> Result<Region, cl_int> {
    let (Some(mut o4), Some(r)) = (origin, size) else {
        return Err(CL_INVALID_VALUE);
    };
    if r.contains(&0) {
        return Err(CL_INVALID_VALUE);
    }
    let mut level = 0;
    let mut view = None;
    if im.levels > 1 {
        let at = level_coordinate(im.ty);
        level = u32::try_from(o4[at]).map_err(|_| CL_INVALID_MIP_LEVEL)?;
        view = Some(im.level(level).map_err(|_| CL_INVALID_MIP_LEVEL)?);
        o4[at] = 0;
    }
    let im = view.as_ref().unwrap_or(im);
    let o = [o4[0], o4[1], o4[2]];
    // (x, y, slice) of the image; unused coordinates must be origin 0 and region 1.
    let (oo, rr, extent, unused) = match im.ty {
        ImageType::D1 | ImageType::D1Buffer => ([o[0], 0, 0], [r[0], 1, 1], [im.width, 1, 1], 1..3),
        ImageType::D1Array => (
            [o[0], 0, o[1]],
            [r[0], 1, r[1]],
            [im.width, 1, im.array_size],
            2..3,
        ),
        ImageType::D2 => (
            [o[0], o[1], 0],
            [r[0], r[1], 1],
            [im.width, im.height, 1],
            2..3,
        ),
        ImageType::D2Array => (o, r, [im.width, im.height, im.array_size], 3..3),
        ImageType::D3 => (o, r, [im.width, im.height, im.depth], 3..3),
    };
    if unused.clone().any(|i| o[i] != 0 || r[i] != 1) {
        return Err(CL_INVALID_VALUE);
    }
    // cl_intel_packed_yuv: a packed YUV image's x origin and width "must be even" (texel pairs
    // share their bytes); NEO answers CL_INVALID_VALUE.
    let unit = im.format.texels_per_unit() as usize;
    if !(oo[0].is_multiple_of(unit) && rr[0].is_multiple_of(unit)) {
        return Err(CL_INVALID_VALUE);
    }
    for i in 0..3 {
        if oo[i]
            .checked_add(rr[i])
            .is_none_or(|end| end > extent[i] as usize)
        {
            return Err(CL_INVALID_VALUE);
        }
    }
    let row = rr[0] * im.format.desc().bytes_per_element as usize;
    let row_pitch = match row_pitch {
        0 => row,
        p if p < row => return Err(CL_INVALID_VALUE),
        p => p,
    };
    let packed_slice = row_pitch * rr[1];
    let slice_pitch = match slice_pitch {
        0 => packed_slice,
        p if p < packed_slice => return Err(CL_INVALID_VALUE),
        p => p,
    };
    Ok(Region {
        origin: oo,
        size: rr,
        row_pitch,
        slice_pitch,
        level,
    })
}

/// An image region as a command names it: origin (with a mip-mapped 2D array's or 3D image's
/// level), size.
pub type Area = (Option<[usize; 4]>, Option<[usize; 3]>);

/// clEnqueueReadImage and clEnqueueWriteImage: the region between the image and the
/// application's rows at `ptr` (at `pitches`, row and slice; 0 for packed).
pub fn read_write_image(
    queue: cl_command_queue,
    image: cl_mem,
    way: Way,
    (origin, size): Area,
    pitches: (usize, usize),
    ptr: Option<HostPtr>,
    blocking: bool,
) -> Result<Command, cl_int> {
    let (q, m) = image_command(queue, image)?;
    // The host-access flags first, as NEO checks them: an NV12 image (CL_MEM_HOST_NO_ACCESS
    // by the extension's rule) answers CL_INVALID_OPERATION whatever the region.
    way.allowed(&m.obj)?;
    let g = region(umd_image(&m.obj)?, origin, size, pitches.0, pitches.1)?;
    let host = host_memory(&m.obj, way, ptr)?;
    let kind = way.kind(CL_COMMAND_READ_IMAGE, CL_COMMAND_WRITE_IMAGE);
    Ok(on_host(&q, kind, blocking, move || {
        copy_rows(&m.obj, &g, host, way == Way::Read)
    }))
}

/// clEnqueueCopyImage: between images of one format.
pub fn copy_image(
    queue: cl_command_queue,
    (src_image, src_origin): (cl_mem, Option<[usize; 4]>),
    (dst_image, dst_origin): (cl_mem, Option<[usize; 4]>),
    size: Option<[usize; 3]>,
) -> Result<Command, cl_int> {
    let (q, src) = image_command(queue, src_image)?;
    let (_, dst) = image_command(queue, dst_image)?;
    let (si, di) = (umd_image(&src.obj)?, umd_image(&dst.obj)?);
    if si.format != di.format {
        return Err(CL_IMAGE_FORMAT_MISMATCH);
    }
    let gs = region(si, src_origin, size, 0, 0)?;
    let gd = region(di, dst_origin, size, 0, 0)?;
    if gs.packed_bytes() != gd.packed_bytes() {
        return Err(CL_INVALID_VALUE);
    }
    if Arc::ptr_eq(&src, &dst) && gs.overlaps(&gd) {
        return Err(CL_MEM_COPY_OVERLAP);
    }
    Ok(on_host(&q, CL_COMMAND_COPY_IMAGE, false, move || {
        scatter(&dst.obj, &gd, &gather(&src.obj, &gs)?)
    }))
}

/// clEnqueueCopyImageToBuffer (`to_buffer`) and clEnqueueCopyBufferToImage: the image region
/// packed, at `offset` in the buffer.
pub fn copy_image_buffer(
    queue: cl_command_queue,
    image: (cl_mem, Area),
    buffer: (cl_mem, usize),
    to_buffer: bool,
) -> Result<Command, cl_int> {
    let ((image, area), (buffer, offset)) = (image, buffer);
    let (q, im) = image_command(queue, image)?;
    let g = region(umd_image(&im.obj)?, area.0, area.1, 0, 0)?;
    let (_, buf) = buffer_command(queue, buffer, offset, g.packed_bytes())?;
    let kind = match to_buffer {
        true => CL_COMMAND_COPY_IMAGE_TO_BUFFER,
        false => CL_COMMAND_COPY_BUFFER_TO_IMAGE,
    };
    Ok(on_host(&q, kind, false, move || {
        if to_buffer {
            Way::Write.buffer_bytes(&buf.obj, offset, &mut gather(&im.obj, &g)?)
        } else {
            let mut v = vec![0u8; g.packed_bytes()];
            Way::Read.buffer_bytes(&buf.obj, offset, &mut v)?;
            scatter(&im.obj, &g, &v)
        }
    }))
}

/// clEnqueueFillImage: `color` is the application's four components (16 bytes), if given.
pub fn fill_image(
    queue: cl_command_queue,
    image: cl_mem,
    color: Option<[u8; 16]>,
    (origin, size): Area,
) -> Result<Command, cl_int> {
    let (q, m) = image_command(queue, image)?;
    let im = umd_image(&m.obj)?;
    let g = region(im, origin, size, 0, 0)?;
    let texel = fill_texel(im.format, color.ok_or(CL_INVALID_VALUE)?);
    Ok(on_host(&q, CL_COMMAND_FILL_IMAGE, false, move || {
        let packed = texel.repeat(g.packed_bytes() / texel.len());
        scatter(&m.obj, &g, &packed)
    }))
}
