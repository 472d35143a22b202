//! Compiled objects and libraries (IR) of separate compilation: the SPIR-V or LLVM bitcode
//! ocloc links, the names each module imports and exports (SPIR-V LinkageAttributes: ocloc's
//! link resolves nothing itself), and the container ([`crate::compiler::binary`]) that
//! CL_PROGRAM_BINARIES gives for them, carrying those names and the device, so
//! clCreateProgramWithBinary takes it back into clLinkProgram or clBuildProgram.

use std::collections::BTreeSet;

use opencl_sys::*;

use crate::compiler::binary::{BinaryError, Container, Payload, MAGIC};
use crate::compiler::spirv;

/// A compiled object (SPIR-V) or a library (LLVM bitcode) for one device, or a SPIR binary.
pub struct Ir {
    /// CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, CL_PROGRAM_BINARY_TYPE_LIBRARY or (a SPIR
    /// binary, which only clBuildProgram takes) CL_PROGRAM_BINARY_TYPE_INTERMEDIATE.
    pub kind: cl_program_binary_type,
    /// The SPIR-V or bitcode ocloc takes.
    pub bytes: Vec<u8>,
    /// Functions and variables it defines for other modules.
    pub exports: BTreeSet<String>,
    /// Functions and variables it uses and does not define.
    pub imports: BTreeSet<String>,
    /// What CL_PROGRAM_BINARIES gives for it: the self-describing container (`binary`).
    pub binary: Vec<u8>,
}

impl Ir {
    /// The IR for the device ocloc calls `target`, with its container.
    pub fn new(
        kind: cl_program_binary_type,
        payload: Payload,
        bytes: Vec<u8>,
        exports: BTreeSet<String>,
        imports: BTreeSet<String>,
        target: &str,
    ) -> Ir {
        let container = Container {
            kind,
            payload,
            target: target.to_string(),
            exports,
            imports,
            bytes,
        };
        let binary = container.encode();
        Ir {
            kind,
            bytes: container.bytes,
            exports: container.exports,
            imports: container.imports,
            binary,
        }
    }

    /// A SPIR binary (cl_khr_spir: LLVM bitcode), CL_PROGRAM_BINARY_TYPE_INTERMEDIATE until it is
    /// built; CL_PROGRAM_BINARIES gives it back as it was given.
    pub fn spir(bitcode: Vec<u8>) -> Ir {
        Ir {
            kind: CL_PROGRAM_BINARY_TYPE_INTERMEDIATE,
            binary: bitcode.clone(),
            bytes: bitcode,
            exports: BTreeSet::new(),
            imports: BTreeSet::new(),
        }
    }

    /// A compiled object from SPIR-V, its linkage read from the module.
    pub fn object(spirv: Vec<u8>, target: &str) -> Result<Ir, String> {
        let (exports, imports) = linkage(&spirv)?;
        Ok(Ir::new(
            CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
            Payload::SpirV,
            spirv,
            exports,
            imports,
            target,
        ))
    }
}

/// SPIR-V: the decorations read here (SPIR-V specification 3.x); the module's layout is
/// [`spirv`]'s.
const DECORATION_BUILT_IN: u32 = 11;
const DECORATION_LINKAGE_ATTRIBUTES: u32 = 41;
const LINKAGE_EXPORT: u32 = 0;
const LINKAGE_IMPORT: u32 = 1;

/// The names a SPIR-V module exports and imports; built-in variables (decorated BuiltIn,
/// provided by the device) are not imports.
pub fn linkage(bytes: &[u8]) -> Result<(BTreeSet<String>, BTreeSet<String>), String> {
    if bytes.len() < spirv::HEADER_WORDS * 4 || !bytes.len().is_multiple_of(4) {
        return Err("not a SPIR-V module (size)".into());
    }
    let words =
        spirv::Words::read(bytes).map_err(|_| "not a SPIR-V module (magic number)".to_string())?;
    let mut built_in = BTreeSet::new();
    let mut linked: Vec<(u32, String, u32)> = Vec::new();
    // Where the next instruction starts (the one a truncation error names).
    let mut next = spirv::HEADER_WORDS;
    for inst in words.instructions() {
        let (at, opcode, ops) =
            inst.map_err(|_| format!("truncated SPIR-V instruction at word {next}"))?;
        next = at + 1 + ops.len();
        if opcode == spirv::OP_DECORATE && ops.len() >= 2 {
            match ops[1] {
                DECORATION_BUILT_IN => {
                    built_in.insert(ops[0]);
                }
                DECORATION_LINKAGE_ATTRIBUTES if ops.len() >= 4 => {
                    let bytes: Vec<u8> = ops[2..ops.len() - 1]
                        .iter()
                        .flat_map(|w| w.to_le_bytes())
                        .collect();
                    let name = bytes.split(|b| *b == 0).next().unwrap_or_default();
                    linked.push((
                        ops[0],
                        String::from_utf8_lossy(name).into_owned(),
                        ops[ops.len() - 1],
                    ));
                }
                _ => {}
            }
        }
    }
    let mut exports = BTreeSet::new();
    let mut imports = BTreeSet::new();
    for (id, name, kind) in linked {
        match kind {
            LINKAGE_EXPORT => {
                exports.insert(name);
            }
            LINKAGE_IMPORT if !built_in.contains(&id) => {
                imports.insert(name);
            }
            _ => {}
        }
    }
    Ok((exports, imports))
}

/// A compiled object or library given back by the application (clCreateProgramWithBinary)
/// for the device ocloc calls `target`: our container (`binary`) for that device, or bare
/// SPIR-V (taken as a compiled object, as clCreateProgramWithIL would take it); `Ok(None)` for
/// anything else (a device binary, perhaps).
pub fn ir_from_binary(bytes: &[u8], target: &str) -> Result<Option<Ir>, BinaryError> {
    if bytes.starts_with(&MAGIC) {
        let c = Container::decode_for(bytes, target)?;
        if c.payload == Payload::SpirV {
            // The module must agree with the linkage the header claims.
            match linkage(&c.bytes) {
                Ok((e, i)) if e == c.exports && i == c.imports => {}
                _ => return Err(BinaryError::PayloadBytes(Payload::SpirV)),
            }
        }
        return Ok(Some(Ir {
            kind: c.kind,
            bytes: c.bytes,
            exports: c.exports,
            imports: c.imports,
            binary: bytes.to_vec(),
        }));
    }
    if is_llvm_bitcode(bytes) {
        return Ok(Some(Ir::spir(bytes.to_vec())));
    }
    Ok(Ir::object(bytes.to_vec(), target).ok())
}

/// Whether `bytes` are LLVM bitcode: the raw stream's magic ("BC" 0xC0DE) or the bitcode
/// wrapper's (0x0B17C0DE, little-endian), as LLVM's bitcode format documentation gives them.
pub fn is_llvm_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&0x0B17_C0DEu32.to_le_bytes())
}
