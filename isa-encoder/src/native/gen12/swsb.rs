//! The 8-bit SWSB field of Gen12LP and Xe-HPG, as iga64 reads and writes it.
//!
//! - `0x00` nothing; `0x20|n` `$n.dst`; `0x30|n` `$n.src`; `0x40|n` `$n`;
//! - a register distance alone: see [`DIST_CLASSES`];
//! - `0x80 | d<<4 | n`: distance d (0..7) plus token n, whose mode and pipe depend on the
//!   instruction: see [`COMBINED`].

use platform::Platform;

use crate::error::{DecodeError, EncodeError};
use crate::model::{DistPipe, Opcode, Swsb, TokenMode};

/// Distance-only encodings: (value base, distance mask, pipe, present per platform).
/// Gen12LP has one 4-bit distance; Xe-HPG splits the low bits per pipe (3-bit distance).
const DIST_CLASSES: [(u8, u8, DistPipe, [bool; 4]); 6] = [
    (0x00, 0x0F, DistPipe::Any, [false, false, true, false]),
    (0x00, 0x07, DistPipe::Any, [false, false, false, true]),
    (0x08, 0x07, DistPipe::All, [false, false, false, true]),
    (0x10, 0x07, DistPipe::Float, [false, false, false, true]),
    (0x18, 0x07, DistPipe::Int, [false, false, false, true]),
    (0x50, 0x07, DistPipe::Long, [false, false, false, true]),
];

/// Token modes in bits [7:4] of token-only encodings.
const TOKEN_MODES: [(u8, TokenMode); 3] = [
    (0x20, TokenMode::Dst),
    (0x30, TokenMode::Src),
    (0x40, TokenMode::Set),
];

/// Which instructions count as out-of-order for a combined distance+token encoding, and the
/// pipe their distance is printed with, per platform: (opcode, pipe on Gen12LP, pipe on
/// Xe-HPG). A combined encoding on any other instruction means `@d,$n.dst`.
const COMBINED: [(Opcode, DistPipe, DistPipe); 5] = [
    (Opcode::Send, DistPipe::Any, DistPipe::All),
    (Opcode::Sendc, DistPipe::Any, DistPipe::All),
    (Opcode::Math, DistPipe::Any, DistPipe::Any),
    // Xe-HPG only.
    (Opcode::Dpas, DistPipe::Any, DistPipe::Any),
    (Opcode::Dpasw, DistPipe::Any, DistPipe::Any),
];

fn combined_pipe(platform: Platform, op: Opcode) -> Option<DistPipe> {
    COMBINED
        .iter()
        .find(|c| c.0 == op)
        .map(|c| if platform == Platform::Dg2 { c.2 } else { c.1 })
}

fn ill(v: u8) -> DecodeError {
    DecodeError::IllegalField {
        field: "SWSB",
        value: v as u64,
    }
}

/// Decodes the SWSB byte of an instruction with opcode `op`.
pub fn decode(platform: Platform, op: Opcode, v: u8) -> Result<Swsb, DecodeError> {
    if v == 0 {
        return Ok(Swsb::default());
    }
    if v & 0x80 != 0 {
        let d = (v >> 4) & 7;
        let n = v & 0xF;
        let (pipe, mode) = match combined_pipe(platform, op) {
            Some(p) => (p, TokenMode::Set),
            None => (DistPipe::Any, TokenMode::Dst),
        };
        return Ok(Swsb {
            dist: Some((pipe, d)),
            token: Some((n, mode)),
        });
    }
    if let Some(m) = TOKEN_MODES.iter().find(|m| m.0 == v & 0xF0) {
        return Ok(Swsb {
            dist: None,
            token: Some((v & 0xF, m.1)),
        });
    }
    let class = DIST_CLASSES
        .iter()
        .filter(|c| c.3[platform as usize])
        .find(|c| v & !c.1 == c.0)
        .ok_or(ill(v))?;
    let d = v & class.1;
    // iga64 prints a zero distance in a pipe class as nothing at all.
    Ok(Swsb {
        dist: (d != 0).then_some((class.2, d)),
        token: None,
    })
}

fn bad(what: String) -> EncodeError {
    EncodeError::Unencodable(format!("SWSB {what}"))
}

/// Encodes `s` for an instruction with opcode `op`.
pub fn encode(platform: Platform, op: Opcode, s: &Swsb) -> Result<u8, EncodeError> {
    match (s.dist, s.token) {
        (None, None) => Ok(0),
        (None, Some((n, mode))) => {
            if n > 15 {
                return Err(bad(format!("token ${n} out of range")));
            }
            let base = TOKEN_MODES.iter().find(|m| m.1 == mode).map_or(0, |m| m.0);
            Ok(base | n)
        }
        (Some((pipe, d)), None) => {
            let class = DIST_CLASSES
                .iter()
                .filter(|c| c.3[platform as usize])
                .find(|c| c.2 == pipe)
                .ok_or_else(|| bad(format!("pipe {}@ not on {platform}", pipe.prefix())))?;
            if d == 0 || d & !class.1 != 0 {
                return Err(bad(format!("distance {d} out of range")));
            }
            Ok(class.0 | d)
        }
        (Some((pipe, d)), Some((n, mode))) => {
            let (want_pipe, want_mode) = match combined_pipe(platform, op) {
                Some(p) => (p, TokenMode::Set),
                None => (DistPipe::Any, TokenMode::Dst),
            };
            if pipe != want_pipe || mode != want_mode || d > 7 || n > 15 {
                return Err(bad(format!(
                    "{}@{d} with token ${n} cannot be combined on {}",
                    pipe.prefix(),
                    op.mnemonic()
                )));
            }
            Ok(0x80 | (d << 4) | n)
        }
    }
}
