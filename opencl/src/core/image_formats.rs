//! The image formats clGetSupportedImageFormats reports (OpenCL 3.0, 5.3.2.2): those of umd's
//! table for each image type this runtime provides, on a context with an image-capable device.

use opencl_sys::*;

use crate::core::device::{IMAGE_3D_WRITES, READ_WRITE_IMAGES};
use crate::core::memory::{check_flags, NO_ACCESS};

/// Every image type the query may name.
const IMAGE_TYPES: [cl_mem_object_type; 6] = [
    CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE2D_ARRAY,
    CL_MEM_OBJECT_IMAGE3D,
];

/// The formats images of `image_type` may have with `flags` in a context whose devices'
/// image support is `image_support`, or CL_INVALID_VALUE for flags or a type the query does not
/// take. Empty without an image-capable device, for an image type `image::provides` refuses, for kernel read-and-write access unless read-write images are reported, and for
/// kernel writes to 3D images unless 3D image writes are. Otherwise every format of umd's table
/// (OpenCL 3.0's minimum list for read-only, write-only and read-write images), each readable
/// and writable by kernels, the depth formats (cl_khr_depth_images) for 2D images and 2D arrays
/// alone, the packed YUV formats (cl_intel_packed_yuv: "Additional Required Image Formats for
/// Read-Only 2D Images") for read-only 2D images alone, NV12 (cl_intel_planar_yuv) for 2D
/// images read-only or of CL_MEM_NO_ACCESS_INTEL (the extension's list "not required to be
/// read from nor written to by a kernel"; NEO lists it for both).
pub fn supported(
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    image_support: bool,
) -> Result<Vec<cl_image_format>, cl_int> {
    // CL_MEM_KERNEL_READ_AND_WRITE exists for this query alone.
    let kernel_rw = flags & CL_MEM_KERNEL_READ_AND_WRITE != 0;
    check_flags(flags & !CL_MEM_KERNEL_READ_AND_WRITE)?;
    if !IMAGE_TYPES.contains(&image_type) {
        return Err(CL_INVALID_VALUE);
    }
    // No access flag means CL_MEM_READ_WRITE; CL_MEM_NO_ACCESS_INTEL (cl_intel_planar_yuv)
    // neither reads nor writes.
    let no_access = flags & NO_ACCESS != 0;
    let writes = flags & (CL_MEM_READ_ONLY | NO_ACCESS) == 0;
    let kind = crate::core::image::kind_of(image_type);
    if !image_support
        || kind.is_none()
        || (kernel_rw && !READ_WRITE_IMAGES)
        || (writes && image_type == CL_MEM_OBJECT_IMAGE3D && !IMAGE_3D_WRITES)
    {
        return Ok(Vec::new());
    }
    let read_only = !writes && !kernel_rw && !no_access;
    Ok(umd::image::ImageFormat::all()
        .filter(|f| kind.is_some_and(|k| f.allows(k)))
        .filter(|f| read_only || !f.is_packed_yuv())
        .filter(|f| read_only || no_access || !f.is_planar_yuv())
        .map(|f| cl_image_format {
            image_channel_order: f.order() as cl_channel_order,
            image_channel_data_type: f.data_type() as cl_channel_type,
        })
        .collect())
}
