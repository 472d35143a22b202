//! `isa`: assemble and disassemble EU kernels in IGA syntax (to be folded into intel-gpu-run).
//!
//! `isa disasm -p P FILE` prints what `iga64 -d -p=P FILE` prints.
//! `isa asm -p P FILE [-o OUT]` writes what `iga64 -a -p=P FILE -o OUT` writes.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use platform::Platform;

#[derive(Parser)]
#[command(name = "isa", about = "EU assembler/disassembler (IGA syntax)")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Disassemble raw kernel bytes.
    Disasm {
        /// Platform: skl, icllp, tgllp, dg2 (or 9, 11, 12p1, 12p71, acm-g10).
        #[arg(short = 'p', long)]
        platform: Platform,
        file: PathBuf,
    },
    /// Assemble IGA-syntax text.
    Asm {
        #[arg(short = 'p', long)]
        platform: Platform,
        file: PathBuf,
        /// Output file (default: FILE with extension .krn).
        #[arg(short = 'o', long)]
        output: Option<PathBuf>,
    },
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.cmd {
        Cmd::Disasm { platform, file } => {
            let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let text = isa_encoder::disassemble(platform, &bytes)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            print!("{text}");
            Ok(())
        }
        Cmd::Asm {
            platform,
            file,
            output,
        } => {
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let bytes = isa_encoder::assemble(platform, &text)
                .map_err(|e| format!("{}:{e}", file.display()))?;
            let out = output.unwrap_or_else(|| file.with_extension("krn"));
            std::fs::write(&out, bytes).map_err(|e| format!("{}: {e}", out.display()))
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("isa: {e}");
            ExitCode::FAILURE
        }
    }
}
