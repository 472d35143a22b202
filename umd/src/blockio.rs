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

use std::fmt;

use crate::error::{Error, Result};

/// Which block operation an address or object is used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockAccess {
    Read,
    Write,
}

/// One rule of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    BlockReadPointer,
    BlockWritePointer,
    SubBufferReadOrigin,
    SubBufferWriteOrigin,
    ImageFromBufferPitch,
    ImageFromBufferBase,
    ImageBlockElementSize,
    HostPtrBlockRead,
    HostPtrBlockWrite,
    ImageFromHostPtrBuffer,
}

impl Rule {
    /// The bound the rule sets, in bytes (an alignment, or the largest element).
    pub const fn bytes(self) -> u64 {
        match self {
            Rule::BlockReadPointer | Rule::SubBufferReadOrigin | Rule::HostPtrBlockRead => 4,
            Rule::BlockWritePointer | Rule::SubBufferWriteOrigin | Rule::HostPtrBlockWrite => 16,
            Rule::ImageFromBufferPitch => 64,
            Rule::ImageFromBufferBase | Rule::ImageFromHostPtrBuffer => 32,
            Rule::ImageBlockElementSize => 4,
        }
    }

    fn text(self) -> &'static str {
        match self {
            Rule::BlockReadPointer => "block reads need a 4-byte aligned pointer",
            Rule::BlockWritePointer => "block writes need a 16-byte aligned pointer",
            Rule::SubBufferReadOrigin => {
                "a sub-buffer used for block reads needs an origin that is a multiple of 4 bytes"
            }
            Rule::SubBufferWriteOrigin => {
                "a sub-buffer used for block writes needs an origin that is a multiple of 16 bytes"
            }
            Rule::ImageFromBufferPitch => {
                "an image from a buffer needs a row pitch that is a multiple of 64 bytes"
            }
            Rule::ImageFromBufferBase => "an image from a buffer needs a 32-byte aligned base",
            Rule::ImageBlockElementSize => "image block IO is only for elements of at most 4 bytes",
            Rule::HostPtrBlockRead => {
                "block reads from a CL_MEM_USE_HOST_PTR buffer need a 4-byte aligned host_ptr"
            }
            Rule::HostPtrBlockWrite => {
                "block writes to a CL_MEM_USE_HOST_PTR buffer need a 16-byte aligned host_ptr"
            }
            Rule::ImageFromHostPtrBuffer => {
                "an image from a CL_MEM_USE_HOST_PTR buffer needs a 32-byte aligned host_ptr"
            }
        }
    }

    /// The rule for a pointer used by `access`.
    pub fn pointer(access: BlockAccess) -> Rule {
        match access {
            BlockAccess::Read => Rule::BlockReadPointer,
            BlockAccess::Write => Rule::BlockWritePointer,
        }
    }

    /// The rule for a sub-buffer origin used by `access`.
    pub fn sub_buffer(access: BlockAccess) -> Rule {
        match access {
            BlockAccess::Read => Rule::SubBufferReadOrigin,
            BlockAccess::Write => Rule::SubBufferWriteOrigin,
        }
    }

    /// The rule for the host_ptr of a CL_MEM_USE_HOST_PTR buffer used by `access`.
    pub fn host_ptr(access: BlockAccess) -> Rule {
        match access {
            BlockAccess::Read => Rule::HostPtrBlockRead,
            BlockAccess::Write => Rule::HostPtrBlockWrite,
        }
    }

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

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cl_intel_subgroups: {}", self.text())
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
