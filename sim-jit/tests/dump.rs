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

#[test]
fn translated_runs_are_dumped_and_named_for_perf() {
    let dir = std::env::temp_dir().join(format!("sim-jit-dump-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dump directory");
    std::env::set_var(sim_jit::dump::ENV_DUMP, &dir);
    std::env::set_var(sim_jit::dump::ENV_PERF_MAP, "1");
    // Checking runs against the interpreter keeps sends out of them (two runs here, not one):
    // this test is about the dump of the default translation, whatever the caller's setting.
    std::env::set_var(sim_jit::check::ENV_CHECK, "0");

    let bytes = isa_encoder::assemble(Platform::Tgllp, &kernel()).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = TranslationCache::new()
        .get_or_translate(Platform::Tgllp, &bytes, &prog)
        .expect("translates");
    assert_eq!(tr.runs().collect::<Vec<_>>(), [(1, 18)]);

    // The dump: one file for the kernel, each instruction of the run with its index, its
    // offset and its text as iga64 prints it, marked translated (T), a send called from the
    // run (s), a branch (b) or interpreted (i).
    let files: Vec<_> = std::fs::read_dir(&dir)
        .expect("dump directory")
        .map(|e| e.expect("entry").path())
        .collect();
    let texts: Vec<_> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "txt"))
        .collect();
    assert_eq!(texts.len(), 1, "{files:?}");
    let dump = std::fs::read_to_string(texts[0]).expect("dump");
    // Beside it, the run's host code as bytes, named by the kernel and the run's first
    // instruction.
    let bins: Vec<_> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "bin"))
        .collect();
    assert_eq!(bins.len(), 1, "{files:?}");
    let bin_name = bins[0].file_name().and_then(|n| n.to_str()).unwrap_or("");
    let text_name = texts[0].file_stem().and_then(|n| n.to_str()).unwrap_or("?");
    assert_eq!(bin_name, format!("{text_name}-1.bin"));
    let code = std::fs::read(bins[0]).expect("host code bytes");
    let _ = std::fs::remove_dir_all(&dir);
    let listing = isa_encoder::disassemble(Platform::Tgllp, &bytes).expect("disassembles");
    let eu: Vec<&str> = listing.lines().filter(|l| !l.ends_with(':')).collect();
    let pc = |k: usize| prog.insts[k].pc;
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
    let name = format!("tgllp insts 1..19 pc {:#x}..{:#x}", pc(1), prog.end);
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
    let map =
        std::fs::read_to_string(format!("/tmp/perf-{}.map", std::process::id())).expect("perf map");
    let line = map
        .lines()
        .find(|l| l.ends_with(&name))
        .unwrap_or_else(|| panic!("no run named {name:?} in:\n{map}"));
    let mut f = line.split(' ');
    let addr = u64::from_str_radix(f.next().expect("address"), 16).expect("hex address");
    let size = u64::from_str_radix(f.next().expect("size"), 16).expect("hex size");
    assert!(addr != 0 && size > 0, "{line}");
    assert_eq!(code.len() as u64, size, "the bytes are the run's code");
    let _ = std::fs::remove_file(format!("/tmp/perf-{}.map", std::process::id()));
}
