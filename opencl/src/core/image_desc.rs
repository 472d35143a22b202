//! What an image object is beside its umd image: its description as the application gave it
//! ([`ClImage`]), a checked description ([`Checked`]) and a region of it ([`Region`]).

use opencl_sys::*;
use umd::image::{ImageDesc, ImageFormat};

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
    /// CL_IMAGE_NUM_MIP_LEVELS: `num_mip_levels` as the application gave it.
    pub num_mip_levels: u32,
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
            num_mip_levels: checked.num_mip_levels,
        }
    }
}

/// A checked image description: umd's, and the host pitches `host_ptr` is read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    pub desc: ImageDesc,
    pub object_type: cl_mem_object_type,
    pub host_row_pitch: usize,
    pub host_slice_pitch: usize,
    /// `num_mip_levels` as given (0 or 1: no mip-maps; `desc.levels` is at least 1).
    pub num_mip_levels: u32,
    /// The buffer of a 1D image buffer (`cl_image_desc::buffer`, not yet looked up; NULL for
    /// other types).
    pub buffer: cl_mem,
}

/// Where a host-side image region lies: its origin and size as (x, y, slice) in the umd
/// image's rows and slices (a 1D array's layer is its slice) of mip level `level`, and the
/// host pitches.
#[derive(Debug, Clone)]
pub struct Region {
    pub origin: [usize; 3],
    pub size: [usize; 3],
    pub row_pitch: usize,
    pub slice_pitch: usize,
    pub level: u32,
}

impl Region {
    /// Bytes of the region packed.
    pub fn packed_bytes(&self) -> usize {
        self.slice_pitch * self.size[2]
    }

    /// Whether two regions of one image share a texel.
    pub fn overlaps(&self, o: &Region) -> bool {
        self.level == o.level
            && (0..3).all(|i| {
                self.origin[i] < o.origin[i] + o.size[i]
                    && o.origin[i] < self.origin[i] + self.size[i]
            })
    }
}

/// The row pitch a description's `given` one stands for: the packed `row` for 0, else `given`
/// when a row fits in it at element boundaries (at least `row` bytes, a multiple of the
/// `element` size); None for any other.
pub fn row_pitch(given: usize, row: usize, element: usize) -> Option<usize> {
    match given {
        0 => Some(row),
        p if p >= row && p % element == 0 => Some(p),
        _ => None,
    }
}
