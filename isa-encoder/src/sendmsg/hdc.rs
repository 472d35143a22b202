//! Legacy data-port (HDC) messages on SFIDs DC0, DC1 and DC2: message types and descriptor
//! fields, and the text iga64 prints for them.
//!
//! Source: IGA `Backend/Messages/MessageDecoderHDC.cpp` (igc-1.0.12504) and the PRM's data-port
//! message descriptor tables; iga64 is the judge (`tests/sendmsg_oracle.rs`).
//!
//! Common descriptor layout: \[28:25\] mlen, \[24:20\] rlen, \[19\] header present,
//! \[18:14\] message type, \[13:8\] message-specific control, \[7:0\] binding table index
//! (0xFE SLM, 0xFF stateless coherent, 0xFD stateless non-coherent).

use platform::Platform;

use super::fields::{append_coordinates, bits};
use super::sfid::Sfid;

/// Message type field, desc\[18:14\].
pub const MSG_TYPE: (u32, u32) = (14, 5);

/// The message types the encoder builds and the simulator executes, by SFID (their rows in
/// [`MESSAGES`] say how iga64 names them).
pub mod types {
    /// DC0: OWord block read, offset in OWords.
    pub const DC0_OWORD_READ: u32 = 0x00;
    /// DC0: OWord block read, offset in bytes (iga64: "oword aligned block read").
    pub const DC0_OWORD_READ_UNALIGNED: u32 = 0x01;
    pub const DC0_DWORD_GATHER: u32 = 0x03;
    pub const DC0_BYTE_GATHER: u32 = 0x04;
    pub const DC0_FENCE: u32 = 0x07;
    pub const DC0_OWORD_WRITE: u32 = 0x08;
    pub const DC0_DWORD_SCATTER: u32 = 0x0B;
    pub const DC0_BYTE_SCATTER: u32 = 0x0C;
    pub const DC1_UNTYPED_READ: u32 = 0x01;
    pub const DC1_ATOMIC: u32 = 0x02;
    pub const DC1_MEDIA_READ: u32 = 0x04;
    pub const DC1_TYPED_READ: u32 = 0x05;
    pub const DC1_UNTYPED_WRITE: u32 = 0x09;
    pub const DC1_MEDIA_WRITE: u32 = 0x0A;
    pub const DC1_TYPED_WRITE: u32 = 0x0D;
    pub const DC1_A64_GATHER: u32 = 0x10;
    pub const DC1_A64_UNTYPED_READ: u32 = 0x11;
    pub const DC1_A64_ATOMIC: u32 = 0x12;
    pub const DC1_A64_BLOCK_READ: u32 = 0x14;
    pub const DC1_A64_BLOCK_WRITE: u32 = 0x15;
    pub const DC1_A64_UNTYPED_WRITE: u32 = 0x19;
    pub const DC1_A64_SCATTER: u32 = 0x1A;
}
use types::*;

/// How a message type's control bits read, and so how iga64 names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// OWord block: count in \[10:8\] (1L, 1H, 2, 4, 8, 16 OWords).
    OwBlock(&'static str),
    /// DC0 aligned block read: OWord, or (Xe-HPG, \[13\] set) HWord count in \[10:8\].
    AlignedBlockRead,
    /// Named only (iga64 does not decode further).
    NameOnly(&'static str),
    /// Byte scattered: bytes per address in \[11:10\] (1, 2, 4).
    ByteScattered(&'static str),
    /// DWord scattered: DWords per address in \[11:10\] (1, 2, 4, 8).
    DwordScattered(&'static str),
    /// DC0 memory fence: commit \[13\], L3 flush targets \[12:9\], L1 flush \[8\], BTI \[7:0\].
    Fence,
    /// Untyped surface read/write: channel-disable mask \[11:8\], SIMD mode \[13:12\].
    Untyped(&'static str),
    /// A64 scattered (DC1): sub-type \[9:8\] byte/dword/qword/byte-with-status.
    A64Scattered { read: bool },
    /// A64 block (DC1): sub-type \[12:11\] OWord unaligned/aligned, dual, HWord unaligned.
    A64Block { read: bool },
    /// Float atomic: op \[10:8\], return \[13\].
    FloatAtomic { name: &'static str, data_bits: u32 },
    /// Integer atomic: op \[11:8\], return \[13\]; `name` follows "untyped ".
    IntAtomic(&'static str),
    /// A64 integer atomic: width \[12\] (32/64 bit), op \[11:8\].
    A64IntAtomic,
    /// Media block: read/write, vertical line stride override \[10:8\].
    MediaBlock { read: bool },
    /// Typed surface read/write: slot group \[13:12\], channel-disable mask \[11:8\]; always
    /// SIMD8. iga64 appends the coordinates the payload holds.
    Typed { name: &'static str, status: bool },
    /// Typed atomic counter: op \[11:8\], SIMD8 when \[12\] is set; coordinates appended.
    TypedCounter(&'static str),
    /// Typed atomic: slot group high when \[12\] is set, op \[11:8\]; SIMD8.
    TypedAtomic {
        name: &'static str,
        coordinates: bool,
    },
}

/// One message type of one HDC shared function.
pub struct Row {
    pub sfid: Sfid,
    pub msg_type: u32,
    pub kind: Kind,
    /// First platform that has it; iga64 prints `?` before.
    pub since: Platform,
}

const fn row(sfid: Sfid, msg_type: u32, kind: Kind) -> Row {
    Row {
        sfid,
        msg_type,
        kind,
        since: Platform::Skl,
    }
}

/// Every HDC message type iga64 names (DC0, DC1, DCRO; DC2 has none).
#[rustfmt::skip]
pub const MESSAGES: &[Row] = &[
    // DC0
    row(Sfid::Dc0, DC0_OWORD_READ, Kind::OwBlock("oword block read")),
    row(Sfid::Dc0, DC0_OWORD_READ_UNALIGNED, Kind::AlignedBlockRead),
    row(Sfid::Dc0, 0x02, Kind::NameOnly("oword dual block read")),
    row(Sfid::Dc0, DC0_DWORD_GATHER, Kind::DwordScattered("dword gathering read")),
    row(Sfid::Dc0, DC0_BYTE_GATHER, Kind::ByteScattered("byte gathering read")),
    // iga64 names both QWord directions "read".
    row(Sfid::Dc0, 0x05, Kind::NameOnly("qword gathering read")),
    row(Sfid::Dc0, DC0_FENCE, Kind::Fence),
    row(Sfid::Dc0, DC0_OWORD_WRITE, Kind::OwBlock("oword block write")),
    row(Sfid::Dc0, 0x09, Kind::OwBlock("hword aligned block write")),
    row(Sfid::Dc0, 0x0A, Kind::NameOnly("oword dual block write")),
    row(Sfid::Dc0, DC0_DWORD_SCATTER, Kind::DwordScattered("dword scattering write")),
    row(Sfid::Dc0, DC0_BYTE_SCATTER, Kind::ByteScattered("byte scattering write")),
    row(Sfid::Dc0, 0x0D, Kind::NameOnly("qword gathering read")),
    // DC1
    row(Sfid::Dc1, DC1_UNTYPED_READ, Kind::Untyped("untyped surface read")),
    row(Sfid::Dc1, DC1_ATOMIC, Kind::IntAtomic("atomic int32")),
    Row { sfid: Sfid::Dc1, msg_type: 0x03, kind: Kind::IntAtomic("atomic int16"), since: Platform::Tgllp },
    row(Sfid::Dc1, DC1_MEDIA_READ, Kind::MediaBlock { read: true }),
    row(Sfid::Dc1, DC1_TYPED_READ, Kind::Typed { name: "typed surface read", status: false }),
    row(Sfid::Dc1, 0x06, Kind::TypedAtomic { name: "atomic 32-bit integer", coordinates: false }),
    row(Sfid::Dc1, 0x07, Kind::TypedAtomic { name: "atomic 16-bit integer", coordinates: true }),
    row(Sfid::Dc1, DC1_UNTYPED_WRITE, Kind::Untyped("untyped surface write")),
    row(Sfid::Dc1, DC1_MEDIA_WRITE, Kind::MediaBlock { read: false }),
    row(Sfid::Dc1, 0x0B, Kind::TypedCounter("atomic 32-bit counter")),
    row(Sfid::Dc1, 0x0C, Kind::TypedCounter("atomic 16-bit counter")),
    row(Sfid::Dc1, DC1_TYPED_WRITE, Kind::Typed { name: "typed surface write", status: false }),
    row(Sfid::Dc1, 0x0E, Kind::Typed { name: "typed surface read", status: true }),
    row(Sfid::Dc1, DC1_A64_GATHER, Kind::A64Scattered { read: true }),
    row(Sfid::Dc1, DC1_A64_UNTYPED_READ, Kind::Untyped("a64 untyped surface read")),
    row(Sfid::Dc1, DC1_A64_ATOMIC, Kind::A64IntAtomic),
    Row { sfid: Sfid::Dc1, msg_type: 0x13, kind: Kind::IntAtomic("a64 atomic int16"), since: Platform::Tgllp },
    row(Sfid::Dc1, DC1_A64_BLOCK_READ, Kind::A64Block { read: true }),
    row(Sfid::Dc1, DC1_A64_BLOCK_WRITE, Kind::A64Block { read: false }),
    row(Sfid::Dc1, DC1_A64_UNTYPED_WRITE, Kind::Untyped("a64 untyped surface write")),
    row(Sfid::Dc1, DC1_A64_SCATTER, Kind::A64Scattered { read: false }),
    row(Sfid::Dc1, 0x1B, Kind::FloatAtomic { name: "float atomic", data_bits: 32 }),
    Row { sfid: Sfid::Dc1, msg_type: 0x1C, kind: Kind::FloatAtomic { name: "untyped half-float atomic", data_bits: 16 }, since: Platform::Tgllp },
    row(Sfid::Dc1, 0x1D, Kind::FloatAtomic { name: "a64 float atomic", data_bits: 32 }),
    Row { sfid: Sfid::Dc1, msg_type: 0x1E, kind: Kind::FloatAtomic { name: "a64 untyped half-float atomic", data_bits: 16 }, since: Platform::Tgllp },
    // DCRO (constant cache and, from Xe, compression-state messages)
    row(Sfid::Dcro, 0x00, Kind::OwBlock("constant oword block read")),
    row(Sfid::Dcro, 0x01, Kind::OwBlock("constant aligned oword block read")),
    row(Sfid::Dcro, 0x03, Kind::NameOnly("constant dword gathering read")),
    row(Sfid::Dcro, 0x09, Kind::NameOnly("untyped surface uncompressed write")),
    row(Sfid::Dcro, 0x0C, Kind::NameOnly("typed surface CCS update message")),
    row(Sfid::Dcro, 0x0D, Kind::NameOnly("typed surface uncompressed write")),
    row(Sfid::Dcro, 0x17, Kind::NameOnly("A64 page CCS update operation")),
    row(Sfid::Dcro, 0x18, Kind::NameOnly("A64 untyped surface CCS operation")),
    row(Sfid::Dcro, 0x19, Kind::NameOnly("A64 untyped surface uncompressed write")),
];

/// OWord counts of the block-size field \[10:8\]: (OWords, suffix); 16 needs Xe-HPG but iga64
/// names it everywhere.
const OW_COUNTS: [(u32, &str); 8] = [
    (1, ""),
    (1, "H"),
    (2, ""),
    (4, ""),
    (8, ""),
    (16, ""),
    (0, ""),
    (0, ""),
];

/// Integer atomic operations, desc\[11:8\].
pub const INT_ATOMIC_OPS: [&str; 16] = [
    "64b integer compare and swap",
    "logical AND",
    "logical OR",
    "logical XOR",
    "store",
    "integer increment",
    "integer decrement",
    "integer add",
    "integer subtract",
    "commuted integer subtract",
    "signed-integer max",
    "signed-integer min",
    "unsigned-integer max",
    "unsigned-integer min",
    "integer compare and swap",
    "integer pre-decrement (returns pre-decrement value)",
];

/// Float atomic operations, desc\[10:8\]: (text, data bits override).
const FLOAT_ATOMIC_OPS: [Option<(&str, Option<u32>)>; 8] = [
    None,
    Some(("max", None)),
    Some(("min", None)),
    Some(("fp-compare and swap ", None)),
    Some(("add", None)),
    Some(("subtract", None)),
    Some(("64b add", Some(64))),
    Some(("64b subtract", Some(64))),
];

fn ow_block(name: &str, desc: u32) -> String {
    let (n, suffix) = OW_COUNTS[bits(desc, 8, 3) as usize];
    format!("{name} x{n}{suffix}")
}

/// "with xyz": the channels whose disable bit in \[11:8\] is clear.
fn channels(desc: u32) -> String {
    let mask = bits(desc, 8, 4);
    let enabled: String = "xyzw"
        .chars()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) == 0)
        .map(|(_, c)| c)
        .collect();
    format!("with {enabled}")
}

fn fence(desc: u32) -> String {
    let mut s = String::new();
    if bits(desc, 13, 1) != 0 {
        s.push_str("synchronized ");
    }
    match bits(desc, 0, 8) {
        0xFE => s.push_str("SLM fence"),
        0 => {
            s.push_str("global fence flushing");
            if bits(desc, 8, 1) != 0 {
                s.push_str(" L1");
            }
            let targets = bits(desc, 9, 4);
            if targets == 0xF {
                s.push_str(" all L3 data");
            } else if targets != 0 {
                s.push_str(" L3");
                // iga64 separates all but the first two named targets with commas.
                if targets & 0b1000 != 0 {
                    s.push_str(" r/w data");
                }
                let mut n = 0;
                for (bit, name) in [
                    (0b100, " constant data"),
                    (0b10, " texture data"),
                    (0b1, " instruction data"),
                ] {
                    if targets & bit != 0 {
                        if n > 0 {
                            s.push(',');
                        }
                        n += 1;
                        s.push_str(name);
                    }
                }
            }
        }
        _ => {}
    }
    s
}

fn media_block(read: bool, desc: u32) -> String {
    let mut s = String::from(if read {
        "media block read"
    } else {
        "media block write"
    });
    let vlso = bits(desc, 8, 3);
    if vlso != 0 {
        // iga64's wording for the vertical line stride override bits, verbatim.
        s.push_str(" with vertical line stride ");
        let mut n = 0;
        if vlso & 2 != 0 {
            s.push_str("override");
            n += 1;
        }
        if vlso & 1 != 0 {
            if vlso & 2 == 0 {
                s.push_str(" and ");
            } else if n > 0 {
                s.push(',');
            }
            s.push_str("skip");
            n += 1;
        }
        if vlso & 2 != 0 {
            if n >= 2 {
                s.push_str(", and ");
            } else if n > 0 {
                s.push_str(" and ");
            }
            s.push_str("offset");
        }
    }
    s
}

fn a64_scattered(read: bool, desc: u32) -> String {
    match bits(desc, 8, 2) {
        0 | 3 => {
            let name = if read {
                "a64 byte gathering read"
            } else {
                "a64 byte scattering write"
            };
            let size = ["8b", "16b", "32b", ""][bits(desc, 10, 2) as usize];
            if size.is_empty() {
                name.to_string()
            } else {
                format!("{name} {size}")
            }
        }
        1 => (if read {
            "a64 dword gathering read"
        } else {
            "a64 dword scattering write"
        })
        .into(),
        _ => (if read {
            "a64 qword gathering read"
        } else {
            "a64 qword scattering write"
        })
        .into(),
    }
}

fn a64_block(read: bool, desc: u32) -> String {
    // Sub-type [12:11]: 0 OWord unaligned, 1 OWord aligned, 2 dual (named as unaligned), 3 HWord.
    let sub = bits(desc, 11, 2);
    let hword = sub == 3;
    let name = format!(
        "a64 {} {} block {}",
        if sub == 1 { "aligned" } else { "unaligned" },
        if hword { "hword" } else { "oword" },
        if read { "read" } else { "write" }
    );
    if hword {
        format!("{name} x{}", 1u32 << bits(desc, 8, 3))
    } else {
        ow_block(&name, desc)
    }
}

fn float_atomic(name: &str, data_bits: u32, desc: u32) -> Option<String> {
    let (op, width) = FLOAT_ATOMIC_OPS[bits(desc, 8, 3) as usize]?;
    let ret = if bits(desc, 13, 1) != 0 {
        " with return"
    } else {
        ""
    };
    Some(format!(
        "{name} {op} ({}b){ret}",
        width.unwrap_or(data_bits)
    ))
}

/// What iga64 prints for an HDC message (`?` for descriptors it cannot name). `exec_size` caps
/// the lanes of typed coordinate hints.
pub fn describe(platform: Platform, sfid: Sfid, exec_size: u8, desc: u32) -> String {
    let msg_type = bits(desc, MSG_TYPE.0, MSG_TYPE.1);
    let row = MESSAGES
        .iter()
        .find(|r| r.sfid == sfid && r.msg_type == msg_type);
    let Some(row) = row else {
        return match sfid {
            // DC0 types with bit 18 set are HWord scratch block messages; bit 17 picks write.
            Sfid::Dc0 if bits(desc, 18, 1) != 0 => {
                if bits(desc, 17, 1) == 0 {
                    format!("hword scratch block read x{}", 1u32 << bits(desc, 12, 2))
                } else {
                    format!("hword scratch block write x{}", 1u32 << bits(desc, 12, 2))
                }
            }
            _ => "?".into(),
        };
    };
    if platform < row.since {
        return "?".into();
    }
    // iga64 caps a message's SIMD width at the instruction's execution size.
    let lanes = u32::from(exec_size);
    let text = match row.kind {
        Kind::OwBlock(name) => ow_block(name, desc),
        Kind::AlignedBlockRead => {
            if platform >= Platform::Dg2 && bits(desc, 13, 1) != 0 {
                format!("hword aligned block read x{}", 1u32 << bits(desc, 8, 3))
            } else {
                ow_block("oword aligned block read", desc)
            }
        }
        Kind::NameOnly(name) => name.into(),
        Kind::ByteScattered(name) => match bits(desc, 10, 2) {
            0 => format!("{name} 8b"),
            1 => format!("{name} 16b"),
            2 => format!("{name} 32b"),
            _ => name.into(),
        },
        Kind::DwordScattered(name) => match 1u32 << bits(desc, 10, 2) {
            1 => name.into(),
            n => format!("{name} x{n}"),
        },
        Kind::Fence => fence(desc),
        Kind::Untyped(name) => format!("{name} {}", channels(desc)),
        Kind::A64Scattered { read } => a64_scattered(read, desc),
        Kind::A64Block { read } => a64_block(read, desc),
        Kind::FloatAtomic { name, data_bits } => {
            float_atomic(name, data_bits, desc).unwrap_or_default()
        }
        Kind::IntAtomic(name) => {
            format!(
                "untyped {name} {}",
                INT_ATOMIC_OPS[bits(desc, 8, 4) as usize]
            )
        }
        Kind::A64IntAtomic => {
            let width = if bits(desc, 12, 1) != 0 {
                "int64"
            } else {
                "int32"
            };
            format!(
                "untyped a64 atomic {width} {}",
                INT_ATOMIC_OPS[bits(desc, 8, 4) as usize]
            )
        }
        Kind::MediaBlock { read } => media_block(read, desc),
        Kind::Typed { name, status } => {
            let mut s = name.to_string();
            if bits(desc, 12, 2) == 2 {
                s.push_str(" (high slot group)");
            }
            if status {
                s.push_str(" returning status");
            }
            s.push(' ');
            s.push_str(&channels(desc));
            append_coordinates(&mut s, desc, 8.min(lanes), 32);
            s
        }
        Kind::TypedCounter(name) => {
            let simd = if bits(desc, 12, 1) != 0 { 8 } else { 16 };
            let mut s = format!("typed {name} {}", INT_ATOMIC_OPS[bits(desc, 8, 4) as usize]);
            append_coordinates(&mut s, desc, simd.min(lanes), 32);
            s
        }
        Kind::TypedAtomic { name, coordinates } => {
            let op = INT_ATOMIC_OPS[bits(desc, 8, 4) as usize];
            let mut s = if bits(desc, 12, 1) != 0 {
                format!("typed_sgh {name} (slot group high) {op}")
            } else {
                format!("typed {name} {op}")
            };
            if coordinates {
                append_coordinates(&mut s, desc, 8.min(lanes), 32);
            }
            s
        }
    };
    if text.is_empty() {
        "?".into()
    } else {
        text
    }
}
