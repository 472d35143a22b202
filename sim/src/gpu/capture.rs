//! A GPU error as the kernel drivers publish it: i915's error state text
//! (`i915_gpu_error.c`: `err_print_to_sgl`, `error_print_engine`, the object lines) and xe's
//! devcoredump (`xe_devcoredump.c`, `xe_sched_job.c`, `xe_hw_engine.c`; the page fault in the
//! form of `xe_gt_pagefault.c`'s report, which later kernels put in the dump), in the Linux
//! 6.12 formats that `kmd_iface::gpu_error` parses. After the kernel's lines come the
//! simulator's own (`kmd_iface::gpu_error::simulator`): the EU instruction, the exact fault
//! and its direction, and the simulator's description, which no hardware capture has.

use std::fmt::Write;

use kmd_iface::gpu_error::simulator::{eu_instruction_line, fault_line, ERROR};
use kmd_iface::gpu_error::EuInstruction;

use crate::device_info::{DeviceInfo, EngineClass};
use crate::gpu_error::{GpuErrorKind, GpuErrorRecord};
use crate::mem::Access;
use sim_eu::EuErrorKind;

/// The faulting address and direction, when the error is a page fault.
fn fault_of(kind: &GpuErrorKind) -> Option<(u64, Option<bool>)> {
    match kind {
        GpuErrorKind::PageFault { fault, .. } => {
            Some((fault.address, Some(fault.access == Access::Write)))
        }
        GpuErrorKind::Eu {
            error: EuErrorKind::PageFault { address },
            ..
        } => Some((*address, None)),
        _ => None,
    }
}

fn simulator_lines(out: &mut String, r: &GpuErrorRecord, indent: &str) {
    if let Some(at) = r.kind.instruction() {
        let at = EuInstruction {
            kernel: at.kernel,
            offset: at.offset,
        };
        let _ = writeln!(out, "{indent}{}", eu_instruction_line(at));
    }
    if let Some((address, Some(write))) = fault_of(&r.kind) {
        let _ = writeln!(out, "{indent}{}", fault_line(write, address));
    }
    let _ = writeln!(out, "{indent}{ERROR}{}", r.kind);
}

/// The name of this process, as the kernel's `comm`.
fn comm() -> String {
    std::fs::read_to_string("/proc/self/comm")
        .map(|s| s.trim_end().to_owned())
        .unwrap_or_else(|_| "unknown".into())
}

/// i915's error state for `r`.
pub fn i915_error_state(info: &DeviceInfo, r: &GpuErrorRecord) -> String {
    let mut s = String::new();
    let engine_bit = info
        .engines
        .iter()
        .position(|e| e.name == r.engine)
        .map_or(0, |i| 1u32 << i);
    // error_msg(): "GPU HANG: ecode <ver>:<engine mask>:<ecode>, in <comm> [<pid>]". The
    // ecode hashes registers the simulator does not model: zero.
    let _ = writeln!(
        s,
        "GPU HANG: ecode {}:{engine_bit:x}:{:08x}, in {} [{}]",
        info.ip_version.0,
        0,
        comm(),
        std::process::id()
    );
    let _ = writeln!(s, "Kernel: 6.12.0-simulated x86_64");
    let fault = fault_of(&r.kind);
    if let Some((address, _)) = fault {
        // gen8_check_faults: data0 holds VA bits 43:12, data1 bits 47:44 (PPGTT: GTT bit 0).
        let data0 = ((address >> 12) & 0xffff_ffff) as u32;
        let data1 = ((address >> 44) & 0xf) as u32;
        let _ = writeln!(s, "FAULT_TLB_DATA: 0x{data1:08x} 0x{data0:08x}");
    }
    let _ = writeln!(s, "{} command stream:", r.engine);
    let _ = writeln!(
        s,
        "  ACTHD: 0x{:08x} {:08x}",
        r.head >> 32,
        r.head & 0xffff_ffff
    );
    let _ = writeln!(
        s,
        "  BBADDR: 0x{:08x}_{:08x}",
        r.head >> 32,
        r.head & 0xffff_ffff
    );
    // RING_FAULT_REG: RING_FAULT_VALID when a fault is latched.
    let _ = writeln!(s, "  FAULT_REG: 0x{:08x}", u32::from(fault.is_some()));
    let _ = writeln!(s, "  hung: 1");
    let _ = writeln!(
        s,
        "{} --- batch = 0x{:08x} {:08x}",
        r.engine,
        r.batch >> 32,
        r.batch & 0xffff_ffff
    );
    simulator_lines(&mut s, r, "");
    s
}

/// The hardware engine class number xe's page-fault report prints, and xe's class name.
fn xe_class(info: &DeviceInfo, engine: &str) -> (u32, &'static str) {
    match info
        .engines
        .iter()
        .find(|e| e.name == engine)
        .map(|e| e.class)
    {
        Some(EngineClass::Compute) => (5, "ccs"),
        Some(EngineClass::Copy) => (3, "bcs"),
        _ => (0, "rcs"),
    }
}

/// xe's devcoredump for `r`.
pub fn xe_devcoredump(info: &DeviceInfo, r: &GpuErrorRecord) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "**** Xe Device Coredump ****");
    let _ = writeln!(s, "Process: {}", comm());
    if let Some((address, write)) = fault_of(&r.kind) {
        let (class, name) = xe_class(info, r.engine);
        let _ = writeln!(s, "\tASID: {}", r.context);
        let _ = writeln!(s, "\tFaulted Address: 0x{:016x}", address & !0xfff);
        if let Some(w) = write {
            let _ = writeln!(s, "\tAccessType: {}", u32::from(w));
        }
        let _ = writeln!(s, "\tEngineClass: {class} {name}");
        let instance = r
            .engine
            .trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let _ = writeln!(s, "\tEngineInstance: {instance}");
    }
    let _ = writeln!(s, "\n**** Job ****");
    let _ = writeln!(s, "batch_addr[0]: 0x{:016x}", r.batch);
    let _ = writeln!(s, "\n**** HW Engines ****");
    let _ = writeln!(s, "{} (physical), logical instance=0", r.engine);
    let _ = writeln!(s, "\tACTHD: 0x{:016x}", r.head);
    let _ = writeln!(s, "\tBBADDR: 0x{:016x}", r.head);
    let _ = writeln!(s, "\n**** Simulator ****");
    simulator_lines(&mut s, r, "");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu_error::{HangReason, KernelOffset};
    use crate::mem::GpuFault;
    use kmd_iface::gpu_error::{i915, xe, AddressSpace};
    use platform::Platform;

    fn fault_record() -> GpuErrorRecord {
        GpuErrorRecord {
            id: 1,
            engine: "rcs0",
            context: 3,
            head: 0x1_0020_0040,
            batch: 0x1_0020_0000,
            kind: GpuErrorKind::PageFault {
                fault: GpuFault {
                    address: 0x1234_5678_9abc,
                    len: 4,
                    access: Access::Write,
                },
                by: Some(KernelOffset {
                    kernel: 0x40_0000,
                    offset: 0x118,
                }),
            },
        }
    }

    #[test]
    fn both_captures_parse_back_to_the_record() {
        let info = DeviceInfo::get(Platform::Tgllp);
        let r = fault_record();
        for c in [
            i915::parse(&i915_error_state(info, &r)).unwrap(),
            xe::parse(&xe_devcoredump(info, &r)).unwrap(),
        ] {
            assert_eq!(c.engine.as_deref(), Some("rcs0"));
            assert_eq!(c.batch_address, Some(r.batch));
            assert_eq!(c.acthd, Some(r.head));
            let f = c.fault.unwrap();
            assert_eq!(f.address, 0x1234_5678_9abc);
            assert_eq!(f.write, Some(true));
            assert_eq!(f.space, Some(AddressSpace::Ppgtt));
            assert_eq!(
                c.instruction,
                Some(EuInstruction {
                    kernel: 0x40_0000,
                    offset: 0x118
                })
            );
        }
        let hang = GpuErrorRecord {
            kind: GpuErrorKind::Hang(HangReason::EuWatchdog {
                kernel: 0x40_0000,
                threads: vec![0x30],
            }),
            ..r
        };
        let c = i915::parse(&i915_error_state(info, &hang)).unwrap();
        assert_eq!(c.fault, None);
        assert_eq!(c.instruction.map(|i| i.offset), Some(0x30));
        assert!(c.summary.unwrap().starts_with("GPU HANG: ecode 12:1:"));
    }
}
