//! A minimal SPIR-V reader, enough to check what ocloc makes of the corpus on the
//! cl_intel_spirv_subgroups route: the header, the instruction stream (word count and opcode),
//! the capabilities, extensions, entry points and execution modes a module declares, and the
//! opcodes each entry point's function reaches through calls. Malformed input is an `Error`
//! naming the byte offset, never a panic.
//!
//! Facts: the SPIR-V specification (2.3 Physical Layout; the opcode and enumerant numbers) and
//! SPV_INTEL_subgroups, the SPIR-V extension cl_intel_spirv_subgroups is written for, for the
//! INTEL capability and instruction numbers.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

pub const MAGIC: u32 = 0x0723_0203;
const HEADER_WORDS: usize = 5;

/// The opcodes this reader interprets.
pub mod opcode {
    pub const EXTENSION: u16 = 10;
    pub const ENTRY_POINT: u16 = 15;
    pub const EXECUTION_MODE: u16 = 16;
    pub const CAPABILITY: u16 = 17;
    pub const FUNCTION: u16 = 54;
    pub const FUNCTION_END: u16 = 56;
    pub const FUNCTION_CALL: u16 = 57;
}

/// ExecutionModel Kernel.
pub const EXECUTION_MODEL_KERNEL: u32 = 6;
/// ExecutionMode SubgroupSize: how `intel_reqd_sub_group_size(N)` reaches SPIR-V.
pub const EXECUTION_MODE_SUBGROUP_SIZE: u32 = 35;
/// The OpExtension string cl_intel_spirv_subgroups requires.
pub const SPV_INTEL_SUBGROUPS: &str = "SPV_INTEL_subgroups";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capability {
    pub name: &'static str,
    pub number: u32,
}

pub const SUBGROUP_SHUFFLE_INTEL: Capability = Capability {
    name: "SubgroupShuffleINTEL",
    number: 5568,
};
pub const SUBGROUP_BUFFER_BLOCK_IO_INTEL: Capability = Capability {
    name: "SubgroupBufferBlockIOINTEL",
    number: 5569,
};
pub const SUBGROUP_IMAGE_BLOCK_IO_INTEL: Capability = Capability {
    name: "SubgroupImageBlockIOINTEL",
    number: 5570,
};

/// One of cl_intel_spirv_subgroups' instructions and the capability that enables it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntelOp {
    pub name: &'static str,
    pub opcode: u16,
    pub capability: Capability,
}

const fn op(name: &'static str, opcode: u16, capability: Capability) -> IntelOp {
    IntelOp {
        name,
        opcode,
        capability,
    }
}

pub const INTEL_OPS: [IntelOp; 8] = [
    op("OpSubgroupShuffleINTEL", 5571, SUBGROUP_SHUFFLE_INTEL),
    op("OpSubgroupShuffleDownINTEL", 5572, SUBGROUP_SHUFFLE_INTEL),
    op("OpSubgroupShuffleUpINTEL", 5573, SUBGROUP_SHUFFLE_INTEL),
    op("OpSubgroupShuffleXorINTEL", 5574, SUBGROUP_SHUFFLE_INTEL),
    op(
        "OpSubgroupBlockReadINTEL",
        5575,
        SUBGROUP_BUFFER_BLOCK_IO_INTEL,
    ),
    op(
        "OpSubgroupBlockWriteINTEL",
        5576,
        SUBGROUP_BUFFER_BLOCK_IO_INTEL,
    ),
    op(
        "OpSubgroupImageBlockReadINTEL",
        5577,
        SUBGROUP_IMAGE_BLOCK_IO_INTEL,
    ),
    op(
        "OpSubgroupImageBlockWriteINTEL",
        5578,
        SUBGROUP_IMAGE_BLOCK_IO_INTEL,
    ),
];

/// The instruction each corpus macro's built-in becomes (cl_intel_spirv_subgroups: the
/// SPV_INTEL_subgroups instructions implement cl_intel_subgroups' built-ins): macro, op name.
pub const CORPUS_OPS: [(&str, &str); 12] = [
    ("SHUFFLE", "OpSubgroupShuffleINTEL"),
    ("SHUFFLE_UNIFORM", "OpSubgroupShuffleINTEL"),
    ("SHUFFLE_DOWN", "OpSubgroupShuffleDownINTEL"),
    ("SHUFFLE_DOWN_UNIFORM", "OpSubgroupShuffleDownINTEL"),
    ("SHUFFLE_UP", "OpSubgroupShuffleUpINTEL"),
    ("SHUFFLE_UP_UNIFORM", "OpSubgroupShuffleUpINTEL"),
    ("SHUFFLE_XOR", "OpSubgroupShuffleXorINTEL"),
    ("SHUFFLE_XOR_UNIFORM", "OpSubgroupShuffleXorINTEL"),
    ("BLOCK_READ", "OpSubgroupBlockReadINTEL"),
    ("BLOCK_WRITE", "OpSubgroupBlockWriteINTEL"),
    ("IMAGE_READ", "OpSubgroupImageBlockReadINTEL"),
    ("IMAGE_WRITE", "OpSubgroupImageBlockWriteINTEL"),
];

/// The INTEL instruction a corpus macro (`SHUFFLE_UP`, `IMAGE_READ`, ...) must produce.
pub fn corpus_op(kind: &str) -> Option<IntelOp> {
    let (_, name) = CORPUS_OPS.iter().find(|(k, _)| *k == kind)?;
    INTEL_OPS.iter().copied().find(|o| o.name == *name)
}

/// What is wrong with a module; `at` is a byte offset into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Not a whole number of words, or shorter than the header.
    Length { bytes: usize },
    /// The first word is the magic number in neither byte order.
    Magic { found: u32 },
    /// The header's reserved schema word is not 0.
    Schema { found: u32 },
    /// An instruction whose word count is 0.
    WordCount { at: usize },
    /// An instruction running past the end of the module.
    Truncated { at: usize, words: usize },
    /// An instruction with fewer operands than its opcode has.
    Operands { at: usize, opcode: u16 },
    /// A literal string without its terminating NUL, or not UTF-8.
    String { at: usize },
    /// An OpFunction before the previous one's OpFunctionEnd, or an OpFunctionEnd alone.
    Nesting { at: usize },
    /// An entry point or call names a function the module does not define.
    NoFunction { id: u32 },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Length { bytes } => write!(f, "{bytes} bytes is not a SPIR-V module"),
            Error::Magic { found } => write!(f, "byte 0: magic {found:#010x}, not {MAGIC:#010x}"),
            Error::Schema { found } => write!(f, "byte 16: schema {found}, not 0"),
            Error::WordCount { at } => write!(f, "byte {at}: instruction of 0 words"),
            Error::Truncated { at, words } => {
                write!(
                    f,
                    "byte {at}: instruction of {words} words runs past the end"
                )
            }
            Error::Operands { at, opcode } => {
                write!(f, "byte {at}: opcode {opcode} lacks operands")
            }
            Error::String { at } => {
                write!(f, "byte {at}: literal string unterminated or not UTF-8")
            }
            Error::Nesting { at } => write!(f, "byte {at}: OpFunction/OpFunctionEnd out of order"),
            Error::NoFunction { id } => write!(f, "no function %{id}"),
        }
    }
}

impl std::error::Error for Error {}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    pub opcode: u16,
    /// Byte offset of the instruction's first word.
    pub at: usize,
    pub operands: Vec<u32>,
}

impl Instruction {
    fn operand(&self, i: usize) -> Result<u32, Error> {
        self.operands.get(i).copied().ok_or(Error::Operands {
            at: self.at,
            opcode: self.opcode,
        })
    }

    /// The literal string starting at operand `i`, and the index of the operand after it.
    fn string(&self, i: usize) -> Result<(String, usize), Error> {
        let bad = Error::String { at: self.at };
        let mut bytes = Vec::new();
        for (n, w) in self.operands.iter().enumerate().skip(i) {
            for b in w.to_le_bytes() {
                if b == 0 {
                    let s = String::from_utf8(bytes).map_err(|_| bad)?;
                    return Ok((s, n + 1));
                }
                bytes.push(b);
            }
        }
        Err(bad)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryPoint {
    pub model: u32,
    pub function: u32,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    /// (major, minor).
    pub version: (u8, u8),
    pub generator: u32,
    pub bound: u32,
    pub instructions: Vec<Instruction>,
}

/// Reads a module in either byte order.
pub fn parse(bytes: &[u8]) -> Result<Module, Error> {
    if !bytes.len().is_multiple_of(4) || bytes.len() < HEADER_WORDS * 4 {
        return Err(Error::Length { bytes: bytes.len() });
    }
    let mut words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if words[0] != MAGIC {
        if words[0].swap_bytes() != MAGIC {
            return Err(Error::Magic { found: words[0] });
        }
        words.iter_mut().for_each(|w| *w = w.swap_bytes());
    }
    if words[4] != 0 {
        return Err(Error::Schema { found: words[4] });
    }
    let mut instructions = Vec::new();
    let mut i = HEADER_WORDS;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        let at = i * 4;
        if count == 0 {
            return Err(Error::WordCount { at });
        }
        let operands = words
            .get(i + 1..i + count)
            .ok_or(Error::Truncated { at, words: count })?;
        instructions.push(Instruction {
            opcode: (words[i] & 0xffff) as u16,
            at,
            operands: operands.to_vec(),
        });
        i += count;
    }
    Ok(Module {
        version: ((words[1] >> 16) as u8, (words[1] >> 8) as u8),
        generator: words[2],
        bound: words[3],
        instructions,
    })
}

impl Module {
    fn with(&self, opcode: u16) -> impl Iterator<Item = &Instruction> {
        self.instructions.iter().filter(move |i| i.opcode == opcode)
    }

    pub fn capabilities(&self) -> Result<BTreeSet<u32>, Error> {
        self.with(opcode::CAPABILITY)
            .map(|i| i.operand(0))
            .collect()
    }

    pub fn extensions(&self) -> Result<Vec<String>, Error> {
        self.with(opcode::EXTENSION)
            .map(|i| i.string(0).map(|(s, _)| s))
            .collect()
    }

    pub fn entry_points(&self) -> Result<Vec<EntryPoint>, Error> {
        self.with(opcode::ENTRY_POINT)
            .map(|i| {
                Ok(EntryPoint {
                    model: i.operand(0)?,
                    function: i.operand(1)?,
                    name: i.string(2)?.0,
                })
            })
            .collect()
    }

    /// The execution modes declared for `function`: (mode, its literal operands).
    pub fn execution_modes(&self, function: u32) -> Result<Vec<(u32, Vec<u32>)>, Error> {
        let mut modes = Vec::new();
        for i in self.with(opcode::EXECUTION_MODE) {
            if i.operand(0)? == function {
                modes.push((i.operand(1)?, i.operands[2..].to_vec()));
            }
        }
        Ok(modes)
    }

    /// Each function's instructions, by result id.
    fn functions(&self) -> Result<HashMap<u32, &[Instruction]>, Error> {
        let mut map = HashMap::new();
        let mut open: Option<(u32, usize)> = None;
        for (n, i) in self.instructions.iter().enumerate() {
            match (i.opcode, open) {
                (opcode::FUNCTION, None) => open = Some((i.operand(1)?, n + 1)),
                (opcode::FUNCTION_END, Some((id, start))) => {
                    map.insert(id, &self.instructions[start..n]);
                    open = None;
                }
                (opcode::FUNCTION | opcode::FUNCTION_END, _) => {
                    return Err(Error::Nesting { at: i.at })
                }
                _ => {}
            }
        }
        match open {
            Some((_, start)) => Err(Error::Nesting {
                at: self.instructions[start - 1].at,
            }),
            None => Ok(map),
        }
    }

    /// Every opcode in `function` and in the functions it calls, transitively.
    pub fn reached_opcodes(&self, function: u32) -> Result<BTreeSet<u16>, Error> {
        let functions = self.functions()?;
        let mut seen = BTreeSet::new();
        let mut todo = vec![function];
        let mut opcodes = BTreeSet::new();
        while let Some(id) = todo.pop() {
            if !seen.insert(id) {
                continue;
            }
            let body = functions.get(&id).ok_or(Error::NoFunction { id })?;
            for i in body.iter() {
                opcodes.insert(i.opcode);
                if i.opcode == opcode::FUNCTION_CALL {
                    todo.push(i.operand(2)?);
                }
            }
        }
        Ok(opcodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(opcode: u16, operands: &[u32]) -> Vec<u32> {
        let mut v = vec![((operands.len() as u32 + 1) << 16) | opcode as u32];
        v.extend_from_slice(operands);
        v
    }

    fn string(s: &str) -> Vec<u32> {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        b.resize(b.len().div_ceil(4) * 4, 0);
        b.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// A kernel `k` (%1) calling %2, which shuffles; %3 does a shuffle_xor nobody calls.
    fn module_words() -> Vec<u32> {
        let (void, fnty) = (10, 11);
        let mut w = vec![MAGIC, 0x0001_0200, 7, 20, 0];
        w.extend(inst(opcode::CAPABILITY, &[SUBGROUP_SHUFFLE_INTEL.number]));
        w.extend(inst(opcode::CAPABILITY, &[6])); // Kernel
        w.extend(inst(opcode::EXTENSION, &string(SPV_INTEL_SUBGROUPS)));
        let mut ep = vec![EXECUTION_MODEL_KERNEL, 1];
        ep.extend(string("k"));
        w.extend(inst(opcode::ENTRY_POINT, &ep));
        w.extend(inst(
            opcode::EXECUTION_MODE,
            &[1, EXECUTION_MODE_SUBGROUP_SIZE, 16],
        ));
        w.extend(inst(19, &[void])); // OpTypeVoid
        w.extend(inst(33, &[fnty, void])); // OpTypeFunction
        for (id, body) in [
            (1u32, (57u16, vec![void, 12, 2])),
            (2, (5571, vec![13, 14, 15, 16])),
            (3, (5574, vec![13, 17, 15, 16])),
        ] {
            w.extend(inst(opcode::FUNCTION, &[void, id, 0, fnty]));
            w.extend(inst(248, &[100 + id])); // OpLabel
            w.extend(inst(body.0, &body.1));
            w.extend(inst(253, &[])); // OpReturn
            w.extend(inst(opcode::FUNCTION_END, &[]));
        }
        w
    }

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn reads_a_hand_made_module() {
        let m = parse(&bytes(&module_words())).unwrap();
        assert_eq!((m.version, m.generator, m.bound), ((1, 2), 7, 20));
        assert_eq!(
            m.capabilities().unwrap(),
            BTreeSet::from([6, SUBGROUP_SHUFFLE_INTEL.number])
        );
        assert_eq!(
            m.extensions().unwrap(),
            vec![SPV_INTEL_SUBGROUPS.to_string()]
        );
        let ep = m.entry_points().unwrap();
        assert_eq!(
            ep,
            vec![EntryPoint {
                model: EXECUTION_MODEL_KERNEL,
                function: 1,
                name: "k".into()
            }]
        );
        assert_eq!(
            m.execution_modes(1).unwrap(),
            vec![(EXECUTION_MODE_SUBGROUP_SIZE, vec![16])]
        );
        let reached = m.reached_opcodes(1).unwrap();
        assert!(reached.contains(&5571) && reached.contains(&opcode::FUNCTION_CALL));
        assert!(!reached.contains(&5574), "%3 is never called");
        assert!(m.reached_opcodes(3).unwrap().contains(&5574));
        assert_eq!(m.reached_opcodes(9), Err(Error::NoFunction { id: 9 }));
    }

    #[test]
    fn reads_big_endian_modules_alike() {
        let le = parse(&bytes(&module_words())).unwrap();
        let be: Vec<u8> = module_words()
            .iter()
            .flat_map(|w| w.to_be_bytes())
            .collect();
        assert_eq!(parse(&be).unwrap(), le);
    }

    #[test]
    fn malformed_modules_are_errors_with_offsets() {
        let good = module_words();
        assert_eq!(parse(&[0; 19]), Err(Error::Length { bytes: 19 }));
        assert_eq!(parse(&bytes(&good)[..22]), Err(Error::Length { bytes: 22 }));
        let mut w = good.clone();
        w[0] = 0x1234_5678;
        assert_eq!(parse(&bytes(&w)), Err(Error::Magic { found: 0x1234_5678 }));
        let mut w = good.clone();
        w[4] = 1;
        assert_eq!(parse(&bytes(&w)), Err(Error::Schema { found: 1 }));
        let mut w = good.clone();
        w[5] &= 0xffff;
        assert_eq!(parse(&bytes(&w)), Err(Error::WordCount { at: 20 }));
        // The last instruction (OpFunctionEnd, one word) claims two.
        let mut w = good.clone();
        let last = w.len() - 1;
        w[last] = (2 << 16) | opcode::FUNCTION_END as u32;
        assert_eq!(
            parse(&bytes(&w)),
            Err(Error::Truncated {
                at: last * 4,
                words: 2
            })
        );
        // Without its last OpFunctionEnd the module parses but its functions do not.
        let m = parse(&bytes(&good[..last])).unwrap();
        assert!(matches!(m.reached_opcodes(1), Err(Error::Nesting { .. })));
        // An extension string whose NUL is missing.
        let mut w = vec![MAGIC, 0x0001_0000, 0, 1, 0];
        w.extend(inst(opcode::EXTENSION, &[u32::from_le_bytes(*b"SPV_")]));
        let m = parse(&bytes(&w)).unwrap();
        assert_eq!(m.extensions(), Err(Error::String { at: 20 }));
        // An entry point with no operands.
        let mut w = vec![MAGIC, 0x0001_0000, 0, 1, 0];
        w.extend(inst(opcode::ENTRY_POINT, &[]));
        let m = parse(&bytes(&w)).unwrap();
        assert_eq!(
            m.entry_points(),
            Err(Error::Operands {
                at: 20,
                opcode: opcode::ENTRY_POINT
            })
        );
    }

    #[test]
    fn never_panics_on_damaged_modules() {
        let good = bytes(&module_words());
        let mut rng = crate::rng::Rng::new(7);
        for n in 0..2000 {
            let mut b = good[..good.len() - (n % 40)].to_vec();
            for _ in 0..1 + n % 4 {
                let i = rng.below(b.len() as u64) as usize;
                b[i] = rng.next_u64() as u8;
            }
            if let Ok(m) = parse(&b) {
                let _ = (m.capabilities(), m.extensions(), m.entry_points());
                for id in 0..5 {
                    let _ = (m.execution_modes(id), m.reached_opcodes(id));
                }
            }
        }
    }

    #[test]
    fn every_corpus_macro_maps_to_an_intel_op() {
        for (kind, name) in CORPUS_OPS {
            let op = corpus_op(kind).unwrap_or_else(|| panic!("{kind}: no {name}"));
            assert_eq!(op.name, name);
        }
        assert_eq!(corpus_op("BROADCAST"), None);
    }
}
