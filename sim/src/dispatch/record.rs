//! The dispatch record: what one walker depended on in memory and in recorded state, as the
//! dispatcher resolved it, written beside the command log (`SimConfig::command_log`) as one JSON
//! object per line in `<n>-<engine>.dispatch.jsonl`. `intel-gpu-run batch-diff` reads it.
//!
//! Addresses are made comparable between runs whose heaps lie elsewhere: heap pointers are kept
//! as the offsets the hardware adds to their base, and a pointer found in the payload or a
//! surface state is also given as its offset in the buffer object it points into. The format
//! (every key) is described in the root README, section "batch-diff".

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
                    block
                        .get(at..at + 2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;
    use crate::cs::{ComputeState, GpuTimer, HangRule};
    use crate::device_info::DeviceInfo;
    use crate::mem::Bo;
    use batchbuffer::{MediaVfeState, RenderSurfaceState, SimdSize, StateBaseAddress};
    use platform::Platform;

    const HEAPS: u64 = 0x10_0000;
    const BUFFER: u64 = 0x40_0000;
    const P: Platform = Platform::Tgllp;

    fn packed<T: Packet>(x: &T) -> Vec<u32> {
        let mut dw = vec![0; 64];
        let n = x.pack(P, &mut dw).unwrap();
        dw.truncate(n);
        dw
    }

    fn put(vm: &AddressSpace, at: u64, dw: &[u32]) {
        let b: Vec<u8> = dw.iter().flat_map(|d| d.to_le_bytes()).collect();
        vm.write(at, &b).unwrap();
    }

    /// A GPGPU_WALKER of 2 SIMD16 threads whose heaps, descriptor, payload and surface the
    /// test lays out: the record gives back what was laid out, with heap pointers relative to
    /// their bases and buffer pointers as offsets in their buffer.
    #[test]
    fn the_record_holds_what_the_walker_read() {
        let mut vm = AddressSpace::new();
        vm.bind(HEAPS, 0x10000, Bo::new(0x10000).unwrap(), 0, false)
            .unwrap();
        // The buffer's BO is bound from its second page.
        vm.bind(BUFFER, 0x1000, Bo::new(0x2000).unwrap(), 0x1000, false)
            .unwrap();
        let mut state = ComputeState::default();
        let sba = StateBaseAddress {
            surface_state_base_address_modify_enable: true,
            surface_state_base_address: HEAPS,
            dynamic_state_base_address_modify_enable: true,
            dynamic_state_base_address: HEAPS,
            indirect_object_base_address_modify_enable: true,
            indirect_object_base_address: HEAPS,
            instruction_base_address_modify_enable: true,
            instruction_base_address: HEAPS,
            ..Default::default()
        };
        state.record_base_addresses(P, &packed(&sba)).unwrap();
        let vfe = MediaVfeState {
            maximum_number_of_threads: 767,
            number_of_urb_entries: 1,
            ..Default::default()
        };
        state.record(PacketId::MediaVfeState, &packed(&vfe));
        let midl = MediaInterfaceDescriptorLoad {
            interface_descriptor_total_length: 32,
            interface_descriptor_data_start_address: 0x1000,
        };
        state.record(PacketId::MediaInterfaceDescriptorLoad, &packed(&midl));
        let idd = InterfaceDescriptorData {
            kernel_start_pointer: 0x2000,
            binding_table_entry_count: 1,
            binding_table_pointer: 0x3000,
            constant_urb_entry_read_length: 1,
            cross_thread_constant_data_read_length: 1,
            number_of_threads_in_gpgpu_thread_group: 2,
            shared_local_memory_size: batchbuffer::SharedLocalMemorySize::Encodes4k,
            barrier_enable: true,
            ..Default::default()
        };
        put(&vm, HEAPS + 0x1000, &packed(&idd));
        // One native instruction, then the all-zero one where a kernel's padding starts.
        let kernel: Vec<u8> = (1..=16).chain([0; 16]).collect();
        vm.write(HEAPS + 0x2000, &kernel).unwrap();
        put(&vm, HEAPS + 0x3000, &[0x3040]);
        let ss = RenderSurfaceState {
            surface_type: 4,
            width: 127,
            mocs: 2,
            surface_base_address: BUFFER + 0x10,
            ..Default::default()
        };
        put(&vm, HEAPS + 0x3040, &packed(&ss));
        // Cross-thread data (one GRF): a pointer 8 bytes into the buffer, then the global
        // size; then each thread's local IDs (one GRF of 16-bit x values).
        let mut payload = vec![0u32; 8 * 3];
        payload[0] = (BUFFER + 8) as u32;
        payload[2] = 32;
        for t in 0..2 {
            for l in 0..16u32 {
                let id = 16 * t + l;
                let dw = &mut payload[8 + 8 * t as usize + l as usize / 2];
                *dw |= id << (16 * (l % 2));
            }
        }
        put(&vm, HEAPS + 0x4000, &payload);
        let walker = GpgpuWalker {
            indirect_data_length: 96,
            indirect_data_start_address: 0x4000,
            thread_width_counter_maximum: 1,
            simd_size: SimdSize::Simd16,
            thread_group_id_x_dimension: 3,
            thread_group_id_y_dimension: 1,
            thread_group_id_z_dimension: 1,
            right_execution_mask: 0xffff,
            bottom_execution_mask: 0xffff,
            ..Default::default()
        };
        let dwords = packed(&walker);
        let info = DeviceInfo::get(P);
        let clock = Clock::new(info.timestamp_hz);
        let timer = GpuTimer::new(HangRule::None);
        let w = Walker {
            platform: P,
            topology: info.topology,
            engine: &info.engines[0],
            packet: PacketId::GpgpuWalker,
            dwords: &dwords,
            address: 0,
            state: &state,
            memory: &vm,
            clock: &clock,
            timer: &timer,
            sanitizer: None,
        };
        let r: Value = serde_json::from_str(&record(&w, 1, 0x40)).unwrap();
        assert_eq!(
            (r["walker"].as_u64(), r["offset"].as_u64()),
            (Some(1), Some(0x40))
        );
        assert_eq!(r["packet"], "GPGPU_WALKER");
        assert_eq!(r["bases"]["instruction"], HEAPS);
        assert_eq!(r["idd"]["offset"], 0x1000);
        assert_eq!(r["idd"]["dwords"], json!(packed(&idd)));
        assert_eq!(r["kernel"]["offset"], 0x2000);
        assert_eq!(r["kernel"]["bytes"], 32);
        assert_eq!(r["kernel"]["fnv1a64"], format!("{:016x}", fnv1a64(&kernel)));
        assert_eq!(
            (r["simd"].as_u64(), r["threads_per_group"].as_u64()),
            (Some(16), Some(2))
        );
        assert_eq!(r["groups"], json!({"start": [0, 0, 0], "end": [3, 1, 1]}));
        assert_eq!(
            (r["slm_bytes"].as_u64(), r["last_mask"].as_u64()),
            (Some(4096), Some(0xffff))
        );
        assert_eq!(r["front_end"]["packet"], "MEDIA_VFE_STATE");
        assert_eq!(r["front_end"]["dwords"], json!(packed(&vfe)));
        let x = &r["indirect"];
        assert_eq!(
            (x["offset"].as_u64(), x["length"].as_u64()),
            (Some(0x4000), Some(96))
        );
        assert_eq!(x["cross_thread"]["dwords"], json!(payload[..8]));
        // The pointer's binding starts 0x1000 into its BO.
        assert_eq!(
            x["cross_thread"]["pointers"],
            json!([{"dword": 0, "bo_offset": 0x1008}])
        );
        assert_eq!(x["per_thread"], json!([payload[8..16], payload[16..24]]));
        let ids = &r["local_ids"];
        assert_eq!(
            (ids["source"].as_str(), ids["channels"].as_u64()),
            (Some("payload"), Some(1))
        );
        let want: Vec<Vec<Vec<u32>>> = (0..2)
            .map(|t| vec![(16 * t..16 * t + 16).collect()])
            .collect();
        assert_eq!(ids["threads"], json!(want));
        let bt = &r["binding_table"];
        assert_eq!(bt["offset"], 0x3000);
        assert_eq!(bt["entries"][0]["offset"], 0x3040);
        assert_eq!(bt["entries"][0]["dwords"], json!(packed(&ss)));
        assert_eq!(bt["entries"][0]["base_bo_offset"], 0x1010);
        assert_eq!(r["inline"], Value::Null);
    }

    /// A walker the dispatcher cannot resolve is recorded with the reason.
    #[test]
    fn an_unresolvable_walker_is_recorded_with_its_error() {
        let vm = AddressSpace::new();
        let state = ComputeState::default();
        let dwords = packed(&GpgpuWalker::default());
        let info = DeviceInfo::get(P);
        let clock = Clock::new(info.timestamp_hz);
        let timer = GpuTimer::new(HangRule::None);
        let w = Walker {
            platform: P,
            topology: info.topology,
            engine: &info.engines[0],
            packet: PacketId::GpgpuWalker,
            dwords: &dwords,
            address: 0,
            state: &state,
            memory: &vm,
            clock: &clock,
            timer: &timer,
            sanitizer: None,
        };
        let r: Value = serde_json::from_str(&record(&w, 0, 0)).unwrap();
        assert!(
            r["error"].as_str().unwrap().contains("STATE_BASE_ADDRESS"),
            "{r}"
        );
    }
}
