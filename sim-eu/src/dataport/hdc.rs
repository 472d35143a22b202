//! Legacy data-port (HDC) messages: OWord block, untyped surface, byte/dword scattered, A64
//! block/untyped/scattered, atomics, fences. Descriptor fields as in
//! `isa_encoder::sendmsg::hdc`: \[19\] header present, \[18:14\] message type, \[13:8\] message
//! control, \[7:0\] binding table index.

use isa_encoder::sendmsg::Sfid;

use super::align::{check, Access};
use super::media;
use super::scratch;
use super::{
    atomic_at, lanes_of, mem_read, mem_read_all, mem_write, mem_write_all, AtomicOp, Memory, Msg,
    Space,
};
use crate::error::EuErrorKind;
use crate::regfile::REG_BYTES;

/// OWords per block-size code \[10:8\] (1L and 1H both move one OWord).
/// OWords of a block message by its block-size code (desc\[10:8\]).
const OWORDS: [usize; 8] = [1, 1, 2, 4, 8, 16, 0, 0];

/// DC0 message types of the byte scattered messages.
pub(super) use isa_encoder::sendmsg::hdc::types::{
    DC0_BYTE_GATHER as BYTE_SCATTERED_READ, DC0_BYTE_SCATTER as BYTE_SCATTERED_WRITE,
};
/// DC0 message types of the OWord block messages through a binding-table entry.
pub(super) use isa_encoder::sendmsg::hdc::types::{
    DC0_OWORD_READ as OWORD_READ, DC0_OWORD_READ_UNALIGNED as OWORD_READ_UNALIGNED,
    DC0_OWORD_WRITE as OWORD_WRITE,
};

/// An OWord block message's bytes and where they start in their first register, by its
/// block-size code: code 1 is one OWord in the high half of its register.
pub(super) fn oword_block(code: u32) -> (usize, usize) {
    let bytes = OWORDS[(code & 7) as usize] * 16;
    (bytes, if code == 1 { 16 } else { 0 })
}

/// HDC integer atomic operations by desc\[11:8\]; 0 (64-bit compare-exchange) is not modeled.
const INT_ATOMICS: [Option<AtomicOp>; 16] = [
    None,
    Some(AtomicOp::And),
    Some(AtomicOp::Or),
    Some(AtomicOp::Xor),
    Some(AtomicOp::Mov),
    Some(AtomicOp::Inc),
    Some(AtomicOp::Dec),
    Some(AtomicOp::Add),
    Some(AtomicOp::Sub),
    Some(AtomicOp::RevSub),
    Some(AtomicOp::Imax),
    Some(AtomicOp::Imin),
    Some(AtomicOp::Umax),
    Some(AtomicOp::Umin),
    Some(AtomicOp::Cmpxchg),
    Some(AtomicOp::PreDec),
];

/// Where a 32-bit offset of a BTI message lands: (space, base, size limit).
struct Target {
    space: Space,
    base: u64,
    limit: u64,
}

fn bti_target(msg: &Msg, mem: &mut dyn Memory) -> Result<Target, EuErrorKind> {
    let bti = msg.desc & 0xff;
    if bti == u32::from(isa_encoder::sendmsg::build::BTI_SLM) {
        return Ok(Target {
            space: Space::Slm(msg.platform),
            base: 0,
            limit: u64::MAX,
        });
    }
    let s = mem.surface(bti)?;
    Ok(Target {
        space: Space::Global,
        base: s.base,
        limit: s.width,
    })
}

/// Where a scattered message's per-lane addresses land: A64 addresses are virtual addresses,
/// 32-bit ones are offsets into the message's binding-table surface.
fn lane_target(msg: &Msg, mem: &mut dyn Memory, a64: bool) -> Result<Target, EuErrorKind> {
    if a64 {
        Ok(Target {
            space: Space::Global,
            base: 0,
            limit: u64::MAX,
        })
    } else {
        bti_target(msg, mem)
    }
}

/// Lane `i`'s address in a scattered message's address payload (after `h` header bytes).
fn lane_address(msg: &Msg, h: usize, i: usize, a64: bool) -> u64 {
    if a64 {
        msg.u64_at(h + 8 * i)
    } else {
        u64::from(msg.u32_at(h + 4 * i))
    }
}

impl Target {
    /// How many of `len` bytes at `offset` lie inside the surface: the bounds check is per
    /// element, so a block straddling the end still moves its in-bounds part (IGC reads whole
    /// OWord blocks of which only the in-bounds part is used).
    fn inside(&self, offset: u64, len: usize) -> usize {
        self.limit.saturating_sub(offset).min(len as u64) as usize
    }
    /// Reads `buf` at `offset`; bytes past the surface's end read as zeros.
    fn read(&self, mem: &mut dyn Memory, offset: u64, buf: &mut [u8]) -> Result<(), EuErrorKind> {
        let n = self.inside(offset, buf.len());
        let mut fill = 0;
        if n < buf.len() {
            fill = mem.out_of_surface(self.base, self.limit, offset, buf.len(), false);
        }
        let (inside, past) = buf.split_at_mut(n);
        past.fill(fill);
        if inside.is_empty() {
            return Ok(());
        }
        mem_read(mem, self.space, self.base.wrapping_add(offset), inside)
    }
    /// Reads `buf` at `offset` in one access when it is all in bounds and mapped (see
    /// [`mem_read_all`]).
    fn read_all(&self, mem: &mut dyn Memory, offset: u64, buf: &mut [u8]) -> bool {
        offset
            .checked_add(buf.len() as u64)
            .is_some_and(|end| end <= self.limit)
            && mem_read_all(mem, self.space, self.base.wrapping_add(offset), buf)
    }
    /// Writes `data` at `offset` in one access when it is all in bounds and mapped.
    fn write_all(&self, mem: &mut dyn Memory, offset: u64, data: &[u8]) -> bool {
        offset
            .checked_add(data.len() as u64)
            .is_some_and(|end| end <= self.limit)
            && mem_write_all(mem, self.space, self.base.wrapping_add(offset), data)
    }
    /// Writes `data` at `offset`; bytes past the surface's end are dropped.
    fn write(&self, mem: &mut dyn Memory, offset: u64, data: &[u8]) -> Result<(), EuErrorKind> {
        let n = self.inside(offset, data.len());
        if n < data.len() {
            mem.out_of_surface(self.base, self.limit, offset, data.len(), true);
        }
        let inside = &data[..n];
        if inside.is_empty() {
            return Ok(());
        }
        mem_write(mem, self.space, self.base.wrapping_add(offset), inside)
    }
}

/// The first lane's address when all `lanes` lanes are enabled and their addresses step by
/// `step` bytes (a DWord, or a byte scattered message's element) without wrapping.
fn lane_run(msg: &Msg, h: usize, lanes: usize, a64: bool, step: u64) -> Option<u64> {
    if msg.n < lanes || msg.lane_bits(lanes).count_ones() as usize != lanes {
        return None;
    }
    let first = lane_address(msg, h, 0, a64);
    first.checked_add(step * lanes as u64)?;
    (1..lanes)
        .all(|i| lane_address(msg, h, i, a64) == first + step * i as u64)
        .then_some(first)
}

/// Lanes of an untyped/scattered message from its SIMD-mode bits. The SIMD mode, not the
/// instruction's execution size, lays out the payload: a `(1|M0)` SIMD8 A64 write (IGC's store
/// of a uniform value) still carries eight address slots before its data. The execution size
/// and mask only select which lanes access memory (`Msg::lane_bits`).
fn simd_lanes(simd16: bool) -> usize {
    if simd16 {
        16
    } else {
        8
    }
}

fn header_bytes(msg: &Msg) -> usize {
    if msg.field(19, 1) != 0 {
        REG_BYTES
    } else {
        0
    }
}

/// Bytes of one per-lane block of `elem` bytes, padded to whole registers.
pub(super) fn block(lanes: usize, elem: usize) -> usize {
    (lanes * elem).div_ceil(REG_BYTES) * REG_BYTES
}

/// The HDC messages the simulator models, by SFID and message type (desc\[18:14\]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    OwordRead { unaligned: bool },
    OwordWrite,
    DwordScattered { write: bool },
    ByteScattered { write: bool },
    Fence,
    Untyped { write: bool, a64: bool },
    A64Scattered { write: bool },
    A64Block { write: bool },
    Atomic { a64: bool },
    Typed { write: bool },
    MediaRead,
    MediaWrite,
}

impl Op {
    fn of(sfid: Sfid, ty: u32) -> Option<Op> {
        use isa_encoder::sendmsg::hdc::types::*;
        Some(match (sfid, ty) {
            (Sfid::Dc0, DC0_OWORD_READ) => Op::OwordRead { unaligned: false },
            (Sfid::Dc0, DC0_OWORD_READ_UNALIGNED) => Op::OwordRead { unaligned: true },
            (Sfid::Dc0, DC0_OWORD_WRITE) => Op::OwordWrite,
            (Sfid::Dc0, DC0_DWORD_GATHER) => Op::DwordScattered { write: false },
            (Sfid::Dc0, DC0_DWORD_SCATTER) => Op::DwordScattered { write: true },
            (Sfid::Dc0, DC0_BYTE_GATHER) => Op::ByteScattered { write: false },
            (Sfid::Dc0, DC0_BYTE_SCATTER) => Op::ByteScattered { write: true },
            (Sfid::Dc0, DC0_FENCE) => Op::Fence,
            (Sfid::Dc1, DC1_UNTYPED_READ) => Op::Untyped {
                write: false,
                a64: false,
            },
            (Sfid::Dc1, DC1_UNTYPED_WRITE) => Op::Untyped {
                write: true,
                a64: false,
            },
            (Sfid::Dc1, DC1_A64_UNTYPED_READ) => Op::Untyped {
                write: false,
                a64: true,
            },
            (Sfid::Dc1, DC1_A64_UNTYPED_WRITE) => Op::Untyped {
                write: true,
                a64: true,
            },
            (Sfid::Dc1, DC1_A64_GATHER) => Op::A64Scattered { write: false },
            (Sfid::Dc1, DC1_A64_SCATTER) => Op::A64Scattered { write: true },
            (Sfid::Dc1, DC1_A64_BLOCK_READ) => Op::A64Block { write: false },
            (Sfid::Dc1, DC1_A64_BLOCK_WRITE) => Op::A64Block { write: true },
            (Sfid::Dc1, DC1_ATOMIC) => Op::Atomic { a64: false },
            (Sfid::Dc1, DC1_A64_ATOMIC) => Op::Atomic { a64: true },
            (Sfid::Dc1, DC1_TYPED_READ) => Op::Typed { write: false },
            (Sfid::Dc1, DC1_TYPED_WRITE) => Op::Typed { write: true },
            (Sfid::Dc1, DC1_MEDIA_READ) => Op::MediaRead,
            (Sfid::Dc1, DC1_MEDIA_WRITE) => Op::MediaWrite,
            _ => return None,
        })
    }

    /// Whether everything the message does is done per enabled channel: an address and data
    /// per lane, none from a header or the message as a whole (block and media messages move
    /// a block whatever the mask, a fence orders everything).
    fn per_channel(self) -> bool {
        match self {
            Op::DwordScattered { .. }
            | Op::ByteScattered { .. }
            | Op::Untyped { .. }
            | Op::A64Scattered { .. }
            | Op::Atomic { .. }
            | Op::Typed { .. } => true,
            Op::OwordRead { .. }
            | Op::OwordWrite
            | Op::Fence
            | Op::A64Block { .. }
            | Op::MediaRead
            | Op::MediaWrite => false,
        }
    }
}

/// Whether the HDC message `desc` to `sfid` acts per enabled channel only (so with none
/// enabled it does nothing).
pub(super) fn per_channel(sfid: Sfid, desc: u32) -> bool {
    Op::of(sfid, message_type(desc)).is_some_and(Op::per_channel)
}

/// Whether the HDC message `desc` to `sfid` is a load or a store: run again after a fault
/// part way, it leaves registers and memory as one run would (not an atomic operation,
/// whose first run's lanes would apply twice; not a fence).
pub(super) fn loads_or_stores(sfid: Sfid, desc: u32) -> bool {
    Op::of(sfid, message_type(desc)).is_some_and(|op| !matches!(op, Op::Atomic { .. } | Op::Fence))
}

/// The message type field of `desc`.
fn message_type(desc: u32) -> u32 {
    let (at, len) = isa_encoder::sendmsg::hdc::MSG_TYPE;
    desc >> at & ((1 << len) - 1)
}

pub(super) fn execute(msg: &mut Msg, sfid: Sfid, mem: &mut dyn Memory) -> Result<(), EuErrorKind> {
    let ty = message_type(msg.desc);
    let Some(op) = Op::of(sfid, ty) else {
        return Err(EuErrorKind::Unsupported(format!(
            "{sfid:?} message type {ty:#x} (desc {:#010x})",
            msg.desc
        )));
    };
    match op {
        Op::OwordRead { unaligned } => oword_read_bti(msg, mem, unaligned),
        Op::OwordWrite => oword_write_bti(msg, mem),
        Op::DwordScattered { write } => dword_scattered(msg, mem, write),
        Op::ByteScattered { write } => byte_scattered(msg, mem, write),
        Op::Fence => {
            mem.fence(super::fence_is_global(sfid, msg.desc));
            Ok(())
        }
        Op::Untyped { write, a64 } => untyped(msg, mem, write, a64),
        Op::A64Scattered { write } => a64_scattered(msg, mem, write),
        Op::A64Block { write } => a64_block(msg, mem, write),
        Op::Atomic { a64 } => atomic(msg, mem, a64),
        Op::Typed { write } => super::typed::execute(msg, mem, write),
        Op::MediaRead => media::read(msg, mem),
        Op::MediaWrite => media::write(msg, mem),
    }
}

/// OWord block read through a binding table entry. Type 1 takes a byte offset in header
/// DWord 2 and needs DWord alignment (IGC emits it for `intel_sub_group_block_read`, whose
/// pointer need only be 4-byte aligned); type 0 takes the offset in OWords. iga64 prints type 1
/// as "oword aligned block read": its names do not follow the alignment rule.
fn oword_read_bti(msg: &mut Msg, mem: &mut dyn Memory, unaligned: bool) -> Result<(), EuErrorKind> {
    let target = bti_target(msg, mem)?;
    let (off, access) = if unaligned {
        (u64::from(msg.u32_at(8)), Access::OwordBlockUnaligned)
    } else {
        (aligned_oword_offset(msg), Access::OwordBlock)
    };
    let off = off + base_offset(msg);
    check(access, target.base.wrapping_add(off))?;
    let (bytes, at) = oword_block(msg.field(8, 3));
    block_read_masked(msg, at, bytes, |o, buf| target.read(mem, off + o, buf))
}

/// An OWord/HWord block read's writeback: DWord `i` of the block goes to the destination only
/// where channel `i` of the send is enabled (execution mask and predicate); the other DWords
/// keep the register's value. Intel's oneDNN relies on it: its generated Xe-HPG convolutions
/// zero a register, then read a block into it under a per-channel predicate that is false for
/// the padding columns, which must stay zero (OpenVINO's f16 convolutions on dg2 are wrong
/// otherwise). How channels beyond the execution size map to DWords is not known here: a block
/// longer than the execution size with some channel disabled is refused as unsupported.
fn block_read_masked(
    msg: &mut Msg,
    at: usize,
    bytes: usize,
    mut read: impl FnMut(u64, &mut [u8]) -> Result<(), EuErrorKind>,
) -> Result<(), EuErrorKind> {
    let Some(enabled) = enabled_dwords(msg, bytes, "read")? else {
        return msg.fill_resp(at, bytes, |buf| read(0, buf));
    };
    // Only the enabled DWords are read, as a block write writes only those: a disabled one is
    // no access (the sanitizer sees none), so padding a guard leaves out is never touched.
    for i in enabled {
        let mut d = [0u8; 4];
        read(4 * i as u64, &mut d)?;
        msg.put(at + 4 * i, &d);
    }
    Ok(())
}

/// The DWords of a `bytes`-long block that a masked block message moves (DWord `i` with
/// channel `i`), or None when every channel is enabled (the whole block moves).
fn enabled_dwords(msg: &Msg, bytes: usize, what: &str) -> Result<Option<Vec<usize>>, EuErrorKind> {
    if msg.all_enabled() {
        return Ok(None);
    }
    let dwords = bytes / 4;
    if dwords > msg.n {
        return Err(EuErrorKind::Unsupported(format!(
            "a {bytes}-byte block {what} at SIMD{} with channels {:#x} enabled",
            msg.n,
            msg.lane_bits(32)
        )));
    }
    Ok(Some(
        lanes_of(msg.lane_bits(32))
            .filter(|&i| i < dwords)
            .collect(),
    ))
}

/// The byte offset of an aligned OWord block read or write: header DWord 2 counts OWords (the
/// unaligned read's counts bytes).
fn aligned_oword_offset(msg: &Msg) -> u64 {
    u64::from(msg.u32_at(8)) * 16
}

/// The Buffer Base Offset a block message adds to its offset
/// ([`scratch::adds_block_base_offset`]).
fn base_offset(msg: &Msg) -> u64 {
    if scratch::adds_block_base_offset(msg.platform, msg.desc & 0xff) {
        scratch::block_base_offset(msg.u32_at(4 * scratch::R0_SCRATCH_POINTER))
    } else {
        0
    }
}

/// OWord block write: header DWord 2 is the offset in OWords (IGC shifts the byte offset
/// right by 4).
fn oword_write_bti(msg: &mut Msg, mem: &mut dyn Memory) -> Result<(), EuErrorKind> {
    let target = bti_target(msg, mem)?;
    let off = aligned_oword_offset(msg) + base_offset(msg);
    check(Access::OwordBlock, target.base.wrapping_add(off))?;
    let (bytes, half) = oword_block(msg.field(8, 3));
    block_write_masked(msg, REG_BYTES + half, bytes, |at, data| {
        target.write(mem, off + at, data)
    })
}

/// A block write's DWords as the send's channels enable them: DWord `i` of the block is
/// written only where channel `i` is enabled (execution mask and predicate), as a block read
/// writes back ([`block_read_masked`]). oneDNN's generator counts on it (gemmstone
/// `layout_setup.cxx`: "Block accesses mask by dwords"): its Xe-HPG convolutions write 64-byte
/// blocks under a per-channel predicate whose disabled DWords belong to the next work-group's
/// output, and written whole the groups' blocks overlapped, so the result depended on which
/// group wrote last (OpenVINO's ConvTranspose2d at f16 on dg2, through either runtime).
fn block_write_masked(
    msg: &Msg,
    src: usize,
    bytes: usize,
    mut write: impl FnMut(u64, &[u8]) -> Result<(), EuErrorKind>,
) -> Result<(), EuErrorKind> {
    let data = msg.data(src, bytes);
    let Some(enabled) = enabled_dwords(msg, bytes, "write")? else {
        return write(0, data);
    };
    for i in enabled {
        if let Some(d) = data.get(4 * i..4 * i + 4) {
            write(4 * i as u64, d)?;
        }
    }
    Ok(())
}

fn dword_scattered(msg: &mut Msg, mem: &mut dyn Memory, write: bool) -> Result<(), EuErrorKind> {
    let target = bti_target(msg, mem)?;
    let lanes = simd_lanes(msg.field(8, 1) != 0);
    let h = header_bytes(msg);
    let data_at = h + block(lanes, 4);
    for i in lanes_of(msg.lane_bits(lanes)) {
        let off = u64::from(msg.u32_at(h + 4 * i));
        check(Access::DwordScattered, off)?;
        if write {
            target.write(mem, off, msg.data(data_at + 4 * i, 4))?;
        } else {
            let mut b = [0u8; 4];
            target.read(mem, off, &mut b)?;
            msg.put(4 * i, &b);
        }
    }
    Ok(())
}

/// A byte scattered message's lanes (desc\[8\]: SIMD16), bytes per lane (desc\[11:10\]: 1, 2
/// or 4) and header bytes (desc\[19\]).
pub(super) fn byte_scattered_shape(desc: u32) -> (usize, usize, usize) {
    let h = if desc >> 19 & 1 != 0 { REG_BYTES } else { 0 };
    (
        simd_lanes(desc >> 8 & 1 != 0),
        1 << (desc >> 10 & 3).min(2),
        h,
    )
}

fn byte_scattered(msg: &mut Msg, mem: &mut dyn Memory, write: bool) -> Result<(), EuErrorKind> {
    let target = bti_target(msg, mem)?;
    let (lanes, size, h) = byte_scattered_shape(msg.desc);
    let data_at = h + block(lanes, 4);
    // Every lane enabled at consecutive offsets `size` apart (a work-item-indexed buffer of
    // bytes or halves, as IGC reads and writes `half` tensors): one access of the whole run,
    // spread over the lanes' DWord slots or gathered from them.
    if let Some(first) = lane_run(msg, h, lanes, false, size as u64) {
        let mut buf = [0u8; 4 * 16];
        let run = &mut buf[..size * lanes];
        let done = if write {
            let data = msg.data(data_at, 4 * lanes);
            data.len() == 4 * lanes && {
                for (r, d) in run.chunks_exact_mut(size).zip(data.chunks_exact(4)) {
                    r.copy_from_slice(&d[..size]);
                }
                target.write_all(mem, first, run)
            }
        } else {
            target.read_all(mem, first, run) && {
                for (i, r) in run.chunks_exact(size).enumerate() {
                    let mut b = [0u8; 4];
                    b[..size].copy_from_slice(r);
                    msg.put(4 * i, &b);
                }
                true
            }
        };
        if done {
            return Ok(());
        }
    }
    for i in lanes_of(msg.lane_bits(lanes)) {
        let off = u64::from(msg.u32_at(h + 4 * i));
        check(Access::ByteScattered, off)?;
        if write {
            target.write(mem, off, msg.data(data_at + 4 * i, size))?;
        } else {
            let mut b = [0u8; 4];
            target.read(mem, off, &mut b[..size])?;
            msg.put(4 * i, &b);
        }
    }
    Ok(())
}

/// Untyped surface read/write (BTI or A64): channel-disable mask \[11:8\], SIMD mode \[13:12\]
/// (1 = SIMD16, 2 = SIMD8). Channel `c` (X, Y, Z, W) is the DWord at `address + 4c`; each
/// enabled one is one DWord per lane, packed one block per enabled channel (IGC reads
/// `ld[i]` and `ld[i + 2]` with X and Z alone).
fn untyped(msg: &mut Msg, mem: &mut dyn Memory, write: bool, a64: bool) -> Result<(), EuErrorKind> {
    let lanes = simd_lanes(msg.field(12, 2) == 1);
    // Enabled channels: desc[11:8] disables.
    let chans = !msg.field(8, 4) & 0xf;
    let h = header_bytes(msg);
    let addr_bytes = if a64 { 8 } else { 4 };
    let data_at = if write {
        h + block(lanes, addr_bytes)
    } else {
        0
    };
    let target = lane_target(msg, mem, a64)?;
    // One channel, every lane enabled at consecutive DWord addresses (a work-item-indexed
    // buffer): one access of the whole run does what the loop below does lane by lane.
    if chans.count_ones() == 1 {
        if let Some(first) = lane_run(msg, h, lanes, a64, 4) {
            // The lanes step by 4: all are aligned when the first is.
            let aligned = check(Access::Untyped, target.base.wrapping_add(first)).is_ok();
            let a = first.wrapping_add(4 * u64::from(chans.trailing_zeros()));
            let len = 4 * lanes;
            let data = msg.data(data_at, len);
            let done = aligned
                && if write {
                    data.len() == len && target.write_all(mem, a, data)
                } else {
                    msg.resp
                        .get_mut(..len)
                        .is_some_and(|b| target.read_all(mem, a, b))
                };
            if done {
                return Ok(());
            }
        }
    }
    for i in lanes_of(msg.lane_bits(lanes)) {
        let addr = lane_address(msg, h, i, a64);
        check(Access::Untyped, target.base.wrapping_add(addr))?;
        for (k, c) in lanes_of(chans).enumerate() {
            let a = addr.wrapping_add(4 * c as u64);
            let slot = k * block(lanes, 4) + 4 * i;
            if write {
                target.write(mem, a, msg.data(data_at + slot, 4))?;
            } else {
                let mut b = [0u8; 4];
                target.read(mem, a, &mut b)?;
                msg.put(slot, &b);
            }
        }
    }
    Ok(())
}

/// A64 scattered: sub-type \[9:8\] (0 byte, 1 dword, 2 qword), block count \[11:10\] (1, 2, 4,
/// 8), SIMD16 \[12\]. Byte blocks are contiguous bytes in one lane slot of at least a DWord;
/// DWord and QWord blocks are separate accesses at `addr + j * size`, block `j` of every lane
/// in the `j`-th register block (vISA SVM_GATHER/SVM_SCATTER: `dst[j*exec_size+i]`).
fn a64_scattered(msg: &mut Msg, mem: &mut dyn Memory, write: bool) -> Result<(), EuErrorKind> {
    let lanes = simd_lanes(msg.field(12, 1) != 0);
    let sub = msg.field(8, 2);
    let count = 1usize << msg.field(10, 2);
    // (bytes per access, accesses per lane, block size the alignment rule names)
    let (size, blocks, unit) = match sub {
        0 | 3 => (count, 1usize, 1u32),
        1 => (4, count, 4),
        _ => (8, count, 8),
    };
    let slot = size.max(4);
    let h = header_bytes(msg);
    let data_at = h + block(lanes, 8);
    for i in lanes_of(msg.lane_bits(lanes)) {
        let addr = msg.u64_at(h + 8 * i);
        check(Access::A64Scattered { block: unit }, addr)?;
        for j in 0..blocks {
            let a = addr.wrapping_add((j * size) as u64);
            let at = j * block(lanes, slot) + slot * i;
            if write {
                mem.write(a, msg.data(data_at + at, size))?;
            } else {
                let mut b = [0u8; 8];
                mem.read(a, &mut b[..size])?;
                msg.put(at, &b[..slot]);
            }
        }
    }
    Ok(())
}

/// A64 OWord block: the header's first QWord is the byte address; sub-type \[12:11\]: 1 reads
/// from DWord-aligned addresses, 0 needs 16 bytes (IGC emits 1 for subgroup block reads and 0
/// for block writes, though iga64 names 1 "aligned"), 3 moves HWords. Writes always need 16.
fn a64_block(msg: &mut Msg, mem: &mut dyn Memory, write: bool) -> Result<(), EuErrorKind> {
    let addr = msg.u64_at(0);
    let sub = msg.field(11, 2);
    let code = msg.field(8, 3) as usize;
    let bytes = if sub == 3 {
        32usize << code
    } else {
        OWORDS[code] * 16
    };
    let access = match sub {
        3 => Access::HwordBlock,
        1 if !write => Access::OwordBlockUnaligned,
        _ => Access::OwordBlock,
    };
    check(access, addr)?;
    if write {
        block_write_masked(msg, REG_BYTES, bytes, |at, data| {
            Ok(mem.write(addr.wrapping_add(at), data)?)
        })?;
    } else {
        let at = if code == 1 && sub != 3 { 16 } else { 0 };
        block_read_masked(msg, at, bytes, |o, buf| {
            Ok(mem.read(addr.wrapping_add(o), buf)?)
        })?;
    }
    Ok(())
}

/// Untyped (BTI) and A64 integer atomics: op \[11:8\], return \[13\]; untyped SIMD8 when
/// \[12\] is set, A64 always SIMD8 with \[12\] selecting QWord data (Mesa
/// `brw_dp_a64_untyped_atomic_desc`: `bit_size == 64` in message-control bit 4). With QWord
/// data each operand and the returned values take 8 bytes per lane.
fn atomic(msg: &mut Msg, mem: &mut dyn Memory, a64: bool) -> Result<(), EuErrorKind> {
    let op = INT_ATOMICS[msg.field(8, 4) as usize]
        .ok_or_else(|| EuErrorKind::Unsupported("64-bit compare-exchange atomic".into()))?;
    // QWord data (A64 only): 8 bytes per lane for each operand and each returned value.
    let qword = a64 && msg.field(12, 1) != 0;
    let lanes = if a64 {
        8
    } else {
        simd_lanes(msg.field(12, 1) == 0)
    };
    let h = header_bytes(msg);
    let addr_bytes = if a64 { 8 } else { 4 };
    let data_bytes = if qword { 8 } else { 4 };
    let src0 = h + block(lanes, addr_bytes);
    let src1 = src0 + block(lanes, data_bytes);
    let target = lane_target(msg, mem, a64)?;
    for i in lanes_of(msg.lane_bits(lanes)) {
        let at = target.base.wrapping_add(lane_address(msg, h, i, a64));
        let w = data_bytes;
        let operands = (msg.word_at(src0 + w * i, w), msg.word_at(src1 + w * i, w));
        let old = atomic_at(mem, target.space, at, op, operands, w)?;
        msg.put(w * i, &old.to_le_bytes()[..w]);
    }
    Ok(())
}
