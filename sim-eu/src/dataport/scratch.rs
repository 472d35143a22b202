//! Scratch space: IGC's register spill and fill through the data cache's HWord scratch block
//! messages (DC0 with descriptor bit 18 set), and how each generation locates a thread's slice.
//!
//! Descriptor (iga's `tryDecodeDC0ScratchBlock`, IGC's spill manager): \[11:0\] offset in
//! HWords (32 bytes) from the start of the thread's slice, \[13:12\] block size (1, 2, 4 or 8
//! HWords), \[17\] write, \[18\] scratch. The header must be present but its contents do not
//! locate the slice: IGC's spill code on every platform without LSC passes the spilled data
//! itself as the header (vISA's spill manager), and those kernels run on the hardware, which
//! keeps the slice the thread was dispatched with. So the slice comes from r0 as the thread
//! started ([`Thread`](crate::Thread) keeps DWords 3 and 5):
//! - Gen9–Gen12LP ([`ScratchStyle::GeneralState`]): DWord 5 \[31:10\] is the thread's slice as an
//!   offset from General State Base Address, DWord 3 \[3:0\] the slice size as log2(bytes / 1 KiB).
//! - Xe-HPG ([`ScratchStyle::Surface`]): DWord 5 \[31:10\] is CFE_STATE's Scratch Space Buffer,
//!   the offset of the SURFTYPE_SCRATCH surface state in 64-byte units; the surface gives the
//!   buffer, the slice size (Surface Pitch + 1) and the slice count. The slice is the thread's
//!   hardware thread slot, which the dispatcher puts in DWord 5 \[9:0\] (the FFTID field).
//!
//! A block that leaves the thread's slice is an error, never an access to a neighbour's slice.
//! A write stores DWord `i` of its block only where channel `i` is enabled, as the OWord block
//! messages do (`hdc::block_write_masked`): IGC's spill code writes one-HWord blocks at SIMD8
//! without NoMask inside divergent code and fills them whole afterwards, so the disabled
//! channels' DWords must keep what was spilled there before (stored whole, kernels that spill
//! computed wrong values on Gen11 and later where the same kernel compiled without spills did
//! not). A block longer than the execution size under a partial mask is stored whole: how its
//! DWords past the channels map is not known here. Reads fill the whole block.

use platform::Platform;

use super::{Memory, Msg};
use crate::error::EuErrorKind;
use crate::regfile::REG_BYTES;

/// How a generation finds a thread's scratch slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScratchStyle {
    /// MEDIA_VFE_STATE: slices at General State Base Address + r0.5\[31:10\].
    GeneralState,
    /// CFE_STATE: a SURFTYPE_SCRATCH surface state named by r0.5\[31:10\].
    Surface,
}

/// The style of each platform, ordered like [`Platform`].
const STYLES: [ScratchStyle; 4] = [
    ScratchStyle::GeneralState,
    ScratchStyle::GeneralState,
    ScratchStyle::GeneralState,
    ScratchStyle::Surface,
];

/// How `p` locates scratch.
pub fn style(p: Platform) -> ScratchStyle {
    STYLES[p as usize]
}

/// r0 (and message header) DWord with the slice pointer, and the one with the size code.
pub const R0_SCRATCH_POINTER: usize = 5;
pub const R0_SCRATCH_SIZE: usize = 3;
/// Bits 31:10 of DWord 5 hold the pointer; bits 9:0 the FFTID.
pub const POINTER_MASK: u32 = !0x3ff;

/// Whether a block message to `bti` adds its header's Buffer Base Offset
/// ([`block_base_offset`] of DWord [`R0_SCRATCH_POINTER`]) to its offset: the stateless
/// indices do, on the platforms whose threads find scratch relative to General State Base
/// Address, where a header copied from r0 carries the thread's scratch pointer. So a
/// stateless block message whose header is r0 reaches the thread's own slice: Mesa's Gen6
/// spills were built so, and IGC's are when a kernel's private memory leaves the scratch
/// block message's 128 KiB (vISA's OWord spill path: header r0, the offset in OWords in
/// DWord 2). Headers that IGC builds from zero add nothing.
pub fn adds_block_base_offset(p: Platform, bti: u32) -> bool {
    style(p) == ScratchStyle::GeneralState && isa_encoder::sendmsg::build::is_stateless_bti(bti)
}

/// The Buffer Base Offset a header DWord 5 `dw5` holds (bits 31:10, as r0's slice pointer).
pub fn block_base_offset(dw5: u32) -> u64 {
    u64::from(dw5 & POINTER_MASK)
}

/// Descriptor bit 18: a scratch block message.
pub fn is_scratch(desc: u32) -> bool {
    desc >> 18 & 1 != 0
}

/// One thread's slice: its first byte's GPU address and its size.
pub(crate) struct Slice {
    pub(crate) base: u64,
    pub(crate) bytes: u64,
}

pub(crate) fn slice(
    dispatched: [u32; 2],
    p: Platform,
    mem: &mut dyn Memory,
) -> Result<Slice, EuErrorKind> {
    let [dw3, dw5] = dispatched;
    match style(p) {
        ScratchStyle::GeneralState => {
            let general = mem.general_state_base()?;
            Ok(Slice {
                base: general.wrapping_add(u64::from(dw5 & POINTER_MASK)),
                bytes: 1024 << (dw3 & 0xf),
            })
        }
        ScratchStyle::Surface => surface_slice(surface_state_offset(dw5), dw5, mem),
    }
}

/// Xe-HPG: the offset in the surface-state heap of the SURFTYPE_SCRATCH surface state that r0
/// DWord 5 `dw5` names (bits 31:10, in 64-byte units).
pub(crate) fn surface_state_offset(dw5: u32) -> u32 {
    (dw5 >> 10) << 6
}

/// The slice of the SURFTYPE_SCRATCH surface whose state is at `offset` (in the surface-state
/// heap) that the thread dispatched with r0 DWord 5 `dw5` owns: the slot in its low bits picks
/// it, as the hardware picks a thread's slice from a scratch surface however a message names
/// the surface.
pub(crate) fn surface_slice(
    offset: u32,
    dw5: u32,
    mem: &mut dyn Memory,
) -> Result<Slice, EuErrorKind> {
    let s = mem.scratch_surface(offset)?;
    let slot = u64::from(dw5 & !POINTER_MASK);
    if slot >= s.slices {
        return Err(EuErrorKind::Scratch(format!(
            "thread slot {slot} beyond the {} slices of the scratch surface",
            s.slices
        )));
    }
    Ok(Slice {
        base: s.base.wrapping_add(slot * s.slice),
        bytes: s.slice,
    })
}

/// Executes a HWord scratch block read or write for a thread dispatched with r0 DWords 3 and 5
/// `dispatched`.
pub(super) fn execute(
    msg: &mut Msg,
    dispatched: [u32; 2],
    p: Platform,
    mem: &mut dyn Memory,
) -> Result<(), EuErrorKind> {
    let offset = u64::from(msg.field(0, 12)) * REG_BYTES as u64;
    let bytes = REG_BYTES << msg.field(12, 2);
    let write = msg.field(17, 1) != 0;
    let s = slice(dispatched, p, mem)?;
    if offset + bytes as u64 > s.bytes {
        return Err(EuErrorKind::Scratch(format!(
            "{} of {bytes} bytes at offset {offset:#x} leaves the thread's {}-byte slice",
            if write { "write" } else { "read" },
            s.bytes
        )));
    }
    let at = s.base.wrapping_add(offset);
    if write {
        if msg.mask == 0 {
            return Ok(());
        }
        let data = msg.data(REG_BYTES, bytes);
        if data.len() != bytes {
            return Err(EuErrorKind::Illegal(format!(
                "scratch write of {bytes} bytes with {} payload bytes",
                data.len()
            )));
        }
        if msg.all_enabled() || bytes / 4 > msg.n {
            mem.write(at, data)?;
        } else {
            let lanes = msg.lane_bits(32);
            for (i, d) in data.chunks_exact(4).enumerate() {
                if lanes >> i & 1 != 0 {
                    mem.write(at + 4 * i as u64, d)?;
                }
            }
        }
    } else {
        if msg.resp.len() < bytes {
            return Err(EuErrorKind::Illegal(format!(
                "scratch read of {bytes} bytes into {} response bytes",
                msg.resp.len()
            )));
        }
        msg.fill_resp(0, bytes, |buf| mem.read(at, buf))?;
    }
    Ok(())
}
