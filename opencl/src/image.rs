//! Image memory objects over `umd::image`: the checks of clCreateImage (OpenCL 3.0, 5.3.1),
//! clGetImageInfo, and the image a kernel argument hands to umd.
//!
//! A context none of whose devices supports images (`Device::image_support`) answers a
//! well-formed request with CL_INVALID_OPERATION as the specification requires; the arguments
//! are checked first, so a bad one gets its own error. 1D image buffers (image1d_buffer) are
//! umd views of their buffer's memory, and so are 2D images from buffers
//! ([`crate::image_from_buffer`]); CL_MEM_USE_HOST_PTR images live in the application's memory
//! ([`host`]). Not provided: 2D images from images, mip-maps and multi-sampling.

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;
use umd::image::{ImageDesc, ImageFormat, ImageType, MAX_2D_SIZE, MAX_DEPTH};

use crate::api::entry::entry;
use crate::context::Context;
use crate::handle::Handle;
use crate::info::{self, Info};
use crate::memory::{check_flags, default_access, Mem, EXEC_FAILED};
use crate::queue::{self, HostPtr, Queue, Work};

pub mod host;

/// An image object's description beside its umd image.
#[derive(Debug, Clone)]
pub struct ClImage {
    pub image: umd::image::Image,
    pub object_type: cl_mem_object_type,
    pub order: cl_channel_order,
    pub data_type: cl_channel_type,
    /// CL_IMAGE_ROW_PITCH and CL_IMAGE_SLICE_PITCH: the pitches the application gave, else
    /// the packed ones (width × element size; a 1D array's slice is one row, others' `height`
    /// rows), as OpenCL 3.0 defines the queries (OpenCL-Docs #763, #777), not the device
    /// layout's.
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

impl ClImage {
    /// `image` as the application described it in `checked`, in `format`.
    pub fn new(image: umd::image::Image, checked: &Checked, format: ImageFormat) -> ClImage {
        ClImage {
            image,
            object_type: checked.object_type,
            order: format.order() as u32,
            data_type: format.data_type() as u32,
            row_pitch: checked.host_row_pitch,
            slice_pitch: checked.host_slice_pitch,
        }
    }
}

/// Image types and their umd kinds.
const TYPES: [(cl_mem_object_type, ImageType); 6] = [
    (CL_MEM_OBJECT_IMAGE1D, ImageType::D1),
    (CL_MEM_OBJECT_IMAGE1D_BUFFER, ImageType::D1Buffer),
    (CL_MEM_OBJECT_IMAGE1D_ARRAY, ImageType::D1Array),
    (CL_MEM_OBJECT_IMAGE2D, ImageType::D2),
    (CL_MEM_OBJECT_IMAGE2D_ARRAY, ImageType::D2Array),
    (CL_MEM_OBJECT_IMAGE3D, ImageType::D3),
];

/// Which channel orders a channel data type may have (OpenCL 3.0, tables "List of supported
/// Image Channel Order Values" and "List of supported Image Channel Data Types", their
/// footnotes on packed and depth types; CL_DEPTH_STENCIL and CL_UNORM_INT24 belong to
/// extensions this platform does not have). A pair outside it is no image format at all
/// (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR); one inside it that umd's table lacks is a format not
/// supported (CL_IMAGE_FORMAT_NOT_SUPPORTED).
fn format_is_valid(order: cl_channel_order, ty: cl_channel_type) -> bool {
    const PLAIN: [cl_channel_order; 8] =
        [CL_R, CL_A, CL_RG, CL_RA, CL_RGBA, CL_Rx, CL_RGx, CL_RGBx];
    const BYTES: [cl_channel_type; 4] = [
        CL_UNORM_INT8,
        CL_SNORM_INT8,
        CL_SIGNED_INT8,
        CL_UNSIGNED_INT8,
    ];
    const NORM_OR_FLOAT: [cl_channel_type; 6] = [
        CL_UNORM_INT8,
        CL_UNORM_INT16,
        CL_SNORM_INT8,
        CL_SNORM_INT16,
        CL_HALF_FLOAT,
        CL_FLOAT,
    ];
    const OTHERS: [cl_channel_type; 9] = [
        CL_UNORM_INT16,
        CL_SNORM_INT16,
        CL_SIGNED_INT16,
        CL_UNSIGNED_INT16,
        CL_SIGNED_INT32,
        CL_UNSIGNED_INT32,
        CL_HALF_FLOAT,
        CL_FLOAT,
        CL_UNORM_INT8,
    ];
    let packed_rgb = [CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010];
    let srgb = [CL_sRGB, CL_sRGBx, CL_sRGBA, CL_sBGRA];
    if packed_rgb.contains(&ty) {
        order == CL_RGB || order == CL_RGBx
    } else if ty == CL_UNORM_INT_101010_2 {
        order == CL_RGBA
    } else if order == CL_INTENSITY || order == CL_LUMINANCE {
        NORM_OR_FLOAT.contains(&ty)
    } else if order == CL_DEPTH {
        ty == CL_UNORM_INT16 || ty == CL_FLOAT
    } else if srgb.contains(&order) {
        ty == CL_UNORM_INT8
    } else if [CL_BGRA, CL_ARGB, CL_ABGR].contains(&order) {
        BYTES.contains(&ty)
    } else {
        PLAIN.contains(&order) && (BYTES.contains(&ty) || OTHERS.contains(&ty))
    }
}

/// Whether images of `image_type` are provided (a row of `TYPES`).
pub fn provides(image_type: cl_mem_object_type) -> bool {
    TYPES.iter().any(|(t, _)| *t == image_type)
}

/// The umd format of `format`, or the specification's error.
pub fn format_of(format: Option<&cl_image_format>) -> Result<ImageFormat, cl_int> {
    let f = format.ok_or(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)?;
    let (order, ty) = (f.image_channel_order, f.image_channel_data_type);
    if !format_is_valid(order, ty) {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    ImageFormat::from_cl(order, ty).ok_or(CL_IMAGE_FORMAT_NOT_SUPPORTED)
}

/// A checked image description: umd's, and the host pitches `host_ptr` is read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    pub desc: ImageDesc,
    pub object_type: cl_mem_object_type,
    pub host_row_pitch: usize,
    pub host_slice_pitch: usize,
    /// The buffer of a 1D image buffer (`cl_image_desc::buffer`, not yet looked up; NULL for
    /// other types).
    pub buffer: cl_mem,
}

/// `d` checked against OpenCL 3.0's rules for clCreateImage: CL_INVALID_IMAGE_DESCRIPTOR for
/// a type that is not an image type, a zero dimension, mip-maps or samples, a buffer where
/// none belongs or pitches that do not fit; CL_INVALID_IMAGE_SIZE past the largest image umd
/// describes (a surface's 14-bit width and height, 11-bit depth and array size; a typed
/// buffer surface's 2^27 elements); CL_INVALID_OPERATION for image types this runtime does
/// not provide. A 1D image buffer needs a buffer and no pitches (its memory is the buffer's);
/// the buffer itself is checked by [`image_buffer`].
pub fn check_desc(
    d: Option<&cl_image_desc>,
    element: usize,
    has_host_ptr: bool,
) -> Result<Checked, cl_int> {
    let d = d.ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
    if d.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER {
        let no_extras = d.num_mip_levels == 0
            && d.num_samples == 0
            && d.image_row_pitch == 0
            && d.image_slice_pitch == 0;
        if d.buffer.is_null() || d.image_width == 0 || !no_extras {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        if d.image_width > crate::device::IMAGE_MAX_BUFFER_ELEMENTS {
            return Err(CL_INVALID_IMAGE_SIZE);
        }
        let row = d.image_width * element;
        return Ok(Checked {
            desc: ImageDesc {
                ty: ImageType::D1Buffer,
                width: d.image_width as u32,
                height: 1,
                depth: 1,
                array_size: 1,
            },
            object_type: d.image_type,
            host_row_pitch: row,
            host_slice_pitch: row,
            buffer: d.buffer,
        });
    }
    let ty = TYPES
        .iter()
        .find(|(t, _)| *t == d.image_type)
        .map(|&(_, k)| k)
        .ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
    if d.num_mip_levels != 0 || d.num_samples != 0 {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    if !d.buffer.is_null() {
        // A 2D image from a buffer (cl_khr_image2d_from_buffer); no other type takes one.
        return if ty == ImageType::D2 {
            crate::image_from_buffer::check_desc(d, element)
        } else {
            Err(CL_INVALID_IMAGE_DESCRIPTOR)
        };
    }
    // Dimensions the type does not have are ignored (the specification's text per field).
    let height = if ty.dims() >= 2 { d.image_height } else { 1 };
    let depth = if ty == ImageType::D3 {
        d.image_depth
    } else {
        1
    };
    let layers = if ty.is_array() { d.image_array_size } else { 1 };
    if [d.image_width, height, depth, layers].contains(&0) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let big = |v: usize, max: u32| v > max as usize;
    if big(d.image_width, MAX_2D_SIZE)
        || big(height, MAX_2D_SIZE)
        || big(depth, MAX_DEPTH)
        || big(layers, MAX_DEPTH)
    {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    // Pitches: 0 without a host pointer; with one, 0 (packed) or at least the packed size and
    // a multiple of the element size.
    let row = d.image_width * element;
    let slice_rows = if ty.dims() == 1 { 1 } else { height };
    let has_slices = ty.is_array() || ty == ImageType::D3;
    if !has_host_ptr && (d.image_row_pitch != 0 || d.image_slice_pitch != 0) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let row_pitch = match d.image_row_pitch {
        0 => row,
        p if p < row || p % element != 0 => return Err(CL_INVALID_IMAGE_DESCRIPTOR),
        p => p,
    };
    let packed_slice = row_pitch * slice_rows;
    let slice_pitch = match d.image_slice_pitch {
        0 => packed_slice,
        p if has_slices && (p < packed_slice || p % row_pitch != 0) => {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR)
        }
        p if has_slices => p,
        // Ignored for images without slices.
        _ => packed_slice,
    };
    Ok(Checked {
        desc: ImageDesc {
            ty,
            width: d.image_width as u32,
            height: height as u32,
            depth: depth as u32,
            array_size: layers as u32,
        },
        object_type: d.image_type,
        host_row_pitch: row_pitch,
        host_slice_pitch: slice_pitch,
        buffer: std::ptr::null_mut(),
    })
}

/// The buffer of a 1D image buffer and the image's flags, or OpenCL 3.0's error for
/// clCreateImage with CL_MEM_OBJECT_IMAGE1D_BUFFER: CL_INVALID_IMAGE_DESCRIPTOR when `buffer`
/// is no buffer (an image, a released or foreign object); CL_INVALID_VALUE for
/// CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR (inherited from the
/// buffer, never given) or for kernel or host access the buffer's flags do not allow;
/// CL_INVALID_IMAGE_SIZE when width × element size exceeds the buffer. Access flags not given
/// are the buffer's.
pub fn image_buffer(
    checked: &Checked,
    mut flags: cl_mem_flags,
    format: ImageFormat,
) -> Result<(Arc<Handle<Mem>>, cl_mem_flags), cl_int> {
    let buffer = Handle::<Mem>::get(checked.buffer).map_err(|_| CL_INVALID_IMAGE_DESCRIPTOR)?;
    if buffer.obj.image.is_some() {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let host_memory = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
    if flags & host_memory != 0 {
        return Err(CL_INVALID_VALUE);
    }
    let bf = buffer.obj.flags;
    // Each pair: a buffer flag, and the image flags it rules out.
    let forbids = [
        (CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY),
        (CL_MEM_READ_ONLY, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY),
        (CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY),
        (CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY),
        (
            CL_MEM_HOST_NO_ACCESS,
            CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
        ),
    ];
    if forbids.iter().any(|&(b, i)| bf & b != 0 && flags & i != 0) {
        return Err(CL_INVALID_VALUE);
    }
    let access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    let host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    for group in [access, host] {
        if flags & group == 0 {
            flags |= bf & group;
        }
    }
    flags |= bf & host_memory;
    let bytes = checked.desc.width as usize * format.desc().bytes_per_element as usize;
    if bytes > buffer.obj.size {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    Ok((buffer, flags))
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
        crate::image_from_buffer::buffer(&c, flags, f, !host_ptr.is_null())?;
        return Ok((f, c));
    }
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if wants_ptr == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    Ok((f, c))
}

/// An image in `c`, filled from `host_ptr` when given (CL_MEM_COPY_HOST_PTR), past the
/// image-support rule. A 1D image buffer is a view of its buffer (checked by
/// [`image_buffer`]), which it keeps alive.
///
/// # Safety
/// `host_ptr` NULL or readable for the image at the checked pitches.
pub unsafe fn create(
    c: Arc<Handle<Context>>,
    properties: Vec<cl_mem_properties>,
    flags: cl_mem_flags,
    format: ImageFormat,
    checked: &Checked,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    if checked.object_type == CL_MEM_OBJECT_IMAGE1D_BUFFER {
        if !host_ptr.is_null() {
            return Err(CL_INVALID_HOST_PTR);
        }
        let (buffer, flags) = image_buffer(checked, flags, format)?;
        let image =
            umd::image::Image::buffer_view(&buffer.obj.buffer, 0, checked.desc.width, format)
                .map_err(|e| match e {
                    umd::Error::OutOfRange(_) => CL_INVALID_IMAGE_SIZE,
                    _ => CL_INVALID_IMAGE_DESCRIPTOR,
                })?;
        let size = image.row_bytes();
        let cl = ClImage::new(image, checked, format);
        let device = buffer.obj.device.clone();
        return Ok(Mem::new_image(
            c,
            device,
            default_access(flags),
            size,
            properties,
            cl,
            Some(buffer),
        ));
    }
    if !checked.buffer.is_null() {
        let (buffer, flags) =
            crate::image_from_buffer::buffer(checked, flags, format, !host_ptr.is_null())?;
        let image = crate::image_from_buffer::image(&buffer.obj, checked, format)?;
        let cl = ClImage::new(image, checked, format);
        let device = buffer.obj.device.clone();
        let size = checked.host_slice_pitch;
        return Ok(Mem::new_image(
            c,
            device,
            default_access(flags),
            size,
            properties,
            cl,
            Some(buffer),
        ));
    }
    if flags & CL_MEM_USE_HOST_PTR != 0 {
        let parts = (c, properties, default_access(flags));
        // SAFETY: the caller's host_ptr.
        return unsafe { host::create(parts, format, checked, host_ptr) };
    }
    let device = c.obj.devices.first().cloned().ok_or(CL_INVALID_CONTEXT)?;
    let image = device
        .obj
        .umd
        .create_image_desc(&checked.desc, format)
        .map_err(|_| CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
    if !host_ptr.is_null() {
        let d = &checked.desc;
        let rb = image.row_bytes();
        let mut packed = Vec::with_capacity(image.packed_bytes());
        for z in 0..d.slices() as usize {
            for y in 0..d.height as usize {
                let at = z * checked.host_slice_pitch + y * checked.host_row_pitch;
                // SAFETY: the caller's host_ptr holds the image at these pitches.
                let row =
                    unsafe { std::slice::from_raw_parts((host_ptr as *const u8).add(at), rb) };
                packed.extend_from_slice(row);
            }
        }
        image
            .write_packed(&packed)
            .map_err(|_| CL_OUT_OF_RESOURCES)?;
    }
    let size = image.buffer().size() as usize;
    let cl = ClImage::new(image, checked, format);
    Ok(Mem::new_image(
        c,
        device,
        default_access(flags),
        size,
        properties,
        cl,
        None,
    ))
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
        let list = unsafe { crate::memory::no_properties(properties) }?;
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

/// Where a host-side image region lies: its origin and size as (x, y, slice) in the umd
/// image's rows and slices (a 1D array's layer is its slice), and the host pitches.
#[derive(Debug, Clone)]
pub(crate) struct Region {
    origin: [usize; 3],
    size: [usize; 3],
    row_pitch: usize,
    slice_pitch: usize,
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

/// Copies between the image's rows in `m` and the host rows at `host`: into the host when
/// `read`.
fn copy_rows(m: &Mem, g: &Region, host: HostPtr, read: bool) -> Result<(), cl_int> {
    let Some(im) = m.image.as_ref().map(|i| &i.image) else {
        return Err(CL_INVALID_MEM_OBJECT);
    };
    if host::is_mirrored(m) {
        return host::copy_rows(m, g, host, read);
    }
    let elem = im.format.desc().bytes_per_element as u64;
    let row = g.size[0] * elem as usize;
    for s in 0..g.size[2] {
        for y in 0..g.size[1] {
            let at = (g.origin[2] + s) as u64 * im.slice_pitch
                + (g.origin[1] + y) as u64 * u64::from(im.pitch)
                + g.origin[0] as u64 * elem;
            // SAFETY: the application's rows at its pitches, until the command completes.
            let bytes = unsafe { host.bytes_mut(s * g.slice_pitch + y * g.row_pitch, row) };
            let r = if read {
                im.buffer().read(at, bytes)
            } else {
                im.buffer().write(at, bytes)
            };
            r.map_err(|_| EXEC_FAILED)?;
        }
    }
    Ok(())
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
        queue::enqueue(
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

impl Region {
    /// Bytes of the region packed.
    pub(crate) fn packed_bytes(&self) -> usize {
        self.slice_pitch * self.size[2]
    }

    /// Whether two regions of one image share a texel.
    fn overlaps(&self, o: &Region) -> bool {
        (0..3).all(|i| {
            self.origin[i] < o.origin[i] + o.size[i] && o.origin[i] < self.origin[i] + self.size[i]
        })
    }
}

/// The image region of `m`, packed.
pub(crate) fn gather(m: &Mem, g: &Region) -> Result<Vec<u8>, cl_int> {
    let mut v = vec![0u8; g.packed_bytes()];
    copy_rows(m, g, HostPtr(v.as_mut_ptr() as usize), true)?;
    Ok(v)
}

/// `packed` (the region's bytes, packed) into the image region of `m`.
pub(crate) fn scatter(m: &Mem, g: &Region, packed: &[u8]) -> Result<(), cl_int> {
    if packed.len() != g.packed_bytes() {
        return Err(EXEC_FAILED);
    }
    // A write only reads the host rows.
    copy_rows(m, g, HostPtr(packed.as_ptr() as usize), false)
}

/// The image of `m` (an image object).
fn umd_image(m: &Mem) -> Result<&umd::image::Image, cl_int> {
    m.image
        .as_ref()
        .map(|i| &i.image)
        .ok_or(CL_INVALID_MEM_OBJECT)
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
                queue::enqueue(
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
                crate::memory::command(command_queue, dst_buffer, dst_offset, g.packed_bytes())?;
            let work = Work::Host(Box::new(move || {
                let v = gather(&src.obj, &g)?;
                dst.obj
                    .buffer
                    .write(dst_offset as u64, &v)
                    .map_err(|_| EXEC_FAILED)
            }));
            // SAFETY: the application's wait list and event pointer.
            unsafe {
                queue::enqueue(
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
                crate::memory::command(command_queue, src_buffer, src_offset, g.packed_bytes())?;
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
                queue::enqueue(
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
        let (row, slice) = host::map_pitches(&m.obj).unwrap_or((g.row_pitch, g.slice_pitch));
        let slice = if slices { slice } else { 0 };
        // SAFETY: the application's wait list and event pointer.
        let ptr = unsafe {
            crate::memory::map_image(
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

/// One texel of `format` holding `color`, the clEnqueueFillImage colour: four floats for
/// normalized and floating-point types, four ints or uints for the integer types, converted
/// by OpenCL 3.0's conversion rules (normalized: clamped, scaled and rounded to nearest even;
/// integers: saturated; half: rounded to nearest even), channels in the order's memory order.
pub fn fill_texel(format: ImageFormat, color: [u8; 16]) -> Vec<u8> {
    use umd::image::{ChannelOrder as O, ChannelType as T};
    let word = |c: usize| {
        [
            color[4 * c],
            color[4 * c + 1],
            color[4 * c + 2],
            color[4 * c + 3],
        ]
    };
    let f = |c: usize| f32::from_ne_bytes(word(c));
    let i = |c: usize| i32::from_ne_bytes(word(c));
    let u = |c: usize| u32::from_ne_bytes(word(c));
    let norm = |x: f32, lo: f32, scale: f32| {
        let x = if x.is_nan() { 0.0 } else { x.clamp(lo, 1.0) };
        (x * scale).round_ties_even() as i32
    };
    let channels: &[usize] = match format.order() {
        O::R => &[0],
        O::Rg => &[0, 1],
        O::Rgba => &[0, 1, 2, 3],
        O::Bgra => &[2, 1, 0, 3],
    };
    let mut out = Vec::new();
    for &c in channels {
        match format.data_type() {
            T::UnormInt8 => out.push(norm(f(c), 0.0, 255.0) as u8),
            T::UnormInt16 => out.extend((norm(f(c), 0.0, 65535.0) as u16).to_le_bytes()),
            T::SnormInt8 => out.push(norm(f(c), -1.0, 127.0) as i8 as u8),
            T::SnormInt16 => out.extend((norm(f(c), -1.0, 32767.0) as i16).to_le_bytes()),
            T::SignedInt8 => out.push(i(c).clamp(-128, 127) as i8 as u8),
            T::SignedInt16 => out.extend((i(c).clamp(-32768, 32767) as i16).to_le_bytes()),
            T::SignedInt32 => out.extend(i(c).to_le_bytes()),
            T::UnsignedInt8 => out.push(u(c).min(255) as u8),
            T::UnsignedInt16 => out.extend((u(c).min(65535) as u16).to_le_bytes()),
            T::UnsignedInt32 => out.extend(u(c).to_le_bytes()),
            T::HalfFloat => out.extend(sim_eu::convert::f32_to_f16(f(c)).to_le_bytes()),
            T::Float => out.extend(f(c).to_le_bytes()),
        }
    }
    out
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
                queue::enqueue(
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
