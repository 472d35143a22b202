//! `decode-batch -p PLATFORM [--full] FILE`: prints a batch buffer one command per line (every
//! field with `--full`). Stand-in until `intel-gpu-run decode-batch` lands.

use batchbuffer::decode::{decode_to_string, Mode};
use platform::Platform;
use std::process::ExitCode;

const USAGE: &str = "usage: decode-batch -p PLATFORM [--full] FILE";

fn main() -> ExitCode {
    let mut platform = None;
    let mut file = None;
    let mut mode = Mode::Summary;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-p" | "--platform" => platform = args.next(),
            "--full" | "-f" => mode = Mode::Full,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => file = Some(a),
        }
    }
    let (Some(platform), Some(file)) = (platform, file) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let p: Platform = match platform.parse() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("decode-batch: {e}");
            return ExitCode::from(2);
        }
    };
    let bytes = match std::fs::read(&file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("decode-batch: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (text, stats) = decode_to_string(p, &bytes, mode);
    print!("{text}");
    if stats.truncated || stats.unknown > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
