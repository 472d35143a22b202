//! ocloc's own printing kept off the application's standard output: after every failed build,
//! libocloc (Debian's 22.43) prints `Command was: ocloc …` with printf, where a program parsing
//! its own output would find it. While ocloc runs, file descriptor 1 points at an unlinked
//! temporary file; afterwards it points back, and whatever else was written meanwhile (other
//! threads of the application) is written on, ocloc's line left out. The build log keeps what
//! ocloc said about the program.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicU64, Ordering};

use nix::unistd::{close, dup, dup2};

/// What ocloc starts the line it prints with.
const OCLOC_LINE: &str = "Command was:";

/// Standard output captured from [`Capture::begin`] until the value is dropped.
pub struct Capture {
    saved: Option<(RawFd, File)>,
}

impl Capture {
    /// Points fd 1 at a temporary file. When that cannot be done (no temporary directory, fd 1
    /// closed), nothing is captured and ocloc prints where it would have.
    pub fn begin() -> Capture {
        flush_c_streams();
        Capture {
            saved: redirect().ok(),
        }
    }
}

fn redirect() -> std::io::Result<(RawFd, File)> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "intel-gpu-ocloc-stdout-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let file = File::options()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    let _ = std::fs::remove_file(&path);
    let saved = dup(1)?;
    if let Err(e) = dup2(file.as_raw_fd(), 1) {
        let _ = close(saved);
        return Err(e.into());
    }
    Ok((saved, file))
}

impl Drop for Capture {
    fn drop(&mut self) {
        let Some((saved, mut file)) = self.saved.take() else {
            return;
        };
        flush_c_streams();
        let _ = std::io::stdout().flush();
        let restored = dup2(saved, 1).is_ok();
        let _ = close(saved);
        let mut text = Vec::new();
        if !restored || file.seek(SeekFrom::Start(0)).is_err() {
            return;
        }
        if file.read_to_end(&mut text).is_err() {
            return;
        }
        let others = without_ocloc_lines(&text);
        if !others.is_empty() {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(&others);
            let _ = out.flush();
        }
    }
}

/// `text` without the lines ocloc printed.
fn without_ocloc_lines(text: &[u8]) -> Vec<u8> {
    text.split_inclusive(|b| *b == b'\n')
        .filter(|line| !line.starts_with(OCLOC_LINE.as_bytes()))
        .flatten()
        .copied()
        .collect()
}

/// Writes out what C's stdio buffers hold (the application's printf output before the
/// redirection, ocloc's before the way back).
fn flush_c_streams() {
    // SAFETY: fflush(NULL) flushes every open output stream; it takes no pointer of ours.
    unsafe {
        nix::libc::fflush(std::ptr::null_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_oclocs_line_is_left_out() {
        let text = b"app line\nCommand was: ocloc -q -file program.cl\nanother\npartial";
        assert_eq!(
            without_ocloc_lines(text),
            b"app line\nanother\npartial".to_vec()
        );
        assert!(without_ocloc_lines(b"").is_empty());
    }
}
