//! Errors of the driver outside binary parsing (that is [`crate::program::ProgramError`]).

use thiserror::Error;

use crate::blockio::rule::Rule;

/// Why a device, buffer, image, kernel or dispatch operation failed. Cloneable: every waiter
/// on a failed submission's event gets its error.
#[derive(Debug, Clone, Error)]
pub enum Error {
    /// A device name that is neither `auto`, `sim:<platform>` nor a path.
    #[error("unknown device `{0}` (expected auto, sim:<platform> or a render node path)")]
    BadDeviceName(String),
    /// The simulator refused to open (e.g. xe on Gen9), or the driver was built without it.
    #[error("cannot open the simulator: {0}")]
    Sim(String),
    /// The kernel driver refused an ioctl.
    #[error("kernel driver: {0}")]
    Kmd(#[from] kmd_iface::Error),
    /// The device's PCI id is not one of the supported platforms.
    #[error("device id {0:#06x} is not a supported Intel GPU")]
    UnknownDeviceId(u16),
    /// A render node could not be used.
    #[error("{path}: {reason}")]
    Node { path: String, reason: String },
    /// A cl_intel_subgroups alignment rule was violated.
    #[error("{rule}: {detail}")]
    Alignment { rule: Rule, detail: String },
    /// A 1D image buffer whose start is not aligned to its element size.
    #[error(
        "a 1D image buffer of {format} must start at a multiple of {align} bytes (its element \
         size); it would start at {address:#x}"
    )]
    ImageBufferAlignment {
        address: u64,
        align: u64,
        format: &'static str,
    },
    /// A range outside its buffer or image.
    #[error("{0}")]
    OutOfRange(String),
    /// The batch builder refused the dispatch.
    #[error("batch: {0}")]
    Build(#[from] batchbuffer::builder::BuildError),
    /// An argument that does not match the kernel's signature.
    #[error("{0}")]
    Argument(String),
    /// The ND-range is not valid for this kernel.
    #[error("{0}")]
    NdRange(String),
    /// A kernel's description (from its binary) asks for something the hardware or this
    /// driver cannot give: a zero or oversized work-group, too much SLM or scratch, a payload
    /// slot outside the cross-thread data, an out-of-range binding-table index.
    #[error("kernel {kernel}: {problem}")]
    BadKernel { kernel: String, problem: String },
    /// A kernel feature this driver does not provide yet.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The GPU reported a page fault at `address`. The access and the instruction that made
    /// it are there when the error capture names them (the simulator's does; a kernel's
    /// capture gives the page, and on xe the access).
    #[error("GPU page fault at {address:#x}{}{}: {detail}", access_text(.access), by_text(.by))]
    GpuFault {
        address: u64,
        access: Option<FaultAccess>,
        by: Option<KernelOffset>,
        detail: String,
    },
    /// The GPU hung, or an EU thread stopped at an instruction it cannot execute (illegal,
    /// register out of range, misaligned message); the context was replaced. `at` is that
    /// instruction, or where a thread was when the watchdog fired, when the error state says.
    #[error("GPU hang{}: {detail}", at_text(.at))]
    GpuHang {
        at: Option<KernelOffset>,
        detail: String,
    },
    /// A submission did not run because an event it waited for failed.
    #[error("not run: a dependency failed: {0}")]
    DependencyFailed(String),
    /// The batch did not signal completion and the driver gave no reason.
    #[error("dispatch did not complete: {0}")]
    Incomplete(String),
    /// A CPU mapping access outside its range.
    #[error("mapping: {0}")]
    Map(#[from] kmd_iface::seam::MapAccessError),
}

pub type Result<T> = std::result::Result<T, Error>;

/// An instruction of a running kernel: the GPU address of the kernel's binary (or, when umd
/// does not know it, of the entry point the thread started at) and the instruction's byte
/// offset from there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelOffset {
    pub kernel: u64,
    pub offset: u32,
}

impl std::fmt::Display for KernelOffset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "kernel offset {:#x} (kernel at {:#x})",
            self.offset, self.kernel
        )
    }
}

/// The direction of a faulting access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultAccess {
    Read,
    Write,
}

fn access_text(a: &Option<FaultAccess>) -> &'static str {
    match a {
        Some(FaultAccess::Read) => " (read)",
        Some(FaultAccess::Write) => " (write)",
        None => "",
    }
}

fn by_text(by: &Option<KernelOffset>) -> String {
    by.map_or_else(String::new, |k| format!(" by instruction at {k}"))
}

fn at_text(at: &Option<KernelOffset>) -> String {
    at.map_or_else(String::new, |k| format!(" at {k}"))
}

impl Error {
    /// The instruction a GPU fault or hang names, if the error state gave it.
    pub fn instruction(&self) -> Option<KernelOffset> {
        match self {
            Error::GpuFault { by, .. } => *by,
            Error::GpuHang { at, .. } => *at,
            _ => None,
        }
    }

    /// Names the instruction from the start of the kernel's binary at `isa` (`size` bytes)
    /// when the capture counted it from an entry point inside it (a kernel started past its
    /// per-thread-data load), so offsets match a disassembly of the binary.
    pub(crate) fn rebased_to_isa(mut self, (isa, size): (u64, u64)) -> Self {
        if let Error::GpuFault { by: Some(k), .. } | Error::GpuHang { at: Some(k), .. } = &mut self
        {
            let into = k.kernel.wrapping_sub(isa);
            if k.kernel >= isa && into < size {
                if let Some(offset) = u32::try_from(into)
                    .ok()
                    .and_then(|i| i.checked_add(k.offset))
                {
                    *k = KernelOffset {
                        kernel: isa,
                        offset,
                    };
                }
            }
        }
        self
    }
}
