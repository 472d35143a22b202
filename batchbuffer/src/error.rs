//! Errors from packing, unpacking and identifying packets. Every one names the packet and, where
//! it applies, the field, so a caller can point at the offending bits.

use platform::Platform;

/// Why a packet could not be packed or unpacked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The packet does not exist on this generation.
    #[error("{packet} does not exist on {platform}")]
    NotOnPlatform {
        packet: &'static str,
        platform: Platform,
    },
    /// A field was given a non-default value on a generation that lacks it.
    #[error("{packet}: field '{field}' does not exist on {platform} but was set")]
    FieldNotOnPlatform {
        packet: &'static str,
        field: &'static str,
        platform: Platform,
    },
    /// The buffer is shorter than the packet.
    #[error("{packet}: needs {need} dwords, buffer has {have}")]
    ShortBuffer {
        packet: &'static str,
        need: usize,
        have: usize,
    },
    /// A value does not fit its field (or, for fields past a variable-length packet's end, is
    /// not zero).
    #[error("{packet}: field '{field}' cannot hold {value:#x} ({bits} bits)")]
    OutOfRange {
        packet: &'static str,
        field: &'static str,
        value: u64,
        bits: u32,
    },
    /// An address or offset has nonzero bits below the field's alignment.
    #[error("{packet}: field '{field}' value {value:#x} is not {align}-byte aligned")]
    Misaligned {
        packet: &'static str,
        field: &'static str,
        value: u64,
        align: u64,
    },
    /// An enum field holds a value with no name.
    #[error("{packet}: field '{field}' holds {value:#x}, which is not a defined value")]
    BadEnum {
        packet: &'static str,
        field: &'static str,
        value: u64,
    },
    /// A trailing group's dwords are not a whole number of elements.
    #[error("{packet}: group '{field}' has {dwords} dwords, not a multiple of {stride}")]
    PartialElement {
        packet: &'static str,
        field: &'static str,
        dwords: usize,
        stride: usize,
    },
    /// A trailing group holds more elements than its Rust type can.
    #[error("{packet}: group '{field}' has {count} elements, at most {max} fit")]
    TooManyElements {
        packet: &'static str,
        field: &'static str,
        count: usize,
        max: usize,
    },
    /// A fixed header field (command type, opcode) holds the wrong value.
    #[error("{packet}: header field '{field}' is {found:#x}, expected {expected:#x}")]
    WrongHeader {
        packet: &'static str,
        field: &'static str,
        expected: u64,
        found: u64,
    },
}

/// Why [`crate::identify()`] could not name the command at the start of a slice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentifyError {
    /// There is no header dword at all.
    #[error("no command header: the batch ends here")]
    Empty,
    /// The header matches no command this crate defines for the platform.
    #[error("unknown command header {header:#010x} on {platform}")]
    UnknownOpcode { header: u32, platform: Platform },
    /// The header names a command whose length runs past the end of the slice.
    #[error("{packet} is {need} dwords long but only {have} remain")]
    Truncated {
        packet: &'static str,
        need: usize,
        have: usize,
    },
}
