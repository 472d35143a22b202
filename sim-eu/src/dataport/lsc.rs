//! Xe-HPG load/store cache (LSC) messages on UGM, UGML and SLM: vector and quad loads and
//! stores (transposed or per lane), atomics and fences. Field positions and tables come from
//! `isa_encoder::sendmsg::lsc`.
//!
//! Register layout: per lane, element v of the vector is in block v, each block `lanes x
//! register element size` bytes padded to whole registers; transposed messages use lane 0's
//! address and hold the vector's elements contiguously.

use isa_encoder::sendmsg::lsc::{
    find_op, Class, ADDR_BSS, ADDR_BTI, ADDR_SIZE, ADDR_SIZES, ADDR_SS, ADDR_TYPE, CHANNELS,
    DATA_SIZE, DATA_SIZES, EX_BTI, OPCODE, TRANSPOSED, VECTOR, VECTOR_SIZES,
};
use isa_encoder::sendmsg::Sfid;

use super::align::{check, Access};
use super::{
    atomic_at, lanes_of, mem_read, mem_read_all, mem_write, mem_write_all, AtomicOp, Memory, Msg,
    Space,
};
use crate::error::EuErrorKind;
use crate::regfile::REG_BYTES;

/// LSC atomic opcodes and the operation each performs.
const ATOMICS: [(u32, AtomicOp); 18] = [
    (0x08, AtomicOp::Inc),
    (0x09, AtomicOp::Dec),
    (0x0A, AtomicOp::Load),
    (0x0B, AtomicOp::Mov),
    (0x0C, AtomicOp::Add),
    (0x0D, AtomicOp::Sub),
    (0x0E, AtomicOp::Imin),
    (0x0F, AtomicOp::Imax),
    (0x10, AtomicOp::Umin),
    (0x11, AtomicOp::Umax),
    (0x12, AtomicOp::Cmpxchg),
    (0x13, AtomicOp::Fadd),
    (0x14, AtomicOp::Fsub),
    (0x15, AtomicOp::Fmin),
    (0x16, AtomicOp::Fmax),
    (0x18, AtomicOp::And),
    (0x19, AtomicOp::Or),
    (0x1A, AtomicOp::Xor),
];

fn f(msg: &Msg, field: (u32, u32)) -> u32 {
    msg.field(field.0, field.1)
}

fn pad(bytes: usize) -> usize {
    bytes.div_ceil(REG_BYTES) * REG_BYTES
}

/// A message to LSC's typed global memory (TGM, Xe-HPG). Only its fence is modelled (IGC ends
/// kernels that write images with `fence.tgm`; their writes are HDC typed writes); typed loads,
/// stores and atomics through TGM are absent and fail as unsupported.
pub(super) fn execute_tgm(msg: &mut Msg, mem: &mut dyn Memory) -> Result<(), EuErrorKind> {
    let code = f(msg, OPCODE);
    let op = find_op(code).ok_or_else(|| EuErrorKind::Illegal(format!("LSC opcode {code:#x}")))?;
    if op.class == Class::Fence {
        mem.fence(super::fence_is_global(Sfid::Tgm, msg.desc));
        return Ok(());
    }
    Err(EuErrorKind::Unsupported(format!(
        "LSC typed (tgm) {} (only fence.tgm is modelled)",
        op.mnemonic
    )))
}

/// Executes an LSC message of a thread dispatched with r0 DWords 3 and 5 `dispatched` (its
/// scratch slot, for a message through the scratch surface).
pub(super) fn execute(
    msg: &mut Msg,
    sfid: Sfid,
    dispatched: [u32; 2],
    mem: &mut dyn Memory,
) -> Result<(), EuErrorKind> {
    let code = f(msg, OPCODE);
    let op = find_op(code).ok_or_else(|| EuErrorKind::Illegal(format!("LSC opcode {code:#x}")))?;
    if op.class == Class::Fence {
        mem.fence(super::fence_is_global(sfid, msg.desc));
        return Ok(());
    }
    let (_, reg_bits, mem_bits) = *DATA_SIZES
        .get(f(msg, DATA_SIZE) as usize)
        .ok_or_else(|| EuErrorKind::Illegal("LSC data size".into()))?;
    let (reg_b, mem_b) = ((reg_bits / 8) as usize, (mem_bits / 8) as usize);
    let (_, addr_bits) = ADDR_SIZES[f(msg, ADDR_SIZE) as usize]
        .ok_or_else(|| EuErrorKind::Illegal("LSC address size 0".into()))?;
    let addr_b = (addr_bits / 8) as usize;
    // Base and space: flat (global VA or SLM offset) or through a surface.
    let (space, base) = match (sfid, f(msg, ADDR_TYPE)) {
        (Sfid::Slm, _) => (Space::Slm(msg.platform), 0u64),
        (_, ADDR_BTI) => (
            Space::Global,
            mem.surface((msg.ex_desc >> EX_BTI.0) & 0xff)?.base,
        ),
        // IGC's stack on Xe-HPG (stack calls, unoptimized code): `store.ugm ... a32.ss[a0.2]`
        // with r0.5's scratch-surface offset in a0.2, each thread in its own slice. (Only the
        // thread's own scratch surface state is read twice.)
        (_, ADDR_SS | ADDR_BSS)
            if msg.ex_desc & !0x3f == super::scratch::surface_state_offset(dispatched[1])
                && mem.is_scratch_surface(msg.ex_desc & !0x3f) =>
        {
            (
                Space::Global,
                super::scratch::surface_slice(msg.ex_desc & !0x3f, dispatched[1], mem)?.base,
            )
        }
        (_, ADDR_SS | ADDR_BSS) => (Space::Global, mem.surface_state(msg.ex_desc & !0x3f)?.base),
        _ => (Space::Global, 0),
    };
    let transposed = f(msg, TRANSPOSED) != 0;
    let lanes = if transposed { 1 } else { msg.n };
    let addr_of = |msg: &Msg, i: usize| -> u64 {
        let raw = match addr_b {
            8 => msg.u64_at(i * 8),
            4 => u64::from(msg.u32_at(i * 4)),
            _ => u64::from(msg.u32_at((i * 2) & !3) >> (16 * (i & 1)) & 0xffff),
        };
        base.wrapping_add(raw)
    };
    // The payload is laid out for the message's SIMD mode, not its execution size: a `(1|M0)`
    // A64 store (IGC's store of a uniform value on Xe-HPG) has two address registers, eight
    // lanes' worth. So the lanes of the layout come from src0's length, and store data and
    // atomic operands start in src1, after src0's `mlen` registers.
    let layout_lanes = if transposed {
        1
    } else {
        (msg.mlen * REG_BYTES / addr_b).max(lanes)
    };
    let data_at = msg.mlen * REG_BYTES;
    match op.class {
        Class::Load | Class::Store | Class::LoadQuad | Class::StoreQuad => {
            let quad = matches!(op.class, Class::LoadQuad | Class::StoreQuad);
            let store = matches!(op.class, Class::Store | Class::StoreQuad);
            let elems: Vec<usize> = if quad {
                (0..4).filter(|c| f(msg, CHANNELS) >> c & 1 != 0).collect()
            } else {
                (0..VECTOR_SIZES[f(msg, VECTOR) as usize] as usize).collect()
            };
            if transposed {
                if msg.mask & 1 == 0 {
                    return Ok(());
                }
                let a = addr_of(msg, 0);
                check(Access::LscTransposed { elem: mem_b as u32 }, a)?;
                // The elements are consecutive in memory and in the registers (without a
                // widening data size): one access for all of them when it succeeds, else the
                // per-element accesses below, which fault where the hardware would.
                let len = elems.len() * mem_b;
                if reg_b == mem_b {
                    let done = if store {
                        let data = msg.data(data_at, len);
                        data.len() == len && mem_write_all(mem, space, a, data)
                    } else {
                        msg.fill_resp(0, len, |buf| {
                            mem_read_all(mem, space, a, buf).then_some(()).ok_or(())
                        })
                        .is_ok()
                    };
                    if done {
                        return Ok(());
                    }
                }
                for (k, &e) in elems.iter().enumerate() {
                    access(
                        msg,
                        mem,
                        space,
                        a.wrapping_add((e * mem_b) as u64),
                        k * reg_b,
                        data_at + k * reg_b,
                        reg_b,
                        mem_b,
                        store,
                    )?;
                }
                return Ok(());
            }
            let elem = mem_b as u32;
            let lane_access = if elems.len() == 1 && !quad {
                Access::LscLane { elem }
            } else {
                Access::LscVector { elem }
            };
            let blk = pad(layout_lanes * reg_b);
            for i in lanes_of(msg.lane_bits(32)) {
                let a = addr_of(msg, i);
                check(lane_access, a)?;
                for (k, &e) in elems.iter().enumerate() {
                    let slot = k * blk + i * reg_b;
                    access(
                        msg,
                        mem,
                        space,
                        a.wrapping_add((e * mem_b) as u64),
                        slot,
                        data_at + slot,
                        reg_b,
                        mem_b,
                        store,
                    )?;
                }
            }
            Ok(())
        }
        Class::Atomic => {
            let aop = ATOMICS
                .iter()
                .find(|(c, _)| *c == code)
                .map(|(_, o)| *o)
                .ok_or_else(|| EuErrorKind::Unsupported(format!("LSC atomic {}", op.mnemonic)))?;
            if mem_b != 4 && mem_b != 8 {
                return Err(EuErrorKind::Unsupported(
                    "LSC atomics on 8- or 16-bit data".into(),
                ));
            }
            // D32 or D64: each lane's operands and returned value are of the data size.
            let blk = pad(layout_lanes * mem_b);
            for i in lanes_of(msg.lane_bits(32)) {
                let a = addr_of(msg, i);
                let x = msg.word_at(data_at + mem_b * i, mem_b);
                let y = msg.word_at(data_at + blk + mem_b * i, mem_b);
                let old = atomic_at(mem, space, a, aop, (x, y), mem_b)?;
                msg.put(mem_b * i, &old.to_le_bytes()[..mem_b]);
            }
            Ok(())
        }
        _ => Err(EuErrorKind::Unsupported(format!("LSC {}", op.mnemonic))),
    }
}

/// One element: memory `mem_b` bytes <-> register `reg_b` bytes (zero-extended on load).
#[allow(clippy::too_many_arguments)]
fn access(
    msg: &mut Msg,
    mem: &mut dyn Memory,
    space: Space,
    addr: u64,
    resp_at: usize,
    data_at: usize,
    reg_b: usize,
    mem_b: usize,
    store: bool,
) -> Result<(), EuErrorKind> {
    if store {
        mem_write(mem, space, addr, msg.data(data_at, mem_b))
    } else {
        let mut b = [0u8; 8];
        mem_read(mem, space, addr, &mut b[..mem_b])?;
        msg.put(resp_at, &b[..reg_b]);
        Ok(())
    }
}
