//! GPU errors (page faults and hangs) and the captured error state, which reads like the
//! kernel's error dump: what happened, on which engine and context, and where.

use std::fmt;

use crate::mem::{Access, GpuFault};

/// Why the command streamer stopped making progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HangReason {
    /// The batch ran past the watchdog's command budget (e.g. an endless BB_START loop).
    Watchdog { commands: u64 },
    /// A command header that no packet on this platform matches, or a malformed packet.
    BadCommand { header: u32, detail: String },
    /// MI_BATCH_BUFFER_START nested deeper than the hardware allows.
    BatchNesting { depth: usize },
    /// A packet the simulator recognises but cannot execute yet (walkers without an executor).
    Unsupported { packet: String },
    /// An execution unit reported an error (from a walker executor).
    Eu { detail: String },
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GpuErrorKind {
    PageFault(GpuFault),
    Hang(HangReason),
}

impl From<GpuFault> for GpuErrorKind {
    fn from(f: GpuFault) -> Self {
        GpuErrorKind::PageFault(f)
    }
}

/// One captured GPU error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuErrorRecord {
    /// Sequence number of this error on the device, from 1.
    pub id: u64,
    /// Engine name (rcs0, ccs0).
    pub engine: &'static str,
    /// The hardware context (i915 context id or xe exec queue id) that was running.
    pub context: u32,
    /// GPU address of the command being executed when the error hit.
    pub head: u64,
    /// GPU address where the user batch started.
    pub batch: u64,
    pub kind: GpuErrorKind,
}

impl fmt::Display for GpuErrorRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "GPU error {}: {} context {} batch {:#x} head {:#x}: ",
            self.id, self.engine, self.context, self.batch, self.head
        )?;
        match &self.kind {
            GpuErrorKind::PageFault(p) => write!(
                f,
                "page fault on {} of {} bytes at {:#x}",
                match p.access {
                    Access::Read => "read",
                    Access::Write => "write",
                },
                p.len,
                p.address
            ),
            GpuErrorKind::Hang(HangReason::Watchdog { commands }) => {
                write!(f, "hang: watchdog expired after {commands} commands")
            }
            GpuErrorKind::Hang(HangReason::BadCommand { header, detail }) => {
                write!(f, "hang: bad command {header:#010x}: {detail}")
            }
            GpuErrorKind::Hang(HangReason::BatchNesting { depth }) => {
                write!(f, "hang: batch buffers nested {depth} deep")
            }
            GpuErrorKind::Hang(HangReason::Unsupported { packet }) => {
                write!(f, "hang: {packet} cannot be executed by this simulator")
            }
            GpuErrorKind::Hang(HangReason::Eu { detail }) => write!(f, "hang: EU error: {detail}"),
        }
    }
}

/// The device's error log and reset counter.
#[derive(Debug, Default)]
pub struct ErrorLog {
    records: Vec<GpuErrorRecord>,
}

/// Errors kept for reading back; older ones are dropped (the kernel keeps only the first).
const KEEP: usize = 64;

impl ErrorLog {
    /// Records an error and returns its id. The id doubles as the device's reset count.
    pub fn capture(
        &mut self,
        engine: &'static str,
        context: u32,
        head: u64,
        batch: u64,
        kind: GpuErrorKind,
    ) -> u64 {
        let id = self.records.last().map_or(1, |r| r.id + 1);
        if self.records.len() == KEEP {
            self.records.remove(0);
        }
        self.records.push(GpuErrorRecord {
            id,
            engine,
            context,
            head,
            batch,
            kind,
        });
        id
    }

    pub fn records(&self) -> &[GpuErrorRecord] {
        &self.records
    }

    /// Number of resets (one per captured error).
    pub fn reset_count(&self) -> u64 {
        self.records.last().map_or(0, |r| r.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_numbers_and_describes_errors() {
        let mut log = ErrorLog::default();
        let fault = GpuFault {
            address: 0xdead000,
            len: 4,
            access: Access::Write,
        };
        assert_eq!(log.capture("rcs0", 1, 0x1000, 0x1000, fault.into()), 1);
        let text = log.records()[0].to_string();
        assert!(text.contains("write of 4 bytes at 0xdead000"), "{text}");
        assert!(text.contains("rcs0"), "{text}");
        let hang = GpuErrorKind::Hang(HangReason::Watchdog { commands: 10 });
        assert_eq!(log.capture("ccs0", 2, 0, 0, hang), 2);
        assert_eq!(log.reset_count(), 2);
    }
}
