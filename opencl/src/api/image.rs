//! The image entry points: creation, queries, supported formats, and the image commands
//! (read, write, copy, fill, map) ([`crate::core::image`], [`crate::core::transfer::image`]).

use std::ffi::c_void;

use opencl_sys::*;
use umd::image::{ChannelOrder, ImageFormat, ImageType};

use crate::api::enqueue::enqueue;
use crate::api::entry::entry;
use crate::api::info;
use crate::api::memory::no_properties;
use crate::core::context::Context;
use crate::core::handle::Handle;
use crate::core::host_ptr::HostPtr;
use crate::core::image::{check_desc, create, format_of};
use crate::core::image_desc::Checked;
use crate::core::image_formats::supported;
use crate::core::image_from_buffer::image_buffer;
use crate::core::info::Info;
use crate::core::memory::{check_flags, default_access, Mem, NO_ACCESS};
use crate::core::transfer::image::{
    copy_image, copy_image_buffer, fill_image, level_coordinate, read_write_image,
};
use crate::core::transfer::map::map_image;
use crate::core::transfer::Way;

/// The origin at `p` of a command on `image`: three values, and a fourth, the mip level, for a
/// mip-mapped 2D array or 3D image (cl_khr_mipmap_image); None for NULL.
///
/// # Safety
/// `p` NULL or an array of three values (four for such images).
unsafe fn origin_of(image: cl_mem, p: *const usize) -> Option<[usize; 4]> {
    if p.is_null() {
        return None;
    }
    let four = Handle::<Mem>::get(image).is_ok_and(|m| {
        m.obj
            .image
            .as_ref()
            .is_some_and(|i| i.image.levels > 1 && level_coordinate(i.image.ty) == 3)
    });
    // SAFETY: the caller's array of three, or four for a mip-mapped array or 3D image.
    Some(unsafe { [*p, *p.add(1), *p.add(2), if four { *p.add(3) } else { 0 }] })
}

entry! {
    fn clCreateImage(
        context: cl_context,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_desc: *const cl_image_desc,
        host_ptr: *mut c_void,
    ) -> cl_mem, errcode_ret {
        create_image(
            context,
            Vec::new(),
            flags,
            image_format,
            image_desc,
            host_ptr,
        )
    }
}

entry! {
    fn clCreateImageWithProperties(
        context: cl_context,
        properties: *const cl_mem_properties,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_desc: *const cl_image_desc,
        host_ptr: *mut c_void,
    ) -> cl_mem, errcode_ret {
        // SAFETY: the application's properties list.
        let list = unsafe { no_properties(properties) }?;
        create_image(context, list, flags, image_format, image_desc, host_ptr)
    }
}

/// clCreateImage2D and clCreateImage3D (OpenCL 1.1): clCreateImage with the description of
/// `ty` of `size` (width, height, depth) at `pitches` (row, slice), except that a zero width,
/// height or depth is CL_INVALID_IMAGE_SIZE where clCreateImage calls the description invalid.
///
/// # Safety
/// As clCreateImage's arguments; `errcode_ret` NULL or valid.
unsafe fn create_image_1_1(
    (context, flags, image_format): (cl_context, cl_mem_flags, *const cl_image_format),
    ty: cl_mem_object_type,
    [image_width, image_height, image_depth]: [usize; 3],
    [image_row_pitch, image_slice_pitch]: [usize; 2],
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let desc = cl_image_desc {
        image_type: ty,
        image_width,
        image_height,
        image_depth,
        image_array_size: 0,
        image_row_pitch,
        image_slice_pitch,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: std::ptr::null_mut(),
    };
    // SAFETY: forwarded application arguments.
    let m = unsafe { clCreateImage(context, flags, image_format, &desc, host_ptr, errcode_ret) };
    let zero =
        image_width == 0 || image_height == 0 || (ty == CL_MEM_OBJECT_IMAGE3D && image_depth == 0);
    // SAFETY: the caller's pointer.
    if zero && !errcode_ret.is_null() && unsafe { *errcode_ret } == CL_INVALID_IMAGE_DESCRIPTOR {
        // SAFETY: as above.
        unsafe { *errcode_ret = CL_INVALID_IMAGE_SIZE };
    }
    m
}

entry! {
    fn clCreateImage2D(
        context: cl_context,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_width: usize,
        image_height: usize,
        image_row_pitch: usize,
        host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem {
        let (size, pitches) = ([image_width, image_height, 0], [image_row_pitch, 0]);
        let what = (context, flags, image_format);
        // SAFETY: forwarded application arguments.
        unsafe {
            create_image_1_1(what, CL_MEM_OBJECT_IMAGE2D, size, pitches, host_ptr, errcode_ret)
        }
    }
}

entry! {
    fn clCreateImage3D(
        context: cl_context,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_width: usize,
        image_height: usize,
        image_depth: usize,
        image_row_pitch: usize,
        image_slice_pitch: usize,
        host_ptr: *mut c_void,
        errcode_ret: *mut cl_int,
    ) -> cl_mem {
        let size = [image_width, image_height, image_depth];
        let (pitches, what) = ([image_row_pitch, image_slice_pitch], (context, flags, image_format));
        // SAFETY: forwarded application arguments.
        unsafe {
            create_image_1_1(what, CL_MEM_OBJECT_IMAGE3D, size, pitches, host_ptr, errcode_ret)
        }
    }
}

entry! {
    fn clGetImageInfo(image: cl_mem, param_name: cl_image_info) -> query {
        Handle::<Mem>::get(image).and_then(|m| {
            let im = m.obj.image.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
            let i = &im.image;
            let slices = i.ty.is_array() || i.ty == ImageType::D3;
            Ok(match param_name {
                CL_IMAGE_FORMAT => Info::Uints(vec![im.order, im.data_type]),
                CL_IMAGE_ELEMENT_SIZE => Info::Size(i.format.desc().bytes_per_element as usize),
                CL_IMAGE_ROW_PITCH => Info::Size(im.row_pitch),
                CL_IMAGE_SLICE_PITCH => Info::Size(if slices { im.slice_pitch } else { 0 }),
                CL_IMAGE_WIDTH => Info::Size(i.width as usize),
                CL_IMAGE_HEIGHT => Info::Size(if i.ty.dims() >= 2 {
                    i.height as usize
                } else {
                    0
                }),
                CL_IMAGE_DEPTH => Info::Size(if i.ty == ImageType::D3 {
                    i.depth as usize
                } else {
                    0
                }),
                CL_IMAGE_ARRAY_SIZE => Info::Size(if i.ty.is_array() {
                    i.array_size as usize
                } else {
                    0
                }),
                // The buffer of a 1D image buffer or of a 2D image from a buffer.
                // A buffer's; an NV12 plane's memory object is an image.
                CL_IMAGE_BUFFER => Info::Ptr(match (im.object_type, &m.obj.parent) {
                    (CL_MEM_OBJECT_IMAGE1D_BUFFER | CL_MEM_OBJECT_IMAGE2D, Some(b))
                        if b.obj.image.is_none() =>
                    {
                        b.raw()
                    }
                    _ => std::ptr::null_mut(),
                }),
                CL_IMAGE_NUM_MIP_LEVELS => Info::Uint(im.num_mip_levels),
                CL_IMAGE_NUM_SAMPLES => Info::Uint(0),
                _ => return Err(crate::core::reason::unknown_query("image", param_name)),
            })
        })
    }
}

/// clEnqueueReadImage and clEnqueueWriteImage: one body, the way (and the arguments' names)
/// apart.
macro_rules! read_write_image_entry {
    ($name:ident, $way:expr, $blocking:ident, $row:ident, $slice:ident, ptr: $ptr:ty) => {
        entry! {
            fn $name(
                command_queue: cl_command_queue, image: cl_mem, $blocking: cl_bool,
                origin: *const usize, region: *const usize, $row: usize, $slice: usize, ptr: $ptr,
            ) -> enqueue [num_events_in_wait_list, event_wait_list, event] {
                // SAFETY: the application's origin and region.
                let area = unsafe { (origin_of(image, origin), info::triple(region)) };
                let (pitches, host) = (($row, $slice), HostPtr::of(ptr));
                let blocking = $blocking != CL_FALSE;
                read_write_image(command_queue, image, $way, area, pitches, host, blocking)
            }
        }
    };
}

read_write_image_entry!(clEnqueueReadImage, Way::Read, blocking_read, row_pitch, slice_pitch, ptr: *mut c_void);
read_write_image_entry!(clEnqueueWriteImage, Way::Write, blocking_write, input_row_pitch, input_slice_pitch, ptr: *const c_void);

entry! {
    fn clEnqueueCopyImage(
        command_queue: cl_command_queue, src_image: cl_mem, dst_image: cl_mem,
        src_origin: *const usize, dst_origin: *const usize, region: *const usize,
    ) -> enqueue [num_events_in_wait_list, event_wait_list, event] {
        // SAFETY: the application's origins and region.
        let (so, d_o) = unsafe { (origin_of(src_image, src_origin), origin_of(dst_image, dst_origin)) };
        // SAFETY: as above.
        let size = unsafe { info::triple(region) };
        copy_image(command_queue, (src_image, so), (dst_image, d_o), size)
    }
}

entry! {
    fn clEnqueueCopyImageToBuffer(
        command_queue: cl_command_queue, src_image: cl_mem, dst_buffer: cl_mem,
        src_origin: *const usize, region: *const usize, dst_offset: usize,
    ) -> enqueue [num_events_in_wait_list, event_wait_list, event] {
        // SAFETY: the application's origin and region.
        let area = unsafe { (origin_of(src_image, src_origin), info::triple(region)) };
        let buffer = (dst_buffer, dst_offset);
        copy_image_buffer(command_queue, (src_image, area), buffer, true)
    }
}

entry! {
    fn clEnqueueCopyBufferToImage(
        command_queue: cl_command_queue, src_buffer: cl_mem, dst_image: cl_mem,
        src_offset: usize, dst_origin: *const usize, region: *const usize,
    ) -> enqueue [num_events_in_wait_list, event_wait_list, event] {
        // SAFETY: the application's origin and region.
        let area = unsafe { (origin_of(dst_image, dst_origin), info::triple(region)) };
        let buffer = (src_buffer, src_offset);
        copy_image_buffer(command_queue, (dst_image, area), buffer, false)
    }
}

entry! {
    fn clEnqueueMapImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_map: cl_bool,
        map_flags: cl_map_flags,
        origin: *const usize,
        region: *const usize,
        image_row_pitch: *mut usize,
        image_slice_pitch: *mut usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> *mut c_void, errcode_ret {
        // SAFETY: the application's origin and region.
        let area = unsafe { (origin_of(image, origin), info::triple(region)) };
        let how = (blocking_map != CL_FALSE, map_flags);
        let given = (!image_row_pitch.is_null(), !image_slice_pitch.is_null());
        let (map, (row, slice)) = map_image(command_queue, image, how, area, given)?;
        let (n, wait) = (num_events_in_wait_list, event_wait_list);
        // SAFETY: the application's wait list and event pointer.
        let ptr = map.enqueue(|c| unsafe { enqueue(c, n, wait, event) })?;
        // SAFETY: the application's pitch pointers (checked where required).
        unsafe {
            *image_row_pitch = row;
            if !image_slice_pitch.is_null() {
                *image_slice_pitch = slice;
            }
        }
        Ok(ptr)
    }
}

entry! {
    fn clEnqueueFillImage(
        command_queue: cl_command_queue, image: cl_mem, fill_color: *const c_void,
        origin: *const usize, region: *const usize,
    ) -> enqueue [num_events_in_wait_list, event_wait_list, event] {
        // SAFETY: the application's origin and region.
        let area = unsafe { (origin_of(image, origin), info::triple(region)) };
        // The colour is one float for a CL_DEPTH image (OpenCL 3.0, clEnqueueFillImage), four
        // components (16 bytes) otherwise.
        let depth = Handle::<Mem>::get(image).is_ok_and(|m| {
            m.obj.image.as_ref().is_some_and(|i| i.image.format.order() == ChannelOrder::Depth)
        });
        let color = (!fill_color.is_null()).then(|| {
            let mut c = [0u8; 16];
            let n = if depth { 4 } else { 16 };
            // SAFETY: the application's colour: `n` readable bytes.
            c[..n].copy_from_slice(unsafe { std::slice::from_raw_parts(fill_color.cast(), n) });
            c
        });
        fill_image(command_queue, image, color, area)
    }
}

entry! {
    fn clGetSupportedImageFormats(
        context: cl_context,
        flags: cl_mem_flags,
        image_type: cl_mem_object_type,
        num_entries: cl_uint,
        image_formats: *mut cl_image_format,
        num_image_formats: *mut cl_uint,
    ) -> cl_int {
        info::status(|| {
            let c = Handle::<Context>::get(context)?;
            if num_entries == 0 && !image_formats.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let any_images = c.obj.devices.iter().any(|d| d.obj.image_support());
            let formats = supported(flags, image_type, any_images)?;
            // SAFETY: the application's array of num_entries formats and its count pointer.
            unsafe { info::list(&formats, num_entries, image_formats, num_image_formats) };
            Ok(())
        })
    }
}

/// Checks everything clCreateImage checks before the image-support rule; returns the format
/// and description.
fn checked(
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> Result<(ImageFormat, Checked), cl_int> {
    check_flags(flags)?;
    // SAFETY: the application's format (or NULL).
    let f = format_of(unsafe { format.as_ref() })?;
    let element = f.desc().bytes_per_element as usize;
    // SAFETY: the application's description (or NULL).
    let c = check_desc(unsafe { desc.as_ref() }, element, !host_ptr.is_null())?;
    // Depth formats are 2D and 2D-array formats only, packed YUV formats read-only 2D ones,
    // NV12 2D ones read-only or of no kernel access (clGetSupportedImageFormats lists them for
    // those alone).
    let access = default_access(flags);
    let listed = if f.is_packed_yuv() {
        access & CL_MEM_READ_ONLY != 0
    } else if f.is_planar_yuv() {
        access & (CL_MEM_READ_ONLY | NO_ACCESS) != 0
    } else {
        true
    };
    if !f.allows(c.desc.ty) || !listed {
        return Err(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    }
    let yuv = f.is_packed_yuv() || f.is_planar_yuv();
    // cl_intel_packed_yuv: "image_width is the width of the Y data and must be even".
    if !c.desc.width.is_multiple_of(f.texels_per_unit()) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    if f.is_planar_yuv() {
        // cl_intel_planar_yuv: "flags must include CL_MEM_HOST_NO_ACCESS"; width and height
        // multiples of 4.
        if flags & CL_MEM_HOST_NO_ACCESS == 0 {
            return Err(CL_INVALID_VALUE);
        }
        if !(c.desc.width.is_multiple_of(4) && c.desc.height.is_multiple_of(4)) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
    }
    // cl_khr_mipmap_image: no mip-mapped depth images (nor packed YUV ones, whose smaller
    // levels would split texel pairs), and no host memory (host_ptr NULL, neither
    // CL_MEM_USE_HOST_PTR nor CL_MEM_COPY_HOST_PTR).
    if c.desc.levels > 1 {
        if f.order() == ChannelOrder::Depth || yuv {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        if !host_ptr.is_null() || flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0 {
            return Err(CL_INVALID_HOST_PTR);
        }
    }
    if c.object_type == CL_MEM_OBJECT_IMAGE1D_BUFFER {
        // Its memory is the buffer's: no host pointer, no host-memory flags.
        if !host_ptr.is_null() {
            return Err(CL_INVALID_HOST_PTR);
        }
        image_buffer(&c, flags, f)?;
        return Ok((f, c));
    }
    if !c.buffer.is_null() {
        crate::core::image_from_buffer::buffer(&c, flags, f, !host_ptr.is_null())?;
        return Ok((f, c));
    }
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if wants_ptr == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    Ok((f, c))
}

fn create_image(
    context: cl_context,
    properties: Vec<cl_mem_properties>,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let c = Handle::<Context>::get(context)?;
    // SAFETY: the application's description (or NULL).
    if let Some(d) = unsafe { desc.as_ref() } {
        // A plane of an NV12 image (cl_intel_planar_yuv).
        if let Some(parent) = crate::core::image_plane::planar_parent(d) {
            // SAFETY: the application's format (or NULL).
            let f = unsafe { format.as_ref() };
            let ptr = !host_ptr.is_null();
            return crate::core::image_plane::create(c, properties, flags, f, d, parent, ptr);
        }
    }
    let (f, checked) = checked(flags, format, desc, host_ptr)?;
    if !c.obj.devices.iter().any(|d| d.obj.image_support()) {
        return Err(CL_INVALID_OPERATION);
    }
    // cl_intel_planar_yuv: an NV12 image at most CL_DEVICE_PLANAR_YUV_MAX_WIDTH_INTEL ×
    // _HEIGHT_INTEL of every device.
    if f.is_planar_yuv() {
        let fits = |d: &Handle<crate::core::device::Device>| {
            checked.desc.width <= crate::core::facts::PLANAR_YUV_MAX_WIDTH
                && checked.desc.height <= d.obj.facts.planar_yuv_max_height
        };
        if !c.obj.devices.iter().all(|d| fits(d)) {
            return Err(CL_INVALID_IMAGE_SIZE);
        }
    }
    // SAFETY: host_ptr, when given, holds the image the description checked.
    unsafe { create(c, properties, flags, f, &checked, host_ptr) }
}
