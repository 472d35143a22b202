//! A dispatch's printf buffer: lent from its queue's pool and initialised before the
//! dispatch, read and decoded after it completes, back in the pool when nobody holds it.
//! The strings its records name are the kernel's, built once when the kernel is made
//! resident on the device.

use std::sync::{Arc, Weak};

use super::{decode_in, unescape, Decoded, Strings, BUFFER_BYTES, INITIAL_OFFSET};
use crate::error::Result;
use crate::kernel::{Description, Kernel};
use crate::memory::Bo;
use crate::program::{ImplicitKind, Segment};
use crate::queue::QueueInner;
use crate::segments::Placed;

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

impl KernelStrings {
    /// `kernel`'s strings as placed on a device; None when it does not call printf.
    pub(crate) fn new(kernel: &Kernel, placed: &Placed) -> Option<Arc<KernelStrings>> {
        let Description::Ocloc(k, data) = &kernel.description else {
            return None;
        };
        if !needs_printf(kernel) {
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
}

/// A buffer lent by a queue: returned to its pool when the last output holding it goes.
#[derive(Debug)]
struct Lent {
    bo: Arc<Bo>,
    pool: Weak<QueueInner>,
}

impl Drop for Lent {
    fn drop(&mut self) {
        if let Some(q) = self.pool.upgrade() {
            q.return_printf(self.bo.clone());
        }
    }
}

/// The printf buffer of one dispatch. Decode it once the dispatch's event has completed.
#[derive(Debug, Clone)]
pub struct PrintfOutput {
    buf: Arc<Lent>,
    strings: Arc<KernelStrings>,
}

impl PrintfOutput {
    /// Lends `bo` (from `pool`) to a dispatch of the kernel whose strings are `strings`: its
    /// first DWORD is where the first record goes, as IGC's printf code expects (NEO stores
    /// the same before each dispatch; the bytes after it are read only up to that offset).
    pub(crate) fn lend(
        bo: Arc<Bo>,
        pool: Weak<QueueInner>,
        strings: Arc<KernelStrings>,
    ) -> Result<PrintfOutput> {
        let buf = Arc::new(Lent { bo, pool });
        buf.bo.map.write(0, &INITIAL_OFFSET.to_le_bytes())?;
        Ok(PrintfOutput { buf, strings })
    }

    /// The buffer's GPU address and size.
    pub fn address(&self) -> (u64, u64) {
        (self.buf.bo.gpu_address, self.buf.bo.size)
    }

    /// The records the kernel wrote, as text. Before the dispatch completes it reads
    /// whatever is there.
    pub fn decode(&self) -> Result<Decoded> {
        let bo = &self.buf.bo;
        let mut head = [0u8; 4];
        bo.map.read(0, &mut head)?;
        let used = u64::from(u32::from_le_bytes(head)).min(bo.size);
        let mut bytes = vec![0u8; used.max(4) as usize];
        bo.map.read(0, &mut bytes)?;
        let strings = match &self.strings.table {
            Table::Indexed(t) => Strings::Indexed(t),
            Table::Addressed { base, bytes } => Strings::Addressed { base: *base, bytes },
        };
        let segments: Vec<(u64, &[u8])> = self
            .strings
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

/// Free buffers a queue keeps (each [`BUFFER_BYTES`]); more are released.
pub(crate) const POOL_KEEP: usize = 4;

/// Bytes of each pooled buffer.
pub(crate) const POOL_BYTES: u64 = BUFFER_BYTES;
