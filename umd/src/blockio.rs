//! The alignment rules cl_intel_subgroups (and _char) put on subgroup block IO, in one table.
//!
//! The specs' words: block reads (`intel_sub_group_block_read*` on buffers) need a pointer
//! aligned to 32 bits, block writes one aligned to 128 bits; a sub-buffer's origin must be a
//! multiple of 4 bytes for block reads and 16 bytes for block writes; an image created from a
//! buffer (cl_khr_image2d_from_buffer) used with block IO needs a row pitch that is a multiple of
//! 64 bytes and a base address aligned to 32 bytes; image block IO reads and writes elements of
//! at most 4 bytes. For a buffer created with CL_MEM_USE_HOST_PTR (or a sub-buffer of one), the
//! host_ptr itself must be aligned to 32 bits for block reads and 128 bits for block writes, and
//! to 256 bits when an image created from that buffer is used with block IO.

pub(crate) mod rule;

pub use rule::{BlockAccess, Rule};

use crate::error::{Error, Result};

impl Rule {
    /// Checks that `value` is a multiple of the rule's alignment.
    pub fn check_aligned(self, what: &str, value: u64) -> Result<()> {
        if value.is_multiple_of(self.bytes()) {
            Ok(())
        } else {
            Err(Error::Alignment {
                rule: self,
                detail: format!("{what} {value:#x} is not a multiple of {}", self.bytes()),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_names_itself_in_its_error() {
        for rule in [
            Rule::BlockReadPointer,
            Rule::BlockWritePointer,
            Rule::SubBufferReadOrigin,
            Rule::SubBufferWriteOrigin,
            Rule::ImageFromBufferPitch,
            Rule::ImageFromBufferBase,
            Rule::HostPtrBlockRead,
            Rule::HostPtrBlockWrite,
            Rule::ImageFromHostPtrBuffer,
        ] {
            let bad = rule.bytes() / 2;
            let e = rule.check_aligned("x", bad).unwrap_err().to_string();
            assert!(e.contains(rule.text()), "{e}");
            rule.check_aligned("x", rule.bytes() * 3).unwrap();
        }
    }
}
