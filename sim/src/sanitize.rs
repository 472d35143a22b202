//! The sanitizer's GPU side: which checks run (`INTEL_GPU_SANITIZE`), what the driver in the
//! process told it (buffers with their exact sizes, dispatches with their kernel names, shared
//! local memory and source lines), the allocations of each dispatch, and the findings' reports.
//!
//! The checks themselves are `sim_eu::sanitize`'s: the dispatcher runs each thread against
//! its checking memory when a [`Sanitizer`] is on. Findings are reported at the end of each
//! walker (one report per walker: once per kernel instruction and check, with a count), on
//! stderr and, with `INTEL_GPU_SANITIZE_LOG=<file>`, appended to the file as JSON lines.
//!
//! Allocations: a buffer a driver registered ([`Sanitizer::register_buffer`], umd does for
//! its buffers, [`Sanitizer::register_usm`] for its USM allocations) is checked at its exact
//! byte size, and the rest of the GEM object holding it is padding; every other bound range (a
//! foreign client's buffers under the shim, the driver's own heaps) counts as one allocation
//! of its GEM binding's size. Per dispatch ([`Sanitizer::register_dispatch_bounds`]): a
//! buffer the dispatch's arguments name only through sub-buffers is, for that dispatch, those
//! sub-buffers; a USM allocation is named whole by any pointer into it. A freed USM
//! allocation is remembered until its addresses are used again: an access to it is a use
//! after free.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use platform::Platform;
use sim_eu::sanitize::{Allocation, Allocations, Defined, ExecStats, Findings, GlobalCells, Scope};
pub use sim_eu::sanitize::{Check, Checks, ChecksError, Slots, SourceLines};

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
    /// A USM allocation: what kind ("device USM allocation", ...). None: a buffer.
    usm: Option<Arc<str>>,
}

/// A USM allocation the program freed, remembered until its addresses are used again.
#[derive(Debug, Clone)]
struct Freed {
    size: u64,
    label: Arc<str>,
    /// Order of freeing (the oldest is forgotten first beyond [`FREED_KEPT`]).
    seq: u64,
}

/// Freed allocations remembered at most (the oldest are forgotten first).
const FREED_KEPT: usize = 4096;

/// What a dispatch's arguments name, and its per-thread memory (memcheck).
#[derive(Debug, Clone, Default)]
struct Bounds {
    /// The GPU ranges of its buffer arguments (a sub-buffer's own range).
    arguments: Vec<Range<u64>>,
    slots: Slots,
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
    /// The kernel binary's source lines (empty without debug info).
    lines: Arc<SourceLines>,
    bounds: Bounds,
}

/// How a walker's reports name its kernel.
#[derive(Debug, Clone)]
pub(crate) struct KernelNames {
    /// The registered name, or the kernel's address.
    pub name: String,
    /// Bytes from the binary's first instruction to the walker's start.
    pub entry: u32,
    /// The binary's source lines (by offset from its start).
    pub lines: Arc<SourceLines>,
}

/// A GPU's sanitizer.
#[derive(Debug)]
pub struct Sanitizer {
    settings: Settings,
    buffers: Mutex<BTreeMap<u64, Buffer>>,
    dispatches: Mutex<BTreeMap<u64, DispatchInfo>>,
    /// Freed USM allocations by start, and the count of frees so far.
    freed: Mutex<(BTreeMap<u64, Freed>, u64)>,
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
                freed: Mutex::default(),
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
        self.register(start, size, read_only, None);
    }

    /// A USM allocation of exactly `size` bytes at `start`; `label` says which kind ("host
    /// USM allocation", ...). Freed ([`Sanitizer::release_buffers`]), it is remembered: an
    /// access to its range is a use after free until something else takes the addresses.
    pub fn register_usm(&self, start: u64, size: u64, label: &str) {
        self.register(start, size, false, Some(label.into()));
    }

    fn register(&self, start: u64, size: u64, read_only: bool, usm: Option<Arc<str>>) {
        {
            // The addresses are in use again: what was freed there is gone for good.
            let mut f = lock(&self.freed);
            let end = start.saturating_add(size);
            let reused: Vec<u64> =
                f.0.range(..end)
                    .filter(|(s, x)| s.saturating_add(x.size) > start)
                    .map(|(s, _)| *s)
                    .collect();
            for s in reused {
                f.0.remove(&s);
            }
        }
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
                usm,
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

    /// The buffers starting in `range` (a freed GEM object's addresses) are gone; a USM
    /// allocation among them is remembered as freed.
    pub fn release_buffers(&self, range: Range<u64>) {
        let mut b = lock(&self.buffers);
        let gone: Vec<u64> = b.range(range).map(|(s, _)| *s).collect();
        let mut f = lock(&self.freed);
        for s in gone {
            let Some(Buffer {
                size,
                usm: Some(label),
                ..
            }) = b.remove(&s)
            else {
                continue;
            };
            f.1 += 1;
            let seq = f.1;
            f.0.insert(s, Freed { size, label, seq });
            if f.0.len() > FREED_KEPT {
                if let Some(oldest) = f.0.iter().min_by_key(|(_, x)| x.seq).map(|(s, _)| *s) {
                    f.0.remove(&oldest);
                }
            }
        }
    }

    /// The walkers whose indirect data lies in `indirect` run kernel `kernel`, starting
    /// `entry` bytes into its binary, with `slm_bytes` bytes of shared local memory (its own
    /// and its `local` arguments') and `per_thread` the ranges of its private memory and
    /// scratch (each thread's slice its own); `lines`: the source lines of its binary's
    /// instructions, by byte offset from the binary's start (empty where it has no debug info).
    pub fn register_dispatch(
        &self,
        indirect: Range<u64>,
        kernel: &str,
        entry: u32,
        slm_bytes: u32,
        per_thread: Vec<Range<u64>>,
        lines: Arc<SourceLines>,
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
                lines,
                bounds: Bounds::default(),
            },
        );
    }

    /// What the dispatch registered at `indirect` (by [`Sanitizer::register_dispatch`]) names:
    /// the GPU ranges of its buffer arguments (`arguments`: a sub-buffer's own range) and its
    /// per-thread memory with each thread's slot (`slots`). Without this, every registered
    /// buffer is checked whole and scratch and private memory against their allocations.
    pub fn register_dispatch_bounds(
        &self,
        indirect: u64,
        arguments: Vec<Range<u64>>,
        slots: Slots,
    ) {
        let mut d = lock(&self.dispatches);
        if let Some(i) = d.get_mut(&indirect) {
            i.bounds = Bounds { arguments, slots };
        }
    }

    /// The kernel name and exact SLM a driver registered for the walker whose indirect data
    /// is at `indirect`.
    fn dispatch_at(&self, indirect: u64) -> Option<DispatchInfo> {
        let d = lock(&self.dispatches);
        let (_, i) = d.range(..=indirect).next_back()?;
        (indirect < i.end).then(|| i.clone())
    }

    /// What a walker's checks know, and how its findings name the kernel: its name (its
    /// address where none was registered), the offset of the walker's start in it and its
    /// source lines. `simd`: the walker's SIMD width.
    pub(crate) fn scope(
        &self,
        vm: &AddressSpace,
        kernel: u64,
        indirect: u64,
        simd: u32,
    ) -> (Scope, KernelNames) {
        let mut list: Vec<Allocation> = vm
            .bindings()
            .map(|b| Allocation {
                start: b.start,
                size: b.len,
                label: "GEM object".into(),
                read_only: b.read_only,
                exact: false,
                freed: false,
            })
            .collect();
        let info = self.dispatch_at(indirect);
        let arguments = info.as_ref().map_or(&[][..], |i| &i.bounds.arguments[..]);
        let buffers = lock(&self.buffers);
        for (start, b) in buffers.iter() {
            named(&mut list, *start, b, arguments);
        }
        {
            // Freed allocations whose addresses nothing bound since.
            let f = lock(&self.freed);
            let mut bound: Vec<(u64, u64)> = list.iter().map(|a| (a.start, a.end())).collect();
            bound.sort_unstable();
            let taken = |s: u64, end: u64| {
                // The last binding starting before `end` is the only one that may reach `s`
                // (bindings do not overlap).
                let i = bound.partition_point(|b| b.0 < end);
                i > 0 && bound[i - 1].1 > s
            };
            list.extend(
                f.0.iter()
                    .filter(|(s, x)| !taken(**s, s.saturating_add(x.size)))
                    .map(|(s, x)| Allocation {
                        start: *s,
                        size: x.size,
                        label: x.label.clone(),
                        read_only: false,
                        exact: true,
                        freed: true,
                    }),
            );
        }
        let written = if self.settings.checks.has(Check::Initcheck) {
            buffers
                .iter()
                .map(|(s, b)| (*s, b.written.clone()))
                .collect()
        } else {
            Vec::new()
        };
        drop(buffers);
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
            slots: info
                .as_ref()
                .map_or(Slots::default(), |i| i.bounds.slots.clone()),
            written,
            races,
            entry: info.as_ref().map_or(0, |i| i.entry),
            simd: Some(simd),
        };
        let name = info.map_or_else(
            || KernelNames {
                name: format!("at {kernel:#x}"),
                entry: 0,
                lines: Arc::default(),
            },
            |i| KernelNames {
                name: i.kernel.to_string(),
                entry: i.entry,
                lines: i.lines,
            },
        );
        (scope, name)
    }

    /// Reports a walker's findings: each with the kernel's name, its instruction's
    /// disassembly (read from the kernel's memory) and source line.
    pub(crate) fn report(
        &self,
        findings: Findings,
        names: &KernelNames,
        platform: Platform,
        vm: &AddressSpace,
        kernel_address: u64,
    ) {
        if findings.is_empty() {
            return;
        }
        let mut json = String::new();
        let mut text = String::new();
        for mut f in findings.into_vec() {
            f.kernel = names.name.clone();
            f.disassembly = disassemble_at(platform, vm, kernel_address, f.offset);
            f.offset = f.offset.wrapping_add(names.entry);
            f.source = names
                .lines
                .at(f.offset)
                .map(|(file, line)| (file.to_string(), line));
            text += &f.to_text();
            text.push('\n');
            json += &f.to_json();
            json.push('\n');
        }
        self.emit(&text, &json);
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
        names: &KernelNames,
        vm: &AddressSpace,
        kernel_address: u64,
    ) {
        let report = stats.report(prog, &names.name, names.entry, &|pc| {
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

/// Adds registered buffer `b` at `start` to `list` as the dispatch whose buffer arguments are
/// `arguments` sees it: whole where an argument names it whole, where none lies in it, or
/// where it is a USM allocation (any pointer into one names it all); else the sub-buffers the
/// arguments name in it, each on its own (overlapping ones as their union).
fn named(list: &mut Vec<Allocation>, start: u64, b: &Buffer, arguments: &[Range<u64>]) {
    let end = start.saturating_add(b.size);
    let whole = |label: Arc<str>| Allocation {
        start,
        size: b.size,
        label,
        read_only: b.read_only,
        exact: true,
        freed: false,
    };
    if let Some(label) = &b.usm {
        list.push(whole(label.clone()));
        return;
    }
    let mut subs: Vec<&Range<u64>> = arguments
        .iter()
        .filter(|r| r.start >= start && r.end <= end && r.start < r.end)
        .collect();
    if subs.is_empty() || subs.iter().any(|r| r.start == start && r.end == end) {
        list.push(whole("buffer".into()));
        return;
    }
    subs.sort_by_key(|r| (r.start, r.end));
    subs.dedup();
    let mut i = 0;
    while i < subs.len() {
        let (first, mut hi, mut j) = (subs[i].start, subs[i].end, i + 1);
        while j < subs.len() && subs[j].start < hi {
            hi = hi.max(subs[j].end);
            j += 1;
        }
        let origins: Vec<String> = subs[i..j]
            .iter()
            .map(|r| format!("{} ({} bytes)", r.start - start, r.end - r.start))
            .collect();
        let label = if j - i == 1 {
            format!(
                "sub-buffer at origin {} of a {}-byte buffer,",
                first - start,
                b.size
            )
        } else {
            format!(
                "union of overlapping sub-buffers at origins {} of a {}-byte buffer,",
                origins.join(", "),
                b.size
            )
        };
        list.push(Allocation {
            start: first,
            size: hi - first,
            label: label.into(),
            read_only: b.read_only,
            exact: true,
            freed: false,
        });
        i = j;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(size: u64, usm: Option<&str>) -> Buffer {
        Buffer {
            size,
            read_only: false,
            written: Arc::new(Defined::new(size, false)),
            usm: usm.map(Into::into),
        }
    }

    fn seen(b: &Buffer, arguments: &[Range<u64>]) -> Vec<(u64, u64, String)> {
        let mut list = Vec::new();
        named(&mut list, 0x1000, b, arguments);
        list.into_iter()
            .map(|a| (a.start, a.size, a.label.to_string()))
            .collect()
    }

    #[test]
    fn sub_buffers_stand_in_for_their_parent_only_where_the_parent_is_not_named() {
        let b = buffer(384, None);
        // Named through a sub-buffer only: the sub-buffer.
        let s = seen(&b, std::slice::from_ref(&(0x1040..0x1140)));
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].0, s[0].1), (0x1040, 256));
        assert!(s[0].2.contains("origin 64 of a 384-byte buffer"), "{s:?}");
        // The parent named too, or not named at all: the whole parent.
        assert_eq!(seen(&b, &[0x1040..0x1140, 0x1000..0x1180])[0].1, 384);
        assert_eq!(seen(&b, std::slice::from_ref(&(0x9000..0x9010)))[0].1, 384);
        // Two disjoint sub-buffers each; overlapping ones as their union.
        assert_eq!(seen(&b, &[0x1000..0x1010, 0x1100..0x1110]).len(), 2);
        let u = seen(&b, &[0x1000..0x1080, 0x1040..0x10c0]);
        assert_eq!((u[0].0, u[0].1), (0x1000, 0xc0));
        // A pointer into a USM allocation names all of it.
        let usm = buffer(256, Some("device USM allocation"));
        assert_eq!(
            seen(&usm, std::slice::from_ref(&(0x1010..0x1100)))[0].1,
            256
        );
    }

    #[test]
    fn freed_usm_is_remembered_until_its_addresses_are_registered_again() {
        let s = Sanitizer::new(Settings {
            checks: Checks::parse("memcheck").unwrap(),
            log: None,
        })
        .unwrap();
        s.register_usm(0x1000, 100, "host USM allocation");
        s.register_buffer(0x3000, 100, false);
        s.release_buffers(0x1000..0x2000);
        s.release_buffers(0x3000..0x4000);
        // Only the USM allocation is remembered freed.
        assert_eq!(lock(&s.freed).0.len(), 1);
        s.register_buffer(0x1000, 50, false);
        assert!(lock(&s.freed).0.is_empty());
    }
}
