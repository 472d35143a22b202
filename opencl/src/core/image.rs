//! Image memory objects over `umd::image`: the checks of clCreateImage (OpenCL 3.0, 5.3.1),
//! their creation, and moving texels between an image and the host.
//!
//! A context none of whose devices supports images (`Device::image_support`) answers a
//! well-formed request with CL_INVALID_OPERATION as the specification requires; the arguments
//! are checked first, so a bad one gets its own error. 1D image buffers (image1d_buffer) are
//! umd views of their buffer's memory, and so are 2D images from buffers
//! ([`crate::core::image_from_buffer`]); CL_MEM_USE_HOST_PTR images live in the application's
//! memory ([`host`]); mip-mapped images (cl_khr_mipmap_image) are umd's mip chains, each
//! level reached through its own view; an NV12 image's planes are views of it
//! ([`crate::core::image_plane`]). Not provided: other 2D images from images and
//! multi-sampling.

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;
use umd::image::{ImageDesc, ImageFormat, ImageType, MAX_2D_SIZE, MAX_DEPTH};

use crate::core::context::Context;
use crate::core::handle::Handle;
use crate::core::host_ptr::HostPtr;
use crate::core::image_desc::{Checked, ClImage, Region};
use crate::core::image_from_buffer::image_buffer;
use crate::core::memory::{default_access, Mem, EXEC_FAILED};

pub mod host;

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
    // cl_intel_packed_yuv: "This format can only be used if image_channel_data_type =
    // CL_UNORM_INT8".
    let packed_yuv = [CL_YUYV_INTEL, CL_UYVY_INTEL, CL_YVYU_INTEL, CL_VYUY_INTEL];
    // cl_intel_planar_yuv: NV12's one listed type (its planes' R and RG views take
    // UNSIGNED_INT8 too, as R and RG formats of their own).
    if packed_yuv.contains(&order) || order == CL_NV12_INTEL {
        ty == CL_UNORM_INT8
    } else if packed_rgb.contains(&ty) {
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
    kind_of(image_type).is_some()
}

/// The umd kind of a provided `image_type`.
pub fn kind_of(image_type: cl_mem_object_type) -> Option<ImageType> {
    TYPES
        .iter()
        .find(|(t, _)| *t == image_type)
        .map(|&(_, k)| k)
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

/// `d` checked against OpenCL 3.0's rules for clCreateImage: CL_INVALID_IMAGE_DESCRIPTOR for
/// a type that is not an image type, a zero dimension, mip-maps or samples, a buffer where
/// none belongs or pitches that do not fit; CL_INVALID_IMAGE_SIZE past the largest image umd
/// describes (a surface's 14-bit width and height, 11-bit depth and array size; a typed
/// buffer surface's 2^27 elements); CL_INVALID_OPERATION for image types this runtime does
/// not provide. A 1D image buffer needs a buffer and at most a row pitch its one row fits
/// (its memory is the buffer's); the buffer itself is checked by [`image_buffer`].
pub fn check_desc(
    d: Option<&cl_image_desc>,
    element: usize,
    has_host_ptr: bool,
) -> Result<Checked, cl_int> {
    let d = d.ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
    if d.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER {
        let row = d.image_width.saturating_mul(element);
        // Its one row is the buffer's bytes: a row pitch, which the CTS passes (as for a 2D
        // image from a buffer), is 0 or one a 1D image with host data could have; the slice
        // pitch is ignored, as for every image without slices.
        let pitch_fits =
            crate::core::image_desc::row_pitch(d.image_row_pitch, row, element).is_some();
        let no_extras = d.num_mip_levels == 0 && d.num_samples == 0 && pitch_fits;
        if d.buffer.is_null() || d.image_width == 0 || !no_extras {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        if d.image_width > crate::core::device::IMAGE_MAX_BUFFER_ELEMENTS {
            return Err(CL_INVALID_IMAGE_SIZE);
        }
        return Ok(Checked {
            desc: ImageDesc {
                ty: ImageType::D1Buffer,
                width: d.image_width as u32,
                height: 1,
                depth: 1,
                array_size: 1,
                levels: 1,
            },
            object_type: d.image_type,
            host_row_pitch: row,
            host_slice_pitch: row,
            num_mip_levels: 0,
            buffer: d.buffer,
        });
    }
    let ty = kind_of(d.image_type).ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
    // Mip-maps (cl_khr_mipmap_image): more than one level, at most a full chain of the largest
    // dimension the levels halve; not of images over a buffer.
    let levels = d.num_mip_levels.max(1);
    if d.num_samples != 0 || (levels > 1 && !d.buffer.is_null()) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    if !d.buffer.is_null() {
        // A 2D image from a buffer (cl_khr_image2d_from_buffer); no other type takes one.
        return if ty == ImageType::D2 {
            crate::core::image_from_buffer::check_desc(d, element)
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
    let largest = d.image_width.max(height).max(depth) as u32;
    if levels > batchbuffer::mip::full_chain(largest) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // Pitches: 0 without a host pointer; with one, 0 (packed) or at least the packed size and
    // a multiple of the element size.
    let row = d.image_width * element;
    let slice_rows = if ty.dims() == 1 { 1 } else { height };
    let has_slices = ty.is_array() || ty == ImageType::D3;
    if !has_host_ptr && (d.image_row_pitch != 0 || d.image_slice_pitch != 0) {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let row_pitch = crate::core::image_desc::row_pitch(d.image_row_pitch, row, element)
        .ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
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
            levels,
        },
        object_type: d.image_type,
        host_row_pitch: row_pitch,
        host_slice_pitch: slice_pitch,
        num_mip_levels: d.num_mip_levels,
        buffer: std::ptr::null_mut(),
    })
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
    // A view of a buffer's bytes: a 1D image buffer, or a 2D image from a buffer.
    let view = if checked.object_type == CL_MEM_OBJECT_IMAGE1D_BUFFER {
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
        Some((buffer, flags, image, size))
    } else if !checked.buffer.is_null() {
        let (buffer, flags) =
            crate::core::image_from_buffer::buffer(checked, flags, format, !host_ptr.is_null())?;
        let image = crate::core::image_from_buffer::image(&buffer.obj, checked, format)?;
        Some((buffer, flags, image, checked.host_slice_pitch))
    } else {
        None
    };
    if let Some((buffer, flags, image, size)) = view {
        let cl = ClImage::new(image, checked, format);
        let device = buffer.obj.device.clone();
        let flags = default_access(flags);
        return Ok(Mem::new_image(
            c,
            device,
            flags,
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
        // An NV12 image's host data holds its UV plane's rows after the Y plane's.
        for z in 0..d.slices() as usize {
            for y in 0..format.rows(d.height) as usize {
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

/// Copies between the image's rows in `m` and the host rows at `host`: into the host when
/// `read`.
pub fn copy_rows(m: &Mem, g: &Region, host: HostPtr, read: bool) -> Result<(), cl_int> {
    let Some(im) = m.image.as_ref().map(|i| &i.image) else {
        return Err(CL_INVALID_MEM_OBJECT);
    };
    if host::is_mirrored(m) {
        return host::copy_rows(m, g, host, read);
    }
    let view;
    let im = if im.levels > 1 {
        view = im.level(g.level).map_err(|_| CL_INVALID_MIP_LEVEL)?;
        &view
    } else {
        im
    };
    let elem = im.format.desc().bytes_per_element as u64;
    let row = g.size[0] * elem as usize;
    for s in 0..g.size[2] {
        for y in 0..g.size[1] {
            let at = im.offset()
                + (g.origin[2] + s) as u64 * im.slice_pitch
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
pub fn umd_image(m: &Mem) -> Result<&umd::image::Image, cl_int> {
    m.image
        .as_ref()
        .map(|i| &i.image)
        .ok_or(CL_INVALID_MEM_OBJECT)
}

/// One texel of `format` (a pair of packed YUV) holding `color`, the clEnqueueFillImage colour: four floats for
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
    // Packed YUV (cl_intel_packed_yuv): a texel pair, the colour's (V, Y, U) components in
    // the format's byte order, both texels with its Y (x V, y Y, z U).
    let channels: &[usize] = match format.order() {
        O::R | O::Depth => &[0],
        O::Rg => &[0, 1],
        O::Rgba => &[0, 1, 2, 3],
        O::Bgra => &[2, 1, 0, 3],
        O::Yuyv => &[1, 2, 1, 0],
        O::Uyvy => &[2, 1, 0, 1],
        O::Yvyu => &[1, 0, 1, 2],
        O::Vyuy => &[0, 1, 2, 1],
        // NV12's element, a Y byte: a fill reaches the Y plane as its CL_R plane image takes
        // one (the colour's x), as NEO fills it.
        O::Nv12 => &[0],
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
