//! `intel-gpu-run`: the command-line face of the stack.
//!
//! Subcommands present: `asm`, `disasm`, `decode-batch`. `run` and `devices` arrive with the umd
//! crate; until then they are absent (clap reports them as unknown), not faked.
//! Every failure is one line on stderr, `intel-gpu-run: <what>`, and a non-zero exit.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use platform::Platform;

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
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn run(cmd: Cmd) -> Result<(), String> {
    match cmd {
        Cmd::Asm {
            platform,
            file,
            output,
        } => {
            let text = String::from_utf8(read(&file)?)
                .map_err(|e| format!("{}: not UTF-8 text: {e}", file.display()))?;
            let bytes = isa_encoder::assemble(platform, &text)
                .map_err(|e| format!("{}:{e}", file.display()))?;
            let out = output.unwrap_or_else(|| file.with_extension("krn"));
            std::fs::write(&out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))
        }
        Cmd::Disasm { platform, file } => {
            let text = isa_encoder::disassemble(platform, &read(&file)?)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            print!("{text}");
            Ok(())
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
