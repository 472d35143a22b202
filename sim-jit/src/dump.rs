//! Seeing translated code from outside, for whoever tunes the translator or wonders where a
//! kernel's time goes: a perf map, so that `perf report` names each translated run instead
//! of showing anonymous addresses, and a text dump of each run (its EU instructions, the
//! Cranelift IR made of them, the host code). Both are off unless asked for, and cost one
//! branch per translation then.

use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use platform::Platform;
use sim_eu::Program;

use crate::select::{run_len, Item};

/// The environment variable naming a directory to write, per translated kernel,
/// `sim-jit-<pid>-k<n>.txt`: each run's EU instructions (`T` translated, `b` a structured
/// branch, `s` a send called from the run's code, `w` a barrier's wait, `e` the thread's end,
/// `i` interpreted inside the run, `m` a send skipped without channels or run by the data port directly), its
/// Cranelift IR and its host code; then the instructions outside every run (`-`, the
/// interpreter's between runs). Beside it, each run's host code
/// as bytes, `sim-jit-<pid>-k<n>-<first instruction>.bin`, so that the offsets of `perf`
/// samples inside a run (its address is in the perf map) can be read in a disassembly
/// (`objdump -D -b binary -m i386:x86-64 <file>`). A kernel that fails to translate gets
/// `sim-jit-<pid>-f<n>.txt`, the error. A kernel appears only once it translates: when its
/// threads have run it hot ([`crate::HOT_PER_INSTRUCTION`] interpreted instructions per
/// instruction of it).
pub const ENV_DUMP: &str = "INTEL_GPU_SIM_JIT_DUMP";

/// The environment variable (`1`) that appends each translated run to `/tmp/perf-<pid>.map`,
/// the file `perf report` reads to name code made at run time.
pub const ENV_PERF_MAP: &str = "INTEL_GPU_SIM_JIT_PERF_MAP";

/// What is asked for, read once per process.
struct Wanted {
    dir: Option<std::path::PathBuf>,
    perf_map: bool,
}

fn wanted() -> &'static Wanted {
    static W: OnceLock<Wanted> = OnceLock::new();
    W.get_or_init(|| Wanted {
        dir: std::env::var_os(ENV_DUMP)
            .filter(|d| !d.is_empty())
            .map(Into::into),
        perf_map: std::env::var(ENV_PERF_MAP).is_ok_and(|v| v == "1"),
    })
}

/// Whether translations are dumped or mapped: then the emitter keeps each run's texts.
pub fn enabled() -> bool {
    let w = wanted();
    w.dir.is_some() || w.perf_map
}

/// Whether the emitter should keep the texts of the dump (not only the code sizes).
pub(crate) fn texts() -> bool {
    wanted().dir.is_some()
}

/// One compiled run as the dump and the perf map show it.
pub(crate) struct RunText {
    /// The run's first instruction index.
    pub start: usize,
    pub items: Vec<Item>,
    /// Cranelift IR before optimisation, and the host code (Cranelift's listing), when
    /// dumping.
    pub clif: String,
    pub host: String,
    pub size: u32,
    /// The host code's bytes as compiled (calls out not yet relocated), when dumping.
    pub bytes: Vec<u8>,
    pub addr: usize,
}

/// Writes what is asked for of one kernel's translation. `source`: the kernel's bytes, for
/// the EU instructions' text; errors writing are reported on stderr once and otherwise
/// ignored (a debugging aid must not stop the simulation).
pub(crate) fn write(prog: &Program, source: Option<&[u8]>, runs: &[RunText]) {
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let k = SERIAL.fetch_add(1, Ordering::Relaxed);
    let pid = std::process::id();
    let w = wanted();
    let pc = |i: usize| prog.insts.get(i).map_or(prog.end, |x| x.pc);
    let name = |r: &RunText| {
        let len = run_len(&r.items) as usize;
        format!(
            "sim-jit k{k} {} insts {}..{} pc {:#x}..{:#x}",
            prog.platform,
            r.start,
            r.start + len,
            pc(r.start),
            pc(r.start + len)
        )
    };
    if w.perf_map {
        let mut map = String::new();
        for r in runs {
            let _ = writeln!(map, "{:x} {:x} {}", r.addr, r.size, name(r));
        }
        let path = format!("/tmp/perf-{pid}.map");
        // One write per translation, appended: threads translating at once do not interleave.
        let done = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(map.as_bytes()));
        if let Err(e) = done {
            warn_once(&format!("{ENV_PERF_MAP}: writing {path}: {e}"));
        }
    }
    let Some(dir) = &w.dir else { return };
    let text = eu_text(prog.platform, source);
    let mut out = String::new();
    for r in runs {
        let _ = writeln!(out, "== {} ({} bytes of host code)", name(r), r.size);
        let mut i = r.start;
        for item in &r.items {
            let mark = match item {
                Item::Step(_) => 'T',
                Item::Interpreted(_) => 'i',
                Item::Wait => 'w',
                Item::End => 'e',
                Item::Branch(_) => 'b',
                Item::Send(..) => 's',
                Item::Message(..) => 'm',
            };
            let n = item.instructions() as usize;
            for k in i..i + n {
                let eu = text
                    .as_ref()
                    .and_then(|t| t.get(&pc(k)))
                    .map_or("", String::as_str);
                let _ = writeln!(out, "{mark} {k:5} {:#07x}  {eu}", pc(k));
            }
            i += n;
        }
        let _ = writeln!(out, "-- Cranelift IR\n{}-- host code\n{}", r.clif, r.host);
        if !r.bytes.is_empty() {
            let bin = dir.join(format!("sim-jit-{pid}-k{k}-{}.bin", r.start));
            if let Err(e) = std::fs::write(&bin, &r.bytes) {
                warn_once(&format!("{ENV_DUMP}: writing {}: {e}", bin.display()));
            }
        }
    }
    // What the interpreter runs between the runs: where a kernel's untranslated time goes.
    let mut inside = vec![false; prog.insts.len()];
    for r in runs {
        let end = (r.start + run_len(&r.items) as usize).min(inside.len());
        inside[r.start.min(end)..end].fill(true);
    }
    let _ = writeln!(out, "== outside the runs");
    for k in (0..inside.len()).filter(|&k| !inside[k]) {
        let eu = text
            .as_ref()
            .and_then(|t| t.get(&pc(k)))
            .map_or("", String::as_str);
        let _ = writeln!(out, "- {k:5} {:#07x}  {eu}", pc(k));
    }
    let path = dir.join(format!("sim-jit-{pid}-k{k}.txt"));
    if let Err(e) = std::fs::write(&path, out) {
        warn_once(&format!("{ENV_DUMP}: writing {}: {e}", path.display()));
    }
}

/// Writes why a kernel did not translate, when dumping: `sim-jit-<pid>-f<n>.txt` with the
/// platform, the kernel's length and the error (otherwise such a kernel only runs slower,
/// interpreted, and nothing says so).
pub(crate) fn failed(prog: &Program, err: &crate::JitError) {
    if let Some(dir) = &wanted().dir {
        failed_in(dir, prog, err);
    }
}

fn failed_in(dir: &std::path::Path, prog: &Program, err: &crate::JitError) {
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let n = SERIAL.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!("sim-jit-{}-f{n}.txt", std::process::id()));
    let text = format!(
        "sim-jit f{n} {}: a kernel of {} instructions ({} bytes) did not translate and runs \
         interpreted: {err}\n",
        prog.platform,
        prog.insts.len(),
        prog.end
    );
    if let Err(e) = std::fs::write(&path, text) {
        warn_once(&format!("{ENV_DUMP}: writing {}: {e}", path.display()));
    }
}

/// Each instruction's IGA text by its PC, when the kernel's bytes are known and decode.
fn eu_text(
    platform: Platform,
    source: Option<&[u8]>,
) -> Option<std::collections::HashMap<u32, String>> {
    let insts = isa_encoder::kernel::decode_kernel(platform, source?).ok()?;
    Some(
        insts
            .iter()
            .map(|d| {
                let mut s = String::new();
                isa_encoder::text::print::format_instruction(&mut s, platform, &d.inst, d.pc);
                (d.pc, s.trim().to_string())
            })
            .collect(),
    )
}

fn warn_once(msg: &str) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| eprintln!("sim-jit: {msg}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_translation_is_written_with_its_error() {
        let dir = std::env::temp_dir().join(format!("sim-jit-failed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("directory");
        let bytes = isa_encoder::assemble(Platform::Skl, "nop\nnop\n").expect("assembles");
        let prog = Program::decode(Platform::Skl, &bytes);
        let err = crate::JitError::Compile("verifier: bad operand".into());
        failed_in(&dir, &prog, &err);
        let written: Vec<String> = std::fs::read_dir(&dir)
            .expect("listing")
            .map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("text"))
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(written.len(), 1, "{written:?}");
        let text = &written[0];
        assert!(text.contains("skl"), "{text}");
        assert!(text.contains("2 instructions"), "{text}");
        assert!(text.contains("verifier: bad operand"), "{text}");
    }
}
