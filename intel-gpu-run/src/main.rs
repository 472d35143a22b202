//! `intel-gpu-run`: the command-line face of the stack.
//! Start reading: `Cmd` (clap) here, then `run.rs`.
//!
//! Subcommands: `run` (a kernel on a device: hardware or the simulator), `devices`, `asm`,
//! `disasm`, `decode-batch`, `batch-diff` (two command-log captures compared, `batch_diff/`).
//! Every failure is one line on stderr, `intel-gpu-run: <what>`, and a non-zero exit.

// The argument structs' doc comments are clap's help text, written for a terminal
// (`sim:<platform>`, `X[,Y[,Z]]`), not rustdoc markdown.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use platform::Platform;

mod argspec;
mod batch_diff;
mod run;

#[derive(Parser)]
#[command(
    name = "intel-gpu-run",
    version,
    about = "Intel GPU compute: kernels, EU assembly, batch buffers"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a kernel (ocloc binary, .asm or .krn) on a device and show its outputs.
    Run(Box<run::RunArgs>),
    /// List hardware and simulated devices.
    Devices,
    /// IGA-syntax text -> raw kernel bytes (what `iga64 -a` writes).
    Asm {
        /// Platform: skl, icllp, tgllp, dg2/acm-g10, or IGA's 9, 11, 12p1, 12p71.
        #[arg(short = 'p', long = "platform")]
        platform: Platform,
        file: PathBuf,
        /// Output file (default: FILE with the extension .krn).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
    },
    /// Raw kernel bytes -> IGA-syntax text (what `iga64 -d` prints).
    Disasm {
        #[arg(short = 'p', long = "platform")]
        platform: Platform,
        file: PathBuf,
    },
    /// Batch buffer bytes -> one line per command; `--full` adds every field.
    DecodeBatch {
        #[arg(short = 'p', long = "platform")]
        platform: Platform,
        file: PathBuf,
        /// List every field of every command, as `Name: value (ENUM)`.
        #[arg(long)]
        full: bool,
    },
    /// Two runs of one kernel compared field by field: where their batches, state and
    /// payload differ. Each run is a directory the simulator's command log wrote
    /// (INTEL_GPU_SIM_COMMAND_LOG=<dir> under the render-node shim); walkers are lined up
    /// one by one, state and other commands by kind.
    BatchDiff(batch_diff::BatchDiffArgs),
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The file's bytes mapped read-only, pages populated up front: for the assembler's and
/// disassembler's inputs, which can be tens of MB (a copy and a page fault per 4 KiB would be
/// a fifth of the assembler's time). An empty file is not mapped (zero-length maps fail).
enum Input {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl std::ops::Deref for Input {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Input::Mapped(m) => m,
            Input::Read(v) => v,
        }
    }
}

fn map(path: &Path) -> Result<Input, String> {
    let err = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let f = std::fs::File::open(path).map_err(err)?;
    let meta = f.metadata().map_err(err)?;
    if !meta.is_file() || meta.len() == 0 {
        return read(path).map(Input::Read);
    }
    // SAFETY: a read-only private map of a regular file. Its bytes are only read, and the
    // text is checked to be UTF-8 once; like any tool reading its input in place, the result
    // is unspecified if another process rewrites the file while it is being read.
    unsafe { memmap2::MmapOptions::new().populate().map(&f) }
        .map(Input::Mapped)
        .map_err(err)
}

fn run(cmd: Cmd) -> Result<(), String> {
    match cmd {
        Cmd::Run(a) => run::run(*a),
        Cmd::BatchDiff(a) => batch_diff::run(a),
        Cmd::Devices => run::devices(),
        Cmd::Asm {
            platform,
            file,
            output,
        } => {
            let input = map(&file)?;
            let text = std::str::from_utf8(&input)
                .map_err(|e| format!("{}: not UTF-8 text: {e}", file.display()))?;
            let bytes = isa_encoder::assemble(platform, text)
                .map_err(|e| format!("{}:{e}", file.display()))?;
            let out = output.unwrap_or_else(|| file.with_extension("krn"));
            std::fs::write(&out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))
        }
        Cmd::Disasm { platform, file } => {
            // Written in pieces as it is made; nothing is written for bytes that do not decode.
            let mut out = std::io::stdout().lock();
            isa_encoder::disassemble_to(platform, &map(&file)?, &mut out).map_err(|e| match e {
                isa_encoder::DisassembleToError::Decode(e) => format!("{}: {e}", file.display()),
                isa_encoder::DisassembleToError::Write(e) => format!("cannot write the text: {e}"),
            })
        }
        Cmd::DecodeBatch {
            platform,
            file,
            full,
        } => {
            use batchbuffer::decode::{decode_to_string, Mode};
            let mode = if full { Mode::Full } else { Mode::Summary };
            let (text, stats) = decode_to_string(platform, &read(&file)?, mode);
            print!("{text}");
            if stats.truncated || stats.unknown > 0 {
                return Err(format!(
                    "{}: {} unknown command(s){}",
                    file.display(),
                    stats.unknown,
                    if stats.truncated {
                        ", batch truncated"
                    } else {
                        ""
                    }
                ));
            }
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.cmd) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Errors are one line: fold any newline a lower layer put in.
            eprintln!("intel-gpu-run: {}", e.replace('\n', "; "));
            ExitCode::FAILURE
        }
    }
}
