//! CL_MEM_USE_HOST_PTR images (OpenCL 3.0, 5.3.1, clCreateImage): the application's memory,
//! at its own row and slice pitches, is the image's storage as far as the application can
//! tell. CL_MEM_HOST_PTR is its pointer, CL_IMAGE_ROW_PITCH/SLICE_PITCH its pitches, and
//! clEnqueueMapImage returns pointers into it with those pitches.
//!
//! Two ways to get there, chosen at creation:
//! - **Zero-copy** when the surface state can describe the application's layout: its pages
//!   become a userptr buffer (as CL_MEM_USE_HOST_PTR buffers are) and kernels read and write
//!   them in place. Needed: host_ptr aligned to the element size (the GPU address keeps the
//!   pointer's low bits; umd `Image::with_layout`), and what `linear_image_surface` accepts
//!   (row pitch within the 18-bit field, layers a multiple of 4 rows apart, 1D array layers
//!   of 4 texels: Surface QPitch's unit).
//! - Otherwise a **device copy** in umd's own layout, kept in sync at the specification's
//!   sync points with the host memory as the master: a kernel that takes the image waits for
//!   the commands before it, the host rows are copied in, and when the kernel completes they
//!   are copied back (not for CL_MEM_READ_ONLY images, which kernels cannot write). Read,
//!   write, copy, fill and map commands use the host memory directly, so they, clFinish and
//!   event waits see what the kernels wrote.
//!
//! An NV12 image (cl_intel_planar_yuv) is zero-copy only: its plane images are views of its
//! storage that the device-copy sync points would not cover. Its host memory holds the Y rows,
//! then the UV rows, at the one row pitch.

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;
use umd::image::{Image, ImageFormat};

use crate::core::context::Context;
use crate::core::handle::Handle;
use crate::core::host_ptr::HostPtr;
use crate::core::image_desc::{Checked, ClImage, Region};
use crate::core::memory::{use_host_ptr, Mem, EXEC_FAILED};

/// A CL_MEM_USE_HOST_PTR image's context, property list and flags (kernel access defaulted).
pub(crate) type Parts = (Arc<Handle<Context>>, Vec<cl_mem_properties>, cl_mem_flags);

/// Bytes of host memory an image of `c` covers from host_ptr: up to the last row's last texel.
fn span(c: &Checked, format: ImageFormat) -> usize {
    let d = &c.desc;
    let rows = if d.ty.dims() == 1 {
        1
    } else {
        format.rows(d.height) as usize
    };
    let row = d.width as usize * format.desc().bytes_per_element as usize;
    (d.slices() as usize - 1) * c.host_slice_pitch + (rows - 1) * c.host_row_pitch + row
}

/// The image over the application's pages, if the surface state can describe its layout.
fn zero_copy(
    dev: &umd::device::Device,
    c: &Checked,
    format: ImageFormat,
    host_ptr: *mut c_void,
) -> Option<Image> {
    let pitch = u32::try_from(c.host_row_pitch).ok()?;
    // One slice (its slice pitch ignored): its rows, an NV12 image's chroma rows included.
    let slice_pitch = match c.desc.slices() {
        1 => c.host_row_pitch * format.rows(c.desc.height) as usize,
        _ => c.host_slice_pitch,
    };
    let buffer = use_host_ptr(dev, host_ptr, span(c, format)).ok()?;
    let image = Image::with_layout(&buffer, &c.desc, format, pitch, slice_pitch as u64).ok()?;
    image.surface_state(dev.platform()).ok()?;
    Some(image)
}

/// A CL_MEM_USE_HOST_PTR image of `checked` over `host_ptr`: zero-copy where it can be, else
/// a device copy filled from the host memory (see the module documentation).
///
/// # Safety
/// `host_ptr` holds the image at the checked pitches and stays valid while the image lives
/// (CL_MEM_USE_HOST_PTR's contract).
pub(crate) unsafe fn create(
    (c, properties, flags): Parts,
    format: ImageFormat,
    checked: &Checked,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let device = c.obj.devices.first().cloned().ok_or(CL_INVALID_CONTEXT)?;
    let dev = &device.obj.umd;
    let image = match zero_copy(dev, checked, format, host_ptr) {
        Some(image) => image,
        // A row pitch past RENDER_SURFACE_STATE's Surface Pitch (256 KiB).
        None if format.is_planar_yuv() => return Err(CL_INVALID_IMAGE_DESCRIPTOR),
        None => dev
            .create_image_desc(&checked.desc, format)
            .map_err(|_| CL_MEM_OBJECT_ALLOCATION_FAILURE)?,
    };
    let cl = ClImage::new(image, checked, format);
    let size = span(checked, format);
    let parts = (c, device, flags, size, properties);
    let mem = Mem::new_image_at(parts, cl, None, host_ptr);
    let m = Handle::<Mem>::get(mem)?;
    if is_mirrored(&m.obj) {
        if let Err(e) = sync(&m.obj, true) {
            // The handle just made, released once.
            Handle::<Mem>::release(mem);
            return Err(e);
        }
    }
    Ok(mem)
}

/// Whether `m` is a CL_MEM_USE_HOST_PTR image kept as a device copy (not zero-copy).
pub fn is_mirrored(m: &Mem) -> bool {
    m.image.is_some() && !m.host_ptr.is_null() && !m.buffer.is_host_memory()
}

/// The image of `m` and its host pitches, for a CL_MEM_USE_HOST_PTR image.
fn host_image(m: &Mem) -> Option<(&ClImage, HostPtr)> {
    let cl = m.image.as_ref()?;
    (!m.host_ptr.is_null()).then_some((cl, HostPtr(m.host_ptr as usize)))
}

/// Calls `f(device offset, host offset, bytes)` for each row of the region at `origin` of
/// `size` (x, y, slice; texels, rows, layers) of `cl`: the device offset in the image's
/// buffer, the host offset from host_ptr at the application's pitches.
fn each_row(
    cl: &ClImage,
    origin: [usize; 3],
    size: [usize; 3],
    mut f: impl FnMut(u64, usize, usize) -> Result<(), cl_int>,
) -> Result<(), cl_int> {
    let im = &cl.image;
    let elem = im.format.desc().bytes_per_element as usize;
    for s in origin[2]..origin[2] + size[2] {
        for y in origin[1]..origin[1] + size[1] {
            let device = s as u64 * im.slice_pitch
                + y as u64 * u64::from(im.pitch)
                + (origin[0] * elem) as u64;
            let host = s * cl.slice_pitch + y * cl.row_pitch + origin[0] * elem;
            f(device, host, size[0] * elem)?;
        }
    }
    Ok(())
}

/// The whole image as (origin, size) in (x, y, slice).
fn whole(im: &Image) -> ([usize; 3], [usize; 3]) {
    let rows = if im.ty.dims() == 1 {
        1
    } else {
        im.format.rows(im.height)
    };
    let size = [im.width, rows, im.depth * im.array_size].map(|v| v as usize);
    ([0; 3], size)
}

/// Copies between a mirrored image's host memory and its device copy: into the device copy
/// when `upload`, back into the host memory otherwise.
fn sync(m: &Mem, upload: bool) -> Result<(), cl_int> {
    let Some((cl, host)) = host_image(m) else {
        return Ok(());
    };
    let (origin, size) = whole(&cl.image);
    each_row(cl, origin, size, |at, h, len| {
        // SAFETY: inside the application's image memory (module contract), which it leaves
        // alone while a kernel uses the image (the specification's rule); an upload only
        // reads it.
        let bytes = unsafe { host.bytes_mut(h, len) };
        match upload {
            true => cl.image.buffer().write(at, bytes),
            false => cl.image.buffer().read(at, bytes),
        }
        .map_err(|_| EXEC_FAILED)
    })
}

/// Whether a kernel with these memory arguments needs the device-copy sync points.
pub(crate) fn any_mirrored<'a>(mut mems: impl Iterator<Item = &'a Arc<Handle<Mem>>>) -> bool {
    mems.any(|m| is_mirrored(&m.obj))
}

/// Before a kernel runs (nothing else using its images): the host memory of each mirrored
/// image argument into its device copy.
pub(crate) fn before_kernel<'a>(
    mems: impl Iterator<Item = &'a Arc<Handle<Mem>>>,
) -> Result<(), cl_int> {
    mems.filter(|m| is_mirrored(&m.obj))
        .try_for_each(|m| sync(&m.obj, true))
}

/// After a kernel completed: each mirrored image argument kernels may write back into the
/// host memory.
pub(crate) fn after_kernel<'a>(
    mems: impl Iterator<Item = &'a Arc<Handle<Mem>>>,
) -> Result<(), cl_int> {
    mems.filter(|m| is_mirrored(&m.obj) && m.obj.flags & CL_MEM_READ_ONLY == 0)
        .try_for_each(|m| sync(&m.obj, false))
}

/// clEnqueueRead/WriteImage and the image copies for a mirrored image: between the region `g`
/// of its host memory and `host` (the command's rows at `g`'s pitches); into `host` when
/// `read`.
pub(crate) fn copy_rows(m: &Mem, g: &Region, host: HostPtr, read: bool) -> Result<(), cl_int> {
    let (cl, image_host) = host_image(m).ok_or(CL_INVALID_MEM_OBJECT)?;
    let (o, mut at) = (g.origin, 0);
    each_row(cl, o, g.size, |_, h, len| {
        let (s, y) = (at / g.size[1], at % g.size[1]);
        at += 1;
        let other = host.0 + s * g.slice_pitch + y * g.row_pitch;
        let image = image_host.0 + h;
        let (from, to) = if read { (image, other) } else { (other, image) };
        // SAFETY: both rows are the application's (its image memory and the command's
        // pointer, valid until the command completes); `copy` allows them to overlap.
        unsafe { std::ptr::copy(from as *const u8, to as *mut u8, len) };
        Ok(())
    })
}

/// Where clEnqueueMapImage's region `g` starts in a CL_MEM_USE_HOST_PTR image's host memory
/// (None for other images).
pub(crate) fn map_ptr(m: &Mem, g: &Region) -> Option<*mut c_void> {
    let (cl, host) = host_image(m)?;
    let elem = cl.image.format.desc().bytes_per_element as usize;
    let at = g.origin[2] * cl.slice_pitch + g.origin[1] * cl.row_pitch + g.origin[0] * elem;
    Some((host.0 + at) as *mut c_void)
}

/// The row and slice pitch a map of a CL_MEM_USE_HOST_PTR image returns: the application's.
pub(crate) fn map_pitches(m: &Mem) -> Option<(usize, usize)> {
    host_image(m).map(|(cl, _)| (cl.row_pitch, cl.slice_pitch))
}
