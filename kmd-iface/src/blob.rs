//! Bounds-checked reading of query reply blobs: every failure is an [`Error::Malformed`] naming
//! the blob and the byte offset.

use zerocopy::FromBytes;

use crate::error::{Error, Result};

/// A reply blob being parsed.
#[derive(Debug, Clone, Copy)]
pub struct Blob<'a> {
    pub what: &'static str,
    pub bytes: &'a [u8],
}

impl<'a> Blob<'a> {
    pub fn new(what: &'static str, bytes: &'a [u8]) -> Self {
        Blob { what, bytes }
    }

    pub fn malformed(&self, offset: usize, detail: impl Into<String>) -> Error {
        Error::Malformed {
            what: self.what,
            offset,
            detail: detail.into(),
        }
    }

    /// The `T` at `offset` (copied, so the blob needs no alignment).
    pub fn read<T: FromBytes>(&self, offset: usize) -> Result<T> {
        let size = size_of::<T>();
        let tail = self.bytes.get(offset..).unwrap_or_default();
        T::read_from_prefix(tail).map(|(v, _)| v).map_err(|_| {
            self.malformed(
                offset,
                format!(
                    "needs {size} bytes, blob has {}",
                    self.bytes.len().saturating_sub(offset)
                ),
            )
        })
    }

    /// `count` consecutive `T`s starting at `offset`.
    pub fn array<T: FromBytes>(&self, offset: usize, count: usize) -> Result<Vec<T>> {
        let end = count
            .checked_mul(size_of::<T>())
            .and_then(|n| n.checked_add(offset))
            .ok_or_else(|| self.malformed(offset, format!("count {count} overflows")))?;
        if end > self.bytes.len() {
            return Err(self.malformed(
                offset,
                format!(
                    "{count} entries of {} bytes need {end} bytes, blob has {}",
                    size_of::<T>(),
                    self.bytes.len()
                ),
            ));
        }
        (0..count)
            .map(|i| self.read(offset + i * size_of::<T>()))
            .collect()
    }

    /// `len` raw bytes at `offset`.
    pub fn slice(&self, offset: usize, len: usize) -> Result<&'a [u8]> {
        offset
            .checked_add(len)
            .and_then(|end| self.bytes.get(offset..end))
            .ok_or_else(|| {
                self.malformed(
                    offset,
                    format!("{len} bytes past the blob's {} bytes", self.bytes.len()),
                )
            })
    }

    /// The blob as exactly one `T`: shorter or longer is malformed (fixed-size query replies).
    pub fn exactly<T: FromBytes>(&self) -> Result<T> {
        let v = self.read(0)?;
        self.expect_end(size_of::<T>())?;
        Ok(v)
    }

    /// Fails if the blob is longer than the `used` bytes its header accounts for.
    pub fn expect_end(&self, used: usize) -> Result<()> {
        if self.bytes.len() > used {
            return Err(self.malformed(used, format!("{} trailing bytes", self.bytes.len() - used)));
        }
        Ok(())
    }
}
