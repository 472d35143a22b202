//! Registers: the GRF and the architecture register file (ARF), with their IGA names.

/// A register file / architecture register kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegFile {
    /// General register file `r0`..`r127`.
    Grf,
    /// `null`.
    Null,
    /// Address register `a0`.
    Address,
    /// Accumulators `acc0`, `acc1` (and the math-macro accumulators on newer platforms).
    Acc,
    /// Flag registers `f0`, `f1`.
    Flag,
    /// Channel enable `ce0`.
    ChannelEnable,
    /// Message control `msg0`.
    Msg,
    /// Stack pointer `sp`.
    StackPointer,
    /// State register `sr0`.
    State,
    /// Control register `cr0`.
    Control,
    /// Notification count `n0`.
    Notification,
    /// Instruction pointer `ip`.
    Ip,
    /// Thread dependency `tdr0`.
    Tdr,
    /// Timestamp `tm0`.
    Timestamp,
    /// Flow control `fc0`.
    FlowControl,
    /// Debug `dbg0`.
    Debug,
}

/// One row per ARF: its IGA name, the upper nibble of its encoded register number, and whether
/// IGA prints a register number after the name (`null` and `ip` have none; `sp` neither).
pub struct ArfInfo {
    pub file: RegFile,
    pub name: &'static str,
    /// Bits `[7:4]` of the encoded ARF register number.
    pub nibble: u8,
    /// IGA prints `name` followed by the register number (`acc0`, `f1`), else the name alone.
    pub numbered: bool,
    /// IGA prints a subregister (`.0`) even when it is zero.
    pub has_subregs: bool,
}

/// The ARF table (encoding: Gen9..Xe-HPG share it).
pub const ARFS: &[ArfInfo] = &[
    ArfInfo {
        file: RegFile::Null,
        name: "null",
        nibble: 0x0,
        numbered: false,
        has_subregs: false,
    },
    ArfInfo {
        file: RegFile::Address,
        name: "a",
        nibble: 0x1,
        numbered: true,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::Acc,
        name: "acc",
        nibble: 0x2,
        numbered: true,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::Flag,
        name: "f",
        nibble: 0x3,
        numbered: true,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::ChannelEnable,
        name: "ce",
        nibble: 0x4,
        numbered: false,
        has_subregs: false,
    },
    ArfInfo {
        file: RegFile::Msg,
        name: "msg",
        nibble: 0x5,
        numbered: true,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::StackPointer,
        name: "sp",
        nibble: 0x6,
        numbered: false,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::State,
        name: "sr",
        nibble: 0x7,
        numbered: true,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::Control,
        name: "cr",
        nibble: 0x8,
        numbered: true,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::Notification,
        name: "n",
        nibble: 0x9,
        numbered: true,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::Ip,
        name: "ip",
        nibble: 0xA,
        numbered: false,
        has_subregs: false,
    },
    ArfInfo {
        file: RegFile::Tdr,
        name: "tdr",
        nibble: 0xB,
        numbered: true,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::Timestamp,
        name: "tm",
        nibble: 0xC,
        numbered: true,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::FlowControl,
        name: "fc",
        nibble: 0xD,
        numbered: true,
        has_subregs: true,
    },
    ArfInfo {
        file: RegFile::Debug,
        name: "dbg",
        nibble: 0xF,
        numbered: true,
        has_subregs: true,
    },
];

impl RegFile {
    /// The ARF row, or `None` for the GRF.
    pub fn arf(self) -> Option<&'static ArfInfo> {
        ARFS.iter().find(|a| a.file == self)
    }

    /// The ARF whose encoded register number has upper nibble `nibble`.
    pub fn from_arf_nibble(nibble: u8) -> Option<RegFile> {
        ARFS.iter().find(|a| a.nibble == nibble).map(|a| a.file)
    }
}

/// A register with its subregister: `r12.3`, `acc0.0`, `f1.1`, `null`.
/// `sub` counts elements of the operand's type (as IGA prints it), not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reg {
    pub file: RegFile,
    /// Register number: GRF index, or the ARF's low nibble (`acc1` -> 1).
    pub num: u8,
    /// Subregister in units of the operand's data type.
    pub sub: u8,
}

impl Reg {
    /// A GRF register `r{num}.{sub}`.
    pub const fn grf(num: u8, sub: u8) -> Reg {
        Reg {
            file: RegFile::Grf,
            num,
            sub,
        }
    }

    /// The `null` register.
    pub const NULL: Reg = Reg {
        file: RegFile::Null,
        num: 0,
        sub: 0,
    };

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        self.file == RegFile::Null
    }
}

/// A flag register `f{num}.{sub}` as used by predication and conditional modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FlagReg {
    pub num: u8,
    pub sub: u8,
}
