//! What can go wrong while a thread runs: every error names the instruction's byte offset in
//! the kernel and, for memory, the faulting address.

/// An EU error: the byte offset of the instruction in its kernel, and what happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("EU error at instruction offset {offset:#x}: {kind}")]
pub struct EuError {
    pub offset: u32,
    pub kind: EuErrorKind,
}

/// The kinds of EU error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EuErrorKind {
    /// The kernel bytes do not decode (the decoder's message).
    #[error("undecodable instruction: {0}")]
    Decode(String),
    /// `illegal`, or an instruction the hardware rejects (operand form, reserved field).
    #[error("illegal instruction: {0}")]
    Illegal(String),
    /// A valid instruction or message this interpreter does not execute.
    #[error("not supported by the interpreter: {0}")]
    Unsupported(String),
    /// A register operand that reaches outside its register file (byte offset into the file).
    #[error("register access out of range at byte {byte:#x} of {file}")]
    RegisterOutOfRange { file: &'static str, byte: u32 },
    /// A message address that breaks the message's alignment rule.
    #[error("misaligned access at {address:#x} (needs {align}-byte alignment)")]
    Misaligned { address: u64, align: u32 },
    /// A memory access outside the address space (or SLM), or to an unbound page.
    #[error("page fault at {address:#x}")]
    PageFault { address: u64 },
    /// A binding table entry or surface state the data port cannot use.
    #[error("unusable surface: {0}")]
    Surface(String),
    /// A scratch (spill/fill) access outside the thread's slice, or with no scratch surface.
    #[error("scratch: {0}")]
    Scratch(String),
    /// A branch whose target is not an instruction of this kernel.
    #[error("branch target {target:#x} is not an instruction")]
    BadBranchTarget { target: i64 },
    /// Control ran past the last instruction without an end-of-thread.
    #[error("ran past the end of the kernel")]
    RanOffEnd,
}

impl EuErrorKind {
    /// Attaches the instruction offset.
    pub fn at(self, offset: u32) -> EuError {
        EuError { offset, kind: self }
    }
}

/// A memory access the [`crate::dataport::Memory`] refused: the first faulting address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("memory fault at {address:#x}")]
pub struct MemFault {
    pub address: u64,
}

impl From<MemFault> for EuErrorKind {
    fn from(f: MemFault) -> Self {
        EuErrorKind::PageFault { address: f.address }
    }
}
