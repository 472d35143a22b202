//! The image entry points: creation, queries, supported formats, and the image commands
//! (read, write, copy, fill, map) ([`crate::core::image`]).

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;
use umd::image::{ImageFormat, ImageType};

use crate::api::entry::entry;
use crate::api::info;
use crate::api::memory::{command, map_image, no_properties};
use crate::api::queue::enqueue;
use crate::core::context::Context;
use crate::core::handle::Handle;
use crate::core::host_ptr::HostPtr;
use crate::core::image::{
    check_desc, copy_rows, create, fill_texel, format_of, gather, scatter, umd_image,
};
use crate::core::image_desc::{Checked, Region};
use crate::core::image_formats::supported;
use crate::core::image_from_buffer::image_buffer;
use crate::core::info::Info;
use crate::core::memory::{check_flags, Mem, EXEC_FAILED};
use crate::core::queue::{Queue, Work};

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

/// clCreateImage2D and clCreateImage3D (OpenCL 1.1) call a zero width, height or depth
/// CL_INVALID_IMAGE_SIZE where clCreateImage calls the description invalid.
///
/// # Safety
/// `errcode_ret` NULL or valid.
unsafe fn zero_size_error(errcode_ret: *mut cl_int, d: &cl_image_desc) {
    let zero = d.image_width == 0
        || d.image_height == 0
        || (d.image_type == CL_MEM_OBJECT_IMAGE3D && d.image_depth == 0);
    // SAFETY: the caller's pointer.
    if zero && !errcode_ret.is_null() && unsafe { *errcode_ret } == CL_INVALID_IMAGE_DESCRIPTOR {
        // SAFETY: as above.
        unsafe { *errcode_ret = CL_INVALID_IMAGE_SIZE };
    }
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
        let desc = cl_image_desc {
            image_type: CL_MEM_OBJECT_IMAGE2D,
            image_width,
            image_height,
            image_depth: 0,
            image_array_size: 0,
            image_row_pitch,
            image_slice_pitch: 0,
            num_mip_levels: 0,
            num_samples: 0,
            buffer: std::ptr::null_mut(),
        };
        // SAFETY: forwarded application arguments.
        let m = unsafe { clCreateImage(context, flags, image_format, &desc, host_ptr, errcode_ret) };
        // SAFETY: the application's errcode pointer.
        unsafe { zero_size_error(errcode_ret, &desc) };
        m
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
        let desc = cl_image_desc {
            image_type: CL_MEM_OBJECT_IMAGE3D,
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
        // SAFETY: the application's errcode pointer.
        unsafe { zero_size_error(errcode_ret, &desc) };
        m
    }
}

entry! {
    fn clGetImageInfo(
        image: cl_mem,
        param_name: cl_image_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let r = Handle::<Mem>::get(image).and_then(|m| {
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
                CL_IMAGE_BUFFER => Info::Ptr(match (im.object_type, &m.obj.parent) {
                    (CL_MEM_OBJECT_IMAGE1D_BUFFER | CL_MEM_OBJECT_IMAGE2D, Some(b)) => b.raw(),
                    _ => std::ptr::null_mut(),
                }),
                CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => Info::Uint(0),
                _ => return Err(CL_INVALID_VALUE),
            })
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    }
}

/// The region of `origin`/`region` in `im`, with the host pitches, or CL_INVALID_VALUE
/// (OpenCL 3.0, clEnqueueReadImage: NULL origin or region, a zero region, a region outside
/// the image or not of its type, pitches smaller than the region's rows and slices).
///
/// # Safety
/// `origin` and `region` NULL or three readable size_t each.
unsafe fn region(
    im: &umd::image::Image,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
) -> Result<Region, cl_int> {
    // SAFETY: the caller's arrays.
    let (o, r) = unsafe { (info::slice(origin, 3)?, info::slice(region, 3)?) };
    if origin.is_null() || region.is_null() || r.contains(&0) {
        return Err(CL_INVALID_VALUE);
    }
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
        ImageType::D2Array => (
            [o[0], o[1], o[2]],
            [r[0], r[1], r[2]],
            [im.width, im.height, im.array_size],
            3..3,
        ),
        ImageType::D3 => (
            [o[0], o[1], o[2]],
            [r[0], r[1], r[2]],
            [im.width, im.height, im.depth],
            3..3,
        ),
    };
    if unused.clone().any(|i| o[i] != 0 || r[i] != 1) {
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
    })
}

type QueueAndImage = (Arc<Handle<Queue>>, Arc<Handle<Mem>>);

/// The queue and image of an image command, checked against each other.
fn image_command(queue: cl_command_queue, image: cl_mem) -> Result<QueueAndImage, cl_int> {
    let q = Handle::<Queue>::get(queue)?;
    let m = Handle::<Mem>::get(image)?;
    if m.obj.image.is_none() {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    if !Arc::ptr_eq(&q.obj.context, &m.obj.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    if !Arc::ptr_eq(&q.obj.device, &m.obj.device) {
        // Images live on their context's first device; migration is not provided.
        return Err(CL_INVALID_OPERATION);
    }
    Ok((q, m))
}

/// clEnqueueReadImage and clEnqueueWriteImage, on the queue's thread after their
/// dependencies. An image exists only on an image-capable device (clCreateImage refuses
/// others), so the commands' own CL_INVALID_OPERATION for such devices cannot arise.
///
/// # Safety
/// The application's arguments.
#[allow(clippy::too_many_arguments)]
unsafe fn read_write(
    queue: cl_command_queue,
    image: cl_mem,
    blocking: cl_bool,
    origin: *const usize,
    reg: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    wait: (cl_uint, *const cl_event),
    event: *mut cl_event,
    read: bool,
) -> Result<(), cl_int> {
    let (q, m) = image_command(queue, image)?;
    let im = &m.obj.image.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?.image;
    // SAFETY: the application's origin and region.
    let g = unsafe { region(im, origin, reg, row_pitch, slice_pitch) }?;
    if ptr.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let refused = if read {
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
    } else {
        CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS
    };
    if m.obj.flags & refused != 0 {
        return Err(CL_INVALID_OPERATION);
    }
    let host = HostPtr(ptr as usize);
    let work = Work::Host(Box::new(move || copy_rows(&m.obj, &g, host, read)));
    let command = if read {
        CL_COMMAND_READ_IMAGE
    } else {
        CL_COMMAND_WRITE_IMAGE
    };
    // SAFETY: the application's wait list and event pointer.
    unsafe {
        enqueue(
            &q,
            command,
            wait.0,
            wait.1,
            event,
            blocking != CL_FALSE,
            work,
        )
    }
}

entry! {
    fn clEnqueueReadImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_read: cl_bool,
        origin: *const usize,
        region: *const usize,
        row_pitch: usize,
        slice_pitch: usize,
        ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        // SAFETY: the application's arguments.
        unsafe {
            read_write(
                command_queue,
                image,
                blocking_read,
                origin,
                region,
                row_pitch,
                slice_pitch,
                ptr,
                (num_events_in_wait_list, event_wait_list),
                event,
                true,
            )
        }
        .map_or_else(|e| e, |_| CL_SUCCESS)
    }
}

entry! {
    fn clEnqueueWriteImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_write: cl_bool,
        origin: *const usize,
        region: *const usize,
        input_row_pitch: usize,
        input_slice_pitch: usize,
        ptr: *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        // SAFETY: the application's arguments; a write only reads from ptr.
        unsafe {
            read_write(
                command_queue,
                image,
                blocking_write,
                origin,
                region,
                input_row_pitch,
                input_slice_pitch,
                ptr as *mut c_void,
                (num_events_in_wait_list, event_wait_list),
                event,
                false,
            )
        }
        .map_or_else(|e| e, |_| CL_SUCCESS)
    }
}

entry! {
    /// clEnqueueCopyImage, clEnqueueCopyImageToBuffer and clEnqueueCopyBufferToImage, on the
    /// queue's thread after their dependencies (a copy through host memory).
    fn clEnqueueCopyImage(
        command_queue: cl_command_queue,
        src_image: cl_mem,
        dst_image: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        info::status(|| {
            let (q, src) = image_command(command_queue, src_image)?;
            let (_, dst) = image_command(command_queue, dst_image)?;
            let (si, di) = (umd_image(&src.obj)?, umd_image(&dst.obj)?);
            if si.format != di.format {
                return Err(CL_IMAGE_FORMAT_MISMATCH);
            }
            // SAFETY: the application's origins and region.
            let gs = unsafe { self::region(si, src_origin, region, 0, 0) }?;
            // SAFETY: as above.
            let gd = unsafe { self::region(di, dst_origin, region, 0, 0) }?;
            if gs.packed_bytes() != gd.packed_bytes() {
                return Err(CL_INVALID_VALUE);
            }
            if Arc::ptr_eq(&src, &dst) && gs.overlaps(&gd) {
                return Err(CL_MEM_COPY_OVERLAP);
            }
            let work = Work::Host(Box::new(move || {
                let v = gather(&src.obj, &gs)?;
                scatter(&dst.obj, &gd, &v)
            }));
            // SAFETY: the application's wait list and event pointer.
            unsafe {
                enqueue(
                    &q,
                    CL_COMMAND_COPY_IMAGE,
                    num_events_in_wait_list,
                    event_wait_list,
                    event,
                    false,
                    work,
                )
            }
        })
    }
}

entry! {
    fn clEnqueueCopyImageToBuffer(
        command_queue: cl_command_queue,
        src_image: cl_mem,
        dst_buffer: cl_mem,
        src_origin: *const usize,
        region: *const usize,
        dst_offset: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        info::status(|| {
            let (q, src) = image_command(command_queue, src_image)?;
            // SAFETY: the application's origin and region.
            let g = unsafe { self::region(umd_image(&src.obj)?, src_origin, region, 0, 0) }?;
            let (_, dst) =
                command(command_queue, dst_buffer, dst_offset, g.packed_bytes())?;
            let work = Work::Host(Box::new(move || {
                let v = gather(&src.obj, &g)?;
                dst.obj
                    .buffer
                    .write(dst_offset as u64, &v)
                    .map_err(|_| EXEC_FAILED)
            }));
            // SAFETY: the application's wait list and event pointer.
            unsafe {
                enqueue(
                    &q,
                    CL_COMMAND_COPY_IMAGE_TO_BUFFER,
                    num_events_in_wait_list,
                    event_wait_list,
                    event,
                    false,
                    work,
                )
            }
        })
    }
}

entry! {
    fn clEnqueueCopyBufferToImage(
        command_queue: cl_command_queue,
        src_buffer: cl_mem,
        dst_image: cl_mem,
        src_offset: usize,
        dst_origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        info::status(|| {
            let (q, dst) = image_command(command_queue, dst_image)?;
            // SAFETY: the application's origin and region.
            let g = unsafe { self::region(umd_image(&dst.obj)?, dst_origin, region, 0, 0) }?;
            let (_, src) =
                command(command_queue, src_buffer, src_offset, g.packed_bytes())?;
            let work = Work::Host(Box::new(move || {
                let mut v = vec![0u8; g.packed_bytes()];
                src.obj
                    .buffer
                    .read(src_offset as u64, &mut v)
                    .map_err(|_| EXEC_FAILED)?;
                scatter(&dst.obj, &g, &v)
            }));
            // SAFETY: the application's wait list and event pointer.
            unsafe {
                enqueue(
                    &q,
                    CL_COMMAND_COPY_BUFFER_TO_IMAGE,
                    num_events_in_wait_list,
                    event_wait_list,
                    event,
                    false,
                    work,
                )
            }
        })
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
        let (q, m) = image_command(command_queue, image)?;
        let im = umd_image(&m.obj)?;
        // SAFETY: the application's origin and region.
        let g = unsafe { self::region(im, origin, region, 0, 0) }?;
        let slices = im.ty.is_array() || im.ty == ImageType::D3;
        if image_row_pitch.is_null() || (slices && image_slice_pitch.is_null()) {
            return Err(CL_INVALID_VALUE);
        }
        let (row, slice) = crate::core::image::host::map_pitches(&m.obj).unwrap_or((g.row_pitch, g.slice_pitch));
        let slice = if slices { slice } else { 0 };
        // SAFETY: the application's wait list and event pointer.
        let ptr = unsafe {
            map_image(
                &q,
                m,
                blocking_map != CL_FALSE,
                map_flags,
                g,
                (num_events_in_wait_list, event_wait_list),
                event,
            )
        }?;
        // SAFETY: the application's pitch pointers (checked above where required).
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
        command_queue: cl_command_queue,
        image: cl_mem,
        fill_color: *const c_void,
        origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        info::status(|| {
            let (q, m) = image_command(command_queue, image)?;
            let im = umd_image(&m.obj)?;
            // SAFETY: the application's origin and region.
            let g = unsafe { self::region(im, origin, region, 0, 0) }?;
            if fill_color.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let mut color = [0u8; 16];
            // SAFETY: the application's four-component colour (16 bytes).
            unsafe { std::ptr::copy_nonoverlapping(fill_color.cast::<u8>(), color.as_mut_ptr(), 16) };
            let texel = fill_texel(im.format, color);
            let work = Work::Host(Box::new(move || {
                let packed = texel.repeat(g.packed_bytes() / texel.len());
                scatter(&m.obj, &g, &packed)
            }));
            // SAFETY: the application's wait list and event pointer.
            unsafe {
                enqueue(
                    &q,
                    CL_COMMAND_FILL_IMAGE,
                    num_events_in_wait_list,
                    event_wait_list,
                    event,
                    false,
                    work,
                )
            }
        })
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
            if !image_formats.is_null() {
                for (k, f) in formats.iter().take(num_entries as usize).enumerate() {
                    // SAFETY: the application's array of num_entries formats.
                    unsafe { *image_formats.add(k) = *f };
                }
            }
            if !num_image_formats.is_null() {
                // SAFETY: the application's pointer.
                unsafe { *num_image_formats = formats.len() as cl_uint };
            }
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
    let (f, checked) = checked(flags, format, desc, host_ptr)?;
    if !c.obj.devices.iter().any(|d| d.obj.image_support()) {
        return Err(CL_INVALID_OPERATION);
    }
    // SAFETY: host_ptr, when given, holds the image the description checked.
    unsafe { create(c, properties, flags, f, &checked, host_ptr) }
}
