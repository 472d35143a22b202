//! Linear (untiled) images, 1D, 2D, 1D/2D arrays and 3D: a buffer, an OpenCL format, a row
//! pitch and a layer pitch, described to kernels by a RENDER_SURFACE_STATE from batchbuffer;
//! and 1D image buffers (OpenCL's image1d_buffer): a typed view of a range of a buffer, a
//! SURFTYPE_BUFFER surface in the image's format.

use std::str::FromStr;
use std::sync::Arc;

use batchbuffer::builder::gen_data;
use batchbuffer::builder::{
    linear_image_surface, surface_type, typed_buffer_surface, LinearImage,
    MAX_TYPED_BUFFER_ELEMENTS, QPITCH_UNIT,
};
use batchbuffer::mip::{self, MipShape};
use batchbuffer::surface_format as sf;
use batchbuffer::RenderSurfaceState;
use platform::Platform;

use crate::blockio::Rule;
use crate::device::Inner;
use crate::error::{Error, Result};
use crate::memory::Buffer;

/// One image format: its name, the hardware SURFACE_FORMAT number (Mesa's `isl_format`, the
/// hardware's own numbering) and its element size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatDesc {
    pub name: &'static str,
    pub surface_format: u32,
    pub bytes_per_element: u32,
}

/// OpenCL image channel orders umd images have, with their `cl_channel_order` values (cl.h).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum ChannelOrder {
    R = 0x10B0,
    Rg = 0x10B2,
    Rgba = 0x10B5,
    Bgra = 0x10B6,
    /// One depth channel (cl_khr_depth_images): kernels see it through `image2d_depth_t` and
    /// `image2d_array_depth_t` as a float; 2D images and 2D arrays only.
    Depth = 0x10BD,
    /// Packed 4:2:2 YUV (cl_intel_packed_yuv, values from its `cl_ext.h` enums): two texels
    /// in four bytes, each with its own Y and the pair's U and V, in the order the name spells
    /// (YUYV: Y0 U Y1 V). Kernels read (V, Y, U, 1.0) through the sampler; read-only 2D
    /// images of an even width only ([`ImageFormat::allows`], [`ImageFormat::texels_per_unit`]).
    Yuyv = 0x4076,
    Uyvy = 0x4077,
    Yvyu = 0x4078,
    Vyuy = 0x4079,
    /// Planar 4:2:0 YUV (cl_intel_planar_yuv's CL_NV12_INTEL): a plane of one Y byte per
    /// texel, then, from row `height`, a plane of interleaved U, V byte pairs for each 2x2
    /// texels, both at the image's pitch. Kernels read (V, Y, U, 1.0) through the sampler; its
    /// planes are images of their own ([`Image::plane`]). 2D, width and height even.
    Nv12 = 0x410E,
}

/// OpenCL image channel data types umd images have, with their `cl_channel_type` values (cl.h).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum ChannelType {
    SnormInt8 = 0x10D0,
    SnormInt16 = 0x10D1,
    UnormInt8 = 0x10D2,
    UnormInt16 = 0x10D3,
    SignedInt8 = 0x10D7,
    SignedInt16 = 0x10D8,
    SignedInt32 = 0x10D9,
    UnsignedInt8 = 0x10DA,
    UnsignedInt16 = 0x10DB,
    UnsignedInt32 = 0x10DC,
    HalfFloat = 0x10DD,
    Float = 0x10DE,
}

/// One row of the format table.
struct Row {
    order: ChannelOrder,
    data_type: ChannelType,
    name: &'static str,
    surface: sf::SurfaceFormat,
}

const fn row(
    order: ChannelOrder,
    data_type: ChannelType,
    name: &'static str,
    surface: sf::SurfaceFormat,
) -> Row {
    Row {
        order,
        data_type,
        name,
        surface,
    }
}

/// The one table: each OpenCL (channel order, channel data type) umd images support, our name
/// for it (GL's naming: no suffix UNORM, `_snorm`, `i`/`ui` integers, `f` float) and the
/// hardware surface format it is (numbers and sizes: batchbuffer's SURFACE_FORMAT table). The
/// OpenCL 3.0 minimum list for read-only and write-only images (R, RG, RGBA in every type
/// above, BGRA UNORM_INT8) is all of it, with the two depth formats of OpenCL 2.0's list
/// (cl_khr_depth_images: DEPTH in UNORM_INT16 and FLOAT), which are one-channel surfaces like
/// R16 and R32F: the sampler returns the depth in R, which is all IGC takes from a depth read.
/// The packed YUV formats of cl_intel_packed_yuv (UNORM_INT8 only) are the PRM's 4:2:2
/// YCRCB surfaces NEO binds them as: YUYV the NORMAL one, UYVY SWAPY, YVYU SWAPUV, VYUY
/// SWAPUVY. NV12 (cl_intel_planar_yuv, UNORM_INT8) is the PRM's PLANAR_420_8, as NEO binds it;
/// its element is a Y byte.
const FORMATS: [Row; 44] = {
    use ChannelOrder::*;
    use ChannelType::*;
    [
        row(R, UnormInt8, "r8", sf::R8_UNORM),
        row(R, UnormInt16, "r16", sf::R16_UNORM),
        row(R, SnormInt8, "r8_snorm", sf::R8_SNORM),
        row(R, SnormInt16, "r16_snorm", sf::R16_SNORM),
        row(R, SignedInt8, "r8i", sf::R8_SINT),
        row(R, SignedInt16, "r16i", sf::R16_SINT),
        row(R, SignedInt32, "r32i", sf::R32_SINT),
        row(R, UnsignedInt8, "r8ui", sf::R8_UINT),
        row(R, UnsignedInt16, "r16ui", sf::R16_UINT),
        row(R, UnsignedInt32, "r32ui", sf::R32_UINT),
        row(R, HalfFloat, "r16f", sf::R16_FLOAT),
        row(R, Float, "r32f", sf::R32_FLOAT),
        row(Rg, UnormInt8, "rg8", sf::R8G8_UNORM),
        row(Rg, UnormInt16, "rg16", sf::R16G16_UNORM),
        row(Rg, SnormInt8, "rg8_snorm", sf::R8G8_SNORM),
        row(Rg, SnormInt16, "rg16_snorm", sf::R16G16_SNORM),
        row(Rg, SignedInt8, "rg8i", sf::R8G8_SINT),
        row(Rg, SignedInt16, "rg16i", sf::R16G16_SINT),
        row(Rg, SignedInt32, "rg32i", sf::R32G32_SINT),
        row(Rg, UnsignedInt8, "rg8ui", sf::R8G8_UINT),
        row(Rg, UnsignedInt16, "rg16ui", sf::R16G16_UINT),
        row(Rg, UnsignedInt32, "rg32ui", sf::R32G32_UINT),
        row(Rg, HalfFloat, "rg16f", sf::R16G16_FLOAT),
        row(Rg, Float, "rg32f", sf::R32G32_FLOAT),
        row(Rgba, UnormInt8, "rgba8", sf::R8G8B8A8_UNORM),
        row(Rgba, UnormInt16, "rgba16", sf::R16G16B16A16_UNORM),
        row(Rgba, SnormInt8, "rgba8_snorm", sf::R8G8B8A8_SNORM),
        row(Rgba, SnormInt16, "rgba16_snorm", sf::R16G16B16A16_SNORM),
        row(Rgba, SignedInt8, "rgba8i", sf::R8G8B8A8_SINT),
        row(Rgba, SignedInt16, "rgba16i", sf::R16G16B16A16_SINT),
        row(Rgba, SignedInt32, "rgba32i", sf::R32G32B32A32_SINT),
        row(Rgba, UnsignedInt8, "rgba8ui", sf::R8G8B8A8_UINT),
        row(Rgba, UnsignedInt16, "rgba16ui", sf::R16G16B16A16_UINT),
        row(Rgba, UnsignedInt32, "rgba32ui", sf::R32G32B32A32_UINT),
        row(Rgba, HalfFloat, "rgba16f", sf::R16G16B16A16_FLOAT),
        row(Rgba, Float, "rgba32f", sf::R32G32B32A32_FLOAT),
        row(Bgra, UnormInt8, "bgra8", sf::B8G8R8A8_UNORM),
        row(Depth, UnormInt16, "depth16", sf::R16_UNORM),
        row(Depth, Float, "depth32f", sf::R32_FLOAT),
        row(Yuyv, UnormInt8, "yuyv", sf::YCRCB_NORMAL),
        row(Uyvy, UnormInt8, "uyvy", sf::YCRCB_SWAPY),
        row(Yvyu, UnormInt8, "yvyu", sf::YCRCB_SWAPUV),
        row(Vyuy, UnormInt8, "vyuy", sf::YCRCB_SWAPUVY),
        row(Nv12, UnormInt8, "nv12", sf::PLANAR_420_8),
    ]
};

/// An image format: a row of the format table.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageFormat(u8);

/// The table row of (order, type); only for the constants below (a missing row fails the
/// build).
const fn at(order: ChannelOrder, data_type: ChannelType) -> ImageFormat {
    let mut i = 0;
    while i < FORMATS.len() {
        if FORMATS[i].order as u32 == order as u32
            && FORMATS[i].data_type as u32 == data_type as u32
        {
            return ImageFormat(i as u8);
        }
        i += 1;
    }
    panic!("format not in the table")
}

#[allow(non_upper_case_globals)]
impl ImageFormat {
    pub const R8ui: ImageFormat = at(ChannelOrder::R, ChannelType::UnsignedInt8);
    pub const R16ui: ImageFormat = at(ChannelOrder::R, ChannelType::UnsignedInt16);
    pub const R32ui: ImageFormat = at(ChannelOrder::R, ChannelType::UnsignedInt32);
    pub const R32f: ImageFormat = at(ChannelOrder::R, ChannelType::Float);
    pub const Rgba8ui: ImageFormat = at(ChannelOrder::Rgba, ChannelType::UnsignedInt8);
    pub const Rgba16ui: ImageFormat = at(ChannelOrder::Rgba, ChannelType::UnsignedInt16);
    pub const Rgba32ui: ImageFormat = at(ChannelOrder::Rgba, ChannelType::UnsignedInt32);
    pub const Rgba8: ImageFormat = at(ChannelOrder::Rgba, ChannelType::UnormInt8);
}

impl std::fmt::Debug for ImageFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.row().name)
    }
}

impl ImageFormat {
    fn row(self) -> &'static Row {
        &FORMATS[usize::from(self.0)]
    }

    /// Every format, in table order.
    pub fn all() -> impl Iterator<Item = ImageFormat> {
        (0..FORMATS.len() as u8).map(ImageFormat)
    }

    /// The format of an OpenCL (channel order, channel data type), if umd has it.
    pub fn new(order: ChannelOrder, data_type: ChannelType) -> Option<ImageFormat> {
        Self::all().find(|f| f.order() == order && f.data_type() == data_type)
    }

    /// The format of the `cl_channel_order` and `cl_channel_type` values, if umd has it.
    pub fn from_cl(order: u32, data_type: u32) -> Option<ImageFormat> {
        Self::all().find(|f| f.order() as u32 == order && f.data_type() as u32 == data_type)
    }

    pub fn order(self) -> ChannelOrder {
        self.row().order
    }

    pub fn data_type(self) -> ChannelType {
        self.row().data_type
    }

    /// Whether images of type `ty` may have this format: depth formats are for 2D images and
    /// 2D arrays only (OpenCL C has no other depth image type), packed YUV for 2D images
    /// (cl_intel_packed_yuv's list of formats is one for read-only 2D images).
    pub fn allows(self, ty: ImageType) -> bool {
        match self.order() {
            ChannelOrder::Depth => matches!(ty, ImageType::D2 | ImageType::D2Array),
            ChannelOrder::Nv12 => ty == ImageType::D2,
            _ if self.is_packed_yuv() => ty == ImageType::D2,
            _ => true,
        }
    }

    /// A planar YUV format (NV12): a chroma plane of `height / 2` rows follows the texels'.
    pub fn is_planar_yuv(self) -> bool {
        self.order() == ChannelOrder::Nv12
    }

    /// Rows of an image of `height` texel rows: with a planar format's chroma plane.
    pub fn rows(self, height: u32) -> u32 {
        if self.is_planar_yuv() {
            height + height / 2
        } else {
            height
        }
    }

    /// A cl_intel_packed_yuv format: kernels only read it (through the sampler), its width and
    /// x coordinates on the host are even.
    pub fn is_packed_yuv(self) -> bool {
        self.texels_per_unit() > 1
    }

    /// Texels sharing their bytes: 2 for packed YUV (a width, and the x and width of a region
    /// the host moves, are multiples of it), 1 otherwise.
    pub fn texels_per_unit(self) -> u32 {
        self.surface().order.texels_per_unit()
    }

    /// The hardware surface format.
    pub fn surface(self) -> sf::SurfaceFormat {
        self.row().surface
    }

    pub fn desc(self) -> FormatDesc {
        let r = self.row();
        FormatDesc {
            name: r.name,
            surface_format: r.surface.number,
            bytes_per_element: r.surface.bytes_per_element,
        }
    }
}

impl FromStr for ImageFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Self::all().find(|f| f.row().name == s).ok_or_else(|| {
            Error::Argument(format!(
                "unknown image format `{s}` (expected one of {})",
                FORMATS.map(|r| r.name).join(", ")
            ))
        })
    }
}

/// The kinds of image (OpenCL's `cl_mem_object_type` for images).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageType {
    D1,
    /// A 1D image buffer (image1d_buffer): elements of a buffer, read and written in place.
    D1Buffer,
    D1Array,
    D2,
    D2Array,
    D3,
}

impl ImageType {
    /// Dimensions of one layer.
    pub fn dims(self) -> u32 {
        match self {
            ImageType::D1 | ImageType::D1Buffer | ImageType::D1Array => 1,
            ImageType::D2 | ImageType::D2Array => 2,
            ImageType::D3 => 3,
        }
    }

    pub fn is_array(self) -> bool {
        matches!(self, ImageType::D1Array | ImageType::D2Array)
    }
}

/// An image's type and size. `height` is 1 for 1D images, `depth` 1 except for 3D images,
/// `array_size` 1 except for arrays; `levels` the mip levels (1 without mip-maps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageDesc {
    pub ty: ImageType,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub array_size: u32,
    pub levels: u32,
}

/// Largest width and height (the surface state's 14-bit fields) and largest 3D depth and
/// array size (its 11-bit Depth field).
pub const MAX_2D_SIZE: u32 = 1 << 14;
pub const MAX_DEPTH: u32 = 1 << 11;

/// Largest NV12 height: its UV plane starts at row `height`, which RENDER_SURFACE_STATE's 14-bit
/// Y Offset for U or UV Plane holds.
pub const MAX_NV12_HEIGHT: u32 = (1 << 14) - 1;

/// Most elements of a 1D image buffer: a typed buffer surface's 2^27 (batchbuffer). A
/// device's `CL_DEVICE_IMAGE_MAX_BUFFER_SIZE` is at most this, and at most what one
/// allocation holds in the largest elements (NEO reports its max allocation / 16).
pub const MAX_BUFFER_ELEMENTS: u32 = MAX_TYPED_BUFFER_ELEMENTS;

impl ImageDesc {
    /// A 2D image.
    pub fn d2(width: u32, height: u32) -> ImageDesc {
        ImageDesc {
            ty: ImageType::D2,
            width,
            height,
            depth: 1,
            array_size: 1,
            levels: 1,
        }
    }

    /// The largest dimension the levels halve: width, height, 3D depth (not layers).
    fn largest(&self) -> u32 {
        let depth = if self.ty == ImageType::D3 {
            self.depth
        } else {
            1
        };
        self.width.max(self.height).max(depth)
    }

    /// The description in range, and `format` one images of its type may have.
    fn check(&self, format: ImageFormat) -> Result<()> {
        let t = self.ty;
        if !format.allows(t) {
            return Err(Error::Argument(format!(
                "a {t:?} image cannot have the {} format (depth formats are for 2D images and \
                 2D arrays)",
                format.desc().name
            )));
        }
        let max_width = if t == ImageType::D1Buffer {
            MAX_BUFFER_ELEMENTS
        } else {
            MAX_2D_SIZE
        };
        let fits = (1..=max_width).contains(&self.width)
            && (1..=MAX_2D_SIZE).contains(&self.height)
            && (1..=MAX_DEPTH).contains(&self.depth)
            && (1..=MAX_DEPTH).contains(&self.array_size)
            && (t.dims() >= 2 || self.height == 1)
            && (t == ImageType::D3 || self.depth == 1)
            && (t.is_array() || self.array_size == 1)
            && self.width.is_multiple_of(format.texels_per_unit())
            && (!format.is_planar_yuv()
                || (self.width.is_multiple_of(2)
                    && self.height.is_multiple_of(2)
                    && self.height <= MAX_NV12_HEIGHT))
            && (1..=mip::full_chain(self.largest())).contains(&self.levels)
            && (self.levels == 1
                || (t != ImageType::D1Buffer
                    && format.order() != ChannelOrder::Depth
                    && !format.is_packed_yuv()
                    && !format.is_planar_yuv()));
        if fits {
            Ok(())
        } else {
            Err(Error::OutOfRange(format!(
                "{t:?} image of {}x{}x{} with {} layers and {} levels: width 1..={max_width}, \
                 height 1..={MAX_2D_SIZE} (1 for 1D), depth (3D only) and layers (arrays only) \
                 1..={MAX_DEPTH}, an even width for packed YUV, even sizes for NV12 (height at \
                 most {MAX_NV12_HEIGHT}), levels 1 to those of a full chain (none for image \
                 buffers, depth and YUV images)",
                self.width, self.height, self.depth, self.array_size, self.levels
            )))
        }
    }

    /// Slices a host sees: 3D depth or array layers.
    pub fn slices(&self) -> u32 {
        self.depth * self.array_size
    }
}

/// Row pitch of images the driver allocates: rows start 64 bytes apart at least, which also
/// satisfies the block-IO pitch rule. 1D array layers are as far apart (a multiple of 4
/// texels for every element size up to 16 bytes, as Surface QPitch needs).
const PITCH_ALIGN: u32 = 64;

/// A linear image.
#[derive(Debug, Clone)]
pub struct Image {
    buffer: Buffer,
    /// Where the image starts in `buffer` (non-zero only for 1D image buffers over part of
    /// one).
    offset: u64,
    pub ty: ImageType,
    pub width: u32,
    pub height: u32,
    /// 3D depth (1 otherwise).
    pub depth: u32,
    /// Layers of an array (1 otherwise).
    pub array_size: u32,
    pub format: ImageFormat,
    /// Bytes from one row to the next.
    pub pitch: u32,
    /// Bytes from one 3D slice or array layer to the next.
    pub slice_pitch: u64,
    /// Mip levels (1 without mip-maps), placed by [`batchbuffer::mip`] with `align`.
    pub levels: u32,
    /// HALIGN texels and VALIGN rows of the surface state the levels are placed with.
    pub align: (u32, u32),
}

/// The images of the public [`crate::device::Device`], which forwards to this.
impl Inner {
    /// [`crate::device::Device::create_image_desc`].
    pub(crate) fn create_image_desc(
        self: &Arc<Self>,
        desc: &ImageDesc,
        format: ImageFormat,
    ) -> Result<Image> {
        desc.check(format)?;
        let bpe = format.desc().bytes_per_element;
        let p = self.info.platform;
        let g = gen_data(p);
        let align = mip::alignment(p, g.halign, g.valign)
            .ok_or_else(|| Error::Argument("reserved surface alignment".into()))?;
        // A mip chain spans the texels and rows of its levels' places; one level its own.
        let (texels, rows) = if desc.levels > 1 {
            mip_shape(desc.ty, desc.width, desc.height, align).extent(desc.levels)
        } else {
            (u64::from(desc.width), u64::from(format.rows(desc.height)))
        };
        let too_big = || Error::OutOfRange("mip chain wider than a surface pitch".into());
        let row = u32::try_from(texels * u64::from(bpe)).map_err(|_| too_big())?;
        let pitch = row.next_multiple_of(PITCH_ALIGN);
        let slice_pitch = if desc.ty.dims() == 1 {
            u64::from(pitch)
        } else {
            rows.next_multiple_of(u64::from(QPITCH_UNIT)) * u64::from(pitch)
        };
        let last = rows * u64::from(pitch);
        let bytes = (u64::from(desc.slices()) - 1) * slice_pitch + last;
        let buffer = self.create_buffer(bytes)?;
        Ok(Image {
            buffer,
            offset: 0,
            ty: desc.ty,
            width: desc.width,
            height: desc.height,
            depth: desc.depth,
            array_size: desc.array_size,
            format,
            pitch,
            slice_pitch,
            levels: desc.levels,
            align,
        })
    }
}

/// The shape [`batchbuffer::mip`] places the levels of an image of type `ty` by.
fn mip_shape(ty: ImageType, width: u32, height: u32, (halign, valign): (u32, u32)) -> MipShape {
    MipShape {
        dims: ty.dims() as u8,
        width,
        height,
        halign,
        valign,
    }
}

impl Image {
    /// An image over `buffer`'s memory (cl_khr_image2d_from_buffer). With `block_io`, the
    /// cl_intel_subgroups rules for block reads and writes of such images are enforced: row pitch
    /// a multiple of 64 bytes, base address 32-byte aligned, and for a CL_MEM_USE_HOST_PTR buffer
    /// a 32-byte aligned host_ptr.
    pub fn from_buffer(
        buffer: &Buffer,
        width: u32,
        height: u32,
        format: ImageFormat,
        pitch: u32,
        block_io: bool,
    ) -> Result<Image> {
        ImageDesc::d2(width, height).check(format)?;
        let row = width * format.desc().bytes_per_element;
        if pitch < row || pitch as u64 * height as u64 > buffer.size() {
            return Err(Error::OutOfRange(format!(
                "a {width}x{height} {} image with pitch {pitch} does not fit a buffer of {} bytes",
                format.desc().name,
                buffer.size()
            )));
        }
        if block_io {
            Rule::ImageFromBufferPitch.check_aligned("row pitch", pitch as u64)?;
            // The host_ptr rule first: a misaligned host_ptr also misaligns the GPU address.
            if let Some(host) = buffer.host_ptr() {
                Rule::ImageFromHostPtrBuffer.check_aligned("host_ptr", host)?;
            }
            Rule::ImageFromBufferBase.check_aligned("base address", buffer.gpu_address())?;
            Self::check_format_for_block_io(format)?;
        }
        Ok(Image {
            buffer: buffer.clone(),
            offset: 0,
            ty: ImageType::D2,
            width,
            height,
            depth: 1,
            array_size: 1,
            format,
            pitch,
            slice_pitch: u64::from(pitch) * u64::from(height),
            levels: 1,
            align: (1, 1),
        })
    }

    /// The alignment, in bytes, a 1D image buffer's start needs in GPU memory: its element size
    /// (PRM, RENDER_SURFACE_STATE Surface Base Address: a SURFTYPE_BUFFER surface's base is
    /// naturally aligned to its element size). Every buffer and every sub-buffer at an origin
    /// aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN satisfies it.
    pub fn buffer_base_alignment(format: ImageFormat) -> u64 {
        u64::from(format.desc().bytes_per_element)
    }

    /// A 1D image buffer (image1d_buffer) of `width` elements of `format` over `buffer`'s
    /// bytes from `offset`: kernels read and write the buffer's memory in place. Errors: a
    /// width of 0 or above [`MAX_BUFFER_ELEMENTS`], a range past the buffer's end
    /// ([`Error::OutOfRange`]), a start not aligned to [`Image::buffer_base_alignment`]
    /// ([`Error::ImageBufferAlignment`]).
    pub fn buffer_view(
        buffer: &Buffer,
        offset: u64,
        width: u32,
        format: ImageFormat,
    ) -> Result<Image> {
        let desc = ImageDesc {
            ty: ImageType::D1Buffer,
            width,
            height: 1,
            depth: 1,
            array_size: 1,
            levels: 1,
        };
        desc.check(format)?;
        let bpe = format.desc().bytes_per_element;
        let bytes = u64::from(width) * u64::from(bpe);
        if offset
            .checked_add(bytes)
            .is_none_or(|end| end > buffer.size())
        {
            return Err(Error::OutOfRange(format!(
                "a 1D image buffer of {width} {} elements ({bytes} bytes) at offset {offset:#x} \
                 does not fit a buffer of {} bytes",
                format.desc().name,
                buffer.size()
            )));
        }
        let align = Self::buffer_base_alignment(format);
        let address = buffer.gpu_address() + offset;
        if !address.is_multiple_of(align) {
            return Err(Error::ImageBufferAlignment {
                address,
                align,
                format: format.desc().name,
            });
        }
        Ok(Image {
            buffer: buffer.clone(),
            offset,
            ty: ImageType::D1Buffer,
            width,
            height: 1,
            depth: 1,
            array_size: 1,
            format,
            // One row: the elements.
            pitch: width * bpe,
            slice_pitch: bytes,
            levels: 1,
            align: (1, 1),
        })
    }

    /// An image of any non-buffer type laid out in `buffer` from its start with the caller's
    /// row `pitch` and `slice_pitch` (3D slice or array layer distance): OpenCL's
    /// CL_MEM_USE_HOST_PTR images over a userptr buffer, read and written in place (an NV12
    /// image's chroma rows after its Y rows, as the extension lays it out). Errors:
    /// a description out of range, a 1D image buffer, a pitch below the row or not a
    /// multiple of the element size, a slice pitch below the slice, rows past the buffer's end
    /// ([`Error::OutOfRange`]); a start not aligned to the element size
    /// ([`Error::ImageBufferAlignment`], the linear-surface base rule of
    /// [`Image::buffer_base_alignment`]). Whether the surface state can describe the layout
    /// (pitch and QPitch field ranges and units) is [`Image::surface_state`]'s answer.
    pub fn with_layout(
        buffer: &Buffer,
        desc: &ImageDesc,
        format: ImageFormat,
        pitch: u32,
        slice_pitch: u64,
    ) -> Result<Image> {
        desc.check(format)?;
        if desc.levels != 1 {
            return Err(Error::Argument(
                "an image in the caller's memory has one mip level".into(),
            ));
        }
        let bpe = format.desc().bytes_per_element;
        let row = desc.width * bpe;
        // An NV12 image's chroma rows follow its Y rows at the same pitch.
        let rows = if desc.ty.dims() == 1 {
            1
        } else {
            format.rows(desc.height)
        };
        let end = (u64::from(desc.slices()) - 1) * slice_pitch
            + u64::from(rows - 1) * u64::from(pitch)
            + u64::from(row);
        if desc.ty == ImageType::D1Buffer
            || pitch < row
            || !pitch.is_multiple_of(bpe)
            || slice_pitch < u64::from(rows) * u64::from(pitch)
            || end > buffer.size()
        {
            return Err(Error::OutOfRange(format!(
                "a {:?} {}x{}x{} image of {} layers in {} with pitch {pitch} and slice pitch \
                 {slice_pitch} does not fit a buffer of {} bytes (pitch at least the row and a \
                 multiple of the element, slice pitch at least the slice, no 1D image buffer)",
                desc.ty,
                desc.width,
                desc.height,
                desc.depth,
                desc.array_size,
                format.desc().name,
                buffer.size()
            )));
        }
        let align = Self::buffer_base_alignment(format);
        let address = buffer.gpu_address();
        if !address.is_multiple_of(align) {
            return Err(Error::ImageBufferAlignment {
                address,
                align,
                format: format.desc().name,
            });
        }
        Ok(Image {
            buffer: buffer.clone(),
            offset: 0,
            ty: desc.ty,
            width: desc.width,
            height: desc.height,
            depth: desc.depth,
            array_size: desc.array_size,
            format,
            pitch,
            slice_pitch,
            levels: 1,
            align: (1, 1),
        })
    }

    /// Level `level` of the image as an image of its own: the same memory from the level's
    /// first texel, the level's sizes (layers stay), the same pitches. Host copies of one
    /// level go through it. Errors: a level the image does not have.
    pub fn level(&self, level: u32) -> Result<Image> {
        if level >= self.levels {
            return Err(Error::OutOfRange(format!(
                "mip level {level} of an image of {} levels",
                self.levels
            )));
        }
        let (x, y) = mip_shape(self.ty, self.width, self.height, self.align).origin(level);
        let bpe = u64::from(self.format.desc().bytes_per_element);
        let d3 = self.ty == ImageType::D3;
        Ok(Image {
            offset: self.offset + y * u64::from(self.pitch) + x * bpe,
            width: mip::minify(self.width, level),
            height: if self.ty.dims() >= 2 {
                mip::minify(self.height, level)
            } else {
                1
            },
            depth: if d3 {
                mip::minify(self.depth, level)
            } else {
                1
            },
            levels: 1,
            ..self.clone()
        })
    }

    /// Image block reads and writes handle elements of at most 4 bytes.
    pub fn check_format_for_block_io(format: ImageFormat) -> Result<()> {
        let d = format.desc();
        if d.bytes_per_element as u64 > Rule::ImageBlockElementSize.bytes() {
            return Err(Error::Alignment {
                rule: Rule::ImageBlockElementSize,
                detail: format!("{} has {}-byte elements", d.name, d.bytes_per_element),
            });
        }
        Ok(())
    }

    /// Checks this image may be used with subgroup image block IO.
    pub fn check_block_io(&self) -> Result<()> {
        Self::check_format_for_block_io(self.format)
    }

    pub fn buffer(&self) -> &Buffer {
        &self.buffer
    }

    /// Where the image starts in [`Image::buffer`] (bytes).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// GPU address of the image's first byte.
    pub fn gpu_address(&self) -> u64 {
        self.buffer.gpu_address() + self.offset
    }

    /// Bytes per packed row.
    pub fn row_bytes(&self) -> usize {
        (self.width * self.format.desc().bytes_per_element) as usize
    }

    /// Bytes of the image packed: `row_bytes()` per row, `height` rows per slice (and an NV12
    /// image's chroma rows after them), then the next 3D slice or array layer.
    pub fn packed_bytes(&self) -> usize {
        self.row_bytes()
            * self.format.rows(self.height) as usize
            * (self.depth * self.array_size) as usize
    }

    /// Byte offset of each row in memory, in packed order.
    fn row_offsets(&self) -> impl Iterator<Item = u64> + '_ {
        let slices = u64::from(self.depth * self.array_size);
        (0..slices).flat_map(move |z| {
            (0..u64::from(self.format.rows(self.height)))
                .map(move |y| self.offset + z * self.slice_pitch + y * u64::from(self.pitch))
        })
    }

    /// Writes `rows` (packed, [`Image::packed_bytes`] of them) into the image.
    pub fn write_packed(&self, rows: &[u8]) -> Result<()> {
        let rb = self.row_bytes();
        if rows.len() != self.packed_bytes() {
            return Err(Error::Argument(format!(
                "image data of {} bytes; a {:?} {}x{}x{} image of {} layers in {} needs {} bytes",
                rows.len(),
                self.ty,
                self.width,
                self.height,
                self.depth,
                self.array_size,
                self.format.desc().name,
                self.packed_bytes()
            )));
        }
        for (row, at) in rows.chunks_exact(rb).zip(self.row_offsets()) {
            self.buffer.write(at, row)?;
        }
        Ok(())
    }

    /// The image's rows, packed.
    pub fn read_packed(&self) -> Result<Vec<u8>> {
        let rb = self.row_bytes();
        let mut out = vec![0; self.packed_bytes()];
        for (row, at) in out.chunks_exact_mut(rb).zip(self.row_offsets()) {
            self.buffer.read(at, row)?;
        }
        Ok(out)
    }

    /// The image's RENDER_SURFACE_STATE on `p`.
    pub fn surface_state(&self, p: Platform) -> Result<RenderSurfaceState> {
        let d = self.format.desc();
        let (surface_type, layers) = match self.ty {
            ImageType::D1Buffer => {
                return Ok(typed_buffer_surface(
                    p,
                    self.gpu_address(),
                    d.surface_format,
                    self.width,
                    d.bytes_per_element,
                )?)
            }
            ImageType::D1 | ImageType::D1Array => (surface_type::SURF_1D, self.array_size),
            ImageType::D2 | ImageType::D2Array => (surface_type::SURF_2D, self.array_size),
            ImageType::D3 => (surface_type::SURF_3D, self.depth),
        };
        let bpe = u64::from(d.bytes_per_element);
        // Layer distance in the field's units: texels for 1D, rows otherwise.
        let qpitch = if !(self.ty.is_array() || self.ty == ImageType::D3) {
            0
        } else if self.ty.dims() == 1 {
            self.slice_pitch / bpe
        } else {
            self.slice_pitch / u64::from(self.pitch)
        };
        let shape = LinearImage {
            surface_type,
            array: self.ty.is_array(),
            format: d.surface_format,
            width: self.width,
            height: self.height,
            depth: layers,
            pitch: self.pitch,
            qpitch: u32::try_from(qpitch).unwrap_or(u32::MAX),
            levels: self.levels,
        };
        let mut s = linear_image_surface(p, self.gpu_address(), &shape)?;
        if self.format.is_planar_yuv() {
            // The chroma plane follows the Y plane's rows.
            s.y_offset_for_u_or_uv_plane = self.height;
        }
        Ok(s)
    }

    /// Plane `index` of an NV12 image as an image of its own (cl_intel_planar_yuv): 0 the Y
    /// plane (width x height one-channel texels), 1 the UV plane (width / 2 x height / 2
    /// two-channel texels, U then V), over the same memory at the same pitch, in `format`: R (plane
    /// 0) or RG (plane 1) in UNORM_INT8 or UNSIGNED_INT8. Errors: not an NV12
    /// image, another plane or format ([`Error::Argument`]).
    pub fn plane(&self, index: u32, format: ImageFormat) -> Result<Image> {
        let (order, width, height, offset) = match index {
            0 => (ChannelOrder::R, self.width, self.height, 0),
            1 => (
                ChannelOrder::Rg,
                self.width / 2,
                self.height / 2,
                u64::from(self.height) * u64::from(self.pitch),
            ),
            _ => return Err(Error::Argument(format!("NV12 has no plane {index}"))),
        };
        if !self.format.is_planar_yuv()
            || format.order() != order
            || ![ChannelType::UnormInt8, ChannelType::UnsignedInt8].contains(&format.data_type())
        {
            return Err(Error::Argument(format!(
                "plane {index} of a {} image in {}",
                self.format.desc().name,
                format.desc().name
            )));
        }
        Ok(Image {
            offset: self.offset + offset,
            width,
            height,
            format,
            slice_pitch: u64::from(height) * u64::from(self.pitch),
            ..self.clone()
        })
    }

    /// The RENDER_SURFACE_STATE a kernel argument the compiler marks as a 2D media-block image
    /// (the image of `intel_sub_group_block_read`/`_media_block_read` and their writes) is bound
    /// with: as [`Image::surface_state`], with Width counting the row's DWords whatever the
    /// format, since the media block messages bound a row by Width + 1 DWords. NEO programs
    /// such arguments the same way (`setWidthForMediaBlockSurfaceState`).
    pub fn media_block_surface_state(&self, p: Platform) -> Result<RenderSurfaceState> {
        let mut s = self.surface_state(p)?;
        let row = u64::from(self.width) * u64::from(self.format.desc().bytes_per_element);
        s.width = u32::try_from(row.div_ceil(4))
            .unwrap_or(u32::MAX)
            .saturating_sub(1);
        Ok(s)
    }
}
