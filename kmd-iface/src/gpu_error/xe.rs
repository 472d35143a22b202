//! xe's device coredump (`/sys/class/drm/cardN/device/devcoredump/data`) and its page-fault
//! report in the kernel log.
//!
//! The coredump text is printed by `drivers/gpu/drm/xe/xe_devcoredump.c`
//! (`__xe_devcoredump_read`, Linux 6.12): a `**** Xe Device Coredump ****` header with
//! `Process:` (and `Reason:` on later kernels), then `**** <section> ****` blocks. Used here:
//! `**** Job ****` (`batch_addr[<i>]: 0x<16 hex>`, `xe_sched_job.c`) and `**** HW Engines ****`
//! (`<name> (physical), logical instance=<n>` then tab-indented `<REG>: 0x<hex>` lines,
//! `xe_hw_engine.c`; GuC-captured register lists print 64-bit pairs as `<REG>` + `<REG>_UDW`).
//! The 6.12 coredump has no fault address: that is in the log's page-fault report
//! (`xe_gt_pagefault.c` `print_pagefault`: `ASID:`, `Faulted Address: 0x<hi><lo>`,
//! `AccessType:`, `EngineClass: <n> <name>`, `EngineInstance:`), parsed by
//! [`parse_pagefault_log`].

use super::text::{first_line, hex, hex_digits, malformed};
use super::{Capture, CaptureError, CaptureSource, Fault};

const WHAT: &str = "xe devcoredump";
const WHAT_LOG: &str = "xe page-fault report";
const HEADER: &str = "**** Xe Device Coredump ****";
/// `xe_guc_pagefault_desc` access types (xe_guc_fwif.h): 0 read, 1 write.
const ACCESS_WRITE: u32 = 1;
const ACCESS_READ: u32 = 0;

/// One engine of the `HW Engines` section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Engine {
    pub name: String,
    pub acthd: Option<u64>,
    pub bbaddr: Option<u64>,
}

/// The parts of a devcoredump a UMD uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coredump {
    pub process: Option<String>,
    pub reason: Option<String>,
    pub batch_addrs: Vec<u64>,
    pub engines: Vec<Engine>,
    /// A page-fault report inside the dump (later kernels add one; 6.12 does not).
    pub fault: Option<PagefaultReport>,
    /// The simulator's own lines.
    pub simulator: super::simulator::Extension,
}

/// A page fault as xe reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PagefaultReport {
    pub address: u64,
    pub asid: Option<u32>,
    pub write: Option<bool>,
    /// `rcs0`, `ccs1`...: the class name and instance, when both are printed.
    pub engine: Option<String>,
}

impl Coredump {
    /// The engine that was running: the first with a non-zero active head, else the first.
    pub fn culprit(&self) -> Option<&Engine> {
        self.engines
            .iter()
            .find(|e| e.acthd.is_some_and(|a| a != 0))
            .or_else(|| self.engines.first())
    }

    pub fn capture(&self) -> Capture {
        let engine = self.culprit();
        let mut c = Capture {
            source: Some(CaptureSource::XeDevcoredump),
            summary: match (&self.reason, &self.process) {
                (Some(r), Some(p)) => Some(format!("{r} ({p})")),
                (r, p) => r.clone().or_else(|| p.clone()),
            },
            engine: self
                .fault
                .as_ref()
                .and_then(|f| f.engine.clone())
                .or_else(|| engine.map(|e| e.name.clone())),
            fault: self.fault.as_ref().map(PagefaultReport::fault),
            batch_address: self
                .batch_addrs
                .first()
                .copied()
                .or_else(|| engine.and_then(|e| e.bbaddr)),
            acthd: engine.and_then(|e| e.acthd),
            instruction: None,
        };
        self.simulator.apply(&mut c);
        c
    }
}

impl PagefaultReport {
    pub fn fault(&self) -> Fault {
        Fault {
            address: self.address,
            space: Some(super::AddressSpace::Ppgtt),
            write: self.write,
        }
    }

    pub fn capture(&self) -> Capture {
        Capture {
            source: Some(CaptureSource::XePagefaultLog),
            summary: self.asid.map(|a| format!("page fault in ASID {a}")),
            engine: self.engine.clone(),
            fault: Some(self.fault()),
            batch_address: None,
            acthd: None,
            instruction: None,
        }
    }
}

/// A register value: `0x` and 8 or 16 hex digits.
fn reg_value(v: &str) -> Option<u64> {
    hex(v, 16).or_else(|| hex(v, 8))
}

/// `0x<16 hex>`, or `0x<8 hex>_<8 hex>` as older reports print it.
fn fault_address(v: &str) -> Option<u64> {
    match v.split_once('_') {
        Some((hi, lo)) => Some((hex(hi, 8)? << 32) | hex_digits(lo, 8)?),
        None => hex(v, 16),
    }
}

/// Accumulates page-fault report lines (ASID comes before the address it belongs to).
#[derive(Default)]
struct FaultLines {
    last: Option<PagefaultReport>,
    asid: Option<u32>,
    class: Option<String>,
}

impl FaultLines {
    /// Feeds one trimmed line; returns whether it was a report line.
    fn feed(&mut self, what: &'static str, no: usize, line: &str) -> Result<bool, CaptureError> {
        let Some((key, v)) = line.split_once(": ") else {
            return Ok(false);
        };
        let v = v.trim();
        let bad = || malformed(what, no, key, v);
        match key {
            "ASID" => self.asid = Some(v.parse().map_err(|_| bad())?),
            "Faulted Address" => {
                self.class = None;
                self.last = Some(PagefaultReport {
                    address: fault_address(v).ok_or_else(bad)?,
                    asid: self.asid.take(),
                    ..Default::default()
                });
            }
            "AccessType" => {
                let t: u32 = v.parse().map_err(|_| bad())?;
                if let Some(r) = self.last.as_mut() {
                    r.write = match t {
                        ACCESS_WRITE => Some(true),
                        ACCESS_READ => Some(false),
                        _ => None,
                    };
                }
            }
            "EngineClass" => {
                // `<number> <name>`; the name is what a user knows the engine by.
                let mut parts = v.split_whitespace();
                parts
                    .next()
                    .and_then(|n| n.parse::<u32>().ok())
                    .ok_or_else(bad)?;
                self.class = parts.next().map(str::to_owned);
            }
            "EngineInstance" => {
                let inst: u32 = v.parse().map_err(|_| bad())?;
                if let (Some(r), Some(class)) = (self.last.as_mut(), self.class.as_ref()) {
                    r.engine = Some(format!("{class}{inst}"));
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Parses a devcoredump `data` file.
pub fn parse_devcoredump(text: &str) -> Result<Coredump, CaptureError> {
    let Some((first_no, first)) = first_line(text) else {
        return Err(CaptureError::Empty { what: WHAT });
    };
    if first.trim() != HEADER {
        return Err(CaptureError::NotACapture {
            what: WHAT,
            line: first_no,
            found: first.chars().take(80).collect(),
        });
    }
    let mut d = Coredump::default();
    let mut section = String::new();
    let mut faults = FaultLines::default();
    // `<REG>_UDW` halves seen per engine, folded in at the end of the engine.
    let mut udw: Vec<(String, u64)> = Vec::new();
    let mut last = first_no;
    let fold = |e: Option<&mut Engine>, udw: &mut Vec<(String, u64)>| {
        if let Some(e) = e {
            for (reg, hi) in udw.drain(..) {
                let slot = match reg.as_str() {
                    "ACTHD" => &mut e.acthd,
                    _ => &mut e.bbaddr,
                };
                *slot = Some((hi << 32) | slot.unwrap_or(0) & 0xffff_ffff);
            }
        }
        udw.clear();
    };
    for (i, raw) in text.lines().enumerate().skip(first_no) {
        let no = i + 1;
        last = no;
        let line = raw.trim_end();
        if let Some(name) = line
            .strip_prefix("**** ")
            .and_then(|l| l.strip_suffix(" ****"))
        {
            fold(d.engines.last_mut(), &mut udw);
            section = name.to_owned();
            continue;
        }
        let t = line.trim();
        if faults.feed(WHAT, no, t)? || d.simulator.feed(WHAT, no, t)? {
            continue;
        }
        let bad = |k: &str, v: &str| malformed(WHAT, no, k, v);
        if section.is_empty() {
            if let Some(p) = line.strip_prefix("Process: ") {
                d.process = Some(p.to_owned());
            } else if let Some(r) = line.strip_prefix("Reason: ") {
                d.reason = Some(r.to_owned());
            }
            continue;
        }
        match section.as_str() {
            "Job" => {
                if let Some((k, v)) = t.split_once(": ") {
                    if k.starts_with("batch_addr[") {
                        d.batch_addrs
                            .push(hex(v, 16).ok_or_else(|| bad("batch_addr", v))?);
                    }
                }
            }
            "HW Engines" => {
                if let Some((name, _)) = line.split_once(" (physical), logical instance=") {
                    fold(d.engines.last_mut(), &mut udw);
                    d.engines.push(Engine {
                        name: name.to_owned(),
                        ..Default::default()
                    });
                    continue;
                }
                let (Some(e), Some(body)) = (d.engines.last_mut(), line.strip_prefix('\t')) else {
                    continue;
                };
                let Some((k, v)) = body.split_once(": ") else {
                    continue;
                };
                let k = k.trim();
                match k {
                    "ACTHD" => e.acthd = Some(reg_value(v).ok_or_else(|| bad(k, v))?),
                    "BBADDR" | "RING_BBADDR" => {
                        e.bbaddr = Some(reg_value(v).ok_or_else(|| bad(k, v))?)
                    }
                    "ACTHD_UDW" | "BBADDR_UDW" | "RING_BBADDR_UDW" => {
                        let hi = hex(v, 8).ok_or_else(|| bad(k, v))?;
                        udw.push((k.trim_end_matches("_UDW").to_owned(), hi));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    fold(d.engines.last_mut(), &mut udw);
    d.fault = faults.last;
    if d.engines.is_empty() && d.batch_addrs.is_empty() && d.fault.is_none() {
        return Err(CaptureError::Truncated {
            what: WHAT,
            line: last,
            detail: "no job, engine or fault section".into(),
        });
    }
    Ok(d)
}

/// Parses a devcoredump into what a UMD reports.
pub fn parse(text: &str) -> Result<Capture, CaptureError> {
    parse_devcoredump(text).map(|d| d.capture())
}

/// The last page-fault report in kernel log text (`dmesg` lines, prefixes allowed).
/// `Ok(None)` when the log has none.
pub fn parse_pagefault_log(text: &str) -> Result<Option<PagefaultReport>, CaptureError> {
    let mut faults = FaultLines::default();
    for (i, line) in text.lines().enumerate() {
        // A kernel log line may carry `[time] xe 0000:03:00.0: [drm] ...` before the field.
        let t = line.trim();
        let field = [
            "ASID: ",
            "Faulted Address: ",
            "AccessType: ",
            "EngineClass: ",
            "EngineInstance: ",
        ]
        .iter()
        .find_map(|k| t.find(k).map(|at| &t[at..]));
        if let Some(f) = field {
            faults.feed(WHAT_LOG, i + 1, f)?;
        }
    }
    Ok(faults.last)
}
