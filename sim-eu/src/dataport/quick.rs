//! The common sends without the general message frame. A send whose descriptors are
//! immediates is classified once, when its kernel is pre-decoded ([`classify`]); at run time a
//! classified send reads its addresses from the GRF. When every lane is enabled and the lanes'
//! addresses follow each other it makes one access of the whole run straight between memory
//! and the registers ([`run`]); otherwise (a gather from a local-memory tile, a tail of partly
//! enabled lanes) one access per enabled lane, copied through the memory's windows when it
//! publishes them ([`super::direct`]), else asked of the memory. When an access cannot be made whole (a
//! misaligned address, bytes out of bounds or not mapped) it returns `false` having changed
//! no register, and the general path ([`super::execute`]) executes the message, so faults,
//! bounds and alignment errors are exactly its own.
//!
//! Classified: messages with no effect on registers or memory (the thread spawner's end of
//! thread, gateway messages other than the barrier, HDC and LSC fences), untyped surface reads
//! and writes of one channel or of channels x to xyzw (BTI, SLM and A64; DC1
//! 0x01/0x09/0x11/0x19), LSC `load`/`store` of one to four 32-bit elements per lane (UGM,
//! UGML, SLM; flat, BTI, A32 or A64), and OWord block reads and writes through a binding-table
//! entry or SLM with every channel enabled (DC0 0x00/0x01/0x08: the sub-group block reads and
//! writes of `cl_intel_subgroups`), and byte scattered reads and writes of 1, 2 or 4 bytes per
//! lane through a binding-table entry (DC0 0x04/0x0C: `half` and `char` elements). Several
//! DWords per lane are the common case when each lane's vector follows the previous one's (a
//! `float2` or `float4` array indexed by work-item).

use isa_encoder::model::SendDesc;
use isa_encoder::sendmsg::lsc::{
    find_op, Class, ADDR_BTI, ADDR_FLAT, ADDR_SIZE, ADDR_TYPE, DATA_SIZE, EX_BTI, OPCODE,
    TRANSPOSED, VECTOR, VECTOR_SIZES,
};
use isa_encoder::sendmsg::{gateway, Sfid};
use platform::Platform;

use super::align::{alignment, Access};
use super::{aligned, gather_each, lanes_of, mem_read_all, mem_write_all, scratch, Memory, Space};
use super::{hdc, SendPlan};
use crate::lane_mask::lane_bits;
use crate::regfile::{Thread, REG_BYTES};

use isa_encoder::sendmsg::build::BTI_SLM;

pub(crate) use super::classified::component_block;
pub use super::classified::{Base, Block, Bytes, Lanes, Quick};

fn imm(d: SendDesc) -> Option<u32> {
    match d {
        SendDesc::Imm(v) => Some(v),
        SendDesc::Reg(_) => None,
    }
}

/// The GRF byte of payload byte `at` (src0's `mlen` registers, then src1's `ex_mlen`) when
/// `len` bytes from there lie in one of the two.
fn payload_byte(
    plan: &SendPlan,
    mlen: usize,
    ex_mlen: usize,
    at: usize,
    len: usize,
) -> Option<u16> {
    let src0 = mlen * REG_BYTES;
    let grf = if at + len <= src0 {
        usize::from(plan.src0_reg) * REG_BYTES + at
    } else if at >= src0 && at - src0 + len <= ex_mlen * REG_BYTES {
        usize::from(plan.src1_reg?) * REG_BYTES + at - src0
    } else {
        return None;
    };
    u16::try_from(grf).ok()
}

/// The classified form of a send of `n` channels, when it has one. Every register range the
/// general path reads or writes must lie in the GRF (else it reports the error).
pub fn classify(platform: Platform, plan: &SendPlan, n: u8, grf_regs: usize) -> Option<Quick> {
    let desc = imm(plan.desc)?;
    let ex_desc = imm(plan.ex_desc)?;
    let mlen = isa_encoder::sendmsg::message_len(desc) as usize;
    let rlen = isa_encoder::sendmsg::response_len(desc) as usize;
    let ex_mlen = plan
        .src1_len
        .map_or((ex_desc >> 6 & 0x1f) as usize, usize::from);
    let in_grf = |r: Option<u8>, count: usize| r.is_none_or(|r| usize::from(r) + count <= grf_regs);
    if !in_grf(Some(plan.src0_reg), mlen)
        || !in_grf(plan.src1_reg, ex_mlen)
        || !in_grf(plan.dst_reg, rlen)
    {
        return None;
    }
    let field = |off: u32, len: u32| (desc >> off) & ((1u32 << len) - 1);
    let resp = |len: usize| -> Option<u16> {
        let r = plan.dst_reg?;
        (len <= rlen * REG_BYTES).then(|| u16::from(r) * REG_BYTES as u16)
    };
    let sfid = Sfid::decode(platform, plan.sfid)?;
    match sfid {
        Sfid::ThreadSpawner | Sfid::Null => Some(Quick::Nothing),
        Sfid::Gateway if desc & 7 != gateway::GATEWAY_BARRIER => Some(Quick::Nothing),
        Sfid::Gateway => Some(Quick::Barrier),
        Sfid::Dc0 if !scratch::is_scratch(desc) && field(14, 5) == 0x07 => {
            Some(Quick::Fence(super::fence_is_global(sfid, desc)))
        }
        Sfid::Dc0
            if !scratch::is_scratch(desc)
                && matches!(
                    field(14, 5),
                    hdc::OWORD_READ | hdc::OWORD_READ_UNALIGNED | hdc::OWORD_WRITE
                ) =>
        {
            let ty = field(14, 5);
            let write = ty == hdc::OWORD_WRITE;
            let (bytes, half) = hdc::oword_block(field(8, 3));
            if bytes == 0 {
                return None;
            }
            let data_at = if write {
                payload_byte(plan, mlen, ex_mlen, REG_BYTES + half, bytes)?
            } else {
                resp(half + bytes)? + half as u16
            };
            let bti = field(0, 8) as u8;
            Some(Quick::Block(Block {
                write,
                base: if bti == BTI_SLM {
                    Base::Slm(platform)
                } else {
                    Base::Bti(bti)
                },
                lanes: n,
                offset_at: payload_byte(plan, mlen, ex_mlen, 8, 4)?,
                in_owords: ty != hdc::OWORD_READ_UNALIGNED,
                base_offset_at: if scratch::adds_block_base_offset(platform, u32::from(bti)) {
                    let at = 4 * scratch::R0_SCRATCH_POINTER;
                    Some(payload_byte(plan, mlen, ex_mlen, at, 4)?)
                } else {
                    None
                },
                data_at,
                bytes: bytes as u16,
                align: alignment(if ty == hdc::OWORD_READ_UNALIGNED {
                    Access::OwordBlockUnaligned
                } else {
                    Access::OwordBlock
                }) as u8,
            }))
        }
        Sfid::Dc0
            if !scratch::is_scratch(desc)
                && matches!(
                    field(14, 5),
                    hdc::BYTE_SCATTERED_READ | hdc::BYTE_SCATTERED_WRITE
                )
                && field(0, 8) != u32::from(BTI_SLM) =>
        {
            let write = field(14, 5) == hdc::BYTE_SCATTERED_WRITE;
            let (lanes, size, h) = hdc::byte_scattered_shape(desc);
            // One DWord per lane: the offsets, the data, the response.
            let slots = hdc::block(lanes, 4);
            let addr_at = payload_byte(plan, mlen, ex_mlen, h, 4 * lanes)?;
            let data_at = if write {
                payload_byte(plan, mlen, ex_mlen, h + slots, 4 * lanes)?
            } else {
                resp(slots)?
            };
            Some(Quick::Bytes(Bytes {
                write,
                bti: field(0, 8) as u8,
                lanes: lanes as u8,
                size: size as u8,
                addr_at,
                data_at,
            }))
        }
        Sfid::Dc1 if matches!(field(14, 5), 0x01 | 0x09 | 0x11 | 0x19) => {
            let ty = field(14, 5);
            let write = ty & 0x08 != 0;
            let a64 = ty & 0x10 != 0;
            let lanes: usize = if field(12, 2) == 1 { 16 } else { 8 };
            let chans = !field(8, 4) & 0xf;
            // One channel, or channels x, xy, xyz, xyzw (a vector per lane).
            let vec = chans.count_ones() as usize;
            if vec == 0 || vec > 1 && chans != (1 << vec) - 1 {
                return None;
            }
            let h = if field(19, 1) != 0 { REG_BYTES } else { 0 };
            let addr_bytes = if a64 { 8 } else { 4 };
            let len = vec * component_block(lanes);
            let addr_at = payload_byte(plan, mlen, ex_mlen, h, lanes * addr_bytes)?;
            let data_at = if write {
                let block = (lanes * addr_bytes).div_ceil(REG_BYTES) * REG_BYTES;
                payload_byte(plan, mlen, ex_mlen, h + block, len)?
            } else {
                resp(len)?
            };
            let bti = field(0, 8) as u8;
            let base = match (a64, bti) {
                (true, _) => Base::Flat,
                (false, BTI_SLM) => Base::Slm(platform),
                (false, b) => Base::Bti(b),
            };
            Some(Quick::Lanes(Lanes {
                write,
                base,
                lanes: lanes as u8,
                addr_bytes: addr_bytes as u8,
                addr_at,
                chan_off: 4 * chans.trailing_zeros() as u8,
                vec: vec as u8,
                data_at,
                align: alignment(Access::Untyped) as u8,
            }))
        }
        Sfid::Ugm | Sfid::Ugml | Sfid::Slm | Sfid::Tgm => {
            let f = |(off, len): (u32, u32)| field(off, len);
            let op = find_op(f(OPCODE))?;
            if op.class == Class::Fence {
                return Some(Quick::Fence(super::fence_is_global(sfid, desc)));
            }
            if sfid == Sfid::Tgm
                || !matches!(op.class, Class::Load | Class::Store)
                || f(TRANSPOSED) != 0
                // Vectors of 1 to 4 elements per lane.
                || VECTOR_SIZES[f(VECTOR) as usize] > 4
                // d32: 32 bits in registers and in memory.
                || f(DATA_SIZE) != 2
            {
                return None;
            }
            let vec = VECTOR_SIZES[f(VECTOR) as usize] as usize;
            let addr_bytes: usize = match f(ADDR_SIZE) {
                2 => 4,
                3 => 8,
                _ => return None,
            };
            let base = match (sfid, f(ADDR_TYPE)) {
                (Sfid::Slm, _) => Base::Slm(platform),
                (_, ADDR_FLAT) => Base::Flat,
                (_, ADDR_BTI) => Base::Bti((ex_desc >> EX_BTI.0) as u8),
                _ => return None,
            };
            let lanes = usize::from(n);
            let write = op.class == Class::Store;
            let len = vec * component_block(lanes);
            // The payload's lanes come from src0's length (see the general path), so a
            // message whose layout has more lanes than it executes is left to it.
            if mlen * REG_BYTES / addr_bytes != lanes {
                return None;
            }
            let addr_at = payload_byte(plan, mlen, ex_mlen, 0, lanes * addr_bytes)?;
            let data_at = if write {
                payload_byte(plan, mlen, ex_mlen, mlen * REG_BYTES, len)?
            } else {
                resp(len)?
            };
            Some(Quick::Lanes(Lanes {
                write,
                base,
                lanes: lanes as u8,
                addr_bytes: addr_bytes as u8,
                addr_at,
                chan_off: 0,
                vec: vec as u8,
                data_at,
                align: alignment(if vec == 1 {
                    Access::LscLane { elem: 4 }
                } else {
                    Access::LscVector { elem: 4 }
                }) as u8,
            }))
        }
        _ => None,
    }
}

/// Executes `q` on the lanes in `mask` when it is the common case: true when done, false
/// (nothing changed) when the general path must execute the message.
pub fn run(t: &mut Thread, q: Quick, mask: u32, mem: &mut dyn Memory) -> bool {
    match q {
        Quick::Nothing => true,
        Quick::Barrier => {
            t.barrier_pending = true;
            mem.barrier_signal();
            true
        }
        Quick::Fence(global) => {
            mem.fence(global);
            true
        }
        Quick::Lanes(l) => lanes(t, l, mask, mem),
        Quick::Block(b) => block(t, b, mask, mem),
        Quick::Bytes(b) => bytes(t, b, mask, mem),
    }
}

/// A byte scattered message on the enabled lanes in `mask`: every lane enabled at offsets
/// `size` apart, one access of the whole run; otherwise each enabled lane's bytes through the
/// surface's window when it holds them all, else asked of the memory (reads gathered at once,
/// landing in the registers only when every lane's read succeeded; writes in lane order, as
/// [`lane_by_lane`] writes). False, with no register changed, when some access cannot be made
/// (the general path then executes the message, faults and bounds its own).
fn bytes(t: &mut Thread, b: Bytes, mask: u32, mem: &mut dyn Memory) -> bool {
    let n = usize::from(b.lanes);
    let live = mask & lane_bits(b.lanes);
    let size = usize::from(b.size);
    let (addr_at, data_at) = (usize::from(b.addr_at), usize::from(b.data_at));
    let bti = u32::from(b.bti);
    if live == 0 || t.file.len() < addr_at.max(data_at) + 4 * n || !matches!(size, 1 | 2 | 4) {
        // No lane: the general path still checks the binding.
        return false;
    }
    let mut buf = [0u8; 4 * 16];
    if live == lane_bits(b.lanes) {
        if let Some(first) = consecutive(&t.file, addr_at, n, 4, size as u32) {
            let run = &mut buf[..size * n];
            if b.write {
                for (i, r) in run.chunks_exact_mut(size).enumerate() {
                    let at = data_at + 4 * i;
                    r.copy_from_slice(&t.file[at..at + size]);
                }
                return mem.surface_write_all(bti, first, 1, run);
            }
            if !mem.surface_read_all(bti, first, 1, run) {
                return false;
            }
            for (i, r) in run.chunks_exact(size).enumerate() {
                put_zero_extended(&mut t.file, data_at + 4 * i, r);
            }
            return true;
        }
    }
    // SAFETY: the memory's own table, read while `mem` is borrowed here and not used.
    if unsafe { super::direct::bytes_through(&*mem.direct_windows(), &mut t.file, &b, live) } {
        return true;
    }
    let offset = |file: &[u8], i: usize| {
        let at = addr_at + 4 * i;
        u64::from(u32::from_le_bytes([
            file[at],
            file[at + 1],
            file[at + 2],
            file[at + 3],
        ]))
    };
    if b.write {
        for i in lanes_of(live) {
            let at = data_at + 4 * i;
            if !mem.surface_write_all(bti, offset(&t.file, i), 1, &t.file[at..at + size]) {
                return false;
            }
        }
        return true;
    }
    let mut offs = [0u64; 16];
    let mut k = 0;
    for i in lanes_of(live) {
        offs[k] = offset(&t.file, i);
        k += 1;
    }
    let got = &mut buf[..k * size];
    if !mem.surface_gather(bti, &offs[..k], 1, got) {
        return false;
    }
    for (i, r) in lanes_of(live).zip(got.chunks_exact(size)) {
        put_zero_extended(&mut t.file, data_at + 4 * i, r);
    }
    true
}

/// `r` (1 to 4 bytes) as the DWord at file byte `at`, the bytes above it zero.
fn put_zero_extended(file: &mut [u8], at: usize, r: &[u8]) {
    let mut d = [0u8; 4];
    d[..r.len()].copy_from_slice(r);
    file[at..at + 4].copy_from_slice(&d);
}

/// A block message with every channel enabled, in bounds and aligned: one access, straight
/// between memory and the registers (a refused read leaves them as they were).
fn block(t: &mut Thread, b: Block, mask: u32, mem: &mut dyn Memory) -> bool {
    let all = lane_bits(b.lanes);
    if mask & all != all {
        return false;
    }
    let at = usize::from(b.offset_at);
    let dword = |at: usize| -> Option<u32> {
        let d = t.file.get(at..at + 4)?;
        Some(u32::from_le_bytes([d[0], d[1], d[2], d[3]]))
    };
    let Some(raw) = dword(at).map(u64::from) else {
        return false;
    };
    let mut off = if b.in_owords { raw * 16 } else { raw };
    if let Some(at) = b.base_offset_at {
        let Some(dw5) = dword(usize::from(at)) else {
            return false;
        };
        off += scratch::block_base_offset(dw5);
    }
    let align = u64::from(b.align);
    let data = usize::from(b.data_at);
    let Some(regs) = t.file.get_mut(data..data + usize::from(b.bytes)) else {
        return false;
    };
    match (b.base, b.write) {
        (Base::Bti(bti), false) => mem.surface_read_all(u32::from(bti), off, align, regs),
        (Base::Bti(bti), true) => mem.surface_write_all(u32::from(bti), off, align, regs),
        (Base::Slm(p), false) => aligned(off, align) && mem_read_all(mem, Space::Slm(p), off, regs),
        (Base::Slm(p), true) => aligned(off, align) && mem_write_all(mem, Space::Slm(p), off, regs),
        (Base::Flat, _) => false,
    }
}

/// Lane 0's address when the `n` addresses of `bytes` each (4 or 8) from GRF byte `at` step
/// by `step` bytes without wrapping (A32 values stay below 2^32).
fn consecutive(file: &[u8], at: usize, n: usize, bytes: u8, step: u32) -> Option<u64> {
    // The common lane counts as constants, so each check unrolls into vector code.
    match (n, bytes) {
        (8, 8) => steps64(file, at, 8, step),
        (16, 8) => steps64(file, at, 16, step),
        (_, 8) => steps64(file, at, n, step),
        (8, _) => steps32(file, at, 8, step),
        (16, _) => steps32(file, at, 16, step),
        (32, _) => steps32(file, at, 32, step),
        _ => steps32(file, at, n, step),
    }
}

/// [`consecutive`] for 32-bit addresses. One pass over the slice without an early exit.
#[inline(always)]
fn steps32(file: &[u8], at: usize, n: usize, step: u32) -> Option<u64> {
    let addrs = file.get(at..at.checked_add(4 * n)?)?;
    let first = u32::from_le_bytes(addrs.get(..4)?.try_into().ok()?);
    u32::try_from(n.checked_sub(1)?)
        .ok()
        .and_then(|k| k.checked_mul(step))
        .and_then(|d| first.checked_add(d))?;
    let mut diff = 0u32;
    for (i, c) in addrs.chunks_exact(4).enumerate() {
        diff |= u32::from_le_bytes([c[0], c[1], c[2], c[3]]) ^ first.wrapping_add(step * i as u32);
    }
    (diff == 0).then_some(u64::from(first))
}

/// [`consecutive`] for 64-bit addresses.
#[inline(always)]
fn steps64(file: &[u8], at: usize, n: usize, step: u32) -> Option<u64> {
    let addrs = file.get(at..at.checked_add(8 * n)?)?;
    let first = u64::from_le_bytes(addrs.get(..8)?.try_into().ok()?);
    first.checked_add(u64::from(step) * n as u64)?;
    let mut diff = 0u64;
    for (i, c) in addrs.chunks_exact(8).enumerate() {
        let v = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        diff |= v ^ first.wrapping_add(u64::from(step) * i as u64);
    }
    (diff == 0).then_some(first)
}

fn lanes(t: &mut Thread, l: Lanes, mask: u32, mem: &mut dyn Memory) -> bool {
    let n = usize::from(l.lanes);
    let all = lane_bits(l.lanes);
    if mask & all == 0 {
        // No lane reaches memory (a divergent loop's upper half): shared local memory and
        // flat addresses name nothing else, so the message does nothing; a surface's binding
        // the general path still checks.
        return space_of(&l).is_some();
    }
    let step = 4 * u32::from(l.vec);
    if mask & all == all {
        if let Some(first) = consecutive(&t.file, usize::from(l.addr_at), n, l.addr_bytes, step) {
            return run_of_lanes(t, l, first, mem);
        }
    }
    // SAFETY: the memory's own table, read while `mem` is borrowed here and not used.
    if unsafe { super::direct::lanes_through(&*mem.direct_windows(), &mut t.file, &l, mask & all) }
    {
        return true;
    }
    lane_by_lane(t, l, mask & all, mem)
}

/// The memory space `l`'s lanes address; `None` for a surface (reached through
/// [`Memory::surface_read_all`] and its kin, which check the surface's rule).
fn space_of(l: &Lanes) -> Option<Space> {
    match l.base {
        Base::Bti(_) => None,
        Base::Flat => Some(Space::Global),
        Base::Slm(p) => Some(Space::Slm(p)),
    }
}

/// The offset of `len` bytes at lane address `addr` (the channel offset added) when it does
/// not wrap and, outside a surface (which checks its own rule), `addr` meets the alignment
/// rule.
fn lane_offset(l: &Lanes, addr: u64, len: usize) -> Option<u64> {
    let off = addr
        .checked_add(u64::from(l.chan_off))
        .filter(|o| o.checked_add(len as u64).is_some())?;
    (matches!(l.base, Base::Bti(_)) || aligned(addr, u64::from(l.align))).then_some(off)
}

/// Reads `buf` from lane address `addr` ([`lane_offset`]): through the surface, which checks
/// bounds and the alignment rule, or from the space. False when any byte is not there.
fn read_at(l: &Lanes, addr: u64, mem: &mut dyn Memory, buf: &mut [u8]) -> bool {
    let Some(off) = lane_offset(l, addr, buf.len()) else {
        return false;
    };
    match (l.base, space_of(l)) {
        (Base::Bti(b), _) => mem.surface_read_all(u32::from(b), off, u64::from(l.align), buf),
        (_, Some(space)) => mem_read_all(mem, space, off, buf),
        _ => false,
    }
}

/// [`read_at`] for writes.
fn write_at(l: &Lanes, addr: u64, mem: &mut dyn Memory, data: &[u8]) -> bool {
    let Some(off) = lane_offset(l, addr, data.len()) else {
        return false;
    };
    match (l.base, space_of(l)) {
        (Base::Bti(b), _) => mem.surface_write_all(u32::from(b), off, u64::from(l.align), data),
        (_, Some(space)) => mem_write_all(mem, space, off, data),
        _ => false,
    }
}

/// Every lane enabled, lane `i`'s vector at `first + i * 4 * vec`: one access of the whole
/// run.
fn run_of_lanes(t: &mut Thread, l: Lanes, first: u64, mem: &mut dyn Memory) -> bool {
    let n = usize::from(l.lanes);
    let vec = usize::from(l.vec);
    let len = 4 * vec * n;
    let data = usize::from(l.data_at);
    // The lanes step by a multiple of 4 and `chan_off` is a multiple of 4 (the alignment):
    // all lanes meet the rule when the run's first address does.
    if vec == 1 {
        if l.write {
            let src = &t.file[data..data + len];
            return write_at(&l, first, mem, src);
        }
        if let Base::Bti(_) = l.base {
            // Straight into the registers: a refused surface run leaves them as they were.
            let dst = &mut t.file[data..data + len];
            return read_at(&l, first, mem, dst);
        }
        // Through a buffer of the run's size (a failed read leaves the registers as they
        // were), which is the registers' bytes in order: one DWord per lane.
        let mut buf = [0u8; 4 * 32];
        let Some(buf) = buf.get_mut(..len) else {
            return false;
        };
        if !read_at(&l, first, mem, buf) {
            return false;
        }
        t.file[data..data + len].copy_from_slice(buf);
        return true;
    }
    // Through a buffer, the components sorted between memory order (lane by lane) and the
    // registers' (component by component); a failed read leaves the registers as they were.
    let mut buf = [0u8; 32 * 4 * 4];
    let buf = &mut buf[..len];
    let blk = component_block(n);
    if l.write {
        for (i, v) in buf.chunks_exact_mut(4 * vec).enumerate() {
            gather_lane(&t.file, data, blk, i, v);
        }
        return write_at(&l, first, mem, buf);
    }
    if !read_at(&l, first, mem, buf) {
        return false;
    }
    for (i, v) in buf.chunks_exact(4 * vec).enumerate() {
        scatter_lane(&mut t.file, data, blk, i, v);
    }
    true
}

/// Lane `i`'s components (register blocks of `blk` bytes from `data`) into `v`, memory order.
#[inline(always)]
fn gather_lane(file: &[u8], data: usize, blk: usize, i: usize, v: &mut [u8]) {
    for (k, d) in v.chunks_exact_mut(4).enumerate() {
        let at = data + k * blk + 4 * i;
        d.copy_from_slice(&file[at..at + 4]);
    }
}

/// [`gather_lane`] the other way: `v` (memory order) into lane `i`'s register slots.
#[inline(always)]
fn scatter_lane(file: &mut [u8], data: usize, blk: usize, i: usize, v: &[u8]) {
    for (k, d) in v.chunks_exact(4).enumerate() {
        let at = data + k * blk + 4 * i;
        file[at..at + 4].copy_from_slice(d);
    }
}

/// The enabled lanes one access each, in lane order as the general path goes (a gather from
/// a local-memory tile, a tail of partly enabled lanes). Reads land in the registers only
/// when every lane's read succeeded. A write that fails at some lane returns false after
/// the lanes before it were written: the general path then writes those lanes again with the
/// same bytes (the registers did not change) before it meets that lane itself, so memory ends
/// as it alone would leave it.
fn lane_by_lane(t: &mut Thread, l: Lanes, mask: u32, mem: &mut dyn Memory) -> bool {
    if mask == 0 {
        // Nothing to access; the general path still checks what the message names.
        return false;
    }
    let vec = usize::from(l.vec);
    let len = 4 * vec;
    let blk = component_block(usize::from(l.lanes));
    let data = usize::from(l.data_at);
    let bytes = usize::from(l.addr_bytes);
    // Two fixed widths, not a copy of `bytes` bytes: a variable-length copy is a call per lane.
    let addr = |file: &[u8], i: usize| -> Option<u64> {
        let at = usize::from(l.addr_at) + i * bytes;
        let b = file.get(at..at + bytes)?;
        Some(match *b {
            [a0, a1, a2, a3] => u64::from(u32::from_le_bytes([a0, a1, a2, a3])),
            _ => u64::from_le_bytes(b.try_into().ok()?),
        })
    };
    if l.write {
        for i in lanes_of(mask) {
            let mut v = [0u8; 16];
            gather_lane(&t.file, data, blk, i, &mut v[..len]);
            let Some(a) = addr(&t.file, i) else {
                return false;
            };
            if !write_at(&l, a, mem, &v[..len]) {
                return false;
            }
        }
        return true;
    }
    // The enabled lanes' offsets (channel offset added), then one gather of them all: memory
    // whose accesses are dear reads the span they lie in at once.
    let mut at = [0u64; 32];
    let mut k = 0;
    for i in lanes_of(mask) {
        let Some(off) = addr(&t.file, i).and_then(|a| lane_offset(&l, a, len)) else {
            return false;
        };
        at[k] = off;
        k += 1;
    }
    let align = u64::from(l.align);
    let mut buf = [0u8; 32 * 16];
    let buf = &mut buf[..k * len];
    let read = match (l.base, space_of(&l)) {
        (Base::Bti(b), _) => mem.surface_gather(u32::from(b), &at[..k], align, buf),
        (_, Some(Space::Global)) => mem.read_gather(&at[..k], buf),
        (_, Some(space)) => {
            gather_each(&at[..k], buf, |o, piece| mem_read_all(mem, space, o, piece))
        }
        _ => false,
    };
    if !read {
        return false;
    }
    for (i, v) in lanes_of(mask).zip(buf.chunks_exact(len)) {
        scatter_lane(&mut t.file, data, blk, i, v);
    }
    true
}

#[cfg(test)]
mod tests;
