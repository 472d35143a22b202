//! The shared pack/unpack steps the `packet!` macro's generated code calls: header and length,
//! per-field placement with per-generation locations, and error naming.

use crate::error::Error;
use crate::layout::{find_loc, low_mask, or_bits, read_bits, GenSet, Kind, Layout, Loc};
use crate::value::{FieldValue, Problem};
use platform::Platform;

/// A packet or memory struct with a declared layout.
pub trait Packet: Sized {
    /// Field positions for every generation.
    const LAYOUT: &'static Layout;
    /// Dwords this value packs into on `p`.
    fn packed_len(&self, p: Platform) -> Result<usize, Error>;
    /// Writes the packet into `out[..len]` and returns `len`. Never panics.
    fn pack(&self, p: Platform, out: &mut [u32]) -> Result<usize, Error>;
    /// Reads the packet from the start of `dw`. Never panics.
    fn unpack(p: Platform, dw: &[u32]) -> Result<Self, Error>;
}

fn is_header(k: Kind) -> bool {
    matches!(k, Kind::Const(_) | Kind::Length(_))
}

/// The packet's default length on `p`, or the not-on-platform error.
pub fn base_len(l: &'static Layout, p: Platform) -> Result<usize, Error> {
    l.len_on(p).ok_or(Error::NotOnPlatform {
        packet: l.name,
        platform: p,
    })
}

/// Checks room, zeroes `out[..len]` and writes the fixed header and the DWord Length.
pub fn begin_pack<'a>(
    l: &'static Layout,
    p: Platform,
    out: &'a mut [u32],
    len: usize,
) -> Result<&'a mut [u32], Error> {
    base_len(l, p)?;
    let have = out.len();
    let out = out.get_mut(..len).ok_or(Error::ShortBuffer {
        packet: l.name,
        need: len,
        have,
    })?;
    out.fill(0);
    // The macro lists header and length fields first.
    for f in l.fields.iter().take_while(|f| is_header(f.kind)) {
        let Some(loc) = f.loc(p) else { continue };
        let v = match f.kind {
            Kind::Const(v) => v,
            Kind::Length(bias) => (len as u64).saturating_sub(bias as u64),
            _ => continue,
        };
        if v > low_mask(loc.width()) || !or_bits(out, loc, v) {
            return Err(Error::OutOfRange {
                packet: l.name,
                field: f.name,
                value: v,
                bits: loc.width(),
            });
        }
    }
    Ok(out)
}

/// Length in dwords a command's header announces (DWord Length + bias), or the fixed length.
pub fn announced_len(l: &'static Layout, p: Platform, header: u32) -> Result<usize, Error> {
    let fixed = base_len(l, p)?;
    Ok(match l.length_field(p) {
        Some((loc, bias)) => read_bits(&[header], loc) as usize + bias as usize,
        None => fixed,
    })
}

/// Checks the platform, the header values and the length; returns the packet's dwords.
pub fn begin_unpack<'a>(
    l: &'static Layout,
    p: Platform,
    dw: &'a [u32],
) -> Result<&'a [u32], Error> {
    let fixed = base_len(l, p)?;
    let len = match (l.length_field(p), dw.first()) {
        (Some(_), Some(h)) => announced_len(l, p, *h)?,
        _ => fixed,
    };
    let body = dw.get(..len).ok_or(Error::ShortBuffer {
        packet: l.name,
        need: len,
        have: dw.len(),
    })?;
    for f in l.fields.iter().take_while(|f| is_header(f.kind)) {
        if let (Kind::Const(expected), Some(loc)) = (f.kind, f.loc(p)) {
            let found = read_bits(body, loc);
            if found != expected {
                return Err(Error::WrongHeader {
                    packet: l.name,
                    field: f.name,
                    expected,
                    found,
                });
            }
        }
    }
    Ok(body)
}

fn name_problem(l: &'static Layout, field: &'static str, pr: Problem) -> Error {
    match pr {
        Problem::OutOfRange(value, bits) => Error::OutOfRange {
            packet: l.name,
            field,
            value,
            bits,
        },
        Problem::Misaligned(value, align) => Error::Misaligned {
            packet: l.name,
            field,
            value,
            align,
        },
        Problem::BadEnum(value) => Error::BadEnum {
            packet: l.name,
            field,
            value,
        },
        Problem::PartialElement(dwords, stride) => Error::PartialElement {
            packet: l.name,
            field,
            dwords,
            stride,
        },
        Problem::TooManyElements(count, max) => Error::TooManyElements {
            packet: l.name,
            field,
            count,
            max,
        },
        Problem::Inner(e) => e,
    }
}

/// Places one field; a field absent on `p` must hold its default.
#[inline]
pub fn put_field<T: FieldValue>(
    l: &'static Layout,
    p: Platform,
    field: &'static str,
    kind: Kind,
    locs: &[(GenSet, Loc)],
    v: &T,
    out: &mut [u32],
) -> Result<(), Error> {
    match find_loc(locs, p) {
        Some(loc) => v
            .put(p, kind, loc, out)
            .map_err(|e| name_problem(l, field, e)),
        None if *v == T::default() => Ok(()),
        None => Err(Error::FieldNotOnPlatform {
            packet: l.name,
            field,
            platform: p,
        }),
    }
}

/// Reads one field; a field absent on `p` reads as its default.
#[inline]
pub fn get_field<T: FieldValue>(
    l: &'static Layout,
    p: Platform,
    field: &'static str,
    kind: Kind,
    locs: &[(GenSet, Loc)],
    dw: &[u32],
) -> Result<T, Error> {
    match find_loc(locs, p) {
        Some(loc) => T::get(p, kind, loc, dw).map_err(|e| name_problem(l, field, e)),
        None => Ok(T::default()),
    }
}
