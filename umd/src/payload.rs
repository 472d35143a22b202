//! Cross-thread data and binding tables: where each argument and implicit value goes, for ocloc
//! kernels (from the binary's description) and raw kernels (the fixed ABI in [`crate::kernel`]).

use batchbuffer::builder::{buffer_surface, surface_type};
use batchbuffer::{Packet, RenderSurfaceState, SamplerState};
use platform::Platform;

pub use crate::driver_addresses::DriverAddresses;
use crate::error::{Error, Result};
use crate::image::Image;
use crate::kernel::{ArgSlot, Description, Kernel};
use crate::memory::Buffer;
use crate::ndrange::{NdRange, Region};
use crate::program::{
    ArgKind, ArgParam, DriverSurface, DriverSurfaceKind, ImageType, ImplicitKind,
};
use crate::sampler::Sampler;

/// One argument's value.
#[derive(Debug, Clone)]
pub enum ArgValue {
    Buffer(Buffer),
    /// A NULL global pointer (OpenCL's NULL `cl_mem` argument): address 0, a null surface.
    NullBuffer,
    Image(Image),
    /// A by-value argument's bytes (little-endian).
    Value(Vec<u8>),
    /// A `local` pointer to this many bytes of shared local memory.
    Local(u32),
    /// A `sampler_t`.
    Sampler(Sampler),
}

impl ArgValue {
    fn describe(&self) -> String {
        match self {
            ArgValue::Buffer(_) => "a buffer".into(),
            ArgValue::NullBuffer => "a NULL buffer".into(),
            ArgValue::Image(_) => "an image".into(),
            ArgValue::Value(v) => format!("a value of {} bytes", v.len()),
            ArgValue::Local(n) => format!("{n} bytes of local memory"),
            ArgValue::Sampler(_) => "a sampler".into(),
        }
    }
}

/// Checks `args` against the kernel's signature: count and kind of each.
pub fn check_args(kernel: &Kernel, args: &[ArgValue]) -> Result<()> {
    let Some(sig) = kernel.signature() else {
        return Ok(());
    };
    if sig.len() != args.len() {
        return Err(Error::Argument(format!(
            "kernel {} takes {} arguments, {} given",
            kernel.name,
            sig.len(),
            args.len()
        )));
    }
    for (i, (slot, arg)) in sig.iter().zip(args).enumerate() {
        let ok = match (slot, arg) {
            (ArgSlot::Buffer, ArgValue::Buffer(_) | ArgValue::NullBuffer)
            | (ArgSlot::Image, ArgValue::Image(_)) => true,
            (ArgSlot::Value(n), ArgValue::Value(v)) => *n as usize == v.len(),
            (ArgSlot::Local, ArgValue::Local(_)) | (ArgSlot::Sampler, ArgValue::Sampler(_)) => true,
            _ => false,
        };
        if !ok {
            return Err(Error::Argument(format!(
                "argument {i} of kernel {} is {slot}, given {}",
                kernel.name,
                arg.describe()
            )));
        }
    }
    Ok(())
}

/// Little-endian `value` truncated to `size` bytes at `offset`.
fn put(buf: &mut [u8], offset: u32, size: u32, value: u64) -> Result<()> {
    let (o, s) = (offset as usize, size.min(8) as usize);
    let dst = buf.get_mut(o..o + s).ok_or_else(|| {
        Error::Argument(format!(
            "payload slot {offset}+{size} is outside the cross-thread data"
        ))
    })?;
    dst.copy_from_slice(&value.to_le_bytes()[..s]);
    Ok(())
}

/// CL channel order and data type values images report to kernels (`get_image_channel_*`).
fn cl_image_params(img: &Image) -> (u64, u64) {
    (
        u64::from(img.format.order() as u32),
        u64::from(img.format.data_type() as u32),
    )
}

fn null_surface() -> RenderSurfaceState {
    RenderSurfaceState {
        surface_type: surface_type::NULL,
        surface_format: batchbuffer::builder::format::RAW.number,
        ..Default::default()
    }
}

/// The surface state describing `arg`.
fn surface_of(p: Platform, arg: &ArgValue) -> Result<RenderSurfaceState> {
    match arg {
        ArgValue::Buffer(b) => Ok(buffer_surface(p, b.gpu_address(), b.size())?),
        ArgValue::Image(i) => i.surface_state(p),
        ArgValue::NullBuffer | ArgValue::Value(_) | ArgValue::Local(_) | ArgValue::Sampler(_) => {
            Ok(null_surface())
        }
    }
}

fn address_of(arg: &ArgValue) -> u64 {
    match arg {
        ArgValue::Buffer(b) => b.gpu_address(),
        ArgValue::Image(i) => i.gpu_address(),
        ArgValue::NullBuffer | ArgValue::Value(_) | ArgValue::Local(_) | ArgValue::Sampler(_) => 0,
    }
}

/// Where each `local` argument's memory starts in SLM (by argument index), and the SLM a
/// work-group needs in all: the kernel's own `local` variables first, then each argument's
/// block at its alignment (the raw ABI aligns to 16 bytes).
pub fn slm_layout(kernel: &Kernel, args: &[ArgValue]) -> Result<(Vec<Option<u32>>, u32)> {
    let mut offsets = Vec::new();
    let total = slm_layout_into(kernel, args, &mut offsets)?;
    Ok((offsets, total))
}

/// [`slm_layout`] into `offsets` (cleared first, its capacity reused by the next dispatch).
pub fn slm_layout_into(
    kernel: &Kernel,
    args: &[ArgValue],
    offsets: &mut Vec<Option<u32>>,
) -> Result<u32> {
    let mut end = match &kernel.description {
        Description::Raw => 0,
        Description::Ocloc(k, _) => k.slm_size as u64,
    };
    offsets.clear();
    offsets.resize(args.len(), None);
    for (i, a) in args.iter().enumerate() {
        if let ArgValue::Local(n) = a {
            let start = end.next_multiple_of(local_alignment(kernel, i).next_power_of_two());
            offsets[i] = Some(start as u32);
            end = start + *n as u64;
        }
    }
    u32::try_from(end).map_err(|_| Error::Argument(format!("{end} bytes of local memory")))
}

/// The alignment of `local` argument `i`: the binary's, else 16 bytes (the raw ABI's).
fn local_alignment(kernel: &Kernel, i: usize) -> u64 {
    match &kernel.description {
        Description::Raw => 16,
        Description::Ocloc(k, _) => k
            .args
            .iter()
            .find_map(|a| match a.kind {
                ArgKind::Local { alignment, .. } if a.index as usize == i => {
                    Some(alignment.max(1) as u64)
                }
                _ => None,
            })
            .unwrap_or(16),
    }
}

/// One region's payload, built in place: a queue keeps one and reuses its memory.
#[derive(Debug, Default)]
pub struct Payload {
    /// The cross-thread data as bytes, then as the dwords the walker takes.
    bytes: Vec<u8>,
    pub words: Vec<u32>,
    /// The binding table's surfaces by index.
    pub surfaces: Vec<RenderSurfaceState>,
    /// The kernel's dynamic state heap with its sampler arguments' states written in (as
    /// DWords); empty for kernels without samplers.
    pub dsh: Vec<u32>,
}

/// Bytes of raw-ABI cross-thread data before the arguments.
pub const RAW_HEADER_BYTES: usize = 64;

/// The cross-thread data (as dwords) and binding table of one region of a dispatch, into
/// `out`; `slm_offsets` is [`slm_layout`]'s.
pub fn build(
    kernel: &Kernel,
    range: &NdRange,
    region: &Region,
    args: &[ArgValue],
    driver: DriverAddresses,
    slm_offsets: &[Option<u32>],
    out: &mut Payload,
) -> Result<()> {
    let p = kernel.platform;
    let groups = range.groups();
    let Payload {
        bytes: ct,
        words,
        surfaces,
        dsh,
    } = out;
    ct.clear();
    surfaces.clear();
    dsh.clear();
    match &kernel.description {
        Description::Raw => {
            ct.resize(RAW_HEADER_BYTES + 8 * args.len(), 0);
            // Each header row is three u32s, one per dimension.
            let rows = [
                (0, range.global),
                (12, region.local),
                (24, groups),
                (36, range.offset),
                (52, range.local),
            ];
            for (at, values) in rows {
                for (d, v) in values.into_iter().enumerate() {
                    put(ct, at + 4 * d as u32, 4, v as u64)?;
                }
            }
            put(ct, 48, 4, range.dims as u64)?;
            for (i, a) in args.iter().enumerate() {
                let at = (RAW_HEADER_BYTES + 8 * i) as u32;
                match a {
                    ArgValue::Local(_) => put(
                        ct,
                        at,
                        8,
                        slm_offsets.get(i).copied().flatten().unwrap_or(0) as u64,
                    )?,
                    ArgValue::Value(v) => {
                        let n = v.len().min(8);
                        ct[at as usize..at as usize + n].copy_from_slice(&v[..n]);
                    }
                    other => put(ct, at, 8, address_of(other))?,
                }
                surfaces.push(surface_of(p, a)?);
            }
        }
        Description::Ocloc(k, _) => {
            ct.resize(k.cross_thread_size as usize, 0);
            if k.sampler_array.is_some() {
                dsh.extend(
                    k.dynamic_state_heap
                        .chunks(4)
                        .map(|c| c.iter().rev().fold(0u32, |w, &b| w << 8 | u32::from(b))),
                );
            }
            let mut bind = |bti: u32, s: RenderSurfaceState| {
                let i = bti as usize;
                if surfaces.len() <= i {
                    surfaces.resize(i + 1, null_surface());
                }
                surfaces[i] = s;
            };
            for a in &k.args {
                let value = args
                    .get(a.index as usize)
                    .ok_or_else(|| Error::Argument(format!("argument {} is missing", a.index)))?;
                match (&a.kind, value) {
                    (
                        ArgKind::Buffer {
                            stateless,
                            bti,
                            buffer_offset,
                            ..
                        },
                        ArgValue::Buffer(b),
                    ) => {
                        if let Some(s) = stateless {
                            put(ct, s.offset, s.size, b.gpu_address())?;
                        }
                        if let Some(o) = buffer_offset {
                            put(ct, o.offset, o.size, 0)?;
                        }
                        if let Some(bti) = bti {
                            bind(*bti, buffer_surface(p, b.gpu_address(), b.size())?);
                        }
                    }
                    (
                        ArgKind::Buffer {
                            stateless,
                            bti,
                            buffer_offset,
                            ..
                        },
                        ArgValue::NullBuffer,
                    ) => {
                        for s in [stateless, buffer_offset].into_iter().flatten() {
                            put(ct, s.offset, s.size, 0)?;
                        }
                        if let Some(bti) = bti {
                            bind(*bti, null_surface());
                        }
                    }
                    (ArgKind::Value { pieces }, ArgValue::Value(v)) => {
                        for piece in pieces {
                            let src = v
                                .get(
                                    piece.source_offset as usize
                                        ..(piece.source_offset + piece.size) as usize,
                                )
                                .ok_or_else(|| {
                                    Error::Argument(format!("argument {} is too short", a.index))
                                })?;
                            let dst = ct
                                .get_mut(
                                    piece.offset as usize..(piece.offset + piece.size) as usize,
                                )
                                .ok_or_else(|| {
                                    Error::Argument(format!(
                                        "argument {} lies outside the cross-thread data",
                                        a.index
                                    ))
                                })?;
                            dst.copy_from_slice(src);
                        }
                    }
                    (ArgKind::Local { slm_offset, .. }, ArgValue::Local(_)) => {
                        let at = slm_offsets
                            .get(a.index as usize)
                            .copied()
                            .flatten()
                            .unwrap_or(0);
                        put(ct, slm_offset.offset, slm_offset.size, at as u64)?;
                    }
                    (ArgKind::Sampler { index, params }, ArgValue::Sampler(smp)) => {
                        let (array, count) = k.sampler_array.ok_or_else(|| {
                            Error::Argument(format!(
                                "argument {}: a sampler, but the kernel has no sampler states",
                                a.index
                            ))
                        })?;
                        let at = (array / 4 + 4 * index) as usize;
                        let Some(words) = dsh.get_mut(at..at + 4).filter(|_| *index < count) else {
                            return Err(Error::Argument(format!(
                                "argument {}: sampler {index} outside the kernel's {count}",
                                a.index
                            )));
                        };
                        let base = SamplerState::unpack(p, words)
                            .map_err(|e| Error::Argument(format!("argument {}: {e}", a.index)))?;
                        smp.state(base)
                            .pack(p, words)
                            .map_err(|e| Error::Argument(format!("argument {}: {e}", a.index)))?;
                        for (param, slot) in params {
                            let v = match param {
                                ArgParam::SamplerAddressMode => smp.address_mode_param(),
                                ArgParam::SamplerNormalizedCoords => smp.normalized_param(),
                                // No coordinate-snapping workaround: the simulated sampler
                                // needs none.
                                _ => 0,
                            };
                            put(ct, slot.offset, slot.size, v)?;
                        }
                    }
                    (
                        ArgKind::Image {
                            bti,
                            params,
                            image_type,
                            ..
                        },
                        ArgValue::Image(img),
                    ) => {
                        if let Some(bti) = bti {
                            let state = if *image_type == ImageType::Image2DMediaBlock {
                                img.media_block_surface_state(p)?
                            } else {
                                img.surface_state(p)?
                            };
                            bind(*bti, state);
                        }
                        let (order, dtype) = cl_image_params(img);
                        for (param, slot) in params {
                            let v = match param {
                                ArgParam::ImageWidth => img.width as u64,
                                ArgParam::ImageHeight => img.height as u64,
                                ArgParam::ImageDepth => img.depth as u64,
                                ArgParam::ImageArraySize => img.array_size as u64,
                                // get_image_num_mip_levels (cl_khr_mipmap_image).
                                ArgParam::ImageNumMipLevels => u64::from(img.levels),
                                ArgParam::ImageChannelDataType => dtype,
                                ArgParam::ImageChannelOrder => order,
                                ArgParam::FlatImageBaseOffset => img.gpu_address(),
                                // Flat sizes are stored minus one, as the media block messages read them.
                                ArgParam::FlatImageWidth => img.row_bytes() as u64 - 1,
                                ArgParam::FlatImageHeight => img.height as u64 - 1,
                                ArgParam::FlatImagePitch => img.pitch as u64 - 1,
                                _ => 0,
                            };
                            put(ct, slot.offset, slot.size, v)?;
                        }
                    }
                    (kind, _) => {
                        return Err(Error::Argument(format!(
                            "argument {}: {kind:?} cannot be given {}",
                            a.index,
                            value.describe()
                        )))
                    }
                }
            }
            // Driver allocations read through the binding table: a buffer surface over each at
            // the BTI whose entry points at the surface's SSH offset. One the program does not
            // have (no data, no private memory) stays a null surface.
            for s in &k.driver_surfaces {
                let found = driver_surface_bti(k, s);
                // printf's surface is for stateful access, which IGC may not have kept.
                if found.is_none() && s.kind == DriverSurfaceKind::Printf {
                    continue;
                }
                let bti = found.ok_or_else(|| {
                    Error::Argument(format!(
                        "kernel {}: no binding-table entry points at the {:?} surface (SSH offset {:#x})",
                        kernel.name, s.kind, s.ssh_offset
                    ))
                })?;
                let (base, size) = match s.kind {
                    DriverSurfaceKind::Constant => (driver.constant_base, driver.constant_size),
                    DriverSurfaceKind::Global => (driver.global_base, driver.global_size),
                    DriverSurfaceKind::Private => (driver.private_base, driver.private_size),
                    DriverSurfaceKind::Printf => (driver.printf_base, driver.printf_size),
                };
                if size > 0 {
                    bind(bti, buffer_surface(p, base, size)?);
                }
            }
            for imp in &k.implicit {
                let d = imp.dim.min(2) as usize;
                let v = match imp.kind {
                    ImplicitKind::GlobalOffset => range.offset[d] as u64,
                    ImplicitKind::LocalSize => region.local[d] as u64,
                    ImplicitKind::EnqueuedLocalSize => range.local[d] as u64,
                    ImplicitKind::GlobalSize => range.global[d] as u64,
                    ImplicitKind::NumGroups => groups[d] as u64,
                    ImplicitKind::WorkDim => range.dims as u64,
                    ImplicitKind::SimdSize => kernel.simd as u64,
                    ImplicitKind::MaxWorkGroupSize => batchbuffer::builder::MAX_LOCAL_TOTAL as u64,
                    ImplicitKind::PreferredWorkGroupMultiple => kernel.simd as u64,
                    ImplicitKind::PrivateBase => driver.private_base,
                    ImplicitKind::ConstantBase => driver.constant_base,
                    ImplicitKind::GlobalBase => driver.global_base,
                    ImplicitKind::PrintfBuffer => driver.printf_base,
                    other => {
                        return Err(Error::Unsupported(format!(
                            "kernel {} needs {other:?}, which this driver does not provide yet",
                            kernel.name
                        )))
                    }
                };
                put(ct, imp.offset, imp.size, v)?;
            }
        }
    }
    words.clear();
    words.extend(ct.chunks(4).map(|c| {
        let mut w = [0u8; 4];
        w[..c.len()].copy_from_slice(c);
        u32::from_le_bytes(w)
    }));
    Ok(())
}

/// The BTI of a driver surface: the binding-table entry that points at its SSH offset.
pub fn driver_surface_bti(k: &crate::program::Kernel, s: &DriverSurface) -> Option<u32> {
    k.binding_table
        .iter()
        .find(|e| e.ssh_offset == s.ssh_offset)
        .map(|e| e.index)
}
