//! The data port: the memory seam the simulator implements ([`Memory`]) and the send messages
//! that reach it. Which message a send is comes from isa-encoder's descriptor tables
//! (`isa_encoder::sendmsg`); this module gives each one its effect.
//!
//! A message reads its payload (src0's `mlen` registers followed by src1's), performs the
//! accesses of its enabled lanes and writes `rlen` response registers. Lanes the execution mask
//! disables neither access memory nor change their response bytes.

mod align;
mod classified;
pub mod direct;
mod filter;
mod hdc;
mod lsc;
mod media;
mod plan;
pub mod quick;
mod sampler;
pub mod scratch;
mod slm;
mod texel;
mod texel_place;
mod texel_row;
mod typed;

use isa_encoder::model::SendDesc;
use isa_encoder::sendmsg::{gateway, Sfid};
use platform::Platform;

use crate::error::{EuErrorKind, MemFault};
use crate::regfile::{Thread, A0, REG_BYTES};
pub use crate::tiling::Tiling;
pub use plan::SendPlan;

/// A surface the binding table (or a surface-state offset) names, as the data port needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Surface {
    /// GPU virtual address of byte 0.
    pub base: u64,
    /// Bytes per row (buffers: the buffer's size in bytes).
    pub width: u64,
    /// Rows (buffers: 1).
    pub height: u32,
    /// Bytes from one row to the next.
    pub pitch: u64,
    /// How rows and bytes lie in memory (linear unless the surface state names a tiling; a
    /// tiled surface's pitch is a whole number of tiles).
    pub tiling: Tiling,
    /// What typed messages and the sampler need of a 1D/2D/3D surface (None for buffers).
    pub image: Option<ImageSurface>,
}

impl Surface {
    /// A buffer of `size` bytes at `base`.
    pub fn buffer(base: u64, size: u64) -> Surface {
        Surface {
            base,
            width: size,
            height: 1,
            pitch: size,
            tiling: Tiling::Linear,
            image: None,
        }
    }
}

/// Where a texel or a run of a row's bytes lies: an offset from a linear surface's base, or a
/// byte column, surface row and slice within the tiles ([`Tiling::volume_offset`]; 0 but in
/// volume tiles) of a tiled one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    Linear(u64),
    Tiled { x: u64, y: u64, z: u64 },
}

impl Surface {
    /// Byte column `x` of row `y`.
    #[inline]
    pub(crate) fn place(&self, x: u64, y: u64) -> Place {
        match self.tiling {
            Tiling::Linear => Place::Linear(y.wrapping_mul(self.pitch).wrapping_add(x)),
            _ => Place::Tiled { x, y, z: 0 },
        }
    }

    /// Reads `buf.len()` bytes at `at` (a tiled run stays within its row).
    pub(crate) fn read_place(
        &self,
        mem: &mut dyn Memory,
        at: Place,
        buf: &mut [u8],
    ) -> Result<(), EuErrorKind> {
        match at {
            Place::Linear(o) => mem_read(mem, Space::Global, self.base.wrapping_add(o), buf),
            Place::Tiled { x, y, z } => {
                let mut done = 0;
                while done < buf.len() {
                    let (xi, n) = self.tiled_run(x, done, buf.len());
                    let addr = self
                        .base
                        .wrapping_add(self.tiling.volume_offset(self.pitch, xi, y, z));
                    mem_read(mem, Space::Global, addr, &mut buf[done..done + n])?;
                    done += n;
                }
                Ok(())
            }
        }
    }

    /// Writes `data` at `at` (a tiled run stays within its row).
    pub(crate) fn write_place(
        &self,
        mem: &mut dyn Memory,
        at: Place,
        data: &[u8],
    ) -> Result<(), EuErrorKind> {
        match at {
            Place::Linear(o) => mem_write(mem, Space::Global, self.base.wrapping_add(o), data),
            Place::Tiled { x, y, z } => {
                let mut done = 0;
                while done < data.len() {
                    let (xi, n) = self.tiled_run(x, done, data.len());
                    let addr = self
                        .base
                        .wrapping_add(self.tiling.volume_offset(self.pitch, xi, y, z));
                    mem_write(mem, Space::Global, addr, &data[done..done + n])?;
                    done += n;
                }
                Ok(())
            }
        }
    }

    /// The byte column `done` bytes after `x` and how many bytes from it are contiguous.
    fn tiled_run(&self, x: u64, done: usize, len: usize) -> (u64, usize) {
        let xi = x + done as u64;
        let n = self.tiling.run(xi).min((len - done) as u64) as usize;
        (xi, n)
    }
}

/// A typed message's texel outside its image ([`Memory::out_of_image`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfImage {
    /// The image's base address.
    pub base: u64,
    /// The message's coordinates (U, V, R, LOD; only the first `coords` were sent).
    pub texel: [u32; 4],
    /// How many coordinates the message carried.
    pub coords: usize,
    /// Width, height and depth (or layers) of the addressed level; zeros for a LOD past the
    /// image's last level.
    pub size: [u32; 3],
    /// A write (else a read).
    pub write: bool,
}

/// A 1D, 2D or 3D surface (or an array of 1D/2D ones) as typed messages and the sampler
/// address it: texel (u, v, r) of a linear image is at
/// `base + r * slice_pitch + v * pitch + u * bytes_per_element`; of a tiled one (2D, 3D or 2D
/// arrays), at byte `u * bytes_per_element` of row `v` of slice `r`, placed by the surface's
/// [`Tiling`] (layers and 3D slices are QPitch rows apart, `slice_pitch / pitch`, but in
/// 3D Tile-64's volume tiles: [`Tiling::slice_start`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageSurface {
    pub format: batchbuffer::surface_format::SurfaceFormat,
    /// 1, 2 or 3.
    pub dims: u8,
    /// An array of 1D or 2D images: the coordinate after the last dimension is the layer.
    pub array: bool,
    /// Texels in each dimension: width, height (1 for 1D), depth (3D) or layers (arrays).
    pub size: [u32; 3],
    /// Bytes from one 3D slice or array layer to the next.
    pub slice_pitch: u64,
    /// Bytes from one row to the next.
    pub row_pitch: u64,
    /// Its mip levels and where they lie.
    pub mip: ImageMips,
    /// A planar format's (PLANAR_420_8) chroma plane: the row it starts at (RENDER_SURFACE_STATE
    /// "Y Offset for U or UV Plane"); 0 for other formats.
    pub chroma_row: u32,
}

/// The mip levels of an image surface (RENDER_SURFACE_STATE Surface Min LOD, MIP Count / LOD
/// and the alignment fields): a message's LOD counts from `min_lod`, and may reach `count`
/// levels past it; level `l` lies where [`batchbuffer::mip::MipShape::origin`] puts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageMips {
    pub min_lod: u32,
    /// MIP Count / LOD: the last LOD a message may name (0: one level).
    pub count: u32,
    /// HALIGN texels, VALIGN rows.
    pub align: (u32, u32),
}

impl ImageMips {
    /// One level at the surface's origin.
    pub const NONE: ImageMips = ImageMips {
        min_lod: 0,
        count: 0,
        align: (1, 1),
    };
}

/// One sampler of the dispatch's sampler table: its SAMPLER_STATE and the R, G, B, A values of
/// its SAMPLER_BORDER_COLOR_STATE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sampler {
    pub state: batchbuffer::SamplerState,
    pub border: [u32; 4],
}

/// Bytes of one SAMPLER_STATE: the message's sampler index steps through the table by this.
pub const SAMPLER_STATE_BYTES: u64 = 16;

/// A SURFTYPE_SCRATCH surface (Xe-HPG): `slices` thread slices of `slice` bytes at `base`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScratchSurface {
    pub base: u64,
    pub slice: u64,
    pub slices: u64,
}

/// The memory a thread's messages reach. The simulator implements it on a VM's address space,
/// its binding tables and the thread group's shared local memory; tests implement it on a
/// vector. All methods report the first faulting address instead of failing any other way.
pub trait Memory {
    /// Reads `buf.len()` bytes at GPU virtual address `addr`.
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault>;
    /// Writes `data` at GPU virtual address `addr`.
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault>;
    /// Reads the thread group's shared local memory at byte `offset`.
    fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault>;
    /// Writes shared local memory at byte `offset`.
    fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault>;
    /// The surface at binding-table index `bti` (the dispatch's binding table and its
    /// RENDER_SURFACE_STATE). Stateless indices 255 and 253 name the general-state heap: the
    /// implementation returns a buffer at the General State Base Address spanning the VM.
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault>;
    /// The base address and byte size ([`Surface::width`]) of the surface at `bti`, for
    /// messages that need no more of it; implementations that cache surfaces skip the copy.
    fn surface_span(&mut self, bti: u32) -> Result<(u64, u64), MemFault> {
        self.surface(bti).map(|s| (s.base, s.width))
    }
    /// The sampler at `index` of the dispatch's sampler table (Dynamic State Base Address +
    /// the interface descriptor's Sampler State Pointer). The default has none: the access
    /// faults at the index.
    fn sampler(&mut self, index: u32) -> Result<Sampler, MemFault> {
        Err(MemFault {
            address: u64::from(index),
        })
    }
    /// The surface whose RENDER_SURFACE_STATE is at `offset` in the surface-state heap (LSC
    /// surface-state and bindless addressing).
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault>;
    /// General State Base Address (Gen9–Gen12LP scratch is relative to it): by default the
    /// base of the stateless binding-table index 255, which is General State relative.
    fn general_state_base(&mut self) -> Result<u64, MemFault> {
        self.surface(255).map(|s| s.base)
    }
    /// The SURFTYPE_SCRATCH surface whose state is at `offset` in the surface-state heap. The
    /// default has none: the access faults at the offset.
    fn scratch_surface(&mut self, offset: u32) -> Result<ScratchSurface, MemFault> {
        Err(MemFault {
            address: u64::from(offset),
        })
    }
    /// Whether the surface state at `offset` in the surface-state heap is a SURFTYPE_SCRATCH
    /// one (asking refuses nothing). The default has none.
    fn is_scratch_surface(&mut self, _offset: u32) -> bool {
        false
    }
    /// A read-modify-write of the `width`-byte (4 or 8) little-endian word of global memory
    /// at `addr`: reads the old word, writes `update(old)` (its low `width` bytes) when that
    /// gives a value, and returns the old word. Implementations whose memory other host threads
    /// reach (groups of one walker running in parallel) make it indivisible; the default is a
    /// plain read then write ([`plain_atomic`]).
    fn atomic(
        &mut self,
        addr: u64,
        width: usize,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<u64, MemFault> {
        plain_atomic(self, addr, width, update)
    }
    /// Reads like [`Memory::read`] when every byte is mapped and returns true; otherwise
    /// returns false having recorded nothing (the caller then makes the accesses one by one
    /// and reports the fault they meet). The default never reads: every access goes one by
    /// one.
    fn read_all(&mut self, _addr: u64, _buf: &mut [u8]) -> bool {
        false
    }
    /// Writes like [`Memory::write`] when every byte is mapped and writable and returns true;
    /// otherwise false, as [`Memory::read_all`] (bytes it wrote the one-by-one accesses write
    /// again).
    fn write_all(&mut self, _addr: u64, _data: &[u8]) -> bool {
        false
    }
    /// Reads `buf.len()` bytes at byte `offset` of the buffer surface at binding-table index
    /// `bti` in one access, as [`Memory::read_all`], when the surface resolves, its base plus
    /// `offset` is a multiple of `align` and the run ends within its width; otherwise false
    /// having recorded nothing and with `buf` as it was (the caller reads straight into the
    /// registers; the default relies on `read_all` leaving `buf` so when it fails).
    /// Implementations may keep the surface's binding between calls.
    fn surface_read_all(&mut self, bti: u32, offset: u64, align: u64, buf: &mut [u8]) -> bool {
        match self.surface_span(bti) {
            Ok((base, width)) => {
                span_fits(base, width, offset, align, buf.len())
                    && self.read_all(base.wrapping_add(offset), buf)
            }
            Err(_) => false,
        }
    }
    /// [`Memory::surface_read_all`] for writes, as [`Memory::write_all`].
    fn surface_write_all(&mut self, bti: u32, offset: u64, align: u64, data: &[u8]) -> bool {
        match self.surface_span(bti) {
            Ok((base, width)) => {
                span_fits(base, width, offset, align, data.len())
                    && self.write_all(base.wrapping_add(offset), data)
            }
            Err(_) => false,
        }
    }
    /// Reads a gather: the pieces of `out` (`out.len() / offsets.len()` bytes each) from each
    /// of `offsets` of the buffer surface at `bti`, each as [`Memory::surface_read_all`] reads
    /// a run; false when some piece is not all there (`out` then holds no promise). The
    /// default reads piece by piece. An implementation whose single accesses are dear (a
    /// system call each) may read the span the pieces lie in at once, where reading the bytes
    /// between them has no effect.
    fn surface_gather(&mut self, bti: u32, offsets: &[u64], align: u64, out: &mut [u8]) -> bool {
        gather_each(offsets, out, |o, piece| {
            self.surface_read_all(bti, o, align, piece)
        })
    }
    /// [`Memory::surface_gather`] at virtual addresses, each piece as [`Memory::read_all`].
    fn read_gather(&mut self, addrs: &[u64], out: &mut [u8]) -> bool {
        gather_each(addrs, out, |a, piece| self.read_all(a, piece))
    }
    /// [`Memory::read_all`] for shared local memory.
    fn slm_read_all(&mut self, _offset: u32, _buf: &mut [u8]) -> bool {
        false
    }
    /// [`Memory::write_all`] for shared local memory.
    fn slm_write_all(&mut self, _offset: u32, _data: &[u8]) -> bool {
        false
    }
    /// What translated code may do without calling the memory ([`direct::DirectTable`]):
    /// valid for reads while the memory lives, its contents changed only inside this memory's
    /// own methods. A window must answer exactly as [`Memory::surface_read_all`] and
    /// [`Memory::surface_write_all`] would for the offsets it holds; `quiet_fences` only when
    /// [`Memory::fence`] does nothing. The default: no window, every fence called.
    fn direct_windows(&self) -> *const direct::DirectTable {
        &direct::NO_WINDOWS
    }
    /// The thread signalled the gateway barrier of its thread group.
    fn barrier_signal(&mut self) {}
    /// A memory fence: the simulator's memory is coherent, so this only orders. `global`: it
    /// orders global memory beyond the work-group ([`fence_is_global`]: not an SLM fence, not
    /// an LSC fence of group or slice scope). A memory that acts on it must not publish
    /// `quiet_fences` ([`Memory::direct_windows`]).
    fn fence(&mut self, _global: bool) {}
    /// The shared-local-memory read and write at `offset` that follow are one atomic's (the
    /// sanitizer's hook: atomics never race with atomics).
    fn slm_atomic(&mut self, _offset: u32) {}
    /// Whether [`Memory::on_send`] wants to hear of each send (the run loop asks once per
    /// [`crate::run`], so that memories that do not, the default, cost one branch per send).
    fn observes_sends(&self) -> bool {
        false
    }
    /// `len` bytes at byte `offset` of the buffer surface at `base`, `limit` bytes wide, lie
    /// (partly) past its end: the data port reads zeros for them or drops the write, as the
    /// hardware's bounds check does; the sanitizer reports it. Returns the byte a read gets
    /// there: 0, as on hardware (the sanitizer's replay of a send answers otherwise, to find
    /// the registers those bytes reach).
    fn out_of_surface(
        &mut self,
        _base: u64,
        _limit: u64,
        _offset: u64,
        _len: usize,
        _write: bool,
    ) -> u8 {
        0
    }
    /// A typed read or write (`read_image*`/`write_image*` without a sampler) named a texel
    /// outside its image: the data port reads 0 or drops the write, as the hardware's bounds
    /// check does; OpenCL leaves it undefined, and the sanitizer reports it.
    fn out_of_image(&mut self, _texel: &OutOfImage) {}
    /// The thread `t` is about to execute the send at instruction index `ip` on the lanes in
    /// `mask` (the sanitizer's hook; only called when [`Memory::observes_sends`]).
    fn on_send(&mut self, _t: &Thread, _ip: u32, _mask: u32) {}
    /// The thread `t` is about to execute the instruction at index `ip`, which reads a source
    /// through per-lane address registers, on the lanes in `mask` (the sanitizer's hook for
    /// sub-group shuffles; only called when [`Memory::observes_sends`]).
    fn on_indirect(&mut self, _t: &Thread, _ip: u32, _mask: u32) {}
    /// Whether the memory follows values through the registers (the sanitizer's initcheck):
    /// the run loop then takes its general path for every send and, while
    /// [`Memory::registers_clean`] is false, every instruction, and calls [`Memory::on_inst`]
    /// and [`Memory::after_send`]. Asked once per [`crate::run`]; the default, false, compiles
    /// those calls out of the loop.
    fn tracks_registers(&self) -> bool {
        false
    }
    /// The thread `t` is about to execute the ALU or branch instruction at index `ip`, its
    /// channels `enabled` and predicate `pred` as [`crate::exec`] works them out (only called
    /// when [`Memory::tracks_registers`]).
    fn on_inst(&mut self, _t: &Thread, _ip: u32, _enabled: u32, _pred: u32) {}
    /// Whether no register holds a value the memory follows (only asked when
    /// [`Memory::tracks_registers`]): the run loop may then take its fast path.
    fn registers_clean(&self) -> bool {
        true
    }
    /// The send at index `ip` that [`Memory::on_send`] announced executed without an error
    /// (only called when [`Memory::tracks_registers`]).
    fn after_send(&mut self, _t: &Thread, _ip: u32, _mask: u32) {}
}

/// Whether `x` is a multiple of `align`: a mask for a power of two (every alignment rule's),
/// a division otherwise. Block messages check it per send, where a division costs more than
/// the rest of the check.
#[inline]
pub fn aligned(x: u64, align: u64) -> bool {
    if align.is_power_of_two() {
        x & (align - 1) == 0
    } else {
        x.is_multiple_of(align)
    }
}

/// Whether `len` bytes at `offset` of a surface at `base`, `width` bytes wide, lie inside it
/// and start at a multiple of `align` (the whole-run surface accesses' rule).
#[inline]
pub fn span_fits(base: u64, width: u64, offset: u64, align: u64, len: usize) -> bool {
    aligned(base.wrapping_add(offset), align)
        && offset
            .checked_add(len as u64)
            .is_some_and(|end| end <= width)
}

/// Reads `buf.len()` bytes at byte `offset` of `bytes` (a memory kept as one byte vector,
/// such as a test memory's shared local memory); a fault naming the offset when they are
/// not all there.
pub fn read_bytes_at(bytes: &[u8], offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
    let at = offset as usize;
    let s = bytes.get(at..at + buf.len()).ok_or(MemFault {
        address: u64::from(offset),
    })?;
    buf.copy_from_slice(s);
    Ok(())
}

/// [`read_bytes_at`] for writes.
pub fn write_bytes_at(bytes: &mut [u8], offset: u32, data: &[u8]) -> Result<(), MemFault> {
    let at = offset as usize;
    let s = bytes.get_mut(at..at + data.len()).ok_or(MemFault {
        address: u64::from(offset),
    })?;
    s.copy_from_slice(data);
    Ok(())
}

/// No memory at all: every access faults at the address (or offset, or index) it names. For
/// kernels that only compute in registers: benchmarks and ALU property tests.
pub struct NoMemory;

impl Memory for NoMemory {
    fn read(&mut self, addr: u64, _: &mut [u8]) -> Result<(), MemFault> {
        Err(MemFault { address: addr })
    }
    fn write(&mut self, addr: u64, _: &[u8]) -> Result<(), MemFault> {
        Err(MemFault { address: addr })
    }
    fn slm_read(&mut self, offset: u32, _: &mut [u8]) -> Result<(), MemFault> {
        Err(MemFault {
            address: u64::from(offset),
        })
    }
    fn slm_write(&mut self, offset: u32, _: &[u8]) -> Result<(), MemFault> {
        Err(MemFault {
            address: u64::from(offset),
        })
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        Err(MemFault {
            address: u64::from(bti),
        })
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        Err(MemFault {
            address: u64::from(offset),
        })
    }
}

/// What a send did that the run loop must act on.
pub struct Outcome {
    pub eot: bool,
}

/// A message's decoded frame: descriptors, payload and response buffer.
pub(crate) struct Msg {
    pub desc: u32,
    pub ex_desc: u32,
    /// src0 then src1 registers, contiguous.
    pub payload: Vec<u8>,
    /// src0's registers (`mlen`): src1 starts at byte `mlen * REG_BYTES` of the payload.
    pub mlen: usize,
    /// `rlen` registers, pre-filled with the destination's current contents.
    pub resp: Vec<u8>,
    /// Execution size and enabled lanes.
    pub n: usize,
    pub mask: u32,
    pub platform: Platform,
}

impl Msg {
    pub fn field(&self, off: u32, len: u32) -> u32 {
        (self.desc >> off) & ((1u32 << len) - 1)
    }
    pub fn u32_at(&self, byte: usize) -> u32 {
        self.payload
            .get(byte..byte + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub fn u64_at(&self, byte: usize) -> u64 {
        u64::from(self.u32_at(byte)) | u64::from(self.u32_at(byte + 4)) << 32
    }
    /// The little-endian word of `width` bytes (8, or else 4) at `byte`.
    pub fn word_at(&self, byte: usize, width: usize) -> u64 {
        match width {
            8 => self.u64_at(byte),
            _ => u64::from(self.u32_at(byte)),
        }
    }
    /// The enabled lanes below `limit` as bits (lane i = bit i); [`lanes_of`] walks them
    /// without borrowing the message.
    pub fn lane_bits(&self, limit: usize) -> u32 {
        self.mask & all_of(self.n.min(limit))
    }
    /// Whether every channel of the message's execution size is enabled.
    pub fn all_enabled(&self) -> bool {
        let all = all_of(self.n);
        self.mask & all == all
    }
    pub fn put(&mut self, byte: usize, data: &[u8]) {
        if let Some(s) = self.resp.get_mut(byte..byte + data.len()) {
            s.copy_from_slice(data);
        }
    }
    /// Runs `fill` on the `len` response bytes at `byte`; when the response is shorter, on a
    /// scratch buffer whose bytes are then dropped (as [`Msg::put`] drops them).
    pub fn fill_resp<E>(
        &mut self,
        byte: usize,
        len: usize,
        fill: impl FnOnce(&mut [u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        match self.resp.get_mut(byte..byte + len) {
            Some(s) => fill(s),
            None => fill(&mut vec![0u8; len]),
        }
    }
    pub fn data(&self, byte: usize, len: usize) -> &[u8] {
        self.payload.get(byte..byte + len).unwrap_or(&[])
    }
}

/// Reads `out`'s pieces (`out.len() / at.len()` bytes each) one by one with `read`, each from
/// its entry of `at`; false at the first that fails.
pub fn gather_each(
    at: &[u64],
    out: &mut [u8],
    mut read: impl FnMut(u64, &mut [u8]) -> bool,
) -> bool {
    let Some(len) = out.len().checked_div(at.len()) else {
        return true;
    };
    if len == 0 {
        return out.is_empty();
    }
    at.iter()
        .zip(out.chunks_exact_mut(len))
        .all(|(&a, piece)| read(a, piece))
}

/// The bits of `n` channels (32 and more: all).
fn all_of(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// The lanes whose bits are set in `bits`, lowest first.
pub(crate) fn lanes_of(mut bits: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            i
        })
    })
}

fn regs(t: &Thread, first: u8, count: usize) -> Result<&[u8], EuErrorKind> {
    let start = first as usize * REG_BYTES;
    let end = start + count * REG_BYTES;
    if first as usize + count > t.grf_regs() {
        return Err(EuErrorKind::RegisterOutOfRange {
            file: "the GRF",
            byte: end as u32,
        });
    }
    Ok(&t.file[start..end])
}

fn desc_value(t: &Thread, d: SendDesc) -> u32 {
    match d {
        SendDesc::Imm(v) => v,
        SendDesc::Reg(sub) => {
            // a0 holds eight DWords; larger subregister numbers wrap as the 3-bit field does.
            let at = A0 + (sub as usize & 7) * 4;
            u32::from_le_bytes([t.file[at], t.file[at + 1], t.file[at + 2], t.file[at + 3]])
        }
    }
}

/// Executes a send of `n` channels on the lanes in `mask`: its classified form when that
/// applies, else the general message frame.
#[inline]
pub fn execute(
    t: &mut Thread,
    platform: Platform,
    plan: &SendPlan,
    n: u8,
    mask: u32,
    mem: &mut dyn Memory,
) -> Result<Outcome, EuErrorKind> {
    if let Some(q) = plan.quick {
        if quick::run(t, q, mask, mem) {
            return Ok(Outcome { eot: plan.eot });
        }
    }
    execute_frame(t, platform, plan, n, mask, mem)
}

/// Executes a send through the general message frame (its quick form, if any, declined).
#[inline(never)]
fn execute_frame(
    t: &mut Thread,
    platform: Platform,
    plan: &SendPlan,
    n: u8,
    mask: u32,
    mem: &mut dyn Memory,
) -> Result<Outcome, EuErrorKind> {
    let desc = desc_value(t, plan.desc);
    let sfid = plan
        .shared
        .ok_or_else(|| EuErrorKind::Illegal(format!("SFID {} on {platform}", plan.sfid)))?;
    if mask & all_of(usize::from(n)) == 0 && per_channel(sfid, desc) {
        // Nothing to do (the response keeps its registers' bytes, as disabled channels'
        // do): a SIMD32 thread's second half when fewer than 17 channels are dispatched.
        return Ok(Outcome { eot: plan.eot });
    }
    let ex_desc = desc_value(t, plan.ex_desc);
    let mlen = isa_encoder::sendmsg::message_len(desc) as usize;
    let rlen = isa_encoder::sendmsg::response_len(desc) as usize;
    let ex_mlen = plan
        .src1_len
        .map_or((ex_desc >> 6 & 0x1f) as usize, usize::from);
    // The thread's message buffers (taken, and given back below; an error drops them).
    let mut payload = std::mem::take(&mut t.msg_payload);
    payload.clear();
    payload.extend_from_slice(regs(t, plan.src0_reg, mlen)?);
    if let Some(r) = plan.src1_reg {
        payload.extend_from_slice(regs(t, r, ex_mlen)?);
    }
    let mut resp = std::mem::take(&mut t.msg_resp);
    resp.clear();
    match plan.dst_reg {
        Some(r) => resp.extend_from_slice(regs(t, r, rlen)?),
        None => resp.resize(rlen * REG_BYTES, 0),
    }
    let mut msg = Msg {
        mlen,
        desc,
        ex_desc,
        payload,
        resp,
        n: usize::from(n),
        mask,
        platform,
    };
    match sfid {
        Sfid::Dc0 if scratch::is_scratch(desc) => {
            scratch::execute(&mut msg, t.dispatched_scratch, platform, mem)?
        }
        Sfid::Dc0 | Sfid::Dc1 | Sfid::Dc2 | Sfid::Dcro => hdc::execute(&mut msg, sfid, mem)?,
        Sfid::Ugm | Sfid::Ugml | Sfid::Slm => {
            lsc::execute(&mut msg, sfid, t.dispatched_scratch, mem)?
        }
        Sfid::Tgm => lsc::execute_tgm(&mut msg, mem)?,
        Sfid::Sampler => sampler::execute(&mut msg, mem)?,
        Sfid::Gateway => {
            if desc & 7 == gateway::GATEWAY_BARRIER {
                t.barrier_pending = true;
                mem.barrier_signal();
            }
        }
        Sfid::ThreadSpawner | Sfid::Null => {}
        other => {
            return Err(EuErrorKind::Unsupported(format!(
                "messages to shared function {other:?}"
            )))
        }
    }
    if let Some(r) = plan.dst_reg {
        let start = r as usize * REG_BYTES;
        t.file[start..start + msg.resp.len()].copy_from_slice(&msg.resp);
    }
    t.msg_payload = msg.payload;
    t.msg_resp = msg.resp;
    Ok(Outcome { eot: plan.eot })
}

/// Whether the message `desc` to `sfid` acts per enabled channel only, doing nothing when
/// none is: the sampler's messages (its cache flush has no effect either) and the HDC's
/// per-lane ones ([`hdc::per_channel`]).
fn per_channel(sfid: Sfid, desc: u32) -> bool {
    match sfid {
        Sfid::Sampler => true,
        Sfid::Dc0 if scratch::is_scratch(desc) => false,
        Sfid::Dc0 | Sfid::Dc1 | Sfid::Dc2 | Sfid::Dcro => hdc::per_channel(sfid, desc),
        _ => false,
    }
}

/// The integer atomic operations of the HDC encoding (desc\[11:8\]); LSC maps onto them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtomicOp {
    And,
    Or,
    Xor,
    Mov,
    Inc,
    Dec,
    Add,
    Sub,
    RevSub,
    Imax,
    Imin,
    Umax,
    Umin,
    Cmpxchg,
    PreDec,
    Fadd,
    Fsub,
    Fmin,
    Fmax,
    Load,
}

/// One 32-bit atomic: the new memory value from the old one and the operands.
pub(crate) fn atomic32(op: AtomicOp, old: u32, a: u32, b: u32) -> u32 {
    let f = |x: u32| f32::from_bits(x);
    match op {
        AtomicOp::Imax => (old as i32).max(a as i32) as u32,
        AtomicOp::Imin => (old as i32).min(a as i32) as u32,
        AtomicOp::Fadd => (f(old) + f(a)).to_bits(),
        AtomicOp::Fsub => (f(old) - f(a)).to_bits(),
        AtomicOp::Fmin => f(old).min(f(a)).to_bits(),
        AtomicOp::Fmax => f(old).max(f(a)).to_bits(),
        // The width-independent integer operations, at 32 bits.
        _ => integer_atomic(op, u64::from(old), u64::from(a), u64::from(b)) as u32,
    }
}

/// One 64-bit integer atomic (cl_khr_int64_base_atomics / _extended_atomics); None for the
/// float operations, which no 64-bit message of the simulated platforms has.
pub(crate) fn atomic64(op: AtomicOp, old: u64, a: u64, b: u64) -> Option<u64> {
    Some(match op {
        AtomicOp::Imax => (old as i64).max(a as i64) as u64,
        AtomicOp::Imin => (old as i64).min(a as i64) as u64,
        AtomicOp::Fadd | AtomicOp::Fsub | AtomicOp::Fmin | AtomicOp::Fmax => return None,
        _ => integer_atomic(op, old, a, b),
    })
}

/// The operations whose result does not depend on the width (the caller truncates) and
/// that do not read the operands as signed or float.
fn integer_atomic(op: AtomicOp, old: u64, a: u64, b: u64) -> u64 {
    match op {
        AtomicOp::And => old & a,
        AtomicOp::Or => old | a,
        AtomicOp::Xor => old ^ a,
        AtomicOp::Mov => a,
        AtomicOp::Inc => old.wrapping_add(1),
        AtomicOp::Dec | AtomicOp::PreDec => old.wrapping_sub(1),
        AtomicOp::Add => old.wrapping_add(a),
        AtomicOp::Sub => old.wrapping_sub(a),
        AtomicOp::RevSub => a.wrapping_sub(old),
        AtomicOp::Umax => old.max(a),
        AtomicOp::Umin => old.min(a),
        AtomicOp::Cmpxchg => {
            if old == a {
                b
            } else {
                old
            }
        }
        // Signed and float operations are the callers'.
        AtomicOp::Imax
        | AtomicOp::Imin
        | AtomicOp::Fadd
        | AtomicOp::Fsub
        | AtomicOp::Fmin
        | AtomicOp::Fmax
        | AtomicOp::Load => old,
    }
}

/// Memory behind one address: global VA or the shared local memory of a platform's group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Space {
    Global,
    Slm(Platform),
}

/// The SLM byte a message's 32-bit SLM offset `addr` addresses (see [`slm`]).
fn slm_offset(p: Platform, addr: u64) -> Result<u32, EuErrorKind> {
    let off = u32::try_from(addr).map_err(|_| EuErrorKind::PageFault { address: addr })?;
    Ok(slm::address(p, off))
}

pub(crate) fn mem_read(
    mem: &mut dyn Memory,
    space: Space,
    addr: u64,
    buf: &mut [u8],
) -> Result<(), EuErrorKind> {
    match space {
        Space::Global => mem.read(addr, buf)?,
        Space::Slm(p) => mem.slm_read(slm_offset(p, addr)?, buf)?,
    }
    Ok(())
}

pub(crate) fn mem_write(
    mem: &mut dyn Memory,
    space: Space,
    addr: u64,
    data: &[u8],
) -> Result<(), EuErrorKind> {
    match space {
        Space::Global => mem.write(addr, data)?,
        Space::Slm(p) => mem.slm_write(slm_offset(p, addr)?, data)?,
    }
    Ok(())
}

/// The SLM byte offset of a run of `len` message bytes from `addr`, when the run's bytes are
/// consecutive SLM bytes too (no carry into the bits [`slm`] drops).
fn slm_run(p: Platform, addr: u64, len: usize) -> Option<u32> {
    let off = u32::try_from(addr).ok()?;
    let last = u32::try_from(addr.checked_add(len.checked_sub(1)? as u64)?).ok()?;
    let at = slm::address(p, off);
    (slm::address(p, last) == at.wrapping_add(last - off)).then_some(at)
}

/// One access of `buf.len()` bytes at `addr` that the per-element accesses would make
/// piece by piece: true when it succeeded, false (nothing recorded) when the caller must
/// take it apart.
pub(crate) fn mem_read_all(mem: &mut dyn Memory, space: Space, addr: u64, buf: &mut [u8]) -> bool {
    match space {
        Space::Global => mem.read_all(addr, buf),
        Space::Slm(p) => slm_run(p, addr, buf.len()).is_some_and(|o| mem.slm_read_all(o, buf)),
    }
}

/// [`mem_read_all`] for writes.
pub(crate) fn mem_write_all(mem: &mut dyn Memory, space: Space, addr: u64, data: &[u8]) -> bool {
    match space {
        Space::Global => mem.write_all(addr, data),
        Space::Slm(p) => slm_run(p, addr, data.len()).is_some_and(|o| mem.slm_write_all(o, data)),
    }
}

/// One read-modify-write of a `width`-byte (at most 8) little-endian word through `access`,
/// which reads the word into its bytes, or with `store` writes its bytes: reads the old word,
/// writes `update(old)` (its low `width` bytes) when that gives a value, returns the old word.
pub fn read_modify_write<E>(
    width: usize,
    update: &dyn Fn(u64) -> Option<u64>,
    mut access: impl FnMut(&mut [u8], bool) -> Result<(), E>,
) -> Result<u64, E> {
    let mut word = [0u8; 8];
    access(&mut word[..width], false)?;
    let old = u64::from_le_bytes(word);
    if let Some(new) = update(old) {
        access(&mut new.to_le_bytes()[..width], true)?;
    }
    Ok(old)
}

/// [`Memory::atomic`] as a plain read then write of `mem`: the default, and what an
/// implementation that makes it indivisible runs under its lock.
pub fn plain_atomic<M: Memory + ?Sized>(
    mem: &mut M,
    addr: u64,
    width: usize,
    update: &dyn Fn(u64) -> Option<u64>,
) -> Result<u64, MemFault> {
    read_modify_write(width, update, |word, store| {
        if store {
            mem.write(addr, word)
        } else {
            mem.read(addr, word)
        }
    })
}

/// An integer atomic on the `width`-byte (4 or 8) word at `addr` returning the old value: at
/// 32 bits any [`AtomicOp`], at 64 bits the integer ones (cl_khr_int64_*_atomics).
pub(crate) fn atomic_at(
    mem: &mut dyn Memory,
    space: Space,
    addr: u64,
    op: AtomicOp,
    (a, b): (u64, u64),
    width: usize,
) -> Result<u64, EuErrorKind> {
    let wide = width == 8;
    let access = if wide {
        align::Access::Atomic64
    } else {
        align::Access::Atomic32
    };
    align::check(access, addr)?;
    let apply = |old: u64| match wide {
        true => atomic64(op, old, a, b),
        false => Some(u64::from(atomic32(op, old as u32, a as u32, b as u32))),
    };
    if wide && apply(0).is_none() {
        return Err(EuErrorKind::Unsupported(format!("64-bit {op:?} atomic")));
    }
    let update = |old| (op != AtomicOp::Load).then(|| apply(old)).flatten();
    if space == Space::Global {
        // Other groups of the walker may run on other host threads: one indivisible access.
        return Ok(mem.atomic(addr, width, &update)?);
    }
    // Shared local memory belongs to one group, whose threads run on one host thread.
    if let Space::Slm(p) = space {
        mem.slm_atomic(slm_offset(p, addr)?);
    }
    read_modify_write(width, &update, |word, store| {
        if store {
            mem_write(mem, space, addr, word)
        } else {
            mem_read(mem, space, addr, word)
        }
    })
}

/// Whether a fence message (`sfid`, descriptor `desc`) orders global memory beyond the
/// work-group: an HDC fence not of shared local memory (binding table index `BTI_SLM`), an LSC
/// fence of UGM or TGM at tile, GPU or system scope.
pub fn fence_is_global(sfid: Sfid, desc: u32) -> bool {
    use isa_encoder::sendmsg::build::BTI_SLM;
    use isa_encoder::sendmsg::lsc::FENCE_SCOPE;
    match sfid {
        Sfid::Dc0 | Sfid::Dc1 => desc & 0xff != u32::from(BTI_SLM),
        Sfid::Ugm | Sfid::Ugml | Sfid::Tgm => (desc >> FENCE_SCOPE.0) & 7 >= 2,
        _ => false,
    }
}

#[cfg(test)]
mod fence_tests {
    use super::*;

    #[test]
    fn fences_of_global_memory_beyond_the_group_are_told_apart() {
        // iga64's texts of IGC's fences (Gen12LP HDC, Xe-HPG LSC).
        assert!(fence_is_global(Sfid::Dc0, 0x0219_E000)); // synchronized global fence
        assert!(fence_is_global(Sfid::Dc0, 0x0219_E100)); // ... flushing L1
        assert!(!fence_is_global(Sfid::Dc0, 0x0219_E0FE)); // synchronized SLM fence
        assert!(fence_is_global(Sfid::Ugm, 0x0214_171F)); // fence.ugm.evict.gpu
        assert!(fence_is_global(Sfid::Tgm, 0x0210_171F)); // fence.tgm.evict.gpu
        assert!(!fence_is_global(Sfid::Ugm, 0x0214_031F)); // fence.ugm.none.local
        assert!(!fence_is_global(Sfid::Slm, 0x0210_011F)); // fence.slm.none.group
    }
}

#[cfg(test)]
mod aligned_tests {
    use super::aligned;

    #[test]
    fn aligned_is_divisibility_for_every_alignment() {
        for align in 0..=130u64 {
            for x in (0..600u64).chain([u64::MAX - 300..=u64::MAX].into_iter().flatten()) {
                let want = if align == 0 { x == 0 } else { x % align == 0 };
                assert_eq!(aligned(x, align), want, "{x} by {align}");
            }
        }
    }
}
