//! The assembler and disassembler on IGC's own kernels, against iga64 on the same files in the
//! same run: `cargo bench -p isa-encoder --bench igc_kernels`.
//!
//! Input, per platform: every kernel ocloc compiles from the conformance corpus
//! (`tests/conformance/*.cl`, SIMD 8, 16 and 32), padding stripped, concatenated and repeated
//! [`REPEAT`] times; the assembler's input is iga64's own disassembly of those bytes (labels,
//! branches and compacted instructions included). The codec remembers lines and instruction
//! words it has already done, and this corpus repeats most of its own (and is repeated), so
//! each platform is also timed on its worst case: every distinct word once, no branches
//! (`<iga name>-distinct.krn|asm`). ocloc's results are cached under
//! `target/<profile>/igc-kernels/`, so only the first run needs ocloc's time.
//!
//! Each direction is timed as a user runs it, one process per run, file in and file out:
//! iga64 (`-a` / `-d`), and this bench binary re-run in its codec mode (process start-up,
//! reading, parsing, label resolution, encoding or printing, writing). Also timed in-process.
//! Figures are over [`RUNS`] runs: the median wall time and the mean of the children's CPU time
//! (see [`Timing`]), the latter being steadier on a loaded machine. The load average is printed
//! with them.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use oracles::ocloc::{self, Format};
use oracles::{Oracle, Platform};

const REPEAT: usize = 4;
const RUNS: usize = 5;
const SIMD: [u32; 3] = [8, 16, 32];

/// The conformance corpus, as the conformance suite compiles it: `common.cl` first, then a file.
const COMMON: &str = include_str!("../../tests/conformance/common.cl");
const CORPUS: [(&str, &str); 5] = [
    (
        "shuffle.cl",
        include_str!("../../tests/conformance/shuffle.cl"),
    ),
    (
        "collective.cl",
        include_str!("../../tests/conformance/collective.cl"),
    ),
    (
        "block_buffer.cl",
        include_str!("../../tests/conformance/block_buffer.cl"),
    ),
    (
        "block_image.cl",
        include_str!("../../tests/conformance/block_image.cl"),
    ),
    (
        "queries.cl",
        include_str!("../../tests/conformance/queries.cl"),
    ),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--codec") {
        std::process::exit(codec_process(&args[1..]));
    }
    // `cargo bench` passes `--bench`. Without it (`cargo test --all-targets`, as CI runs) the
    // bench only proves its pipeline on one small input (tgllp, shuffle.cl at SIMD16, once),
    // so CI does not pay for the ocloc builds of the whole corpus.
    let timing = args.iter().any(|a| a == "--bench");
    let scope = if timing {
        Scope {
            platforms: &Platform::ALL,
            files: &CORPUS,
            simd: &SIMD,
            repeat: REPEAT,
        }
    } else {
        Scope {
            platforms: &[Platform::Tgllp],
            files: &CORPUS[..1],
            simd: &[16],
            repeat: 1,
        }
    };
    let (Some(ocloc), Some(iga)) = (Oracle::Ocloc.locate(), Oracle::Iga64.locate()) else {
        let why = "ocloc and iga64 are needed to build and time IGC's kernels";
        if oracles::required() {
            panic!("igc_kernels: {why}, and ORACLES=required");
        }
        oracles::skip("igc_kernels", why);
        return;
    };
    let cache = cache_dir();
    std::fs::create_dir_all(&cache).expect("cache directory");
    println!("load average before: {}", load_average());
    for &p in scope.platforms {
        let input = Input::build(&ocloc, &iga, &cache, p, &scope);
        if timing {
            input.time(&iga);
            // The codec remembers lines and words it has done (IGC's kernels repeat most of
            // theirs): also time the worst case for that, each distinct word once.
            let stem = format!("{}-distinct", p.iga_name());
            let words = distinct_words(p, &input.bytes);
            Input::from_bytes(&iga, &cache, p, words, &stem).time(&iga);
        }
    }
    println!("load average after: {}", load_average());
}

/// The bench's codec mode, what `intel-gpu-run asm|disasm` does: `--codec asm|disasm IGA_PLATFORM
/// IN OUT` (`asm-nomemo`: assembling without the memos).
fn codec_process(args: &[String]) -> i32 {
    let [dir, p, input, output] = args else {
        eprintln!("usage: --codec asm|asm-nomemo|disasm PLATFORM IN OUT");
        return 2;
    };
    let Ok(p) = p.parse::<Platform>() else {
        eprintln!("unknown platform {p}");
        return 2;
    };
    let bytes = match map_file(input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{input}: {e}");
            return 1;
        }
    };
    let done = match dir.as_str() {
        // `asm-nomemo`: without the line and token memos, the per-line work alone.
        "asm" | "asm-nomemo" => {
            let memos = if dir == "asm" {
                isa_encoder::Memos::ALL
            } else {
                isa_encoder::Memos::NONE
            };
            std::str::from_utf8(&bytes)
                .map_err(|e| e.to_string())
                .and_then(|t| isa_encoder::assemble_with(p, t, memos).map_err(|e| e.to_string()))
                .and_then(|o| std::fs::write(output, o).map_err(|e| e.to_string()))
        }
        // As `intel-gpu-run disasm` does: the text is written in pieces as it is made.
        "disasm" => std::fs::File::create(output)
            .map_err(|e| e.to_string())
            .and_then(|mut f| {
                isa_encoder::disassemble_to(p, &bytes, &mut f).map_err(|e| e.to_string())
            }),
        _ => Err(format!("unknown direction {dir}")),
    };
    match done {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// The file's bytes, mapped as `intel-gpu-run asm|disasm` maps them: read-only, pages
/// populated up front (no page fault per 4 KiB touched, no copy).
fn map_file(path: &str) -> std::io::Result<memmap2::Mmap> {
    let f = std::fs::File::open(path)?;
    // SAFETY: the input files are the bench's own, written before the run and not changed
    // while mapped.
    unsafe { memmap2::MmapOptions::new().populate().map(&f) }
}

/// `target/<profile>/igc-kernels`, beside the bench's `deps/` directory.
fn cache_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("bench binary in target/<profile>/deps");
    profile.join("igc-kernels")
}

/// What to build inputs from.
struct Scope {
    platforms: &'static [Platform],
    files: &'static [(&'static str, &'static str)],
    simd: &'static [u32],
    repeat: usize,
}

/// One platform's input: kernel bytes and iga64's text of them.
struct Input {
    platform: Platform,
    insts: usize,
    compacted: usize,
    krn: PathBuf,
    asm: PathBuf,
    bytes: Vec<u8>,
    text: String,
}

impl Input {
    fn build(ocloc: &Path, iga: &Path, cache: &Path, p: Platform, scope: &Scope) -> Input {
        let mut once = Vec::new();
        for &(name, body) in scope.files {
            for &simd in scope.simd {
                match heaps(ocloc, cache, p, name, body, simd) {
                    Ok(h) => once.extend_from_slice(&h),
                    Err(e) => println!("{p}: ocloc rejects {name} at SIMD{simd}: {e}"),
                }
            }
        }
        Input::from_bytes(iga, cache, p, once.repeat(scope.repeat), p.iga_name())
    }

    /// The input of `bytes`: iga64's text of them, both checked against ours and written to
    /// `cache` as `<stem>.krn` and `<stem>.asm`.
    fn from_bytes(iga: &Path, cache: &Path, p: Platform, bytes: Vec<u8>, stem: &str) -> Input {
        let text = oracles::iga64::disasm(iga, p, &bytes, &[]).expect("iga64 -d");
        // The figures are only worth having if both sides do the same work.
        assert_eq!(
            isa_encoder::disassemble(p, &bytes)
                .expect("our disassembler")
                .as_str(),
            text.as_str(),
            "{p}: our text differs from iga64's"
        );
        assert_eq!(
            isa_encoder::assemble(p, &text).expect("our assembler"),
            oracles::iga64::asm(iga, p, &text, &[]).expect("iga64 -a"),
            "{p}: our bytes differ from iga64's"
        );
        let decoded = isa_encoder::kernel::decode_kernel(p, &bytes).expect("decodes");
        let compacted = decoded.iter().filter(|d| d.inst.is_compacted()).count();
        let krn = cache.join(format!("{stem}.krn"));
        let asm = cache.join(format!("{stem}.asm"));
        std::fs::write(&krn, &bytes).expect("write input");
        std::fs::write(&asm, &text).expect("write input");
        Input {
            platform: p,
            insts: decoded.len(),
            compacted,
            krn,
            asm,
            bytes,
            text,
        }
    }

    fn time(&self, iga: &Path) {
        let p = self.platform;
        let pf = format!("-p={}", p.iga_name());
        let me = std::env::current_exe().expect("current exe");
        let out = self.krn.with_extension("out");
        println!(
            "{p} ({}): {} instructions ({} compacted), {} bytes, {} text bytes",
            self.krn.file_stem().unwrap_or_default().to_string_lossy(),
            self.insts,
            self.compacted,
            self.bytes.len(),
            self.text.len()
        );
        let codec = |dir: &str, input: &Path| {
            let mut c = Command::new(&me);
            c.arg("--codec")
                .arg(dir)
                .arg(p.iga_name())
                .arg(input)
                .arg(&out);
            c
        };
        let mut iga_asm = Command::new(iga);
        iga_asm.args(["-a", &pf]).arg(&self.asm).arg("-o").arg(&out);
        let mut iga_dis = Command::new(iga);
        iga_dis.args(["-d", &pf]).arg(&self.krn).arg("-o").arg(&out);

        let asm_in = median(|| {
            let t = Instant::now();
            std::hint::black_box(isa_encoder::assemble(p, &self.text).expect("assembles"));
            t.elapsed()
        });
        let dis_in = median(|| {
            let t = Instant::now();
            std::hint::black_box(isa_encoder::disassemble(p, &self.bytes).expect("decodes"));
            t.elapsed()
        });
        self.row(
            "assemble",
            asm_in,
            process(codec("asm", &self.asm)),
            process(iga_asm),
        );
        self.row(
            "disassemble",
            dis_in,
            process(codec("disasm", &self.krn)),
            process(iga_dis),
        );
    }

    fn row(&self, what: &str, in_process: Duration, ours: Timing, iga: Timing) {
        let rate = |d: Duration| self.insts as f64 / d.as_secs_f64() / 1e6;
        println!(
            "  {what:<11} in-process {:>8.1} ms ({:>5.1} M inst/s) | process: ours {:>8.1} ms wall \
             {:>6} ms CPU ({:>5.1} M inst/s), iga64 {:>8.1} ms wall {:>6} ms CPU ({:>5.2} M inst/s) \
             | ratio {:>5.1}x wall, {:>5.1}x CPU",
            ms(in_process),
            rate(in_process),
            ms(ours.wall),
            ours.cpu_ms,
            rate(ours.wall),
            ms(iga.wall),
            iga.cpu_ms,
            rate(iga.wall),
            iga.wall.as_secs_f64() / ours.wall.as_secs_f64(),
            iga.cpu_ms as f64 / ours.cpu_ms.max(1) as f64,
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut f: impl FnMut() -> Duration) -> Duration {
    let mut v: Vec<Duration> = (0..RUNS).map(|_| f()).collect();
    v.sort();
    v[RUNS / 2]
}

/// Median wall time and mean CPU time (user + system) of one process per run. The CPU time is
/// a mean, not a median: the kernel counts children's CPU time in 10 ms ticks, too coarse for
/// one run of ours (tens of ms); over all runs the tick is a small part of the total.
struct Timing {
    wall: Duration,
    cpu_ms: u64,
}

fn process(mut cmd: Command) -> Timing {
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..RUNS {
        let before = children_cpu_ms();
        let t = Instant::now();
        let out = cmd.output().expect("process runs");
        wall.push(t.elapsed());
        cpu.push(children_cpu_ms() - before);
        assert!(
            out.status.success(),
            "{cmd:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    wall.sort();
    Timing {
        wall: wall[RUNS / 2],
        cpu_ms: cpu.iter().sum::<u64>() / RUNS as u64,
    }
}

/// CPU time (user + system, ms) of this process's waited-for children: fields 16 and 17 of
/// /proc/self/stat, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
fn children_cpu_ms() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    // `rest` starts at field 3 (state), so field n is f[n - 3].
    (f.get(13).copied().unwrap_or(0) + f.get(14).copied().unwrap_or(0)) * 10
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// Each distinct instruction word of `bytes` once, in order of first appearance, without
/// branches (whose targets would no longer be instructions).
fn distinct_words(p: Platform, bytes: &[u8]) -> Vec<u8> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for f in isa_encoder::kernel::frames(bytes) {
        let f = f.expect("the input splits into instructions");
        let branch = f.opcode(p).map(|op| op.shape()) == Some(isa_encoder::model::Shape::Branch);
        if !branch && seen.insert(f.bytes) {
            out.extend_from_slice(f.bytes);
        }
    }
    out
}

/// The kernel heaps ocloc makes of one corpus file at one SIMD width, padding stripped and
/// concatenated; cached by a hash of everything that goes into them.
fn heaps(
    ocloc: &Path,
    cache: &Path,
    p: Platform,
    name: &str,
    body: &str,
    simd: u32,
) -> Result<Vec<u8>, String> {
    let source = format!("{COMMON}{body}");
    let options = format!("-DSIMD={simd} -cl-std=CL2.0");
    let mut h = DefaultHasher::new();
    if let Ok(m) = std::fs::metadata(ocloc) {
        (m.len(), m.modified().ok()).hash(&mut h);
    }
    (p.ocloc_device(), &source, &options).hash(&mut h);
    let stem = name.trim_end_matches(".cl");
    let key = format!("{stem}-simd{simd}-{}-{:016x}", p.ocloc_device(), h.finish());
    let (ok, err) = (
        cache.join(format!("{key}.heaps")),
        cache.join(format!("{key}.err")),
    );
    if let Ok(b) = std::fs::read(&ok) {
        return Ok(b);
    }
    if let Ok(e) = std::fs::read_to_string(&err) {
        return Err(e);
    }
    let built = ocloc::compile(ocloc, p, &source, &options, Format::PatchTokens).and_then(|bin| {
        let mut all = Vec::new();
        for heap in ocloc::kernel_heaps(ocloc, &bin)? {
            all.extend_from_slice(strip_padding(&heap.bytes));
        }
        Ok(all)
    });
    let (path, bytes) = match &built {
        Ok(b) => (&ok, b.clone()),
        Err(e) => (
            &err,
            e.lines()
                .last()
                .unwrap_or("ocloc failed")
                .as_bytes()
                .to_vec(),
        ),
    };
    let aside = cache.join(format!("{key}.tmp{}", std::process::id()));
    if std::fs::write(&aside, bytes).is_ok() {
        let _ = std::fs::rename(&aside, path);
    }
    built.map_err(|e| e.lines().last().unwrap_or("ocloc failed").to_string())
}

/// A heap up to its last instruction: ocloc pads heaps with zeros, which iga64 would decode as
/// `illegal` instructions once heaps are put end to end.
fn strip_padding(heap: &[u8]) -> &[u8] {
    let end = heap.iter().rposition(|&b| b != 0).map_or(0, |k| k + 1);
    let mut at = 0;
    while at < end && at + 8 <= heap.len() {
        let first = [heap[at], heap[at + 1], heap[at + 2], heap[at + 3]];
        at += if isa_encoder::compact::is_compacted(first) {
            8
        } else {
            16
        };
    }
    &heap[..at.min(heap.len())]
}
