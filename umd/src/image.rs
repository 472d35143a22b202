//! Linear (untiled) 2D images: a buffer, a format and a pitch, described to kernels by a
//! RENDER_SURFACE_STATE from batchbuffer.

use std::str::FromStr;

use batchbuffer::builder::linear_2d_surface;
use batchbuffer::surface_format as sf;
use batchbuffer::RenderSurfaceState;
use platform::Platform;

use crate::blockio::Rule;
use crate::device::Device;
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

/// Image formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageFormat {
    R8ui,
    R16ui,
    R32ui,
    Rgba8ui,
    R32f,
    Rgba16ui,
    Rgba32ui,
}

/// Our image format names and the hardware surface format each one is (numbers and element
/// sizes live in batchbuffer's one table).
const FORMATS: [(ImageFormat, FormatDesc); 7] = [
    (ImageFormat::R8ui, fd("r8ui", sf::R8_UINT)),
    (ImageFormat::R16ui, fd("r16ui", sf::R16_UINT)),
    (ImageFormat::R32ui, fd("r32ui", sf::R32_UINT)),
    (ImageFormat::Rgba8ui, fd("rgba8ui", sf::R8G8B8A8_UINT)),
    (ImageFormat::R32f, fd("r32f", sf::R32_FLOAT)),
    (ImageFormat::Rgba16ui, fd("rgba16ui", sf::R16G16B16A16_UINT)),
    (ImageFormat::Rgba32ui, fd("rgba32ui", sf::R32G32B32A32_UINT)),
];

const fn fd(name: &'static str, f: sf::SurfaceFormat) -> FormatDesc {
    FormatDesc {
        name,
        surface_format: f.number,
        bytes_per_element: f.bytes_per_element,
    }
}

impl ImageFormat {
    /// Every format, in table order.
    pub fn all() -> impl Iterator<Item = ImageFormat> {
        FORMATS.iter().map(|(f, _)| *f)
    }

    pub fn desc(self) -> FormatDesc {
        FORMATS
            .iter()
            .find(|(f, _)| *f == self)
            .map(|(_, d)| *d)
            .unwrap_or(FORMATS[0].1)
    }
}

impl FromStr for ImageFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        FORMATS
            .iter()
            .find(|(_, d)| d.name == s)
            .map(|(f, _)| *f)
            .ok_or_else(|| {
                Error::Argument(format!(
                    "unknown image format `{s}` (expected one of {})",
                    FORMATS.map(|(_, d)| d.name).join(", ")
                ))
            })
    }
}

/// Row pitch of images the driver allocates: rows start 64 bytes apart at least, which also
/// satisfies the block-IO pitch rule.
const PITCH_ALIGN: u32 = 64;

/// A linear 2D image.
#[derive(Debug, Clone)]
pub struct Image {
    buffer: Buffer,
    pub width: u32,
    pub height: u32,
    pub format: ImageFormat,
    /// Bytes from one row to the next.
    pub pitch: u32,
}

impl Device {
    /// A zero-filled `width` × `height` image.
    pub fn create_image(&self, width: u32, height: u32, format: ImageFormat) -> Result<Image> {
        check_size(width, height)?;
        let row = width * format.desc().bytes_per_element;
        let pitch = row.next_multiple_of(PITCH_ALIGN);
        let buffer = self.create_buffer(pitch as u64 * height as u64)?;
        Ok(Image {
            buffer,
            width,
            height,
            format,
            pitch,
        })
    }
}

fn check_size(width: u32, height: u32) -> Result<()> {
    if width == 0 || height == 0 || width > 1 << 14 || height > 1 << 14 {
        return Err(Error::OutOfRange(format!(
            "image of {width}x{height}: each side must be 1..=16384"
        )));
    }
    Ok(())
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
        check_size(width, height)?;
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
            width,
            height,
            format,
            pitch,
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

    /// Bytes per packed row.
    pub fn row_bytes(&self) -> usize {
        (self.width * self.format.desc().bytes_per_element) as usize
    }

    /// Writes `rows` (packed: `row_bytes()` each, `height` of them) into the image.
    pub fn write_packed(&self, rows: &[u8]) -> Result<()> {
        let rb = self.row_bytes();
        if rows.len() != rb * self.height as usize {
            return Err(Error::Argument(format!(
                "image data of {} bytes; a {}x{} {} image needs {} bytes",
                rows.len(),
                self.width,
                self.height,
                self.format.desc().name,
                rb * self.height as usize
            )));
        }
        for (y, row) in rows.chunks_exact(rb).enumerate() {
            self.buffer.write(y as u64 * self.pitch as u64, row)?;
        }
        Ok(())
    }

    /// The image's rows, packed.
    pub fn read_packed(&self) -> Result<Vec<u8>> {
        let rb = self.row_bytes();
        let mut out = vec![0; rb * self.height as usize];
        for (y, row) in out.chunks_exact_mut(rb).enumerate() {
            self.buffer.read(y as u64 * self.pitch as u64, row)?;
        }
        Ok(out)
    }

    /// The image's RENDER_SURFACE_STATE on `p`.
    pub fn surface_state(&self, p: Platform) -> Result<RenderSurfaceState> {
        Ok(linear_2d_surface(
            p,
            self.buffer.gpu_address(),
            self.format.desc().surface_format,
            self.width,
            self.height,
            self.pitch,
        )?)
    }
}
