//! OpenCL C printf: the buffer a kernel's printf calls write (records in IGC's layout, as
//! Intel's NEO runtime reads them) and its decoding into text on the host.
//!
//! The buffer: DWORD 0 is the byte offset of the next free byte (the driver stores 4; each
//! printf call adds its record's size atomically). A record is the format string (patch
//! tokens: a u32 index into the kernel's string table; zebin: its u64 GPU address in the
//! program's string segment), then per argument a u32 type tag and the value. Scalars take
//! their size rounded up to 4 bytes; a vector is a u32 count, its elements packed, then
//! `(4 - size) * count` bytes more when elements are smaller than 4 bytes.

pub mod buffer;
pub mod format;
pub(crate) mod pool;
pub(crate) mod strings;

pub use buffer::PrintfOutput;

use std::fmt;

use format::{Spec, Value};

/// Bytes of the buffer each dispatch of a printf kernel gets: NEO's
/// CL_DEVICE_PRINTF_BUFFER_SIZE (OpenCL's full profile asks for at least 1 MiB).
pub const BUFFER_BYTES: u64 = 4 << 20;

/// The first DWORD the driver stores: where the first record goes.
pub const INITIAL_OFFSET: u32 = 4;

/// IGC's type tags (`PRINTF_DATA_TYPE` in NEO's print_formatter.h).
mod tag {
    pub const BYTE: u32 = 1;
    pub const SHORT: u32 = 2;
    pub const INT: u32 = 3;
    pub const FLOAT: u32 = 4;
    pub const STRING: u32 = 5;
    pub const LONG: u32 = 6;
    pub const POINTER: u32 = 7;
    pub const DOUBLE: u32 = 8;
    pub const VECTOR_BYTE: u32 = 9;
    pub const VECTOR_SHORT: u32 = 10;
    pub const VECTOR_INT: u32 = 11;
    pub const VECTOR_LONG: u32 = 12;
    pub const VECTOR_FLOAT: u32 = 13;
    pub const VECTOR_DOUBLE: u32 = 14;
}

/// A format string address that ends the records (IGC's mark where one did not fit).
const END_MARK: u64 = 0xffff_ffff;

/// zebin: an address with this bit set is a string stored inline; the low bits its length.
const INLINE_FLAG: u64 = 1 << 63;

/// Where the format strings and string arguments a record names are.
#[derive(Debug, Clone, Copy)]
pub enum Strings<'a> {
    /// Patch tokens: the kernel's string table, by index, its escapes resolved ([`unescape`]).
    Indexed(&'a [(u32, Vec<u8>)]),
    /// zebin: the program's string segment, placed at GPU address `base`.
    Addressed { base: u64, bytes: &'a [u8] },
}

/// Why decoding stopped before the end of the records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// A record ends before its format string says it should.
    Truncated { at: usize },
    /// A format string the kernel's strings do not hold.
    UnknownString { at: usize, key: u64 },
    /// A type tag IGC does not write, or one a conversion cannot take.
    BadTag { at: usize, tag: u32 },
    /// A vector count outside 2..=16.
    BadVector { at: usize, count: u32 },
    /// A conversion specification C99/OpenCL C do not define.
    BadSpec { at: usize, spec: String },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated { at } => write!(f, "printf record at byte {at} is truncated"),
            Self::UnknownString { at, key } => {
                write!(f, "printf record at byte {at} names string {key:#x}, which the kernel does not have")
            }
            Self::BadTag { at, tag } => {
                write!(f, "printf argument at byte {at} has type tag {tag}")
            }
            Self::BadVector { at, count } => {
                write!(f, "printf vector at byte {at} has {count} elements")
            }
            Self::BadSpec { at, spec } => {
                write!(
                    f,
                    "printf record at byte {at}: `%{spec}` is not a conversion"
                )
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// The text of the records that decoded, and why decoding stopped early, if it did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decoded {
    pub text: Vec<u8>,
    pub error: Option<DecodeError>,
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let s = self
            .pos
            .checked_add(n)
            .and_then(|end| self.buf.get(self.pos..end))
            .ok_or(DecodeError::Truncated { at: self.pos })?;
        self.pos += n;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, DecodeError> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn uint(&mut self, n: usize) -> Result<u64, DecodeError> {
        let b = self.bytes(n)?;
        Ok(b.iter().rev().fold(0u64, |v, &x| v << 8 | u64::from(x)))
    }
    fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.bytes(n).map(|_| ())
    }
}

/// Decodes a printf buffer's records into their text, in the order the buffer holds them.
/// Never panics: a malformed record ends decoding with the error and the text before it.
pub fn decode(buffer: &[u8], strings: Strings<'_>) -> Decoded {
    decode_in(buffer, strings, &[])
}

/// [`decode`], with the program's data segments (GPU base, bytes) where `%s` arguments given
/// as pointers (IGC's choice for some literals, e.g. `""`) may point.
pub fn decode_in(buffer: &[u8], strings: Strings<'_>, segments: &[(u64, &[u8])]) -> Decoded {
    let mut out = Decoded::default();
    let Some(head) = buffer.get(..4) else {
        return out;
    };
    let used = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
    // Past the end: the kernel ran out of room; what fits is what there is.
    let overflowed = used > buffer.len();
    let end = used.min(buffer.len());
    let mut r = Reader {
        buf: &buffer[..end],
        pos: INITIAL_OFFSET as usize,
    };
    let key_bytes = match strings {
        Strings::Indexed(_) => 4,
        Strings::Addressed { .. } => 8,
    };
    while r.pos + key_bytes <= end {
        let at = r.pos;
        let kept = out.text.len();
        match record(&mut r, strings, segments, &mut out.text) {
            Ok(true) => {}
            // Records the kernel had no room for were not written: the output ends at the
            // last whole one, as OpenCL C allows (§6.15.14.3), without an error.
            Err(_) if overflowed => {
                out.text.truncate(kept);
                break;
            }
            // C evaluates and ignores arguments beyond the format's (C99 7.19.6.1p2), and IGC
            // records them all (OpenCLPrintfResolution.cpp): nothing in the buffer counts a
            // record's arguments. NEO's patch-token reader (print_formatter.cpp, before it
            // dropped patch tokens) skipped any DWORD naming no string and started a record at
            // one that does. Here such a DWORD that is a type tag is an extra argument of the
            // previous record, skipped with its value (so a value is not taken for an index).
            // Where a tag or value names a string, both read a record there: the bytes do not
            // tell (`printf("n %d", 1, 3)` and `printf("n %d", 1); printf("t")` with "t"
            // string 3 write the same DWORDs).
            Err(DecodeError::UnknownString { key, .. })
                if matches!(strings, Strings::Indexed(_))
                    && at > INITIAL_OFFSET as usize
                    && (1..=14).contains(&key) =>
            {
                r.pos = at;
                let spec = Spec {
                    conversion: b'p',
                    ..Spec::default()
                };
                if let Err(e) = argument(&mut r, strings, segments, &spec, &mut Vec::new()) {
                    out.error = Some(e);
                    break;
                }
            }
            Ok(false) => break,
            Err(e) => {
                out.error = Some(e);
                break;
            }
        }
    }
    out
}

/// The NUL-terminated string at `key` (an index or an address).
fn lookup<'a>(strings: Strings<'a>, key: u64, at: usize) -> Result<&'a [u8], DecodeError> {
    let bytes = match strings {
        Strings::Indexed(table) => table
            .iter()
            .find(|(i, _)| u64::from(*i) == key)
            .map(|(_, s)| s.as_slice()),
        Strings::Addressed { base, bytes } => key
            .checked_sub(base)
            .and_then(|o| usize::try_from(o).ok())
            .and_then(|o| bytes.get(o..)),
    }
    .ok_or(DecodeError::UnknownString { at, key })?;
    Ok(bytes.split(|&b| b == 0).next().unwrap_or(bytes))
}

/// One record: its format string, then its arguments as the conversions ask. `false` at
/// the end mark.
fn record(
    r: &mut Reader<'_>,
    strings: Strings<'_>,
    segments: &[(u64, &[u8])],
    out: &mut Vec<u8>,
) -> Result<bool, DecodeError> {
    let at = r.pos;
    let key = match strings {
        Strings::Indexed(_) => u64::from(r.u32()?),
        Strings::Addressed { .. } => r.uint(8)?,
    };
    let fmt: &[u8] = if key == END_MARK {
        return Ok(false);
    } else if matches!(strings, Strings::Addressed { .. }) && key & INLINE_FLAG != 0 {
        let n = (key & !INLINE_FLAG) as usize;
        let s = r.bytes(n.next_multiple_of(4))?;
        &s[..n]
    } else {
        lookup(strings, key, at)?
    };
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        if fmt.get(i + 1) == Some(&b'%') {
            out.push(b'%');
            i += 2;
            continue;
        }
        let start = i + 1;
        let mut j = start;
        while j < fmt.len() && !format::is_conversion(fmt[j]) {
            j += 1;
        }
        let text = &fmt[start..(j + 1).min(fmt.len())];
        let spec = format::parse(text).ok_or_else(|| DecodeError::BadSpec {
            at,
            spec: String::from_utf8_lossy(text).into_owned(),
        })?;
        argument(r, strings, segments, &spec, out)?;
        i = j + 1;
    }
    Ok(true)
}

/// Reads one argument and writes it by `spec`.
fn argument(
    r: &mut Reader<'_>,
    strings: Strings<'_>,
    segments: &[(u64, &[u8])],
    spec: &Spec,
    out: &mut Vec<u8>,
) -> Result<(), DecodeError> {
    let at = r.pos;
    let t = r.u32()?;
    let scalar = |r: &mut Reader<'_>, t: u32| -> Result<Value<'static>, DecodeError> {
        Ok(match t {
            tag::BYTE | tag::VECTOR_BYTE => Value::Int {
                bits: 8,
                value: r.uint(1)?,
            },
            tag::SHORT | tag::VECTOR_SHORT => Value::Int {
                bits: 16,
                value: r.uint(2)?,
            },
            tag::INT | tag::VECTOR_INT => Value::Int {
                bits: 32,
                value: r.uint(4)?,
            },
            tag::LONG | tag::VECTOR_LONG => Value::Int {
                bits: 64,
                value: r.uint(8)?,
            },
            tag::FLOAT | tag::VECTOR_FLOAT => Value::Float(f32::from_bits(r.u32()?).into()),
            tag::DOUBLE | tag::VECTOR_DOUBLE => Value::Float(f64::from_bits(r.uint(8)?)),
            tag::POINTER => Value::Pointer(r.uint(8)?),
            _ => return Err(DecodeError::BadTag { at, tag: t }),
        })
    };
    let size = |t: u32| match t {
        tag::BYTE | tag::VECTOR_BYTE => 1,
        tag::SHORT | tag::VECTOR_SHORT => 2,
        tag::LONG | tag::VECTOR_LONG | tag::DOUBLE | tag::VECTOR_DOUBLE | tag::POINTER => 8,
        _ => 4,
    };
    match t {
        tag::STRING => {
            let key = match strings {
                Strings::Indexed(_) => u64::from(r.u32()?),
                Strings::Addressed { .. } => r.uint(8)?,
            };
            let s = lookup(strings, key, at)?;
            format::write(out, spec, Value::Str(s));
        }
        tag::VECTOR_BYTE..=tag::VECTOR_DOUBLE => {
            let count = r.u32()?;
            if !(2..=16).contains(&count) {
                return Err(DecodeError::BadVector { at, count });
            }
            let mut each = *spec;
            each.vector = None;
            for k in 0..count {
                if k > 0 {
                    out.push(b',');
                }
                let v = scalar(r, t)?;
                format::write(out, &each, v);
            }
            let n = size(t);
            if n < 4 {
                r.skip((4 - n) * count as usize)?;
            }
        }
        tag::POINTER if spec.conversion == b's' => {
            let key = r.uint(8)?;
            let s = segments
                .iter()
                .find_map(|&(base, bytes)| {
                    let o = usize::try_from(key.checked_sub(base)?).ok()?;
                    bytes.get(o..)
                })
                .ok_or(DecodeError::UnknownString { at, key })?;
            let s = s.split(|&b| b == 0).next().unwrap_or(s);
            format::write(out, spec, Value::Str(s));
        }
        _ => {
            let v = scalar(r, t)?;
            let n = size(t);
            if n < 4 {
                r.skip(4 - n)?;
            }
            if spec.conversion == b's' {
                return Err(DecodeError::BadTag { at, tag: t });
            }
            format::write(out, spec, v);
        }
    }
    Ok(())
}

/// A string as the source spelled it, its C escape sequences (C99 6.4.4.4) resolved: patch-token
/// string tables keep them.
pub fn unescape(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' || i + 1 >= s.len() {
            out.push(s[i]);
            i += 1;
            continue;
        }
        let e = s[i + 1];
        i += 2;
        let simple = match e {
            b'n' => Some(b'\n'),
            b't' => Some(b'\t'),
            b'r' => Some(b'\r'),
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'v' => Some(0x0b),
            b'0'..=b'7' | b'x' => None,
            other => Some(other),
        };
        if let Some(c) = simple {
            out.push(c);
            continue;
        }
        let (radix, max, start) = if e == b'x' {
            (16, usize::MAX, i)
        } else {
            (8, 3, i - 1)
        };
        let mut end = start;
        while end < s.len() && end - start < max && (s[end] as char).is_digit(radix) {
            end += 1;
        }
        let digits = std::str::from_utf8(&s[start..end]).unwrap_or("");
        match u32::from_str_radix(digits, radix) {
            Ok(v) => out.push(v as u8),
            // `\x` without digits: kept as written.
            Err(_) => out.extend_from_slice(&s[i - 2..i]),
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests;
