//! Why a device binary was rejected: which structure, where, and what was wrong.

use thiserror::Error;

/// A malformed or unsupported device binary. Offsets are from the start of the input file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProgramError {
    /// The input is neither ocloc's patch-token container nor a zebin.
    #[error("not an ocloc binary: {0}")]
    UnknownFormat(String),
    /// A structure runs past the end of the data that holds it.
    #[error("{structure} at offset {offset:#x} needs {needed} bytes, only {available} remain")]
    Truncated {
        structure: String,
        offset: usize,
        needed: usize,
        available: usize,
    },
    /// A structure is present but one of its fields is impossible.
    #[error("{structure} at offset {offset:#x}: {problem}")]
    Invalid {
        structure: String,
        offset: usize,
        problem: String,
    },
    /// The ELF layer (headers, section table, symbols, relocations) is malformed.
    #[error("ELF {context}: {message}")]
    Elf { context: String, message: String },
    /// `.ze_info` is not valid YAML or does not follow the zeinfo schema.
    #[error(".ze_info at offset {offset:#x}: {message}")]
    ZeInfo { offset: usize, message: String },
}

pub type Result<T> = std::result::Result<T, ProgramError>;

pub(crate) fn invalid(
    structure: impl Into<String>,
    offset: usize,
    problem: impl Into<String>,
) -> ProgramError {
    ProgramError::Invalid {
        structure: structure.into(),
        offset,
        problem: problem.into(),
    }
}
