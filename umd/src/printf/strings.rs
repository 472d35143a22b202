//! A resident kernel's printf strings, built from its description and placed program data.
//! Kept apart from `buffer.rs` so a kernel's device-side state can hold them without depending
//! on the kernel type.

use std::sync::Arc;

use super::{decode_in, unescape, Decoded, Strings};
use crate::program::{self, ImplicitKind, Segment};
use crate::segments::{Placed, ProgramData};

/// Where a kernel's printf strings are.
#[derive(Debug)]
enum Table {
    Indexed(Vec<(u32, Vec<u8>)>),
    Addressed { base: u64, bytes: Vec<u8> },
}

/// A resident kernel's printf strings: its string table (escapes resolved) or string
/// segment, and the program's constant and string segments (GPU base, bytes).
#[derive(Debug)]
pub(crate) struct KernelStrings {
    table: Table,
    segments: Vec<(u64, Vec<u8>)>,
}

/// True when the binary kernel `k` takes a printf buffer.
pub(crate) fn calls_printf(k: &program::Kernel) -> bool {
    k.implicit
        .iter()
        .any(|i| i.kind == ImplicitKind::PrintfBuffer)
}

impl KernelStrings {
    /// The strings of `k` (with its program's `data`) as placed on a device; None when it does
    /// not call printf.
    pub(crate) fn new(
        k: &program::Kernel,
        data: &ProgramData,
        placed: &Placed,
    ) -> Option<Arc<KernelStrings>> {
        if !calls_printf(k) {
            return None;
        }
        let table = if data.strings.is_empty() {
            Table::Indexed(
                k.printf_strings
                    .iter()
                    .map(|(i, s)| (*i, unescape(s)))
                    .collect(),
            )
        } else {
            Table::Addressed {
                base: placed.base(Segment::ConstString),
                bytes: data.strings.clone(),
            }
        };
        let segments = [
            (Segment::Constant, &data.constant),
            (Segment::ConstString, &data.strings),
        ]
        .into_iter()
        .filter(|(_, b)| !b.is_empty())
        .map(|(s, b)| (placed.base(s), b.clone()))
        .collect();
        Some(Arc::new(KernelStrings { table, segments }))
    }

    /// Decodes the records of a printf buffer's `bytes` naming these strings.
    pub(crate) fn decode(&self, bytes: &[u8]) -> Decoded {
        let strings = match &self.table {
            Table::Indexed(t) => Strings::Indexed(t),
            Table::Addressed { base, bytes } => Strings::Addressed { base: *base, bytes },
        };
        let segments: Vec<(u64, &[u8])> = self
            .segments
            .iter()
            .map(|(b, s)| (*b, s.as_slice()))
            .collect();
        decode_in(bytes, strings, &segments)
    }
}
