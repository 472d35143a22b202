//! Whole kernels: a byte stream of native (16-byte) and compacted (8-byte) instructions.

use platform::Platform;

use crate::error::{DecodeError, KernelDecodeError};
use crate::model::{InstOpts, Instruction};
use crate::native;

/// CompactControl: bit 29 of the first dword marks an 8-byte compacted instruction.
const COMPACT_CONTROL_BIT: u32 = 29;

/// One decoded instruction and its byte address in the kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub pc: u32,
    pub inst: Instruction,
}

/// Expands an 8-byte compacted instruction to its native form.
fn expand(platform: Platform, word: &[u8; 8]) -> Result<[u8; 16], DecodeError> {
    let _ = (platform, word);
    Err(DecodeError::Compaction(
        "the compaction tables (crate::compact) are not in this build yet".into(),
    ))
}

/// Decodes every instruction of a kernel. Stops at the first undecodable one and reports its
/// byte offset.
pub fn decode_kernel(platform: Platform, bytes: &[u8]) -> Result<Vec<Decoded>, KernelDecodeError> {
    let mut out = Vec::with_capacity(bytes.len() / 12);
    let mut pc = 0usize;
    while pc < bytes.len() {
        let at = |error| KernelDecodeError { offset: pc, error };
        let rest = &bytes[pc..];
        if rest.len() < 8 {
            return Err(at(DecodeError::Truncated(rest.len(), 8)));
        }
        let compacted = rest[3] & (1 << (COMPACT_CONTROL_BIT - 24)) != 0;
        let (native_bits, len) = if compacted {
            let mut w = [0u8; 8];
            w.copy_from_slice(&rest[..8]);
            (expand(platform, &w).map_err(at)?, 8)
        } else {
            if rest.len() < 16 {
                // iga64 ignores a short all-zero tail as padding (with a warning).
                if rest.iter().all(|&b| b == 0) {
                    break;
                }
                return Err(at(DecodeError::Truncated(rest.len(), 16)));
            }
            let mut w = [0u8; 16];
            w.copy_from_slice(&rest[..16]);
            (w, 16)
        };
        let mut inst = native::decode(platform, &native_bits).map_err(at)?;
        if compacted {
            inst.opts |= InstOpts::COMPACTED;
        }
        out.push(Decoded {
            pc: pc as u32,
            inst,
        });
        pc += len;
    }
    Ok(out)
}
