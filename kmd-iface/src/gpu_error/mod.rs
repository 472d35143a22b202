//! What a kernel driver's GPU error capture says about a fault or hang, for a user-mode driver.
//!
//! On real hardware a reset only shows up as `EIO` from a wait or a banned context; the
//! faulting address, the engine and where its command streamer was are in the kernel's error
//! capture: i915's error state (`/sys/class/drm/cardN/error`) and xe's devcoredump
//! (`.../device/devcoredump/data`). This module parses both texts ([`i915`], [`xe`]) into one
//! [`Capture`] and finds them under a render node's sysfs directory ([`sysfs`]).
//!
//! Neither capture records an EU instruction pointer: what they give is the command
//! streamer's active head (ACTHD), the batch address and, for page faults, the address. The
//! simulator adds lines of its own for the EU instruction and the exact fault ([`simulator`]).

pub mod i915;
pub mod simulator;
pub mod sysfs;
pub mod xe;

mod text;

pub use sysfs::{capture_path, read_capture};

/// Which kernel text a capture came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureSource {
    /// i915's GPU error state (`i915_gpu_error.c`).
    I915ErrorState,
    /// xe's device coredump (`xe_devcoredump.c`).
    XeDevcoredump,
    /// xe's page-fault report in the kernel log (`xe_gt_pagefault.c`).
    XePagefaultLog,
}

/// The address space a fault was in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressSpace {
    Ggtt,
    Ppgtt,
}

/// A GPU page fault as the capture reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fault {
    /// The faulting GPU virtual address (page granular: the hardware reports the page).
    pub address: u64,
    /// `None` when the text does not say.
    pub space: Option<AddressSpace>,
    /// `Some(true)` for a write, when the text says.
    pub write: Option<bool>,
}

/// What a UMD can use from a capture.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capture {
    pub source: Option<CaptureSource>,
    /// The capture's headline (i915's error message, xe's process line).
    pub summary: Option<String>,
    /// The engine that hung or faulted (i915 `rcs0`, xe `rcs0`/`ccs0`), when the text says.
    pub engine: Option<String>,
    pub fault: Option<Fault>,
    /// The GPU address of the batch buffer that was running.
    pub batch_address: Option<u64>,
    /// The command streamer's active head: the address of the command it was executing.
    pub acthd: Option<u64>,
    /// The EU instruction the error names (only the simulator's captures say).
    pub instruction: Option<EuInstruction>,
}

/// An EU instruction: the GPU address its kernel starts at and its byte offset from there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EuInstruction {
    pub kernel: u64,
    pub offset: u32,
}

/// Why a capture could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaptureError {
    /// The capture file is empty or says nothing was collected.
    #[error("{what}: no error captured")]
    Empty { what: &'static str },
    /// The text does not start like the kernel's capture.
    #[error("{what}: not a capture (line {line}: {found:?})")]
    NotACapture {
        what: &'static str,
        line: usize,
        found: String,
    },
    /// A line the parser knows whose value does not parse (bad or cut-off text).
    #[error("{what}: line {line}: {detail}")]
    Malformed {
        what: &'static str,
        line: usize,
        detail: String,
    },
    /// The text ends before it says anything about an engine or a fault.
    #[error("{what}: truncated after line {line}: {detail}")]
    Truncated {
        what: &'static str,
        line: usize,
        detail: String,
    },
    /// The capture file could not be read (absent, or needs root).
    #[error("cannot read {path}: {reason}")]
    Read { path: String, reason: String },
    /// No capture file for this device (driver without capture support, or no sysfs).
    #[error("no error capture under {0}")]
    NotFound(String),
}
