//! Batch decoder: bytes to one line per command (offset, header dword, name), and in full mode
//! every field as `Name: value (ENUM)` after Mesa's `INTEL_DEBUG=bat` convention.
//!
//! Fields are read straight from the layout tables, so undefined enum values and reserved bits
//! are shown rather than rejected. Unknown commands are printed with the length their command
//! type implies and skipped; a command running past the end is shown as truncated and ends the
//! listing. Decoding stops after MI_BATCH_BUFFER_END. Nothing here panics on any input.

use crate::identify::{identify, PacketId};
use crate::layout::{read_bits, FieldDesc, Kind, Layout, Loc};
use crate::value::get_u64;
use crate::IdentifyError;
use platform::Platform;
use std::fmt::{self, Write};

/// How much to print per command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One line per command.
    Summary,
    /// The line plus every field.
    Full,
}

/// Commands a decode walked through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Commands recognised.
    pub known: usize,
    /// Unknown headers skipped.
    pub unknown: usize,
    /// True when the batch ended inside a command (or mid-dword).
    pub truncated: bool,
}

/// Length an unrecognised header implies: MI opcodes below 0x10 are one dword; other MI,
/// blitter and render commands carry DWord Length in bits 7:0 with a bias of 2; anything else
/// is taken as one dword.
fn unknown_len(header: u32) -> usize {
    match header >> 29 {
        0 if (header >> 23) & 0x3F < 0x10 => 1,
        0 | 2 | 3 => (header & 0xFF) as usize + 2,
        _ => 1,
    }
}

/// Decodes `bytes` (little-endian dwords) as a batch for `p` into `out`.
pub fn decode(
    p: Platform,
    bytes: &[u8],
    mode: Mode,
    out: &mut dyn Write,
) -> Result<Stats, fmt::Error> {
    let mut dw = Vec::with_capacity(bytes.len() / 4);
    dw.extend(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
    let mut stats = Stats::default();
    let mut at = 0usize;
    while at < dw.len() {
        let header = dw[at];
        let off = at * 4;
        match identify(p, &dw[at..]) {
            Ok(id) => {
                stats.known += 1;
                writeln!(out, "0x{off:08x}: 0x{header:08x}: {}", id.packet.name())?;
                if mode == Mode::Full {
                    fields(p, id.packet.layout(), &dw[at..at + id.len], 1, out)?;
                }
                at += id.len;
                if id.packet == PacketId::MiBatchBufferEnd {
                    break;
                }
            }
            Err(IdentifyError::Truncated { packet, need, have }) => {
                stats.truncated = true;
                writeln!(
                    out,
                    "0x{off:08x}: 0x{header:08x}: {packet} truncated: {need} dwords, {have} left"
                )?;
                return Ok(stats);
            }
            Err(_) => {
                let len = unknown_len(header);
                stats.unknown += 1;
                let left = dw.len() - at;
                if len > left {
                    stats.truncated = true;
                    writeln!(
                        out,
                        "0x{off:08x}: 0x{header:08x}: unknown command, truncated: {len} dwords, {left} left"
                    )?;
                    return Ok(stats);
                }
                writeln!(
                    out,
                    "0x{off:08x}: 0x{header:08x}: unknown command ({len} dwords)"
                )?;
                at += len;
            }
        }
    }
    if at < dw.len() {
        writeln!(out, "({} dwords after MI_BATCH_BUFFER_END)", dw.len() - at)?;
    }
    if !bytes.len().is_multiple_of(4) {
        stats.truncated = true;
        writeln!(
            out,
            "({} trailing bytes, not a whole dword)",
            bytes.len() % 4
        )?;
    }
    Ok(stats)
}

/// [`decode`] into a new string.
pub fn decode_to_string(p: Platform, bytes: &[u8], mode: Mode) -> (String, Stats) {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let stats = decode(p, bytes, mode, &mut s).unwrap_or_default();
    (s, stats)
}

fn fields(p: Platform, l: &Layout, dw: &[u32], depth: usize, out: &mut dyn Write) -> fmt::Result {
    let pad = "    ".repeat(depth);
    for f in l.fields {
        let Some(loc) = f.loc(p) else { continue };
        match f.kind {
            Kind::Const(_) => {}
            Kind::Struct => {
                writeln!(out, "{pad}{}:", f.name)?;
                if let Some(n) = f.nested {
                    let inner = dw.get(loc.dw as usize..).unwrap_or(&[]);
                    fields(p, n, inner, depth + 1, out)?;
                }
            }
            Kind::Repeated => repeated(p, f, loc, dw, depth, out)?,
            Kind::Dwords => {
                for i in 0..loc.width() / 32 {
                    let v = read_bits(dw, Loc::new(loc.dw + i as u16, 0, 31));
                    writeln!(out, "{pad}{}[{i}]: 0x{v:08x}", f.name)?;
                }
            }
            _ => writeln!(out, "{pad}{}: {}", f.name, scalar(f, loc, dw).1)?,
        }
    }
    Ok(())
}

/// A scalar field's value and its text as the listing shows it.
fn scalar(f: &FieldDesc, loc: Loc, dw: &[u32]) -> (u64, String) {
    match f.kind {
        Kind::Bool => {
            let v = read_bits(dw, loc);
            (v, (v != 0).to_string())
        }
        Kind::Address | Kind::Offset => {
            let v = get_u64(f.kind, loc, dw);
            (v, format!("0x{v:08x}"))
        }
        Kind::Int => {
            let w = loc.width();
            let v = read_bits(dw, loc);
            (v, (((v << (64 - w)) as i64) >> (64 - w)).to_string())
        }
        Kind::Enum => {
            let v = read_bits(dw, loc);
            let name = f.value_name(v).unwrap_or("undefined");
            (v, format!("{v} ({name})"))
        }
        _ => {
            let v = read_bits(dw, loc);
            (v, v.to_string())
        }
    }
}

/// One field of a decoded packet or struct, flattened: nested structs' fields are named
/// `Outer.Inner`, repeated elements `Group[k].Field`, dword groups `Name[i]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatField {
    /// The field's path of genxml names.
    pub name: String,
    /// How the value is stored (addresses and offsets are heap-relative or absolute).
    pub kind: Kind,
    /// The raw value (an address or offset in place, an enum's number).
    pub value: u64,
    /// The value as the `--full` listing prints it.
    pub text: String,
}

/// Every field of `dw` read as `l` on `p`, in layout order (header constants left out): the
/// field-by-field form comparisons work on. Fields past the end of `dw` read as zero.
pub fn flatten(p: Platform, l: &Layout, dw: &[u32]) -> Vec<FlatField> {
    let mut out = Vec::new();
    flatten_into(p, l, dw, "", &mut out);
    out
}

fn flatten_into(p: Platform, l: &Layout, dw: &[u32], prefix: &str, out: &mut Vec<FlatField>) {
    for f in l.fields {
        let Some(loc) = f.loc(p) else { continue };
        let name = format!("{prefix}{}", f.name);
        match f.kind {
            Kind::Const(_) => {}
            Kind::Struct => {
                if let Some(n) = f.nested {
                    let inner = dw.get(loc.dw as usize..).unwrap_or(&[]);
                    flatten_into(p, n, inner, &format!("{name}."), out);
                }
            }
            Kind::Repeated => {
                let step = (loc.width() / 32).max(1) as usize;
                let tail = dw.get(loc.dw as usize..).unwrap_or(&[]);
                for (k, element) in tail.chunks_exact(step).enumerate() {
                    if let Some(n) = f.nested {
                        flatten_into(p, n, element, &format!("{name}[{k}]."), out);
                    }
                }
            }
            Kind::Dwords => {
                for i in 0..loc.width() / 32 {
                    let v = read_bits(dw, Loc::new(loc.dw + i as u16, 0, 31));
                    out.push(FlatField {
                        name: format!("{name}[{i}]"),
                        kind: Kind::Uint,
                        value: v,
                        text: format!("0x{v:08x}"),
                    });
                }
            }
            _ => {
                let (value, text) = scalar(f, loc, dw);
                out.push(FlatField {
                    name,
                    kind: f.kind,
                    value,
                    text,
                });
            }
        }
    }
}

/// Every element of an open-ended trailing group, each like an embedded struct, then any
/// dwords too few to make a whole element.
fn repeated(
    p: Platform,
    f: &FieldDesc,
    loc: Loc,
    dw: &[u32],
    depth: usize,
    out: &mut dyn Write,
) -> fmt::Result {
    let pad = "    ".repeat(depth);
    let step = (loc.width() / 32).max(1) as usize;
    let tail = dw.get(loc.dw as usize..).unwrap_or(&[]);
    let whole = tail.chunks_exact(step);
    let partial = whole.remainder().len();
    for (k, element) in whole.enumerate() {
        writeln!(out, "{pad}{}[{k}]:", f.name)?;
        if let Some(n) = f.nested {
            fields(p, n, element, depth + 1, out)?;
        }
    }
    if partial != 0 {
        writeln!(
            out,
            "{pad}{}: {partial} trailing dwords, not a whole {step}-dword element",
            f.name
        )?;
    }
    Ok(())
}
