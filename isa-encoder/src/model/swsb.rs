//! Gen12+ software scoreboard annotations: `{@3}`, `{$2}`, `{$2.dst}`, `{A@1,$0}`, `{F@2}`.

/// Which in-order pipe a register distance counts in. Gen12LP has one (printed `@n`);
/// Xe-HPG distinguishes pipes (`A@`, `F@`, `I@`, `L@`, `M@`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DistPipe {
    /// `@n`: Gen12LP's single in-order distance.
    Any,
    /// `A@n`: all in-order pipes (Xe-HPG).
    All,
    /// `F@n`: float pipe.
    Float,
    /// `I@n`: integer pipe.
    Int,
    /// `L@n`: long (64-bit) pipe.
    Long,
    /// `M@n`: math pipe.
    Math,
}

impl DistPipe {
    /// The IGA prefix before `@`.
    pub fn prefix(self) -> &'static str {
        match self {
            DistPipe::Any => "",
            DistPipe::All => "A",
            DistPipe::Float => "F",
            DistPipe::Int => "I",
            DistPipe::Long => "L",
            DistPipe::Math => "M",
        }
    }
}

/// What an SBID token annotation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenMode {
    /// `$n`: this (out-of-order) instruction allocates token n.
    Set,
    /// `$n.dst`: wait until token n's destination is written.
    Dst,
    /// `$n.src`: wait until token n's sources are read.
    Src,
}

/// A software scoreboard annotation; both parts optional.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Swsb {
    /// Register distance and its pipe (distance 1..7).
    pub dist: Option<(DistPipe, u8)>,
    /// SBID token (0..15 on Gen12LP, 0..31 on Xe-HPG) and its mode.
    pub token: Option<(u8, TokenMode)>,
}

impl Swsb {
    /// True if nothing is annotated.
    pub fn is_empty(&self) -> bool {
        self.dist.is_none() && self.token.is_none()
    }
}
