//! IGC kernels from ocloc's zebin output run on the interpreter with a hand-built payload:
//! the `.ze_info` fields the tests need, and a 1-D dispatch of round-robin groups (r0 with the
//! group id, local IDs, then cross-thread data; Xe-HPG inline and indirect data).
#![allow(dead_code, clippy::needless_range_loop)]

use platform::Platform;
use sim_eu::{run, Program, Status, Surface, Thread};

use crate::eu_support::{set_u32s, TestMem};

/// Where the tests map their memory (the Xe-HPG indirect data sits at `BASE + 0x4000`).
pub const BASE: u64 = 0x20_0000;

/// The parts of one zebin kernel the tests need.
pub struct ZeKernel {
    pub text: Vec<u8>,
    pub simd: u32,
    /// (arg_type, offset, size, arg_index) of each payload argument.
    pub args: Vec<(String, usize, usize, Option<u32>)>,
    /// Bytes of per-thread local-ID data.
    pub local_id_bytes: usize,
    /// (bti, arg_index).
    pub btis: Vec<(u32, u32)>,
    /// Xe-HPG: bytes of cross-thread data the walker delivers inline in r1; the kernel loads
    /// the rest and its local IDs from the indirect data itself.
    pub inline_bytes: usize,
}

fn u16le(d: &[u8], o: usize) -> usize {
    u16::from_le_bytes([d[o], d[o + 1]]) as usize
}
fn u32le(d: &[u8], o: usize) -> usize {
    u32::from_le_bytes(d[o..o + 4].try_into().unwrap()) as usize
}
fn u64le(d: &[u8], o: usize) -> usize {
    u64::from_le_bytes(d[o..o + 8].try_into().unwrap()) as usize
}

/// ELF64 sections by name.
fn sections(d: &[u8]) -> Vec<(String, &[u8])> {
    let (shoff, shentsize, shnum, shstrndx) = (
        u64le(d, 0x28),
        u16le(d, 0x3a),
        u16le(d, 0x3c),
        u16le(d, 0x3e),
    );
    let sh = |i: usize| shoff + i * shentsize;
    let strtab = u64le(d, sh(shstrndx) + 0x18);
    (0..shnum)
        .map(|i| {
            let name_at = strtab + u32le(d, sh(i));
            let end = d[name_at..].iter().position(|&b| b == 0).unwrap();
            let name = String::from_utf8_lossy(&d[name_at..name_at + end]).into_owned();
            let (off, size) = (u64le(d, sh(i) + 0x18), u64le(d, sh(i) + 0x20));
            (name, &d[off..off + size])
        })
        .collect()
}

pub fn ze_kernel(zebin: &[u8], name: &str) -> ZeKernel {
    let secs = sections(zebin);
    let text = secs
        .iter()
        .find(|(n, _)| *n == format!(".text.{name}"))
        .expect("kernel text")
        .1
        .to_vec();
    let info =
        String::from_utf8_lossy(secs.iter().find(|(n, _)| n == ".ze_info").unwrap().1).into_owned();
    let mut k = ZeKernel {
        text,
        simd: 0,
        args: vec![],
        local_id_bytes: 0,
        btis: vec![],
        inline_bytes: 0,
    };
    let mut section = "";
    let mut cur: Option<(String, usize, usize, Option<u32>)> = None;
    let mut bti: Option<u32> = None;
    for line in info.lines() {
        let t = line.trim_start().trim_start_matches("- ");
        let (key, val) = match t.split_once(':') {
            Some((k, v)) => (k.trim(), v.trim()),
            None => continue,
        };
        if line.trim_start().starts_with("- ") && key == "arg_type" {
            if let Some(a) = cur.take() {
                if section == "payload_arguments" {
                    k.args.push(a);
                }
            }
            cur = Some((val.to_string(), 0, 0, None));
        }
        match key {
            "payload_arguments" | "per_thread_payload_arguments" | "binding_table_indices" => {
                if let Some(a) = cur.take() {
                    if section == "payload_arguments" {
                        k.args.push(a);
                    }
                }
                section = key;
            }
            "simd_size" => k.simd = val.parse().unwrap(),
            "inline_data_payload_size" => k.inline_bytes = val.parse().unwrap(),
            "offset" => cur.as_mut().unwrap().1 = val.parse().unwrap(),
            "size" if section == "per_thread_payload_arguments" => {
                k.local_id_bytes = val.parse().unwrap()
            }
            "size" => cur.as_mut().unwrap().2 = val.parse().unwrap(),
            "arg_index" if section == "binding_table_indices" => {
                k.btis.push((bti.take().unwrap(), val.parse().unwrap()))
            }
            "arg_index" => cur.as_mut().unwrap().3 = Some(val.parse().unwrap()),
            "bti_value" => bti = Some(val.parse().unwrap()),
            _ => {}
        }
    }
    if let Some(a) = cur.take() {
        if section == "payload_arguments" {
            k.args.push(a);
        }
    }
    k
}

/// Runs a 1-D NDRange of `groups` x `local` work items: one thread per `simd` work items.
/// `args[i]` is the byte value of kernel argument i (buffers: their GPU address, which is
/// also bound at the argument's binding-table index).
pub fn dispatch(
    p: Platform,
    k: &ZeKernel,
    mem: &mut TestMem,
    groups: u32,
    local: u32,
    args: &[(u64, u64)],
) {
    let prog = Program::decode(p, &k.text);
    for (bti, arg) in &k.btis {
        let (addr, size) = args[*arg as usize];
        mem.surfaces.insert(*bti, Surface::buffer(addr, size));
    }
    let mut ctd = vec![0u8; 256];
    let mut put = |off: usize, bytes: &[u8]| ctd[off..off + bytes.len()].copy_from_slice(bytes);
    for (ty, off, size, idx) in &k.args {
        match ty.as_str() {
            "local_size" | "enqueued_local_size" => {
                put(*off, &[local, 1, 1].map(u32::to_le_bytes).concat())
            }
            "global_size" => put(*off, &[groups * local, 1, 1].map(u32::to_le_bytes).concat()),
            "group_count" => put(*off, &[groups, 1, 1].map(u32::to_le_bytes).concat()),
            "global_id_offset" => put(*off, &[0u8; 12]),
            "buffer_address" | "arg_byvalue" => {
                let v = args[idx.unwrap() as usize].0.to_le_bytes();
                put(*off, &v[..*size]);
            }
            _ => {}
        }
    }
    let ctd_len = k
        .args
        .iter()
        .map(|a| a.1 + a.2)
        .max()
        .unwrap_or(0)
        .div_ceil(32)
        * 32;
    let ctd = &ctd[..ctd_len];
    let simd = k.simd as usize;
    let threads = (local as usize).div_ceil(simd);
    // Per-thread data: the x local IDs as words, then y and z (zero), each GRF-padded.
    let ptd = |first: usize| {
        let mut b = vec![0u8; k.local_id_bytes];
        for lane in 0..simd {
            b[2 * lane..2 * lane + 2].copy_from_slice(&((first + lane) as u16).to_le_bytes());
        }
        b
    };
    // Xe-HPG indirect data: cross-thread data past the inline part, then each thread's block.
    let indirect = BASE + 0x4000;
    if k.inline_bytes > 0 {
        let rest = &ctd[k.inline_bytes.min(ctd.len())..];
        let at = (indirect - mem.base) as usize;
        mem.bytes[at..at + rest.len()].copy_from_slice(rest);
        for tid in 0..threads {
            let at = at + rest.len() + tid * k.local_id_bytes;
            mem.bytes[at..at + k.local_id_bytes].copy_from_slice(&ptd(tid * simd));
        }
    }
    for g in 0..groups {
        // The group's threads run round-robin; a barrier releases once all have reached it.
        let mut group: Vec<Thread> = (0..threads)
            .map(|tid| {
                let first = tid * simd;
                let lanes = (local as usize - first).min(simd);
                let mask = if lanes == 32 {
                    u32::MAX
                } else {
                    (1u32 << lanes) - 1
                };
                let mut t = Thread::new(mask);
                // r0: the indirect data address (Xe-HPG), the group id in DWord 1 and the thread's
                // index in its group in DWord 2 bits 7:0 (the Xe-HPG prologue reads `r0.4:uw`).
                set_u32s(&mut t, 0, &[indirect as u32, g, tid as u32, 0, 0, 0, 0, 0]);
                if k.inline_bytes > 0 {
                    t.grf_mut()[32..32 + k.inline_bytes].copy_from_slice(&ctd[..k.inline_bytes]);
                } else {
                    t.grf_mut()[32..32 + k.local_id_bytes].copy_from_slice(&ptd(first));
                    let at = 32 + k.local_id_bytes;
                    t.grf_mut()[at..at + ctd.len()].copy_from_slice(ctd);
                }
                t
            })
            .collect();
        mem.slm.fill(0);
        for _round in 0..1000 {
            for t in group.iter_mut() {
                let st = run(t, &prog, mem, 1_000_000).unwrap_or_else(|e| panic!("{p}: {e}"));
                assert_ne!(st, Status::Budget, "{p}: hung");
            }
            if group.iter().all(|t| t.is_ended()) {
                break;
            }
            assert!(
                group.iter().all(|t| t.is_ended() || t.barrier_pending()),
                "{p}"
            );
            group.iter_mut().for_each(|t| t.release_barrier());
        }
        assert!(
            group.iter().all(|t| t.is_ended()),
            "{p}: group {g} never ended"
        );
    }
}

/// Compiles `src` for `p` and returns its kernel `name`.
pub fn compile(ocloc: &std::path::Path, p: Platform, src: &str, name: &str) -> ZeKernel {
    let bin = oracles::ocloc::compile(
        ocloc,
        p,
        src,
        "-cl-std=CL2.0",
        oracles::ocloc::Format::Zebin,
    )
    .unwrap_or_else(|e| panic!("{p}: {e}"));
    ze_kernel(&bin, name)
}
