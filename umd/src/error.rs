//! Errors of the driver outside binary parsing (that is [`crate::program::ProgramError`]).

use thiserror::Error;

use crate::blockio::Rule;

/// Why a device, buffer, image, kernel or dispatch operation failed.
#[derive(Debug, Error)]
pub enum Error {
    /// A device name that is neither `auto`, `sim:<platform>` nor a path.
    #[error("unknown device `{0}` (expected auto, sim:<platform> or a render node path)")]
    BadDeviceName(String),
    /// The simulator refused to open (e.g. xe on Gen9).
    #[error("cannot open the simulator: {0}")]
    Sim(#[from] sim::OpenError),
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
    /// A kernel feature this driver does not provide yet.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The GPU reported a page fault.
    #[error("GPU page fault at {address:#x}{detail}")]
    GpuFault { address: u64, detail: String },
    /// The GPU hung (or stopped on a command it cannot execute); the context was replaced.
    #[error("GPU hang: {0}")]
    GpuHang(String),
    /// The batch did not signal completion and the driver gave no reason.
    #[error("dispatch did not complete: {0}")]
    Incomplete(String),
    /// A CPU mapping access outside its range.
    #[error("mapping: {0}")]
    Map(#[from] kmd_iface::seam::MapAccessError),
}

pub type Result<T> = std::result::Result<T, Error>;
