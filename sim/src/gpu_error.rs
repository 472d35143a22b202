//! GPU errors (page faults and hangs) and the captured error state, which reads like the
//! kernel's error dump: what happened, on which engine and context, and where — for errors an
//! EU thread raised, the kernel and the byte offset of the instruction in it.

use std::fmt;

use crate::mem::{Access, GpuFault};
use sim_eu::EuErrorKind;

/// Where an EU thread was: the GPU address its kernel starts at (where the thread was
/// dispatched) and the byte offset of the instruction from there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelOffset {
    pub kernel: u64,
    pub offset: u32,
}

impl fmt::Display for KernelOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instruction at offset {:#x} of the kernel at {:#x}",
            self.offset, self.kernel
        )
    }
}

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
    /// A walker's threads spent the EU watchdog's instruction or time budget. `threads` holds
    /// the offset each unfinished thread was at (the first few; empty when the budget ran out
    /// between thread groups).
    EuWatchdog { kernel: u64, threads: Vec<u32> },
    /// The kernel driver's hang rule reset the engine while a walker's threads ran: `rule`
    /// names it, `at_ns` is when (simulated GPU time since the request began), `threads`
    /// the offsets unfinished threads were at; `endless` when the simulator proved the
    /// threads loop forever (it then skips ahead to the reset).
    Timeout {
        rule: String,
        at_ns: u64,
        kernel: u64,
        threads: Vec<u32>,
        endless: bool,
    },
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GpuErrorKind {
    /// An access without a translation. `by` is the instruction whose message made it; `None`
    /// for the command streamer's and thread dispatch's own accesses.
    PageFault {
        fault: GpuFault,
        by: Option<KernelOffset>,
    },
    /// An EU thread stopped at an instruction: illegal, a register access out of range, a
    /// misaligned or unusable message, a branch outside the kernel.
    Eu {
        at: KernelOffset,
        error: EuErrorKind,
    },
    Hang(HangReason),
}

impl GpuErrorKind {
    /// The instruction the error names, if an EU thread raised it (for a watchdog hang, where
    /// the first unfinished thread was).
    pub fn instruction(&self) -> Option<KernelOffset> {
        match self {
            GpuErrorKind::PageFault { by, .. } => *by,
            GpuErrorKind::Eu { at, .. } => Some(*at),
            GpuErrorKind::Hang(HangReason::EuWatchdog { kernel, threads })
            | GpuErrorKind::Hang(HangReason::Timeout {
                kernel, threads, ..
            }) => threads.first().map(|&offset| KernelOffset {
                kernel: *kernel,
                offset,
            }),
            GpuErrorKind::Hang(_) => None,
        }
    }
}

impl From<GpuFault> for GpuErrorKind {
    fn from(fault: GpuFault) -> Self {
        GpuErrorKind::PageFault { fault, by: None }
    }
}

impl fmt::Display for GpuErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuErrorKind::PageFault { fault, by } => {
                write!(
                    f,
                    "page fault on {} of {} bytes at {:#x}",
                    match fault.access {
                        Access::Read => "read",
                        Access::Write => "write",
                    },
                    fault.len,
                    fault.address
                )?;
                match by {
                    Some(at) => write!(f, " by the {at}"),
                    None => Ok(()),
                }
            }
            GpuErrorKind::Eu { at, error } => write!(f, "EU error at the {at}: {error}"),
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
            GpuErrorKind::Hang(HangReason::Timeout {
                rule,
                at_ns,
                kernel,
                threads,
                endless,
            }) => {
                let at: Vec<String> = threads.iter().map(|o| format!("{o:#x}")).collect();
                write!(
                    f,
                    "hang: reset by the {rule} after {}.{:03} ms of GPU time: the kernel at \
                     {kernel:#x} did not finish",
                    at_ns / 1_000_000,
                    at_ns / 1000 % 1000
                )?;
                if *endless {
                    write!(f, " (its threads loop forever)")?;
                }
                if !at.is_empty() {
                    write!(f, "; threads at instruction offset {}", at.join(", "))?;
                }
                Ok(())
            }
            GpuErrorKind::Hang(HangReason::EuWatchdog { kernel, threads })
                if threads.is_empty() =>
            {
                write!(
                    f,
                    "hang: EU watchdog: the kernel at {kernel:#x} did not finish its thread \
                     groups within the budget"
                )
            }
            GpuErrorKind::Hang(HangReason::EuWatchdog { kernel, threads }) => {
                let at: Vec<String> = threads.iter().map(|o| format!("{o:#x}")).collect();
                write!(
                    f,
                    "hang: EU watchdog: the kernel at {kernel:#x} did not finish within the \
                     budget; threads at instruction offset {}",
                    at.join(", ")
                )
            }
        }
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
            "GPU error {}: {} context {} batch {:#x} head {:#x}: {}",
            self.id, self.engine, self.context, self.batch, self.head, self.kind
        )
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

    #[test]
    fn eu_errors_name_the_kernel_and_the_instruction_offset() {
        let at = KernelOffset {
            kernel: 0x50_0000,
            offset: 0x118,
        };
        let fault = GpuErrorKind::PageFault {
            fault: GpuFault {
                address: 0x1_0060_0000,
                len: 4,
                access: Access::Write,
            },
            by: Some(at),
        };
        let text = fault.to_string();
        assert!(text.contains("write of 4 bytes at 0x100600000"), "{text}");
        assert!(
            text.contains("offset 0x118 of the kernel at 0x500000"),
            "{text}"
        );
        assert_eq!(fault.instruction(), Some(at));

        let misaligned = GpuErrorKind::Eu {
            at,
            error: EuErrorKind::Misaligned {
                address: 0x60_0004,
                align: 16,
            },
        };
        let text = misaligned.to_string();
        assert!(
            text.contains("offset 0x118") && text.contains("0x600004"),
            "{text}"
        );

        let hang = GpuErrorKind::Hang(HangReason::EuWatchdog {
            kernel: 0x50_0000,
            threads: vec![0x90, 0xf8],
        });
        assert!(hang.to_string().contains("offset 0x90, 0xf8"), "{hang}");
        assert_eq!(
            hang.instruction(),
            Some(KernelOffset {
                kernel: 0x50_0000,
                offset: 0x90
            })
        );
        let between_groups = GpuErrorKind::Hang(HangReason::EuWatchdog {
            kernel: 0x50_0000,
            threads: vec![],
        });
        assert_eq!(between_groups.instruction(), None);
        assert_eq!(
            GpuErrorKind::from(GpuFault {
                address: 0,
                len: 4,
                access: Access::Read
            })
            .instruction(),
            None
        );
    }
}
