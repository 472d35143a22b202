//! The sanitizer's GPU side: which checks run (`INTEL_GPU_SANITIZE`), what the driver in the
//! process told it (buffers with their exact sizes, dispatches with their kernel names and
//! shared local memory), the allocations of each dispatch, and the findings' reports.
//!
//! The checks themselves are `sim_eu::sanitize`'s: the dispatcher runs each thread against
//! its checking memory when a [`Sanitizer`] is on. Findings are reported at the end of each
//! walker (one report per walker: once per kernel instruction and check, with a count), on
//! stderr and, with `INTEL_GPU_SANITIZE_LOG=<file>`, appended to the file as JSON lines.
//!
//! Allocations: a buffer a driver registered ([`Sanitizer::register_buffer`], umd does for
//! its buffers) is checked at its exact byte size, and the rest of the GEM object holding it
//! is padding; every other bound range (a foreign client's buffers under the shim, the
//! driver's own heaps) counts as one allocation of its GEM binding's size.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use platform::Platform;
use sim_eu::sanitize::{Allocation, Allocations, Defined, ExecStats, Findings, GlobalCells, Scope};
pub use sim_eu::sanitize::{Check, Checks, ChecksError};

use crate::mem::AddressSpace;

/// The environment variable listing the checks (`memcheck,alignment` or `all`).
pub const ENV_CHECKS: &str = "INTEL_GPU_SANITIZE";
/// The environment variable naming the file findings are appended to as JSON lines.
pub const ENV_LOG: &str = "INTEL_GPU_SANITIZE_LOG";

/// What a program that runs kernels without OpenCL calls (`sim-shim`'s own side,
/// `intel-gpu-run`) says when `api` is among the checks: it accepts it, and it has nothing to
/// check there.
pub const API_ELSEWHERE: &str = "the `api` check applies to OpenCL programs: this project's \
     OpenCL ICD reports each of their calls that returns an error; here it checks nothing";

/// Which checks run and where findings go besides stderr.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    pub checks: Checks,
    pub log: Option<PathBuf>,
}

impl Settings {
    /// From `INTEL_GPU_SANITIZE` and `INTEL_GPU_SANITIZE_LOG`; an unknown or absent check is
    /// an error.
    pub fn from_env() -> Result<Settings, ChecksError> {
        let checks = match std::env::var(ENV_CHECKS) {
            Ok(v) => Checks::parse(&v)?,
            Err(_) => Checks::NONE,
        };
        Ok(Settings {
            checks,
            log: std::env::var_os(ENV_LOG).map(PathBuf::from),
        })
    }
}

#[derive(Debug, Clone)]
struct Buffer {
    size: u64,
    read_only: bool,
    /// initcheck: the bytes the host or a command wrote since the buffer was created.
    written: Arc<Defined>,
}

#[derive(Debug, Clone)]
struct DispatchInfo {
    end: u64,
    kernel: Arc<str>,
    slm_bytes: u32,
    /// The dispatch's private memory and scratch (each thread's own).
    per_thread: Vec<Range<u64>>,
    /// Bytes from the kernel binary's first instruction to the walker's start (offsets are
    /// reported from the binary's start, as a disassembler of it shows them).
    entry: u32,
}

/// A GPU's sanitizer.
#[derive(Debug)]
pub struct Sanitizer {
    settings: Settings,
    buffers: Mutex<BTreeMap<u64, Buffer>>,
    dispatches: Mutex<BTreeMap<u64, DispatchInfo>>,
    /// Serializes reports (stderr and the log file).
    out: Mutex<()>,
}

impl Sanitizer {
    /// A sanitizer running `settings`' checks of kernels; None when there are none (`api`
    /// alone is the OpenCL ICD's check of its calls: the GPU runs as without a sanitizer).
    pub fn new(mut settings: Settings) -> Option<Arc<Sanitizer>> {
        settings.checks = settings.checks.on_gpu();
        (!settings.checks.is_empty()).then(|| {
            Arc::new(Sanitizer {
                settings,
                buffers: Mutex::default(),
                dispatches: Mutex::default(),
                out: Mutex::default(),
            })
        })
    }

    /// `settings`, or the environment's when None.
    pub fn configured(settings: Option<Settings>) -> Result<Option<Arc<Sanitizer>>, ChecksError> {
        let s = match settings {
            Some(s) => s,
            None => Settings::from_env()?,
        };
        Ok(Sanitizer::new(s))
    }

    pub fn checks(&self) -> Checks {
        self.settings.checks
    }

    /// A buffer of exactly `size` bytes at GPU address `start` (of the driver's VM);
    /// `read_only`: the program created it read-only for kernels. A new buffer's bytes are
    /// unwritten (initcheck) until [`Sanitizer::host_wrote`] or a kernel writes them; the same
    /// buffer registered again (declared read-only) keeps them.
    pub fn register_buffer(&self, start: u64, size: u64, read_only: bool) {
        let mut b = lock(&self.buffers);
        let written = match b.get(&start) {
            Some(old) if old.size == size => old.written.clone(),
            _ => Arc::new(Defined::new(size, false)),
        };
        b.insert(
            start,
            Buffer {
                size,
                read_only,
                written,
            },
        );
    }

    /// The host or a command (copy, fill) wrote the bytes in `range` of GPU addresses.
    pub fn host_wrote(&self, range: Range<u64>) {
        let b = lock(&self.buffers);
        for (start, buf) in b.range(..range.end) {
            let end = start + buf.size;
            if end > range.start {
                let from = range.start.max(*start);
                buf.written
                    .mark(from - start, range.end.min(end).saturating_sub(from));
            }
        }
    }

    /// The buffers starting in `range` (a freed GEM object's addresses) are gone.
    pub fn release_buffers(&self, range: Range<u64>) {
        let mut b = lock(&self.buffers);
        let gone: Vec<u64> = b.range(range).map(|(s, _)| *s).collect();
        for s in gone {
            b.remove(&s);
        }
    }

    /// The walkers whose indirect data lies in `indirect` run kernel `kernel`, starting
    /// `entry` bytes into its binary, with `slm_bytes` bytes of shared local memory (its own
    /// and its `local` arguments') and `per_thread` the ranges of its private memory and
    /// scratch (each thread's slice its own).
    pub fn register_dispatch(
        &self,
        indirect: Range<u64>,
        kernel: &str,
        entry: u32,
        slm_bytes: u32,
        per_thread: Vec<Range<u64>>,
    ) {
        let mut d = lock(&self.dispatches);
        // Ranges an earlier batch in the same place registered are replaced.
        let stale: Vec<u64> = d
            .range(..indirect.end)
            .filter(|(s, i)| i.end > indirect.start && **s < indirect.end)
            .map(|(s, _)| *s)
            .collect();
        for s in stale {
            d.remove(&s);
        }
        d.insert(
            indirect.start,
            DispatchInfo {
                end: indirect.end,
                kernel: kernel.into(),
                slm_bytes,
                per_thread,
                entry,
            },
        );
    }

    /// The kernel name and exact SLM a driver registered for the walker whose indirect data
    /// is at `indirect`.
    fn dispatch_at(&self, indirect: u64) -> Option<DispatchInfo> {
        let d = lock(&self.dispatches);
        let (_, i) = d.range(..=indirect).next_back()?;
        (indirect < i.end).then(|| i.clone())
    }

    /// What a walker's checks know, and how its findings name the kernel: its name (its
    /// address where none was registered) and the offset of the walker's start in it.
    pub(crate) fn scope(
        &self,
        vm: &AddressSpace,
        kernel: u64,
        indirect: u64,
    ) -> (Scope, (String, u32)) {
        let mut list: Vec<Allocation> = vm
            .bindings()
            .map(|b| Allocation {
                start: b.start,
                size: b.len,
                label: "GEM object".into(),
                read_only: b.read_only,
                exact: false,
            })
            .collect();
        let buffer: Arc<str> = "buffer".into();
        let buffers = lock(&self.buffers);
        list.extend(buffers.iter().map(|(start, b)| Allocation {
            start: *start,
            size: b.size,
            label: buffer.clone(),
            read_only: b.read_only,
            exact: true,
        }));
        let written = if self.settings.checks.has(Check::Initcheck) {
            buffers
                .iter()
                .map(|(s, b)| (*s, b.written.clone()))
                .collect()
        } else {
            Vec::new()
        };
        drop(buffers);
        let info = self.dispatch_at(indirect);
        let allocations = Allocations::new(list);
        let races = if self.settings.checks.has(Check::Racecheck) {
            GlobalCells::new(&allocations)
        } else {
            GlobalCells::default()
        };
        let scope = Scope {
            checks: self.settings.checks,
            allocations,
            slm_bytes: info.as_ref().map(|i| i.slm_bytes),
            per_thread: info.as_ref().map_or(Vec::new(), |i| i.per_thread.clone()),
            written,
            races,
            entry: info.as_ref().map_or(0, |i| i.entry),
        };
        let name = info.map_or_else(
            || (format!("at {kernel:#x}"), 0),
            |i| (i.kernel.to_string(), i.entry),
        );
        (scope, name)
    }

    /// Reports a walker's findings: each with the kernel's name and its instruction's
    /// disassembly (read from the kernel's memory).
    pub(crate) fn report(
        &self,
        findings: Findings,
        (kernel, entry): &(String, u32),
        platform: Platform,
        vm: &AddressSpace,
        kernel_address: u64,
    ) {
        if findings.is_empty() {
            return;
        }
        let _guard = lock(&self.out);
        let mut json = String::new();
        let mut text = String::new();
        for mut f in findings.into_vec() {
            f.kernel = kernel.to_string();
            f.disassembly = disassemble_at(platform, vm, kernel_address, f.offset);
            f.offset = f.offset.wrapping_add(*entry);
            text += &f.to_text();
            text.push('\n');
            json += &f.to_json();
            json.push('\n');
        }
        let _ = std::io::stderr().write_all(text.as_bytes());
        if let Some(path) = &self.settings.log {
            let appended = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(json.as_bytes()));
            if let Err(e) = appended {
                let _ = writeln!(
                    std::io::stderr(),
                    "sanitizer: cannot append to {}: {e}",
                    path.display()
                );
            }
        }
    }
}

impl Sanitizer {
    /// Reports a walker's execution statistics (`stats`): the kernel's instruction mix, each
    /// executed instruction's count and active lanes with its disassembly, and the bytes per
    /// send type, on stderr and as one JSON line in the log.
    pub(crate) fn report_stats(
        &self,
        stats: &ExecStats,
        prog: &sim_eu::Program,
        (kernel, entry): &(String, u32),
        vm: &AddressSpace,
        kernel_address: u64,
    ) {
        let report = stats.report(prog, kernel, *entry, &|pc| {
            disassemble_at(prog.platform, vm, kernel_address, pc)
        });
        self.emit(&(report.to_text() + "\n"), &(report.to_json() + "\n"));
    }

    /// Writes a report on stderr and appends its JSON lines to the log.
    fn emit(&self, text: &str, json: &str) {
        let _guard = lock(&self.out);
        let _ = std::io::stderr().write_all(text.as_bytes());
        if let Some(path) = &self.settings.log {
            let appended = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(json.as_bytes()));
            if let Err(e) = appended {
                let _ = writeln!(
                    std::io::stderr(),
                    "sanitizer: cannot append to {}: {e}",
                    path.display()
                );
            }
        }
    }
}

/// The instruction at `offset` of the kernel at `kernel` as IGA text (empty where it does
/// not read or decode).
fn disassemble_at(p: Platform, vm: &AddressSpace, kernel: u64, offset: u32) -> String {
    let mut bytes = [0u8; 16];
    if vm
        .read(kernel.wrapping_add(u64::from(offset)), &mut bytes)
        .is_err()
    {
        return String::new();
    }
    // Bit 29 of the first DWord: a compacted (8-byte) instruction.
    let len = if u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) & 1 << 29 != 0 {
        8
    } else {
        16
    };
    isa_encoder::text::disassemble(p, &bytes[..len])
        .map(|t| {
            // The text's first instruction line (a label line ends with a colon).
            t.lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.ends_with(':'))
                .unwrap_or("")
                .to_string()
        })
        .unwrap_or_default()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
