//! Scratch space: the per-thread memory IGC spills registers to (and puts private arrays in).
//!
//! Each hardware thread owns one slice of a scratch buffer. How a generation finds its slice:
//! - Gen9–Gen12LP: MEDIA_VFE_STATE holds the buffer as an offset from General State Base
//!   Address (1 KiB aligned) and the slice size as log2(bytes / 1 KiB); the thread dispatcher
//!   hands each thread its slice's offset in r0.5\[31:10\] and the size code in r0.3\[3:0\].
//! - Xe-HPG: the buffer is a RENDER_SURFACE_STATE of type SURFTYPE_SCRATCH in the surface state
//!   heap (base = buffer, Surface Pitch = slice bytes − 1, the buffer-style size fields = slice
//!   count − 1, NEO's `setRenderSurfaceStateForScratchResource`); CFE_STATE's Scratch Space
//!   Buffer holds that surface state's offset in 64-byte units (NEO's
//!   `SCRATCHSPACEBUFFER_BIT_SHIFT`), which the thread receives in r0.5\[31:10\].

use super::dispatch::Heaps;
use super::platform_data::{gen_data, mocs_wb, WalkerKind};
use super::surface::{format, surface_type};
use super::BuildError;
use crate::packets::RenderSurfaceState;
use platform::Platform;

/// Largest Gen9–Gen12LP slice: Per Thread Scratch Space 11 (2 MiB).
const MAX_VFE_SLICE: u32 = 2 << 20;
/// Largest Xe-HPG slice: the 18-bit Surface Pitch field.
const MAX_SURFACE_SLICE: u32 = 1 << 18;
/// Xe-HPG slices are 64-byte multiples (NEO aligns the kernel's size up to 64).
const SURFACE_SLICE_ALIGN: u32 = 64;
/// Gen9–Gen12LP Scratch Space Base Pointer alignment (bits 47:10).
const VFE_BASE_ALIGN: u64 = 1 << 10;
/// Slice offsets reach threads in r0.5, a 32-bit register.
const R0_POINTER_LIMIT: u64 = 1 << 32;

/// A scratch buffer for every dispatch of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScratchSpace {
    /// GPU virtual address of the buffer.
    pub address: u64,
    /// Bytes of each thread's slice, as [`scratch_slice_bytes`] rounds it.
    pub slice: u32,
    /// Slices in the buffer: at least the device's
    /// [`DeviceLimits::scratch_slices`](super::DeviceLimits).
    pub slices: u32,
}

/// The slice size a generation programs for a kernel needing `bytes` per thread: a power of
/// two from 1 KiB on Gen9–Gen12LP, a multiple of 64 bytes on Xe-HPG. 0 stays 0.
pub fn scratch_slice_bytes(p: Platform, bytes: u32) -> Result<u32, BuildError> {
    if bytes == 0 {
        return Ok(0);
    }
    let max = match gen_data(p).walker {
        WalkerKind::Gpgpu => MAX_VFE_SLICE,
        WalkerKind::Compute => MAX_SURFACE_SLICE,
    };
    // Checked before rounding: rounding a hostile size up would overflow.
    if bytes > max {
        return Err(BuildError::ScratchTooLarge(bytes));
    }
    Ok(match gen_data(p).walker {
        WalkerKind::Gpgpu => bytes.max(1024).next_power_of_two(),
        WalkerKind::Compute => bytes.div_ceil(SURFACE_SLICE_ALIGN) * SURFACE_SLICE_ALIGN,
    })
}

/// MEDIA_VFE_STATE Per Thread Scratch Space: log2(bytes / 1 KiB), sizes from 1 KiB to 2 MiB
/// rounded up to a power of two.
pub fn scratch_encoding(bytes: u32) -> Result<u32, BuildError> {
    if bytes == 0 {
        return Ok(0);
    }
    if bytes > MAX_VFE_SLICE {
        return Err(BuildError::ScratchTooLarge(bytes));
    }
    Ok(bytes.div_ceil(1024).next_power_of_two().trailing_zeros())
}

/// The SURFTYPE_SCRATCH surface state describing `s` (Xe-HPG).
pub fn scratch_surface(p: Platform, s: &ScratchSpace) -> Result<RenderSurfaceState, BuildError> {
    if s.slice == 0 || !s.slice.is_multiple_of(SURFACE_SLICE_ALIGN) || s.slice > MAX_SURFACE_SLICE {
        return Err(BuildError::BadScratch(
            "Xe-HPG scratch slices are 64-byte multiples up to 256 KiB",
        ));
    }
    // NEO rounds the slice count up to 4 and stores it minus one like a buffer size.
    let n = s.slices.div_ceil(4) * 4 - 1;
    if s.slices == 0 || n >= 1 << 31 {
        return Err(BuildError::BadScratch("scratch slice count out of range"));
    }
    let g = gen_data(p);
    Ok(RenderSurfaceState {
        surface_type: surface_type::SCRATCH,
        surface_format: format::RAW.number,
        surface_horizontal_alignment: g.halign,
        surface_vertical_alignment: g.valign,
        width: n & 0x7F,
        height: (n >> 7) & 0x3FFF,
        depth: (n >> 21) & 0x3FF,
        surface_pitch: s.slice - 1,
        mocs: mocs_wb(p),
        surface_base_address: s.address,
        ..Default::default()
    })
}

/// Front-end (VFE/CFE) settings shared by every dispatch of a batch; build it with
/// [`front_end`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FrontEnd {
    /// Scratch bytes per thread (0 for none).
    pub scratch_per_thread: u32,
    /// Slices in the scratch buffer (checked against the device's thread slots when the
    /// preamble is built).
    pub scratch_slices: u32,
    /// Gen9–Gen12LP: the scratch buffer as an offset from General State Base Address (1 KiB
    /// aligned).
    pub scratch_offset: u64,
    /// Xe-HPG: offset of the SURFTYPE_SCRATCH surface state from Surface State Base Address
    /// (64-byte aligned).
    pub scratch_surface_state: u32,
    /// Threads get the platform's Large GRF Mode register count (STATE_COMPUTE_MODE; Xe-HPG
    /// only: elsewhere the preamble refuses it).
    pub large_grf: bool,
}

/// The front-end settings for `scratch` (None: no scratch). On Xe-HPG this writes the scratch
/// surface state into the surface heap; before it, `general_base` is the General State Base
/// Address the batch will program.
pub fn front_end(
    p: Platform,
    heaps: &mut Heaps,
    general_base: u64,
    scratch: Option<&ScratchSpace>,
) -> Result<FrontEnd, BuildError> {
    let Some(s) = scratch else {
        return Ok(FrontEnd::default());
    };
    match gen_data(p).walker {
        WalkerKind::Gpgpu => {
            if !s.slice.is_power_of_two() || !(1024..=MAX_VFE_SLICE).contains(&s.slice) {
                return Err(BuildError::BadScratch(
                    "Gen9-Gen12LP scratch slices are powers of two from 1 KiB to 2 MiB",
                ));
            }
            let offset = s
                .address
                .checked_sub(general_base)
                .ok_or(BuildError::BadScratch(
                    "scratch buffer below General State Base Address",
                ))?;
            if !offset.is_multiple_of(VFE_BASE_ALIGN) {
                return Err(BuildError::BadScratch(
                    "scratch offset must be 1 KiB aligned",
                ));
            }
            // Threads get their slice's offset in the 32 bits of r0.5.
            let end = offset + u64::from(s.slice) * u64::from(s.slices);
            if end > R0_POINTER_LIMIT {
                return Err(BuildError::BadScratch(
                    "scratch buffer must end within 4 GiB of General State Base Address",
                ));
            }
            Ok(FrontEnd {
                scratch_per_thread: s.slice,
                scratch_slices: s.slices,
                scratch_offset: offset,
                scratch_surface_state: 0,
                large_grf: false,
            })
        }
        WalkerKind::Compute => {
            let state = scratch_surface(p, s)?;
            // Never at offset 0, so Scratch Space Buffer is 0 only in batches without scratch.
            let mut placed = heaps.surface.alloc(16, 64)?;
            if placed.0 == 0 {
                placed = heaps.surface.alloc(16, 64)?;
            }
            let (at, mem) = placed;
            crate::codec::Packet::pack(&state, p, mem)?;
            Ok(FrontEnd {
                scratch_per_thread: s.slice,
                scratch_slices: s.slices,
                scratch_offset: 0,
                scratch_surface_state: at,
                large_grf: false,
            })
        }
    }
}
