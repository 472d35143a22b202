//! The translator's debugging outputs: with `INTEL_GPU_SIM_JIT_DUMP` each translated kernel's
//! runs are written out (EU instructions, Cranelift IR, host code, and the code's bytes) and with
//! `INTEL_GPU_SIM_JIT_PERF_MAP=1` each run is named in `/tmp/perf-<pid>.map`, perf's file for
//! code made at run time. Both variables are read once per process: this binary sets them
//! before anything translates.

use platform::Platform;
use sim_eu::Program;
use sim_jit::TranslationCache;

/// Eight chained adds into r`from`, r`from + 2`, ...
fn adds(from: u32, src: u32) -> String {
    (0..8)
        .map(|k| {
            let a = if k == 0 { src } else { from + 2 * k - 2 };
            format!(
                "add (16|M0) r{}.0<1>:d r{a}.0<8;8,1>:d 0x{:x}:d\n",
                from + 2 * k,
                k + 1
            )
        })
        .collect()
}

/// A jump outside any run, eight adds, a send called from the run, eight more, the end of the
/// thread (interpreted inside the run).
fn kernel() -> String {
    format!(
        "(W) jmpi START\nSTART:\n{}send.dc1 (16|M0) r40 r4 null 0x0 0x04405E00\n{}\
         (W) send.ts (8|M0) null r127 null 0x0 0x02000010 {{EOT}}\n",
        adds(20, 2),
        adds(50, 40)
    )
}

/// The directory the dumps go to, the variables set before anything translates (the
/// process reads them once; the tests of this binary share them), and a lock that keeps the
/// tests one at a time (each removes the perf map it appended to).
fn dump_dir() -> (std::path::PathBuf, std::sync::MutexGuard<'static, ()>) {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("sim-jit-dump-test-{}", std::process::id()));
        std::env::set_var(sim_jit::dump::ENV_DUMP, &dir);
        std::env::set_var(sim_jit::dump::ENV_PERF_MAP, "1");
        // Checking runs against the interpreter keeps sends out of them (two runs in the
        // first test, not one): these tests are about the default translation, whatever the
        // caller's setting.
        std::env::set_var(sim_jit::check::ENV_CHECK, "0");
        dir
    });
    // Made again by each test: the one before removed it.
    std::fs::create_dir_all(dir).expect("dump directory");
    (dir.clone(), guard)
}

/// Removes what a test's translation wrote: its dump files, then the directory when no other
/// test's are left in it, and the perf map.
fn clean_up(dir: &std::path::Path, files: impl IntoIterator<Item = std::path::PathBuf>) {
    for f in files {
        let _ = std::fs::remove_file(f);
    }
    let _ = std::fs::remove_dir(dir);
    let _ = std::fs::remove_file(format!("/tmp/perf-{}.map", std::process::id()));
}

/// The dump files (text and code) of the kernel whose first run's name has `run`.
fn dumped(
    dir: &std::path::Path,
    run: &str,
) -> (String, std::path::PathBuf, Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("dump directory") {
        let path = e.expect("entry").path();
        if path.extension().is_none_or(|x| x != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("dump");
        if !text.lines().next().is_some_and(|l| l.contains(run)) {
            continue;
        }
        let stem = path
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let bins = std::fs::read_dir(dir)
            .expect("dump directory")
            .map(|e| e.expect("entry").path())
            .filter(|b| {
                b.extension().is_some_and(|x| x == "bin")
                    && b.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(&format!("{stem}-")))
            })
            .collect();
        return (text, path, bins);
    }
    panic!("no dump of a run {run:?} in {}", dir.display());
}

#[test]
fn translated_runs_are_dumped_and_named_for_perf() {
    let (dir, _one_at_a_time) = dump_dir();

    let bytes = isa_encoder::assemble(Platform::Tgllp, &kernel()).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = TranslationCache::new()
        .get_or_translate(Platform::Tgllp, &bytes, &prog)
        .expect("translates");
    assert_eq!(tr.runs().collect::<Vec<_>>(), [(1, 18)]);

    // The dump: one file for the kernel, each instruction of the run with its index, its
    // offset and its text as iga64 prints it, marked translated (T), a send called from the
    // run (s), a branch (b) or interpreted (i).
    let pc = |k: usize| prog.insts[k].pc;
    let name = format!("tgllp insts 1..19 pc {:#x}..{:#x}", pc(1), prog.end);
    let (dump, text, bins) = dumped(&dir, &name);
    // Beside it, the run's host code as bytes, named by the kernel and the run's first
    // instruction.
    assert_eq!(bins.len(), 1, "{bins:?}");
    let bin_name = bins[0].file_name().and_then(|n| n.to_str()).unwrap_or("");
    let text_name = text.file_stem().and_then(|n| n.to_str()).unwrap_or("?");
    assert_eq!(bin_name, format!("{text_name}-1.bin"));
    let code = std::fs::read(&bins[0]).expect("host code bytes");
    let map =
        std::fs::read_to_string(format!("/tmp/perf-{}.map", std::process::id())).expect("perf map");
    clean_up(&dir, bins.into_iter().chain([text]));
    let listing = isa_encoder::disassemble(Platform::Tgllp, &bytes).expect("disassembles");
    let eu: Vec<&str> = listing.lines().filter(|l| !l.ends_with(':')).collect();
    assert_eq!(eu.len(), 19, "{listing}");
    // Every instruction once: the jump outside the run (-), then the run's.
    for (k, text) in eu.iter().enumerate() {
        let mark = match k {
            0 => '-',
            9 => 's',
            18 => 'e',
            _ => 'T',
        };
        let want = format!("{mark} {k:5} {:#07x}  {}", pc(k), text.trim());
        let found = dump
            .lines()
            .filter(|l| {
                matches!(l.get(..1), Some("T" | "s" | "b" | "i" | "e" | "-"))
                    && l.get(1..8) == want.get(1..8)
            })
            .count();
        assert!(dump.lines().any(|l| l == want), "{want:?} not in:\n{dump}");
        assert_eq!(found, 1, "instruction {k} listed {found} times:\n{dump}");
    }
    assert!(dump.contains("\n== outside the runs\n- "), "{dump}");
    assert!(dump.starts_with("== sim-jit k"), "{dump}");
    assert!(
        dump.lines().next().is_some_and(|l| l.contains(&name)),
        "{dump}"
    );
    // Cranelift's IR (a function) and the host code (x86-64 or AArch64 listing) follow.
    let ir = dump.split("-- Cranelift IR\n").nth(1).expect("IR section");
    assert!(ir.starts_with("function "), "{ir}");
    let host = ir
        .split("-- host code\n")
        .nth(1)
        .expect("host code section");
    assert!(host.lines().count() > 17, "{host}");

    // The perf map: the run's address and code size in hex, then its name.
    let line = map
        .lines()
        .find(|l| l.ends_with(&name))
        .unwrap_or_else(|| panic!("no run named {name:?} in:\n{map}"));
    let mut f = line.split(' ');
    let addr = u64::from_str_radix(f.next().expect("address"), 16).expect("hex address");
    let size = u64::from_str_radix(f.next().expect("size"), 16).expect("hex size");
    assert!(addr != 0 && size > 0, "{line}");
    assert_eq!(code.len() as u64, size, "the bytes are the run's code");
}

/// Two chains of dependent SIMD16 `mad`s in turn, each reading the last two results of its
/// own (clpeak's `compute_sp` as IGC compiles it at SIMD32: the M0 and M16 halves), `steps`
/// of each, results in fresh registers from r30 up.
fn two_chains(steps: u32) -> String {
    let mut k = String::new();
    // Each chain's last two results: M0's from r10 and r14, M16's from r12 and r16.
    let (mut m0, mut m16) = ([14u32, 10], [16u32, 12]);
    for s in 0..steps {
        for (chain, ch) in [(&mut m0, "M0"), (&mut m16, "M16")] {
            let d = 30 + 4 * s + if ch == "M0" { 0 } else { 2 };
            let [older, last] = *chain;
            k += &format!(
                "mad (16|{ch}) r{d}.0<1>:f r{last}.0<8;1>:f r{older}.0<8;1>:f r{last}.0<1>:f\n"
            );
            *chain = [last, d];
        }
    }
    k + "(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}\n"
}

/// Which held row a run lets go when it needs room: the one read furthest ahead. Two chains
/// of dependent `mad`s need sixteen rows held (each chain's last two results); letting go of
/// the least recently used one loaded each `mad`'s older source again from the file, after
/// it had just been stored there (`tests/apps/mad_chains.py`'s float chains on sim:tgllp 31 →
/// 38–44 GFLOPS).
#[test]
fn chained_mads_load_each_row_once() {
    let (dir, _one_at_a_time) = dump_dir();
    let steps = 24;
    let bytes = isa_encoder::assemble(Platform::Tgllp, &two_chains(steps)).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = TranslationCache::new()
        .get_or_translate(Platform::Tgllp, &bytes, &prog)
        .expect("translates");
    let mads = 2 * steps as usize;
    assert_eq!(tr.runs().collect::<Vec<_>>(), [(0, mads + 1)]);
    let name = format!("tgllp insts 0..{} pc 0x0..", mads + 1);
    let (dump, text, bins) = dumped(&dir, &name);
    clean_up(&dir, bins.into_iter().chain([text]));
    let ir = dump.split("-- Cranelift IR\n").nth(1).expect("IR section");
    let ir = ir.split("-- host code\n").next().unwrap_or("");
    // Each row the run loads, by its byte offset.
    let mut loads = std::collections::BTreeMap::<usize, usize>::new();
    for l in ir.lines().filter(|l| l.contains("= load.i32x4")) {
        let at = l.rsplit("v0+").next().and_then(|o| o.trim().parse().ok());
        *loads.entry(at.unwrap_or(0)).or_default() += 1;
    }
    // The chains' four inputs (r10, r12, r14, r16 with the next register each: 16 rows) once
    // in each of the run's three copies (every channel executing, the first four at most,
    // any with execution masks); the results (r30 up) once by each copy with masks (what it
    // keeps of the disabled channels).
    let first_result = 30 * 32;
    let again: Vec<_> = loads
        .iter()
        .filter(|&(&at, &n)| n > if at < first_result { 3 } else { 2 })
        .collect();
    assert!(
        again.is_empty(),
        "rows loaded again (offset, loads): {again:?}\n{ir}"
    );
    assert_eq!(loads.range(..first_result).count(), 16, "{loads:?}");
}
