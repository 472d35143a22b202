//! The one error type of the safe wrappers.

use std::path::PathBuf;

use crate::seam::{Errno, MapAccessError};

/// What went wrong in a wrapper: always names the ioctl or blob, and the errno or offset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The ioctl failed with `errno` (after retrying EINTR/EAGAIN).
    #[error("{op} failed: {errno}{}", context_suffix(context))]
    Ioctl {
        op: &'static str,
        errno: Errno,
        /// What the call was about (handle, query id...), empty if nothing useful.
        context: String,
    },
    /// One item of a multi-item query failed (i915 reports per-item errnos in `length`).
    #[error("{op} item {query_id} failed: {errno}")]
    QueryItem {
        op: &'static str,
        query_id: u64,
        errno: Errno,
    },
    /// A reply blob does not match the header's layout.
    #[error("malformed {what} at byte {offset}: {detail}")]
    Malformed {
        what: &'static str,
        offset: usize,
        detail: String,
    },
    /// A request number whose encoded argument size differs from the struct passed with it.
    #[error("ioctl {request:#x} encodes a {encoded}-byte argument, got {actual} bytes")]
    ArgSize {
        request: u64,
        encoded: usize,
        actual: usize,
    },
    /// An array or size does not fit the uAPI field that carries it.
    #[error("{what}: {len} does not fit the uAPI field")]
    TooLarge { what: &'static str, len: usize },
    /// Two arrays that go together have different lengths.
    #[error("{what}: {got} given for {expected}")]
    Mismatch {
        what: &'static str,
        expected: usize,
        got: usize,
    },
    /// A call that needs at least one element got none.
    #[error("{what} must not be empty")]
    Empty { what: &'static str },
    /// mmap of a GEM object failed.
    #[error("mmap of {len} bytes at fake offset {offset:#x} failed: {errno}")]
    Mmap {
        offset: u64,
        len: usize,
        errno: Errno,
    },
    /// A CPU access outside a mapping.
    #[error(transparent)]
    Map(#[from] MapAccessError),
    /// The path is not a DRM render node (not a DRM character device, or a primary/control node).
    #[error("{} is not a DRM render node", path.display())]
    NotRenderNode { path: PathBuf },
    /// The file's DRM driver is neither i915 nor xe.
    #[error("DRM driver {name:?} is neither i915 nor xe")]
    UnsupportedDriver { name: String },
    /// Opening a device node failed.
    #[error("cannot open {}: {errno}", path.display())]
    Open { path: PathBuf, errno: Errno },
}

fn context_suffix(context: &str) -> String {
    if context.is_empty() {
        String::new()
    } else {
        format!(" ({context})")
    }
}

impl Error {
    /// Adds what the failed call was about to an [`Error::Ioctl`]; other errors pass unchanged.
    pub fn context(self, what: impl FnOnce() -> String) -> Self {
        match self {
            Error::Ioctl { op, errno, .. } => Error::Ioctl {
                op,
                errno,
                context: what(),
            },
            other => other,
        }
    }

    /// The errno of an ioctl, query-item or mmap failure.
    pub fn errno(&self) -> Option<Errno> {
        match self {
            Error::Ioctl { errno, .. }
            | Error::QueryItem { errno, .. }
            | Error::Mmap { errno, .. }
            | Error::Open { errno, .. } => Some(*errno),
            _ => None,
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
