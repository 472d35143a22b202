//! The EU's view of memory during a dispatch: the context's address space, the binding table
//! and its RENDER_SURFACE_STATEs, and the running group's shared local memory.

use std::sync::Mutex;

use batchbuffer::surface_format::{ChannelOrder, RAW};
use batchbuffer::{NumberOfMultisamples, Packet, RenderSurfaceState};
use platform::Platform;

use super::state::Bases;
use crate::mem::{Access, AddressSpace, Binding, GpuFault, VA_BITS, VA_MASK};
use kmd_iface::seam::Mapping;
use sim_eu::dataport::direct::{DirectTable, DirectWindow, DirectWindows};
use sim_eu::dataport::{aligned, gather_each, span_fits};
use sim_eu::tiling::Tiling;
use sim_eu::{
    ImageMips, ImageSurface, MemFault, Memory, Sampler, ScratchSurface, Surface,
    SAMPLER_STATE_BYTES,
};

/// Binding-table indices a message can name (an 8-bit descriptor field): the surfaces
/// cache holds one entry per index.
const BTI_COUNT: usize = 256;

/// Sampler indices a message can name (a 4-bit descriptor field).
const SAMPLER_INDICES: usize = 16;

/// Bindings remembered by the last accesses: a kernel streams through a few buffers at once
/// (SAXPY reads two and writes one), so one entry would miss at every other message.
const RECENT_BINDINGS: usize = 4;

use batchbuffer::builder::surface_type::{
    BUFFER as SURFTYPE_BUFFER, NULL as SURFTYPE_NULL, SCRATCH as SURFTYPE_SCRATCH,
    SURF_1D as SURFTYPE_1D, SURF_2D as SURFTYPE_2D, SURF_3D as SURFTYPE_3D,
};

/// What went wrong beyond a plain address (kept for the error report).
#[derive(Debug, Clone)]
pub enum Refusal {
    /// An access without a translation.
    Fault(GpuFault),
    /// A binding table entry or surface state the data port cannot use.
    BadSurface(String),
}

pub struct VmMemory<'a> {
    platform: Platform,
    vm: &'a AddressSpace,
    bases: Bases,
    binding_table: u64,
    /// The dispatch's SAMPLER_STATE table (Dynamic State Base + the descriptor's Sampler State
    /// Pointer).
    sampler_table: u64,
    /// Surfaces by binding-table index, looked up once per dispatch and host thread.
    surfaces: Vec<Option<Surface>>,
    /// Samplers by the messages' sampler index, looked up once per dispatch and host thread
    /// (as surfaces are).
    samplers: [Option<Sampler>; SAMPLER_INDICES],
    /// The running group's shared local memory ([`VmMemory::set_slm_len`]): never
    /// reallocated but there, as translated code copies through its window.
    slm: Vec<u8>,
    /// The first refusal, explaining the `MemFault` the EU reports.
    pub refusal: Option<Refusal>,
    /// Held across each global atomic: the walker's other groups may run on other host threads.
    atomics: &'a Mutex<()>,
    /// The bindings the last accesses went through, most recent first: a message's lanes
    /// nearly always hit one of a few buffers, so they skip the address space's map walk.
    recent: [Option<&'a Binding>; RECENT_BINDINGS],
    /// By binding-table index, the part of the surface the binding of its last whole-run
    /// access maps: a kernel's surface messages skip the surface and binding look-ups after
    /// the first.
    windows: Vec<Option<Window<'a>>>,
    /// `windows` as translated code reads them ([`Memory::direct_windows`]).
    direct: DirectWindows,
    /// The span a gather reads at once ([`Memory::read_gather`]), kept between gathers.
    span: Vec<u8>,
}

/// The widest span a gather reads at once. A gather's pieces in host pages (userptr) would
/// each be a system call; the lanes of one message mostly lie within a few rows of an
/// array, and a copy of this much costs about what a few of those calls do.
const GATHER_SPAN: u64 = 16 << 10;

/// The offsets `[start, end)` of a surface at `base` that one binding of a BO the simulator
/// owns maps (and that lie within the surface's width): a whole-run access inside them is
/// one copy from or to the BO's mapping, at offset + `delta`.
#[derive(Clone, Copy)]
struct Window<'a> {
    base: u64,
    start: u64,
    end: u64,
    delta: u64,
    map: &'a Mapping,
    read_only: bool,
}

impl<'a> Window<'a> {
    /// The window of binding `b` over the surface at `base`, `width` bytes wide: `None` when
    /// the BO is not the simulator's own (host pages are reached by fault-checked copies) or
    /// `base` is not a 48-bit address (the window's offsets add to the addresses unwrapped).
    fn new(base: u64, width: u64, b: &'a Binding) -> Option<Self> {
        let map = b.bo.owned_mapping()?;
        if base > VA_MASK {
            return None;
        }
        Some(Window {
            base,
            start: b.start.saturating_sub(base),
            end: (b.start + b.len).checked_sub(base)?.min(width),
            // Offset o is address base + o, which is b.bo_offset + (base + o - b.start) in
            // the BO for o >= start.
            delta: b.bo_offset.wrapping_add(base).wrapping_sub(b.start),
            map,
            read_only: b.read_only,
        })
    }

    /// The window as translated code reads it: offsets `[start, end)` at host address
    /// `host + offset`, when those lie inside the mapping (else `None`: no direct access).
    fn direct(&self) -> Option<DirectWindow> {
        let len = self.end.checked_sub(self.start)?;
        let first = self.start.wrapping_add(self.delta);
        let mapped = self.map.len() as u64;
        if first > mapped || len > mapped - first {
            return None;
        }
        let end = self.end;
        Some(DirectWindow {
            host: (self.map.as_ptr() as u64).wrapping_add(self.delta),
            start: self.start,
            end,
            write_end: if self.read_only { self.start } else { end },
            base: self.base,
        })
    }

    /// The mapping offset of `[offset, offset+len)` when the window holds it all for this
    /// access and the surface's base plus `offset` is a multiple of `align`: exactly when the
    /// surface's rule ([`span_fits`]) and the binding's ([`covers`]) allow the run.
    #[inline]
    fn at(&self, offset: u64, len: usize, align: u64, write: bool) -> Option<usize> {
        let end = offset.checked_add(len as u64)?;
        let inside = offset >= self.start && end <= self.end;
        let aligned = aligned(self.base.wrapping_add(offset), align);
        if inside && aligned && !(write && self.read_only) {
            usize::try_from(offset.wrapping_add(self.delta)).ok()
        } else {
            None
        }
    }
}

/// `b` and the BO offset of `[va, va+len)` when `b` maps all of it for this access.
fn covers(b: &Binding, va: u64, len: usize, write: bool) -> Option<(&Binding, u64)> {
    let end = va.checked_add(len as u64)?;
    (va >= b.start && end <= b.start + b.len && !(write && b.read_only))
        .then(|| (b, b.bo_offset + (va - b.start)))
}

impl<'a> VmMemory<'a> {
    pub fn new(
        platform: Platform,
        vm: &'a AddressSpace,
        bases: Bases,
        bt_pointer: u32,
        sampler_pointer: u32,
        atomics: &'a Mutex<()>,
    ) -> Self {
        VmMemory {
            atomics,
            platform,
            vm,
            bases,
            binding_table: bases.binding_tables.wrapping_add(u64::from(bt_pointer)),
            sampler_table: bases.dynamic.wrapping_add(u64::from(sampler_pointer)),
            surfaces: Vec::new(),
            samplers: [None; SAMPLER_INDICES],
            slm: Vec::new(),
            refusal: None,
            recent: [None; RECENT_BINDINGS],
            windows: Vec::new(),
            // `fence` is the trait's: nothing to do (the memory is coherent).
            direct: DirectWindows::new(true),
            span: Vec::new(),
        }
    }

    /// A remembered binding that maps all of `[va, va+len)` (`va` reduced to 48 bits) for
    /// this access, and the offset in its BO.
    fn cached(&self, va: u64, len: usize, write: bool) -> Option<(&'a Binding, u64)> {
        self.recent
            .iter()
            .flatten()
            .find_map(|&b| covers(b, va, len, write))
    }

    /// The address of byte `offset` of the surface at `bti` when `len` bytes from there lie in
    /// it and start at a multiple of `align`.
    fn surface_run(&mut self, bti: u32, offset: u64, align: u64, len: usize) -> Option<u64> {
        let (base, width) = self.surface_span(bti).ok()?;
        span_fits(base, width, offset, align, len).then(|| base.wrapping_add(offset))
    }

    /// Gives the groups `len` bytes of shared local memory (zero), published as the SLM's
    /// window for translated code.
    pub fn set_slm_len(&mut self, len: usize) {
        self.slm = vec![0; len];
        let end = len as u64;
        self.direct.set_slm(DirectWindow {
            host: self.slm.as_mut_ptr() as u64,
            start: 0,
            end,
            write_end: end,
            base: 0,
        });
    }

    /// Zeroes the shared local memory (a group's start).
    pub fn clear_slm(&mut self) {
        self.slm.fill(0);
    }

    /// Sampler `index` of the dispatch's table, read and decoded.
    fn sampler_at(&mut self, index: u32) -> Result<Sampler, MemFault> {
        let at = self
            .sampler_table
            .wrapping_add(u64::from(index) * SAMPLER_STATE_BYTES);
        let mut b = [0u8; 16];
        self.read(at, &mut b)?;
        let state: [u32; 4] = std::array::from_fn(|i| {
            u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
        });
        let decoded = batchbuffer::SamplerState::unpack(self.platform, &state).map_err(|e| {
            let why = format!("SAMPLER_STATE at {at:#x}: {e}");
            self.refuse(Refusal::BadSurface(why), at)
        })?;
        // SAMPLER_BORDER_COLOR_STATE: its first four DWords are the R, G, B, A border values
        // (as 32-bit floats or integers, read as the surface's channel type).
        let border_at = self
            .bases
            .dynamic
            .wrapping_add(u64::from(decoded.border_color_pointer));
        self.read(border_at, &mut b)?;
        let border = std::array::from_fn(|i| {
            u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
        });
        Ok(Sampler {
            state: decoded,
            border,
        })
    }

    /// Bytes of shared local memory.
    pub fn slm_len(&self) -> usize {
        self.slm.len()
    }

    /// Where surface `bti`'s last whole-run access went, if remembered.
    #[inline]
    fn window(&self, bti: u32) -> Option<&Window<'a>> {
        self.windows.get(bti as usize)?.as_ref()
    }

    /// Remembers the window of the binding of `addr` for surface `bti` (after a whole-run
    /// access there succeeded).
    fn bind_surface(&mut self, bti: u32, addr: u64) {
        let slot = bti as usize;
        if slot >= BTI_COUNT {
            return;
        }
        let Ok((base, width)) = self.surface_span(bti) else {
            return;
        };
        let w = self
            .vm
            .binding_at(addr & VA_MASK)
            .and_then(|b| Window::new(base, width, b));
        if self.windows.len() <= slot {
            self.windows.resize(slot + 1, None);
        }
        self.direct
            .set(bti, w.as_ref().and_then(Window::direct).unwrap_or_default());
        self.windows[slot] = w;
    }

    /// Remembers the binding of `va` (after an access through the address space succeeded).
    fn remember(&mut self, va: u64) {
        if let Some(b) = self.vm.binding_at(va) {
            self.recent.rotate_right(1);
            self.recent[0] = Some(b);
        }
    }

    fn refuse(&mut self, r: Refusal, address: u64) -> MemFault {
        self.refusal.get_or_insert(r);
        MemFault { address }
    }

    fn fault(&mut self, f: GpuFault) -> MemFault {
        self.refuse(Refusal::Fault(f), f.address)
    }

    fn slm_range(&mut self, offset: u32, len: usize, access: Access) -> Result<usize, MemFault> {
        let start = offset as usize;
        if start + len > self.slm.len() {
            return Err(self.fault(GpuFault {
                address: u64::from(offset),
                len,
                access,
            }));
        }
        Ok(start)
    }

    /// Reads and unpacks the RENDER_SURFACE_STATE at `at`, refusing nothing: the fault, or
    /// why the state cannot be unpacked.
    fn read_surface_state(&self, at: u64) -> Result<RenderSurfaceState, Result<GpuFault, String>> {
        let mut bytes = [0u8; 64];
        self.vm.read(at, &mut bytes).map_err(Ok)?;
        let dw: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        RenderSurfaceState::unpack(self.platform, &dw)
            .map_err(|e| Err(format!("RENDER_SURFACE_STATE at {at:#x}: {e}")))
    }

    /// Reads and unpacks the RENDER_SURFACE_STATE at `at`.
    fn surface_state_at(&mut self, at: u64) -> Result<RenderSurfaceState, MemFault> {
        match self.read_surface_state(at) {
            Ok(s) => Ok(s),
            Err(Ok(f)) => Err(self.fault(f)),
            Err(Err(why)) => Err(self.refuse(Refusal::BadSurface(why), at)),
        }
    }

    /// Reads and interprets the RENDER_SURFACE_STATE at `at`.
    fn surface_at(&mut self, at: u64) -> Result<Surface, MemFault> {
        let s = self.surface_state_at(at)?;
        match s.surface_type {
            // A RAW buffer: its size in bytes minus one across Width, Height and Depth.
            SURFTYPE_BUFFER if s.surface_format == RAW.number => {
                let size =
                    (u64::from(s.depth) << 21 | u64::from(s.height) << 7 | u64::from(s.width)) + 1;
                Ok(Surface::buffer(s.surface_base_address, size))
            }
            // A typed buffer (OpenCL's image1d_buffer): its element count minus one across the
            // same fields (Depth's low 6 bits: at most 2^27 elements), elements of the surface
            // format. Typed messages and the sampler address it as a 1D image of that many
            // texels, so coordinates past the end read 0 and their writes are dropped.
            SURFTYPE_BUFFER => {
                let Some(format) = batchbuffer::surface_format::by_number(s.surface_format) else {
                    let why = format!(
                        "RENDER_SURFACE_STATE at {at:#x}: buffer format {:#x} is not modelled",
                        s.surface_format
                    );
                    return Err(self.refuse(Refusal::BadSurface(why), at));
                };
                let elements = ((s.depth & 0x3F) << 21 | s.height << 7 | s.width) + 1;
                let bpe = u64::from(format.bytes_per_element);
                Ok(Surface {
                    base: s.surface_base_address,
                    width: u64::from(elements) * bpe,
                    height: 1,
                    pitch: u64::from(elements) * bpe,
                    tiling: Tiling::Linear,
                    image: Some(ImageSurface {
                        format,
                        dims: 1,
                        array: false,
                        size: [elements, 1, 1],
                        slice_pitch: u64::from(elements) * bpe,
                        row_pitch: u64::from(elements) * bpe,
                        mip: ImageMips::NONE,
                        chroma_row: 0,
                    }),
                })
            }
            SURFTYPE_1D | SURFTYPE_2D | SURFTYPE_3D => {
                let Some(format) = batchbuffer::surface_format::by_number(s.surface_format) else {
                    let why = format!(
                        "RENDER_SURFACE_STATE at {at:#x}: format {:#x} is not modelled",
                        s.surface_format
                    );
                    return Err(self.refuse(Refusal::BadSurface(why), at));
                };
                let tiling = match Tiling::from_surface_state(
                    self.platform >= Platform::Dg2,
                    s.tile_mode,
                    s.tiled_resource_mode,
                    format.bytes_per_element,
                ) {
                    // A 3D surface's tiles may be volumes (Tile-64's).
                    Ok(t) if s.surface_type == SURFTYPE_3D => t.volume(),
                    Ok(t) => t,
                    Err(e) => {
                        let why = format!("RENDER_SURFACE_STATE at {at:#x}: {e}");
                        return Err(self.refuse(Refusal::BadSurface(why), at));
                    }
                };
                let bpp = u64::from(format.bytes_per_element);
                let dims: u8 = match s.surface_type {
                    SURFTYPE_1D => 1,
                    SURFTYPE_2D => 2,
                    _ => 3,
                };
                // genxml: Width, Height and Depth hold size - 1; a 1D surface has one row. Depth
                // is the 3D depth or, with Surface Array, the number of layers.
                let width = s.width + 1;
                let height = if dims == 1 { 1 } else { s.height + 1 };
                let layered = dims == 3 || s.surface_array;
                let depth = if layered { s.depth + 1 } else { 1 };
                let pitch = u64::from(s.surface_pitch) + 1;
                // Surface QPitch holds the distance from one layer (or 3D slice) to the next
                // shifted right by 2 (Mesa's isl: `get_qpitch() >> 2`): in rows, or for 1D
                // arrays in texels, as Gen9+ lays 1D layers out along one row (Surface Pitch is
                // then ignored). A linear surface that leaves it 0 packs its layers height rows
                // apart.
                if tiling != Tiling::Linear {
                    // Gen9+ lays a 1D surface's layers along a row; only linear is modelled. Level
                    // 0 (the only level addressed) starts at the base: HALIGN/VALIGN place the
                    // other levels and are already in QPitch, so they change nothing here.
                    // Tile-64 of a multisampled surface has other bit orders (GmmLib's
                    // *_MSAA* descriptors): only one sample is modelled. Where a 3D Tile-64
                    // surface's other levels lie (their slabs, the mip tail) is not modelled.
                    let why = if dims == 1 {
                        Some(format!("a tiled 1D surface ({tiling:?})"))
                    } else if matches!(tiling, Tiling::Tile64 { .. })
                        && s.number_of_multisamples != NumberOfMultisamples::Multisamplecount1
                    {
                        Some("Tile-64 of a multisampled surface is not modelled".into())
                    } else if matches!(tiling, Tiling::Tile64Volume { .. })
                        && (s.mip_count_lod != 0 || s.surface_min_lod != 0)
                    {
                        Some("mip levels of a 3D Tile-64 surface are not modelled".into())
                    } else if !tiling.pitch_fits(pitch) {
                        Some(format!(
                            "pitch {pitch} is not a whole number of {tiling:?} tiles"
                        ))
                    } else {
                        None
                    };
                    if let Some(why) = why {
                        let why = format!("RENDER_SURFACE_STATE at {at:#x}: {why}");
                        return Err(self.refuse(Refusal::BadSurface(why), at));
                    }
                }
                // Levels: a message's LOD counts from Surface Min LOD and reaches at most MIP
                // Count / LOD past it; their places follow the alignment fields.
                let align = batchbuffer::mip::alignment(
                    self.platform,
                    s.surface_horizontal_alignment,
                    s.surface_vertical_alignment,
                );
                let mip = match align {
                    Some(align) => ImageMips {
                        min_lod: s.surface_min_lod,
                        count: s.mip_count_lod,
                        align,
                    },
                    None if s.surface_min_lod == 0 && s.mip_count_lod == 0 => ImageMips::NONE,
                    None => {
                        let why = format!(
                            "RENDER_SURFACE_STATE at {at:#x}: mip levels with a reserved \
                             alignment ({}, {})",
                            s.surface_horizontal_alignment, s.surface_vertical_alignment
                        );
                        return Err(self.refuse(Refusal::BadSurface(why), at));
                    }
                };
                let slice_pitch = match (s.surface_qpitch, dims) {
                    (0, 1) => u64::from(width) * bpp,
                    (0, _) => u64::from(height) * pitch,
                    (q, 1) => u64::from(q) * 4 * bpp,
                    (q, _) => u64::from(q) * 4 * pitch,
                };
                Ok(Surface {
                    base: s.surface_base_address,
                    width: u64::from(width) * bpp,
                    height,
                    pitch,
                    tiling,
                    image: Some(ImageSurface {
                        format,
                        dims,
                        array: s.surface_array && dims < 3,
                        size: [width, height, depth],
                        slice_pitch,
                        row_pitch: pitch,
                        mip,
                        chroma_row: if format.order == ChannelOrder::Planar420 {
                            s.y_offset_for_u_or_uv_plane
                        } else {
                            0
                        },
                    }),
                })
            }
            // A null surface: reads return zeros and writes are dropped (bounds of 0 bytes).
            SURFTYPE_NULL => Ok(Surface::buffer(0, 0)),
            other => {
                let why = format!(
                    "RENDER_SURFACE_STATE at {at:#x}: surface type {other} is not modelled"
                );
                Err(self.refuse(Refusal::BadSurface(why), at))
            }
        }
    }
}

impl Memory for VmMemory<'_> {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        if self.read_all(addr, buf) {
            return Ok(());
        }
        // The address space says what the failed access is.
        self.vm.read(addr, buf).map_err(|f| self.fault(f))
    }

    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        if self.write_all(addr, data) {
            return Ok(());
        }
        self.vm.write(addr, data).map_err(|f| self.fault(f))
    }

    fn read_all(&mut self, addr: u64, buf: &mut [u8]) -> bool {
        let va = addr & VA_MASK;
        if let Some((b, off)) = self.cached(va, buf.len(), false) {
            if b.bo.read(off, buf).is_ok() {
                return true;
            }
        }
        let ok = self.vm.read(addr, buf).is_ok();
        if ok {
            self.remember(va);
        }
        ok
    }

    fn write_all(&mut self, addr: u64, data: &[u8]) -> bool {
        let va = addr & VA_MASK;
        if let Some((b, off)) = self.cached(va, data.len(), true) {
            if b.bo.write(off, data).is_ok() {
                return true;
            }
        }
        let ok = self.vm.write(addr, data).is_ok();
        if ok {
            self.remember(va);
        }
        ok
    }

    fn surface_read_all(&mut self, bti: u32, offset: u64, align: u64, buf: &mut [u8]) -> bool {
        if let Some(w) = self.window(bti) {
            if let Some(at) = w.at(offset, buf.len(), align, false) {
                // A mapping's read copies nothing when it fails.
                if w.map.read(at, buf).is_ok() {
                    return true;
                }
            }
        }
        let Some(addr) = self.surface_run(bti, offset, align, buf.len()) else {
            return false;
        };
        // Through a buffer: a copy from host pages may fail part way, and a failed run
        // leaves `buf` as it was.
        let mut tmp = vec![0u8; buf.len()];
        if !self.read_all(addr, &mut tmp) {
            return false;
        }
        buf.copy_from_slice(&tmp);
        self.bind_surface(bti, addr);
        true
    }

    fn direct_windows(&self) -> *const DirectTable {
        self.direct.as_ptr()
    }

    fn surface_write_all(&mut self, bti: u32, offset: u64, align: u64, data: &[u8]) -> bool {
        if let Some(w) = self.window(bti) {
            if let Some(at) = w.at(offset, data.len(), align, true) {
                if w.map.write(at, data).is_ok() {
                    return true;
                }
            }
        }
        let Some(addr) = self.surface_run(bti, offset, align, data.len()) else {
            return false;
        };
        let ok = self.write_all(addr, data);
        if ok {
            self.bind_surface(bti, addr);
        }
        ok
    }

    fn surface_gather(&mut self, bti: u32, offsets: &[u64], align: u64, out: &mut [u8]) -> bool {
        let pieces = offsets.len();
        if self.window(bti).is_some() || !(2..=32).contains(&pieces) {
            // A remembered window is the simulator's own memory: each piece is one copy.
            return gather_each(offsets, out, |o, piece| {
                self.surface_read_all(bti, o, align, piece)
            });
        }
        let len = out.len() / pieces;
        let mut addrs = [0u64; 32];
        for (a, &o) in addrs.iter_mut().zip(offsets) {
            let Some(at) = self.surface_run(bti, o, align, len) else {
                return false;
            };
            *a = at;
        }
        let done = self.read_gather(&addrs[..pieces], out);
        if done {
            self.bind_surface(bti, addrs[0]);
        }
        done
    }

    fn read_gather(&mut self, addrs: &[u64], out: &mut [u8]) -> bool {
        let len = out.len() / addrs.len().max(1);
        if addrs.len() >= 2 && len > 0 {
            let lo = addrs.iter().copied().min().unwrap_or(0);
            let hi = addrs
                .iter()
                .try_fold(0u64, |hi, &a| Some(hi.max(a.checked_add(len as u64)?)));
            if let Some(span) = hi.map(|hi| hi - lo).filter(|&s| s <= GATHER_SPAN) {
                let mut buf = std::mem::take(&mut self.span);
                buf.resize(span as usize, 0);
                let done = self.read_all(lo, &mut buf);
                if done {
                    for (&a, piece) in addrs.iter().zip(out.chunks_exact_mut(len)) {
                        let at = (a - lo) as usize;
                        piece.copy_from_slice(&buf[at..at + len]);
                    }
                }
                self.span = buf;
                if done {
                    return true;
                }
            }
        }
        // Wider, or some byte of the span is not mapped: piece by piece.
        gather_each(addrs, out, |a, piece| self.read_all(a, piece))
    }

    fn slm_read_all(&mut self, offset: u32, buf: &mut [u8]) -> bool {
        let start = offset as usize;
        match self.slm.get(start..start + buf.len()) {
            Some(s) => {
                buf.copy_from_slice(s);
                true
            }
            None => false,
        }
    }

    fn slm_write_all(&mut self, offset: u32, data: &[u8]) -> bool {
        let start = offset as usize;
        match self.slm.get_mut(start..start + data.len()) {
            Some(s) => {
                s.copy_from_slice(data);
                true
            }
            None => false,
        }
    }

    fn atomic(
        &mut self,
        addr: u64,
        width: usize,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<u64, MemFault> {
        let lock = self.atomics;
        let _held = lock.lock().unwrap_or_else(|e| e.into_inner());
        sim_eu::plain_atomic(self, addr, width, update)
    }

    fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
        let s = self.slm_range(offset, buf.len(), Access::Read)?;
        buf.copy_from_slice(&self.slm[s..s + buf.len()]);
        Ok(())
    }

    fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault> {
        let s = self.slm_range(offset, data.len(), Access::Write)?;
        self.slm[s..s + data.len()].copy_from_slice(data);
        Ok(())
    }

    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        let slot = bti as usize;
        if let Some(Some(s)) = self.surfaces.get(slot) {
            return Ok(*s);
        }
        let s = if isa_encoder::sendmsg::build::is_stateless_bti(bti) {
            let general = self.bases.general;
            Surface::buffer(general, (1u64 << VA_BITS).saturating_sub(general))
        } else {
            let entry_at = self.binding_table.wrapping_add(4 * u64::from(bti));
            let entry = match self.vm.read_u32(entry_at) {
                Ok(e) => e,
                Err(f) => return Err(self.fault(f)),
            };
            self.surface_at(self.bases.surface.wrapping_add(u64::from(entry & !0x3f)))?
        };
        if slot < BTI_COUNT {
            if self.surfaces.len() <= slot {
                self.surfaces.resize(slot + 1, None);
            }
            self.surfaces[slot] = Some(s);
        }
        Ok(s)
    }

    fn surface_span(&mut self, bti: u32) -> Result<(u64, u64), MemFault> {
        match self.surfaces.get(bti as usize) {
            Some(Some(s)) => Ok((s.base, s.width)),
            _ => self.surface(bti).map(|s| (s.base, s.width)),
        }
    }

    fn sampler(&mut self, index: u32) -> Result<Sampler, MemFault> {
        if let Some(Some(s)) = self.samplers.get(index as usize) {
            return Ok(*s);
        }
        let s = self.sampler_at(index)?;
        if let Some(slot) = self.samplers.get_mut(index as usize) {
            *slot = Some(s);
        }
        Ok(s)
    }

    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        self.surface_at(self.bases.surface.wrapping_add(u64::from(offset)))
    }

    fn general_state_base(&mut self) -> Result<u64, MemFault> {
        Ok(self.bases.general)
    }

    fn is_scratch_surface(&mut self, offset: u32) -> bool {
        let at = self.bases.surface.wrapping_add(u64::from(offset));
        self.read_surface_state(at)
            .is_ok_and(|s| s.surface_type == SURFTYPE_SCRATCH)
    }

    fn scratch_surface(&mut self, offset: u32) -> Result<ScratchSurface, MemFault> {
        let at = self.bases.surface.wrapping_add(u64::from(offset));
        let s = self.surface_state_at(at)?;
        if s.surface_type != SURFTYPE_SCRATCH {
            let why = format!(
                "RENDER_SURFACE_STATE at {at:#x} (CFE_STATE Scratch Space Buffer) has surface \
                 type {}, not SURFTYPE_SCRATCH",
                s.surface_type
            );
            return Err(self.refuse(Refusal::BadSurface(why), at));
        }
        // Slice count - 1 is split like a buffer size; the pitch is the slice size - 1.
        let n = u64::from(s.depth) << 21 | u64::from(s.height) << 7 | u64::from(s.width);
        Ok(ScratchSurface {
            base: s.surface_base_address,
            slice: u64::from(s.surface_pitch) + 1,
            slices: n + 1,
        })
    }
}

#[cfg(test)]
mod tests;
