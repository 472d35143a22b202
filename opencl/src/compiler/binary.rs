//! The container CL_PROGRAM_BINARIES gives for a compiled object or a library, and that
//! clCreateProgramWithBinary takes back.
//!
//! ocloc's intermediate outputs say nothing of the device they were compiled for, and `ocloc
//! link`'s LLVM bitcode loses the SPIR-V LinkageAttributes the linker's name checks need
//! (`link`), so the IR goes out wrapped in a self-describing header: what it is, for which
//! device, which names it exports and imports, and a checksum over all of it. A container from
//! another device, of another format version, cut short or altered is refused with a specific
//! [`BinaryError`] (CL_INVALID_BINARY for that device). Executables are not wrapped:
//! CL_PROGRAM_BINARIES of an executable is ocloc's device binary (zebin or patch tokens) as is,
//! which names its own platform.
//!
//! Layout, little-endian: the 8-byte [`MAGIC`], the format version (u32, [`VERSION`]), the
//! binary type (u32, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT or _LIBRARY), the payload's format
//! (u32, [`Payload`]), the ocloc device name, the exported names, the imported names, the
//! payload, then FNV-1a 64 of every byte before it. A name is a u32 length and its UTF-8 bytes;
//! a list a u32 count and its names; the payload a u64 length and its bytes.

use std::collections::BTreeSet;
use std::hash::Hasher;

use opencl_sys::{
    cl_program_binary_type, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, CL_PROGRAM_BINARY_TYPE_LIBRARY,
};

/// The first bytes of every container.
pub const MAGIC: [u8; 8] = *b"IGPUCLIR";
/// The layout described in the module documentation.
pub const VERSION: u32 = 1;

/// What the payload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// A SPIR-V module (clCompileProgram's `-spv_only` output).
    SpirV = 0,
    /// LLVM bitcode (`ocloc link`'s output).
    LlvmBitcode = 1,
}

/// SPIR-V's magic number as its first four bytes, little-endian and big-endian.
const SPIRV_MAGIC_BYTES: [[u8; 4]; 2] = [[0x03, 0x02, 0x23, 0x07], [0x07, 0x23, 0x02, 0x03]];
/// LLVM bitcode's magic: 'B', 'C', 0xC0DE, and the bitcode wrapper's 0x0B17C0DE.
const BITCODE_MAGIC_BYTES: [[u8; 4]; 2] = [[0x42, 0x43, 0xc0, 0xde], [0xde, 0xc0, 0x17, 0x0b]];

impl Payload {
    fn from_u32(v: u32) -> Option<Payload> {
        match v {
            0 => Some(Payload::SpirV),
            1 => Some(Payload::LlvmBitcode),
            _ => None,
        }
    }

    /// Whether `bytes` begin as this format does.
    fn recognises(self, bytes: &[u8]) -> bool {
        let magic = match self {
            Payload::SpirV => &SPIRV_MAGIC_BYTES,
            Payload::LlvmBitcode => &BITCODE_MAGIC_BYTES,
        };
        bytes.len() >= 4 && magic.iter().any(|m| bytes[..4] == *m)
    }
}

/// A compiled object or library with what the linker needs to know of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Container {
    /// CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT or CL_PROGRAM_BINARY_TYPE_LIBRARY.
    pub kind: cl_program_binary_type,
    pub payload: Payload,
    /// The ocloc device name it was compiled for (`platform::Platform::ocloc_device`).
    pub target: String,
    pub exports: BTreeSet<String>,
    pub imports: BTreeSet<String>,
    pub bytes: Vec<u8>,
}

/// Why a binary is not a container this device can take.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BinaryError {
    #[error("not a compiled object or library of this runtime (no IGPUCLIR header)")]
    NotContainer,
    #[error("container format version {0}, this runtime reads version {VERSION}")]
    Version(u32),
    #[error("the container ends early (a field at byte {0} runs past the end)")]
    Truncated(usize),
    #[error("{0} bytes follow the container's checksum")]
    Trailing(usize),
    #[error("checksum mismatch: the container was altered or damaged")]
    Checksum,
    #[error("binary type {0} is neither a compiled object nor a library")]
    Kind(u32),
    #[error(
        "a compiled object is SPIR-V and a library LLVM bitcode; binary type {0} came with {1:?}"
    )]
    KindPayload(u32, Payload),
    #[error("payload format {0} is unknown")]
    PayloadFormat(u32),
    #[error("the payload is not {0:?}")]
    PayloadBytes(Payload),
    #[error("a name in the container is not UTF-8")]
    Name,
    #[error("compiled for {binary}, the device is {device}")]
    WrongDevice { binary: String, device: String },
}

/// FNV-1a of `bytes`: the containers' checksum (and the compiler cache's entry names and check).
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    let mut h = fnv::FnvHasher::default();
    h.write(bytes);
    h.finish()
}

fn put_name(out: &mut Vec<u8>, name: &str) {
    out.extend((name.len() as u32).to_le_bytes());
    out.extend(name.as_bytes());
}

impl Container {
    /// The container's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.bytes.len() + 64);
        out.extend(MAGIC);
        out.extend(VERSION.to_le_bytes());
        out.extend(self.kind.to_le_bytes());
        out.extend((self.payload as u32).to_le_bytes());
        put_name(&mut out, &self.target);
        for list in [&self.exports, &self.imports] {
            out.extend((list.len() as u32).to_le_bytes());
            for n in list {
                put_name(&mut out, n);
            }
        }
        out.extend((self.bytes.len() as u64).to_le_bytes());
        out.extend(&self.bytes);
        let sum = fnv(&out);
        out.extend(sum.to_le_bytes());
        out
    }

    /// Reads a container, whatever device it is for.
    pub fn decode(bytes: &[u8]) -> Result<Container, BinaryError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(BinaryError::NotContainer);
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32()?;
        if version != VERSION {
            return Err(BinaryError::Version(version));
        }
        let kind = r.u32()?;
        let payload = r.u32()?;
        let target = r.name()?;
        let exports = r.names()?;
        let imports = r.names()?;
        let len = r.u64()?;
        let body = r.take(usize::try_from(len).map_err(|_| BinaryError::Truncated(r.at))?)?;
        let end = r.at;
        let sum = r.u64()?;
        if r.at != bytes.len() {
            return Err(BinaryError::Trailing(bytes.len() - r.at));
        }
        if fnv(&bytes[..end]) != sum {
            return Err(BinaryError::Checksum);
        }
        if kind != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && kind != CL_PROGRAM_BINARY_TYPE_LIBRARY
        {
            return Err(BinaryError::Kind(kind));
        }
        let payload = Payload::from_u32(payload).ok_or(BinaryError::PayloadFormat(payload))?;
        let expected = if kind == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT {
            Payload::SpirV
        } else {
            Payload::LlvmBitcode
        };
        if payload != expected {
            return Err(BinaryError::KindPayload(kind, payload));
        }
        if !payload.recognises(body) {
            return Err(BinaryError::PayloadBytes(payload));
        }
        Ok(Container {
            kind,
            payload,
            target,
            exports,
            imports,
            bytes: body.to_vec(),
        })
    }

    /// Reads a container made for the device ocloc calls `device`.
    pub fn decode_for(bytes: &[u8], device: &str) -> Result<Container, BinaryError> {
        let c = Container::decode(bytes)?;
        if c.target != device {
            return Err(BinaryError::WrongDevice {
                binary: c.target,
                device: device.to_string(),
            });
        }
        Ok(c)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], BinaryError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|e| *e <= self.bytes.len())
            .ok_or(BinaryError::Truncated(self.at))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, BinaryError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64, BinaryError> {
        let lo = u64::from(self.u32()?);
        let hi = u64::from(self.u32()?);
        Ok(lo | hi << 32)
    }

    fn name(&mut self) -> Result<String, BinaryError> {
        let n = self.u32()? as usize;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| BinaryError::Name)
    }

    fn names(&mut self) -> Result<BTreeSet<String>, BinaryError> {
        let n = self.u32()?;
        // Each name takes at least its 4-byte length: a count past that is a short container,
        // found before anything is allocated for it.
        if (n as usize).saturating_mul(4) > self.bytes.len() - self.at {
            return Err(BinaryError::Truncated(self.at));
        }
        (0..n).map(|_| self.name()).collect()
    }
}
