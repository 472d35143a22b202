//! The dispatch record: what one walker depended on in memory and in recorded state, as the
//! dispatcher resolved it, written beside the command log (`SimConfig::command_log`) as one JSON
//! object per line in `<n>-<engine>.dispatch.jsonl`. `intel-gpu-run batch-diff` reads it.
//!
//! Addresses are made comparable between runs whose heaps lie elsewhere: heap pointers are kept
//! as the offsets the hardware adds to their base, and a pointer found in the payload or a
//! surface state is also given as its offset in the buffer object it points into. The format
//! (every key) is described in `intel-gpu-run`'s README, section "batch-diff".

use batchbuffer::{
    ComputeWalker, GpgpuWalker, InterfaceDescriptorData, MediaInterfaceDescriptorLoad, Packet,
    PacketId,
};
use serde_json::{json, Value};

use super::gen::gen_dispatch;
use super::kernel::fetch;
use super::payload::{grfs_per_channel, write_hw_ids};
use super::state::{resolve, Dispatch};
use crate::cs::Walker;
use crate::mem::{AddressSpace, PAGE_SIZE};

const GRF: usize = 32;
/// Surface state size (RENDER_SURFACE_STATE) and sampler state size in bytes.
const SURFACE_STATE_BYTES: usize = 64;
const SAMPLER_STATE_BYTES: usize = 16;
/// Threads of one group whose per-thread payload is recorded (the rest repeat the pattern).
const MAX_THREADS: usize = 1024;

/// The record of walker number `ordinal` of a submission, at byte `offset` of its command log,
/// as one line of JSON (no newline). A walker the dispatcher cannot resolve gets a record with
/// the reason under `error` (the dispatch then fails the same way).
pub fn record(w: &Walker<'_>, ordinal: usize, offset: usize) -> String {
    let head = json!({"walker": ordinal, "offset": offset, "packet": w.packet.name()});
    let body = match resolve(w) {
        Ok(d) => describe(w, &d),
        Err(e) => json!({"error": e.to_string()}),
    };
    let mut v = head;
    if let (Some(out), Value::Object(add)) = (v.as_object_mut(), body) {
        out.extend(add);
    }
    v.to_string()
}

fn dwords(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// `len` bytes at `va` as dwords; `None` when any of them is unmapped.
fn read_dwords(vm: &AddressSpace, va: u64, len: usize) -> Option<Vec<u32>> {
    let mut b = vec![0u8; len];
    vm.read(va, &mut b).ok()?;
    Some(dwords(&b))
}

/// FNV-1a, 64 bits: identifies a kernel binary (not a security hash).
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The offset of `va` in the buffer object it points into, when it is a mapped GPU address.
fn bo_offset(vm: &AddressSpace, va: u64) -> Option<u64> {
    if va < PAGE_SIZE {
        return None;
    }
    vm.binding_at(va)
        .map(|b| (va & (crate::mem::VA_MASK)) - b.start + b.bo_offset)
}

/// The qwords of `dw` (8-byte aligned) that are mapped GPU addresses: `{dword, bo_offset}`.
fn pointers(vm: &AddressSpace, dw: &[u32]) -> Value {
    let found: Vec<Value> = dw
        .chunks_exact(2)
        .enumerate()
        .filter_map(|(i, q)| {
            let v = u64::from(q[0]) | u64::from(q[1]) << 32;
            bo_offset(vm, v).map(|o| json!({"dword": 2 * i, "bo_offset": o}))
        })
        .collect();
    Value::Array(found)
}

/// Local IDs of one thread from a payload block laid out as IGC reads it: one block of
/// `grfs_per_channel` GRFs per channel (x, y, z), 16 bits per lane.
fn ids_of(block: &[u8], channels: usize, simd: u32) -> Vec<Vec<u16>> {
    let per = grfs_per_channel(simd) * GRF;
    (0..channels)
        .map(|c| {
            (0..simd as usize)
                .filter_map(|l| {
                    let at = c * per + 2 * l;
                    block.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]))
                })
                .collect()
        })
        .collect()
}

fn describe(w: &Walker<'_>, d: &Dispatch) -> Value {
    let p = w.platform;
    let vm = w.memory;
    let b = &d.bases;
    let mut idd = [0u32; 8];
    // Cannot fail: the buffer holds the struct's 8 dwords.
    let _ = d.idd.pack(p, &mut idd);
    let idd_offset = match w.packet {
        PacketId::GpgpuWalker => {
            let gw = GpgpuWalker::unpack(p, w.dwords).unwrap_or_default();
            w.state
                .get(PacketId::MediaInterfaceDescriptorLoad)
                .and_then(|m| MediaInterfaceDescriptorLoad::unpack(p, m).ok())
                .map(|m| {
                    u64::from(m.interface_descriptor_data_start_address)
                        + 32 * u64::from(gw.interface_descriptor_offset)
                })
        }
        _ => None,
    };
    let indirect_length = match w.packet {
        PacketId::GpgpuWalker => GpgpuWalker::unpack(p, w.dwords).map(|g| g.indirect_data_length),
        _ => ComputeWalker::unpack(p, w.dwords).map(|c| c.body.indirect_data_length),
    }
    .unwrap_or(0);
    let kernel = fetch(vm, d.kernel);
    let (indirect, local_ids) = payload(w, d, indirect_length as usize);
    json!({
        "bases": {
            "general": b.general, "surface": b.surface, "dynamic": b.dynamic,
            "indirect": b.indirect, "instruction": b.instruction, "bindless": b.bindless,
            "binding_tables": b.binding_tables,
        },
        "sba": w.state.get(PacketId::StateBaseAddress),
        "front_end": front_end(w),
        "idd": {"offset": idd_offset, "dwords": idd},
        "kernel": {
            "offset": d.idd.kernel_start_pointer,
            "bytes": kernel.len(),
            "fnv1a64": format!("{:016x}", fnv1a64(&kernel)),
        },
        "simd": d.simd,
        "threads_per_group": d.threads_per_group,
        "groups": {"start": d.group_start, "end": d.group_end},
        "last_mask": d.last_mask,
        "indirect": indirect,
        "local_ids": local_ids,
        "inline": d.inline.map(|i| json!({"dwords": i, "pointers": pointers(vm, &i)})),
        "binding_table": binding_table(w, d),
        "samplers": samplers(vm, d.bases.dynamic, &d.idd),
        "slm_bytes": super::state::slm_bytes(&d.idd),
        "scratch": {
            "size_code": d.scratch.size_code,
            "pointer": d.scratch.pointer,
            "stride": d.scratch.stride,
        },
        "front_end_threads": d.front_end_threads,
    })
}

/// The front-end state in effect: MEDIA_VFE_STATE or CFE_STATE, whichever was programmed.
fn front_end(w: &Walker<'_>) -> Value {
    [PacketId::MediaVfeState, PacketId::CfeState]
        .into_iter()
        .find_map(|id| {
            w.state
                .get(id)
                .map(|dw| json!({"packet": id.name(), "dwords": dw}))
        })
        .unwrap_or(Value::Null)
}

/// The indirect data and the local IDs each thread of a group gets.
fn payload(w: &Walker<'_>, d: &Dispatch, walker_length: usize) -> (Value, Value) {
    let p = w.platform;
    let vm = w.memory;
    let threads = (d.threads_per_group as usize).min(MAX_THREADS);
    if gen_dispatch(p).loads_curbe {
        let ct = d.idd.cross_thread_constant_data_read_length as usize * GRF;
        let pt = d.idd.constant_urb_entry_read_length as usize * GRF;
        let cross = read_dwords(vm, d.indirect, ct);
        let per_thread: Vec<Option<Vec<u32>>> = (0..threads)
            .map(|t| read_dwords(vm, d.indirect + (ct + t * pt) as u64, pt))
            .collect();
        let channels = (pt / (grfs_per_channel(d.simd) * GRF)).min(3);
        let ids: Vec<Value> = per_thread
            .iter()
            .map(|b| match b {
                Some(dw) => {
                    let bytes: Vec<u8> = dw.iter().flat_map(|v| v.to_le_bytes()).collect();
                    json!(ids_of(&bytes, channels, d.simd))
                }
                None => Value::Null,
            })
            .collect();
        let indirect = json!({
            "offset": d.indirect_offset,
            "length": walker_length,
            "cross_thread": cross.as_deref().map(|c| json!({"dwords": c, "pointers": pointers(vm, c)})),
            "per_thread": per_thread,
        });
        return (
            indirect,
            json!({"source": "payload", "channels": channels, "threads": ids}),
        );
    }
    let data = read_dwords(vm, d.indirect, walker_length);
    let indirect = json!({
        "offset": d.indirect_offset,
        "length": walker_length,
        "data": data.as_deref().map(|c| json!({"dwords": c, "pointers": pointers(vm, c)})),
    });
    let ids = match &d.hw_ids {
        Some(h) => {
            let block = grfs_per_channel(d.simd) * GRF;
            let threads: Vec<Value> = (0..threads as u32)
                .map(|t| {
                    let mut out = vec![0u8; h.channels as usize * block];
                    write_hw_ids(&mut out, h, d.simd, t);
                    json!(ids_of(&out, h.channels as usize, d.simd))
                })
                .collect();
            json!({"source": "hardware", "channels": h.channels, "threads": threads})
        }
        None => json!({"source": "none"}),
    };
    (indirect, ids)
}

/// The binding table entries the interface descriptor announces, each with its surface state
/// and the offset of the surface's base address in its buffer object.
fn binding_table(w: &Walker<'_>, d: &Dispatch) -> Value {
    let vm = w.memory;
    let at = d.bases.binding_tables + u64::from(d.idd.binding_table_pointer);
    let count = d.idd.binding_table_entry_count as usize;
    let entries: Vec<Value> = (0..count)
        .map(|i| {
            let Some(e) = read_dwords(vm, at + 4 * i as u64, 4) else {
                return json!({"index": i, "error": "binding table entry not mapped"});
            };
            let offset = u64::from(e[0] & !0x3f);
            match read_dwords(vm, d.bases.surface + offset, SURFACE_STATE_BYTES) {
                Some(ss) => {
                    let base = u64::from(ss[8]) | u64::from(ss[9]) << 32;
                    json!({"index": i, "offset": offset, "dwords": ss,
                           "base_bo_offset": bo_offset(vm, base)})
                }
                None => json!({"index": i, "offset": offset, "error": "surface state not mapped"}),
            }
        })
        .collect();
    json!({"offset": d.idd.binding_table_pointer, "entries": entries})
}

/// The sampler states the interface descriptor's Sampler Count covers (4 per step).
fn samplers(vm: &AddressSpace, dynamic: u64, idd: &InterfaceDescriptorData) -> Value {
    let count = 4 * idd.sampler_count as usize;
    let at = dynamic + u64::from(idd.sampler_state_pointer);
    let states: Vec<Value> = (0..count)
        .map(|i| {
            read_dwords(
                vm,
                at + (i * SAMPLER_STATE_BYTES) as u64,
                SAMPLER_STATE_BYTES,
            )
            .map_or(Value::Null, |d| json!(d))
        })
        .collect();
    json!({"offset": idd.sampler_state_pointer, "count_code": idd.sampler_count as u32, "states": states})
}
