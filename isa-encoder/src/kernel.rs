//! Whole kernels: a byte stream of native (16-byte) and compacted (8-byte) instructions.

use platform::Platform;

use crate::error::{DecodeError, EncodeError, KernelDecodeError};
use crate::model::{InstOpts, Instruction, Opcode};
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

/// One instruction's bytes in a kernel, not decoded yet: 8 if compacted, else 16.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    pub pc: usize,
    pub bytes: &'a [u8],
}

impl Frame<'_> {
    pub fn is_compacted(&self) -> bool {
        self.bytes.len() == 8
    }

    /// The opcode, read without decoding: bits \[6:0\] in both forms on every platform.
    pub fn opcode(&self, platform: Platform) -> Option<Opcode> {
        Opcode::from_number(platform, self.bytes[0] & 0x7F)
    }

    /// Decodes the instruction (expanding a compacted one first).
    pub fn decode(&self, platform: Platform) -> Result<Instruction, KernelDecodeError> {
        let at = |error| KernelDecodeError {
            offset: self.pc,
            error,
        };
        let mut native_bits = [0u8; 16];
        if let Ok(word) = <&[u8; 8]>::try_from(self.bytes) {
            native_bits = expand(platform, word).map_err(at)?;
        } else {
            native_bits.copy_from_slice(self.bytes);
        }
        let mut inst = native::decode(platform, &native_bits).map_err(at)?;
        if self.is_compacted() {
            inst.opts |= InstOpts::COMPACTED;
        }
        Ok(inst)
    }
}

/// Splits a kernel into its instructions' bytes, as [`decode_kernel`] walks it: an error for
/// a truncated instruction, and the end at a short all-zero tail (padding).
pub fn frames(bytes: &[u8]) -> impl Iterator<Item = Result<Frame<'_>, KernelDecodeError>> {
    let mut pc = 0usize;
    std::iter::from_fn(move || {
        let rest = bytes.get(pc..).filter(|r| !r.is_empty())?;
        let here = pc;
        let at = |error| KernelDecodeError {
            offset: here,
            error,
        };
        let len = if rest.len() < 8 {
            Err(DecodeError::Truncated(rest.len(), 8))
        } else if rest[3] & (1 << (COMPACT_CONTROL_BIT - 24)) != 0 {
            Ok(8)
        } else if rest.len() < 16 {
            Err(DecodeError::Truncated(rest.len(), 16))
        } else {
            Ok(16)
        };
        let len = match len {
            Ok(len) => len,
            Err(e) => {
                // Nothing follows an unframed tail.
                pc = bytes.len();
                // iga64 ignores a short all-zero tail as padding (with a warning).
                let padding = rest.len() >= 8 && rest.iter().all(|&b| b == 0);
                return (!padding).then(|| Err(at(e)));
            }
        };
        let f = Frame {
            pc,
            bytes: &rest[..len],
        };
        pc += len;
        Some(Ok(f))
    })
}

/// Decodes every instruction of a kernel. Stops at the first undecodable one and reports its
/// byte offset.
pub fn decode_kernel(platform: Platform, bytes: &[u8]) -> Result<Vec<Decoded>, KernelDecodeError> {
    let mut out = Vec::with_capacity(bytes.len() / 12);
    for f in frames(bytes) {
        let f = f?;
        out.push(Decoded {
            pc: f.pc as u32,
            inst: f.decode(platform)?,
        });
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
