//! Errors of the codecs, the assembler and the kernel-level API. Each carries a position.

use platform::Platform;

/// An instruction's bits that do not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("unknown opcode 0x{0:02x}")]
    UnknownOpcode(u8),
    #[error("illegal value {value:#x} in field {field}")]
    IllegalField { field: &'static str, value: u64 },
    #[error("no native codec for {0} in this build (see native/mod.rs)")]
    NoCodec(Platform),
    #[error("compacted instruction cannot be expanded: {0}")]
    Compaction(String),
    #[error("truncated instruction: {0} bytes left, need {1}")]
    Truncated(usize, usize),
}

/// A model instruction that has no encoding on the platform.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("{opcode} does not exist on {platform}")]
    OpcodeNotOnPlatform {
        opcode: &'static str,
        platform: Platform,
    },
    #[error("value {value:#x} does not fit field {field}")]
    FieldOutOfRange { field: &'static str, value: u64 },
    #[error("cannot encode: {0}")]
    Unencodable(String),
    #[error("no native codec for {0} in this build (see native/mod.rs)")]
    NoCodec(Platform),
}

/// A kernel whose bytes do not decode, with the byte offset of the failing instruction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte offset {offset:#x}: {error}")]
pub struct KernelDecodeError {
    pub offset: usize,
    pub error: DecodeError,
}

/// Assembly text that does not parse or encode, with its 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct AsmError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}
