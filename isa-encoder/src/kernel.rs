//! Whole kernels: a byte stream of native (16-byte) and compacted (8-byte) instructions.

use platform::Platform;

use crate::error::{DecodeError, EncodeError, KernelDecodeError};
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
    crate::compact::expand(platform, word).map_err(|e| DecodeError::Compaction(e.to_string()))
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

/// Encodes one instruction as it sits in a kernel: compacted (8 bytes) if it is marked
/// [`InstOpts::COMPACTED`] — an error if the platform's tables cannot express it, as in
/// iga64 — else native (16 bytes).
pub fn encode_into(
    platform: Platform,
    inst: &Instruction,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let native = native::encode(platform, inst)?;
    if inst.is_compacted() {
        let c = crate::compact::compact(platform, &native).ok_or_else(|| {
            EncodeError::Unencodable(format!(
                "{} has no compacted form on {platform}",
                inst.opcode.mnemonic()
            ))
        })?;
        out.extend_from_slice(&c);
    } else {
        out.extend_from_slice(&native);
    }
    Ok(())
}

/// Encodes decoded instructions back into kernel bytes; the error names the failing
/// instruction's byte address.
pub fn encode_kernel(platform: Platform, insts: &[Decoded]) -> Result<Vec<u8>, (u32, EncodeError)> {
    let mut out = Vec::with_capacity(insts.len() * 16);
    for d in insts {
        encode_into(platform, &d.inst, &mut out).map_err(|e| (d.pc, e))?;
    }
    Ok(out)
}
