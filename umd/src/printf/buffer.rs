//! A dispatch's printf buffer: lent from its queue's pool and initialised before the
//! dispatch, read and decoded after it completes, back in the pool when nobody holds it.
//! The strings its records name are the kernel's, built once when the kernel is made
//! resident on the device.

use std::sync::{Arc, Weak};

use super::pool::PrintfPool;
use super::strings::{calls_printf, KernelStrings};
use super::{Decoded, INITIAL_OFFSET};
use crate::error::Result;
use crate::kernel::{Description, Kernel};
use crate::memory::Bo;

/// A buffer lent by a queue: returned to its pool when the last output holding it goes.
#[derive(Debug)]
struct Lent {
    bo: Arc<Bo>,
    pool: Weak<PrintfPool>,
}

impl Drop for Lent {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.upgrade() {
            pool.give_back(self.bo.clone());
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
        pool: Weak<PrintfPool>,
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
        Ok(self.strings.decode(&bytes))
    }
}

/// True when `kernel` takes a printf buffer.
pub fn needs_printf(kernel: &Kernel) -> bool {
    match &kernel.description {
        Description::Ocloc(k, _) => calls_printf(k),
        Description::Raw => false,
    }
}
