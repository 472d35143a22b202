//! A dispatch's printf buffer: allocated and initialised before the dispatch, read and
//! decoded after it completes.

use std::sync::Arc;

use super::{decode_in, unescape, Decoded, Strings, BUFFER_BYTES, INITIAL_OFFSET};
use crate::device::Inner;
use crate::error::Result;
use crate::kernel::{Description, Kernel};
use crate::memory::Bo;
use crate::program::{ImplicitKind, Segment};
use crate::resident::Resident;

/// Where a kernel's printf strings are, copied for the dispatch's lifetime.
#[derive(Debug, Clone)]
enum Table {
    Indexed(Vec<(u32, Vec<u8>)>),
    Addressed { base: u64, bytes: Vec<u8> },
}

/// The printf buffer of one dispatch. Decode it once the dispatch's event has completed.
#[derive(Debug, Clone)]
pub struct PrintfOutput {
    bo: Arc<Bo>,
    table: Table,
    /// The program's constant and string segments (GPU base, bytes).
    segments: Vec<(u64, Vec<u8>)>,
}

impl PrintfOutput {
    pub(crate) fn bo(&self) -> &Arc<Bo> {
        &self.bo
    }

    /// The buffer's GPU address and size.
    pub fn address(&self) -> (u64, u64) {
        (self.bo.gpu_address, self.bo.size)
    }

    /// The records the kernel wrote, as text. Before the dispatch completes it reads
    /// whatever is there.
    pub fn decode(&self) -> Result<Decoded> {
        let mut head = [0u8; 4];
        self.bo.map.read(0, &mut head)?;
        let used = u64::from(u32::from_le_bytes(head)).min(self.bo.size);
        let mut bytes = vec![0u8; used.max(4) as usize];
        self.bo.map.read(0, &mut bytes)?;
        let strings = match &self.table {
            Table::Indexed(t) => Strings::Indexed(t),
            Table::Addressed { base, bytes } => Strings::Addressed { base: *base, bytes },
        };
        let segments: Vec<(u64, &[u8])> = self
            .segments
            .iter()
            .map(|(b, s)| (*b, s.as_slice()))
            .collect();
        Ok(decode_in(&bytes, strings, &segments))
    }
}

/// True when `kernel` takes a printf buffer.
pub fn needs_printf(kernel: &Kernel) -> bool {
    match &kernel.description {
        Description::Ocloc(k, _) => k
            .implicit
            .iter()
            .any(|i| i.kind == ImplicitKind::PrintfBuffer),
        Description::Raw => false,
    }
}

impl Inner {
    /// A fresh printf buffer for one dispatch of `kernel`: its first DWORD is where the
    /// first record goes, as IGC's printf code expects.
    pub(crate) fn printf_buffer(
        self: &Arc<Self>,
        kernel: &Kernel,
        resident: &Resident,
    ) -> Result<PrintfOutput> {
        let bo = self.alloc_bo(BUFFER_BYTES)?;
        bo.map.write(0, &INITIAL_OFFSET.to_le_bytes())?;
        let table = match &kernel.description {
            Description::Ocloc(_, data) if !data.strings.is_empty() => Table::Addressed {
                base: resident.placed.base(Segment::ConstString),
                bytes: data.strings.clone(),
            },
            Description::Ocloc(k, _) => Table::Indexed(
                k.printf_strings
                    .iter()
                    .map(|(i, s)| (*i, unescape(s)))
                    .collect(),
            ),
            Description::Raw => Table::Indexed(Vec::new()),
        };
        let segments = match &kernel.description {
            Description::Ocloc(_, data) => [
                (Segment::Constant, &data.constant),
                (Segment::ConstString, &data.strings),
            ]
            .into_iter()
            .filter(|(_, b)| !b.is_empty())
            .map(|(s, b)| (resident.placed.base(s), b.clone()))
            .collect(),
            Description::Raw => Vec::new(),
        };
        Ok(PrintfOutput {
            bo,
            table,
            segments,
        })
    }
}
