//! The table of cl_intel_subgroups block IO alignment rules: which rule, its bound and its words.

use std::fmt;

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

    pub(crate) fn text(self) -> &'static str {
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
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cl_intel_subgroups: {}", self.text())
    }
}
