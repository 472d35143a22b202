//! 2D images over a buffer's memory (cl_khr_image2d_from_buffer, core in OpenCL 2.0+):
//! clCreateImage with CL_MEM_OBJECT_IMAGE2D and `mem_object` a buffer or sub-buffer. The image
//! is a umd view of the buffer ([`umd::image::Image::from_buffer`]): kernels and image
//! commands read and write the buffer's bytes in place, rows `image_row_pitch` apart.
//!
//! The alignments reported (CL_DEVICE_IMAGE_PITCH_ALIGNMENT and
//! CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, both in pixels) are what the hardware and
//! cl_intel_subgroups' image block IO need together. The hardware: a linear 2D
//! RENDER_SURFACE_STATE accessed by typed messages and the sampler needs a Surface Pitch that
//! is a multiple of the element size and a Surface Base Address aligned to it (PRM,
//! RENDER_SURFACE_STATE, Surface Pitch and Surface Base Address, Gen9 to Xe-HPG alike) — one
//! pixel. Block IO (`intel_sub_group_block_read/write` on such an image) needs a row pitch that
//! is a multiple of 64 bytes and, over a CL_MEM_USE_HOST_PTR buffer, a host_ptr aligned to 32
//! bytes (`umd::blockio`), for elements of 1 to 4 bytes: 64 and 32 pixels of the smallest
//! element cover every format. NEO reports 4 and 4 (64 for TGL A0's pitch) but checks the pitch
//! in bytes; OpenCL 3.0 and the CTS count pixels.
//!
//! A 2D image from another 2D image (OpenCL 2.0's view with another channel order, for sRGB and
//! depth formats) is not provided: CL_INVALID_OPERATION.

use std::sync::Arc;

use opencl_sys::*;
use umd::blockio::Rule;
use umd::image::{ImageDesc, ImageFormat, ImageType};

use crate::core::handle::Handle;
use crate::core::image_desc::Checked;
use crate::core::memory::Mem;

/// The smallest element an image format has (1 byte: CL_R and CL_A of 8-bit types).
const SMALLEST_ELEMENT: u64 = 1;

/// CL_DEVICE_IMAGE_PITCH_ALIGNMENT, in pixels: block IO's 64-byte row pitch for 1-byte pixels.
pub const PITCH_ALIGNMENT: u32 = (Rule::ImageFromBufferPitch.bytes() / SMALLEST_ELEMENT) as u32;

/// CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, in pixels: block IO's 32-byte host_ptr alignment
/// for 1-byte pixels.
pub const BASE_ADDRESS_ALIGNMENT: u32 =
    (Rule::ImageFromHostPtrBuffer.bytes() / SMALLEST_ELEMENT) as u32;

const _: () =
    assert!(PITCH_ALIGNMENT.is_power_of_two() && BASE_ADDRESS_ALIGNMENT.is_power_of_two());

/// `d` (an IMAGE2D description naming a memory object) checked against OpenCL 3.0's rules for
/// clCreateImage: CL_INVALID_OPERATION when the object is an image (not provided);
/// CL_INVALID_IMAGE_DESCRIPTOR for a zero size, a row pitch below the row's bytes
/// or not a multiple of the element size; CL_INVALID_IMAGE_SIZE past the largest 2D image;
/// CL_INVALID_IMAGE_FORMAT_DESCRIPTOR for a row pitch (given, or computed as width × element
/// size) that is not a multiple of [`PITCH_ALIGNMENT`] pixels. The memory object is looked up
/// by [`buffer`].
pub fn check_desc(d: &cl_image_desc, element: usize) -> Result<Checked, cl_int> {
    if Handle::<Mem>::get(d.buffer).is_ok_and(|m| m.obj.image.is_some()) {
        return Err(CL_INVALID_OPERATION);
    }
    if d.image_width == 0 || d.image_height == 0 {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    let max = umd::image::MAX_2D_SIZE as usize;
    if d.image_width > max || d.image_height > max {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    let row = d.image_width * element;
    let pitch = crate::core::image_desc::row_pitch(d.image_row_pitch, row, element)
        .ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
    if pitch % (PITCH_ALIGNMENT as usize * element) != 0 || u32::try_from(pitch).is_err() {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    Ok(Checked {
        desc: ImageDesc::d2(d.image_width as u32, d.image_height as u32),
        object_type: CL_MEM_OBJECT_IMAGE2D,
        host_row_pitch: pitch,
        host_slice_pitch: pitch * d.image_height,
        num_mip_levels: d.num_mip_levels,
        buffer: d.buffer,
    })
}

/// The buffer under the image and the image's flags, or OpenCL 3.0's error: CL_INVALID_OPERATION
/// for an image (a 2D image from an image is not provided); CL_INVALID_IMAGE_DESCRIPTOR for no
/// memory object; CL_INVALID_HOST_PTR for a host pointer; CL_INVALID_VALUE for host-memory flags
/// or access the buffer's flags rule out (the 1D image buffer's rules,
/// [`image_buffer`]); CL_INVALID_IMAGE_SIZE when `height` rows of the pitch
/// exceed the buffer; CL_INVALID_IMAGE_FORMAT_DESCRIPTOR for a CL_MEM_USE_HOST_PTR buffer whose
/// host_ptr is not aligned to [`BASE_ADDRESS_ALIGNMENT`] pixels.
pub fn buffer(
    checked: &Checked,
    flags: cl_mem_flags,
    format: ImageFormat,
    has_host_ptr: bool,
) -> Result<(Arc<Handle<Mem>>, cl_mem_flags), cl_int> {
    let mem = Handle::<Mem>::get(checked.buffer).map_err(|_| CL_INVALID_IMAGE_DESCRIPTOR)?;
    if mem.obj.image.is_some() {
        return Err(CL_INVALID_OPERATION);
    }
    if has_host_ptr {
        return Err(CL_INVALID_HOST_PTR);
    }
    let (mem, flags) = image_buffer(checked, flags, format)?;
    let element = format.desc().bytes_per_element as usize;
    let bytes = checked.host_row_pitch as u64 * u64::from(checked.desc.height);
    if bytes > mem.obj.size as u64 {
        return Err(CL_INVALID_IMAGE_SIZE);
    }
    if let Some(host) = mem.obj.buffer.host_ptr() {
        if host % (u64::from(BASE_ADDRESS_ALIGNMENT) * element as u64) != 0 {
            return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        }
    }
    Ok((mem, flags))
}

/// The umd image over `mem`'s bytes; a base the hardware cannot address (not aligned to the
/// element size) is CL_INVALID_IMAGE_FORMAT_DESCRIPTOR.
pub fn image(
    mem: &Mem,
    checked: &Checked,
    format: ImageFormat,
) -> Result<umd::image::Image, cl_int> {
    let element = u64::from(format.desc().bytes_per_element);
    if !mem.buffer.gpu_address().is_multiple_of(element) {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    let d = &checked.desc;
    debug_assert_eq!(d.ty, ImageType::D2);
    let pitch = u32::try_from(checked.host_row_pitch).map_err(|_| CL_INVALID_IMAGE_SIZE)?;
    umd::image::Image::from_buffer(&mem.buffer, d.width, d.height, format, pitch, false).map_err(
        |e| match e {
            umd::Error::OutOfRange(_) => CL_INVALID_IMAGE_SIZE,
            _ => CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        },
    )
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
