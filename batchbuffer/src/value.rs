//! How each Rust field type turns into bits: unsigned and signed integers, bools, in-place
//! addresses, enums, embedded structs and dword arrays.

use crate::error::Error;
use crate::layout::{low_mask, or_bits, read_bits, Kind, Layout, Loc};
use platform::Platform;

/// A field-level failure; the packet code adds the packet and field names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Value (as raw u64) does not fit in this many bits.
    OutOfRange(u64, u32),
    /// Value is not aligned to this many bytes.
    Misaligned(u64, u64),
    /// Raw bits that name no enum value.
    BadEnum(u64),
    /// A trailing group's dwords (first) are not a whole number of elements of this many dwords.
    PartialElement(usize, usize),
    /// A trailing group holds more elements (first) than the type can (second).
    TooManyElements(usize, usize),
    /// An embedded struct failed.
    Inner(Error),
}

/// A Rust type that can sit in a packet field.
pub trait FieldValue: Sized + Default + PartialEq {
    /// Names of the values, for enums.
    const VALUES: &'static [(u64, &'static str)] = &[];
    /// The layout, for embedded structs.
    const NESTED: Option<&'static Layout> = None;
    /// ORs the value into `dw` (the packet, zeroed beforehand) at `loc`.
    fn put(&self, p: Platform, kind: Kind, loc: Loc, dw: &mut [u32]) -> Result<(), Problem>;
    /// Reads the value at `loc`; bits past the end of `dw` read as zero.
    fn get(p: Platform, kind: Kind, loc: Loc, dw: &[u32]) -> Result<Self, Problem>;
}

fn in_place(kind: Kind) -> bool {
    matches!(kind, Kind::Address | Kind::Offset)
}

pub fn put_u64(v: u64, kind: Kind, loc: Loc, dw: &mut [u32]) -> Result<(), Problem> {
    // Most fields of a packet are zero, and the packet is zeroed before fields are placed.
    if v == 0 {
        return Ok(());
    }
    let w = loc.width();
    let raw = if in_place(kind) {
        let align = 1u64 << loc.lo;
        if v & (align - 1) != 0 {
            return Err(Problem::Misaligned(v, align));
        }
        v >> loc.lo
    } else {
        v
    };
    if raw > low_mask(w) {
        let bits = if in_place(kind) { w + loc.lo as u32 } else { w };
        return Err(Problem::OutOfRange(v, bits));
    }
    if !or_bits(dw, loc, raw) {
        return Err(Problem::OutOfRange(v, 0));
    }
    Ok(())
}

pub fn get_u64(kind: Kind, loc: Loc, dw: &[u32]) -> u64 {
    let raw = read_bits(dw, loc);
    if in_place(kind) {
        raw << loc.lo
    } else {
        raw
    }
}

impl FieldValue for u64 {
    fn put(&self, _: Platform, kind: Kind, loc: Loc, dw: &mut [u32]) -> Result<(), Problem> {
        put_u64(*self, kind, loc, dw)
    }
    fn get(_: Platform, kind: Kind, loc: Loc, dw: &[u32]) -> Result<Self, Problem> {
        Ok(get_u64(kind, loc, dw))
    }
}

impl FieldValue for u32 {
    fn put(&self, _: Platform, kind: Kind, loc: Loc, dw: &mut [u32]) -> Result<(), Problem> {
        put_u64(*self as u64, kind, loc, dw)
    }
    fn get(_: Platform, kind: Kind, loc: Loc, dw: &[u32]) -> Result<Self, Problem> {
        let v = get_u64(kind, loc, dw);
        u32::try_from(v).map_err(|_| Problem::OutOfRange(v, 32))
    }
}

impl FieldValue for bool {
    fn put(&self, _: Platform, _: Kind, loc: Loc, dw: &mut [u32]) -> Result<(), Problem> {
        put_u64(*self as u64, Kind::Bool, loc, dw)
    }
    fn get(_: Platform, _: Kind, loc: Loc, dw: &[u32]) -> Result<Self, Problem> {
        Ok(read_bits(dw, loc) & 1 != 0)
    }
}

impl FieldValue for i32 {
    fn put(&self, _: Platform, _: Kind, loc: Loc, dw: &mut [u32]) -> Result<(), Problem> {
        let w = loc.width();
        let (min, max) = (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1);
        let v = *self as i64;
        if v < min || v > max {
            return Err(Problem::OutOfRange(v as u64, w));
        }
        put_u64(v as u64 & low_mask(w), Kind::Int, loc, dw)
    }
    fn get(_: Platform, _: Kind, loc: Loc, dw: &[u32]) -> Result<Self, Problem> {
        let w = loc.width();
        let raw = read_bits(dw, loc);
        let shift = 64 - w;
        Ok((((raw << shift) as i64) >> shift) as i32)
    }
}

/// Genxml groups of whole dwords: COMPUTE_WALKER's eight of inline data, the blitter's four of
/// fill colour.
macro_rules! dword_group {
    ($($n:literal),+) => {$(
        impl FieldValue for [u32; $n] {
            fn put(&self, _: Platform, _: Kind, loc: Loc, dw: &mut [u32]) -> Result<(), Problem> {
                for (i, v) in self.iter().enumerate() {
                    let at = Loc::new(loc.dw + i as u16, 0, 31);
                    put_u64(*v as u64, Kind::Dwords, at, dw)?;
                }
                Ok(())
            }
            fn get(_: Platform, _: Kind, loc: Loc, dw: &[u32]) -> Result<Self, Problem> {
                let mut out = [0u32; $n];
                for (i, v) in out.iter_mut().enumerate() {
                    *v = dw.get(loc.dw as usize + i).copied().unwrap_or(0);
                }
                Ok(out)
            }
        }
    )+};
}

dword_group!(4, 8);
