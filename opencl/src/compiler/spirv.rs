//! SPIR-V modules as clCreateProgramWithIL takes them: their version, checked against the
//! versions the device reports before the compiler sees the module, and their specialization
//! constants (OpenCL 3.0 clSetProgramSpecializationConstant): the values an application sets
//! become the constants' default values in the module handed to the compiler, which then
//! compiles it as if it had been written with them. Layout facts from the SPIR-V
//! specification: a 5-word header (magic, version, generator, bound, schema), then instructions
//! whose first word holds the word count (high 16 bits) and opcode (low 16 bits), in the byte
//! order of the magic number.

use std::collections::BTreeMap;

pub(crate) const MAGIC: u32 = 0x0723_0203;
pub(crate) const HEADER_WORDS: usize = 5;

const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_SPEC_CONSTANT_TRUE: u32 = 48;
const OP_SPEC_CONSTANT_FALSE: u32 = 49;
const OP_SPEC_CONSTANT: u32 = 50;
pub(crate) const OP_DECORATE: u32 = 71;
const DECORATION_SPEC_ID: u32 = 1;

/// Why a module cannot be specialized.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpirvError {
    #[error("not a SPIR-V module (no magic number)")]
    NotSpirv,
    #[error("the SPIR-V module is truncated or malformed at word {0}")]
    Malformed(usize),
    #[error("no specialization constant has SpecId {0}")]
    UnknownId(u32),
    #[error("specialization constant {id} takes {expected} bytes, not {given}")]
    Size {
        id: u32,
        expected: usize,
        given: usize,
    },
}

/// The type of a specialization constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Int { width: u32, signed: bool },
    Float { width: u32 },
}

impl Kind {
    /// The size clSetProgramSpecializationConstant's `spec_size` must give: 1 for a boolean,
    /// the type's width otherwise.
    pub fn size(self) -> usize {
        match self {
            Kind::Bool => 1,
            Kind::Int { width, .. } | Kind::Float { width } => width.div_ceil(8) as usize,
        }
    }
}

/// One specialization constant: its type and where its defining instruction starts (word
/// index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Constant {
    kind: Kind,
    at: usize,
}

/// A module's words in host order, and whether its file is byte-swapped.
pub(crate) struct Words {
    words: Vec<u32>,
    swapped: bool,
}

impl Words {
    pub(crate) fn read(il: &[u8]) -> Result<Words, SpirvError> {
        if il.len() < HEADER_WORDS * 4 || !il.len().is_multiple_of(4) {
            return Err(SpirvError::NotSpirv);
        }
        let first = u32::from_le_bytes([il[0], il[1], il[2], il[3]]);
        let swapped = match first {
            MAGIC => false,
            m if m.swap_bytes() == MAGIC => true,
            _ => return Err(SpirvError::NotSpirv),
        };
        let words = il
            .chunks_exact(4)
            .map(|c| {
                let w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                if swapped {
                    w.swap_bytes()
                } else {
                    w
                }
            })
            .collect();
        Ok(Words { words, swapped })
    }

    fn bytes(&self) -> Vec<u8> {
        self.words
            .iter()
            .flat_map(|w| if self.swapped { w.swap_bytes() } else { *w }.to_le_bytes())
            .collect()
    }

    /// Each instruction as (start word, opcode, operands).
    pub(crate) fn instructions(
        &self,
    ) -> impl Iterator<Item = Result<(usize, u32, &[u32]), SpirvError>> {
        let mut at = HEADER_WORDS;
        std::iter::from_fn(move || {
            if at >= self.words.len() {
                return None;
            }
            let head = self.words[at];
            let count = (head >> 16) as usize;
            if count == 0 || at + count > self.words.len() {
                at = self.words.len();
                return Some(Err(SpirvError::Malformed(at)));
            }
            let start = at;
            at += count;
            Some(Ok((
                start,
                head & 0xffff,
                &self.words[start + 1..start + count],
            )))
        })
    }
}

/// The specialization constants of a module by SpecId.
fn constants(w: &Words) -> Result<BTreeMap<u32, Constant>, SpirvError> {
    let mut spec_ids = BTreeMap::new(); // result id -> SpecId
    let mut types = BTreeMap::new(); // type id -> kind
    let mut defined = Vec::new(); // (result id, type id, start)
    for inst in w.instructions() {
        let (at, op, ops) = inst?;
        let malformed = || SpirvError::Malformed(at);
        match op {
            OP_DECORATE if ops.get(1) == Some(&DECORATION_SPEC_ID) => {
                spec_ids.insert(ops[0], *ops.get(2).ok_or_else(malformed)?);
            }
            OP_TYPE_BOOL => {
                types.insert(*ops.first().ok_or_else(malformed)?, Kind::Bool);
            }
            OP_TYPE_INT if ops.len() >= 3 && [8, 16, 32, 64].contains(&ops[1]) => {
                types.insert(
                    ops[0],
                    Kind::Int {
                        width: ops[1],
                        signed: ops[2] != 0,
                    },
                );
            }
            OP_TYPE_FLOAT if ops.len() >= 2 && [16, 32, 64].contains(&ops[1]) => {
                types.insert(ops[0], Kind::Float { width: ops[1] });
            }
            OP_SPEC_CONSTANT_TRUE | OP_SPEC_CONSTANT_FALSE | OP_SPEC_CONSTANT => {
                if ops.len() < 2 {
                    return Err(malformed());
                }
                defined.push((ops[1], ops[0], at));
            }
            // Widths SPIR-V's OpenCL environment does not have.
            OP_TYPE_INT | OP_TYPE_FLOAT => return Err(malformed()),
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    for (id, ty, at) in defined {
        let Some(&spec_id) = spec_ids.get(&id) else {
            continue;
        };
        let kind = *types.get(&ty).ok_or(SpirvError::Malformed(at))?;
        out.insert(spec_id, Constant { kind, at });
    }
    Ok(out)
}

/// The SPIR-V version (major, minor) in `il`'s header.
pub fn version(il: &[u8]) -> Result<(u32, u32), SpirvError> {
    let v = Words::read(il)?.words[1];
    Ok(((v >> 16) & 0xff, (v >> 8) & 0xff))
}

/// The specialization constants `il` declares, by SpecId.
pub fn declared(il: &[u8]) -> Result<BTreeMap<u32, Kind>, SpirvError> {
    let w = Words::read(il)?;
    Ok(constants(&w)?
        .into_iter()
        .map(|(id, c)| (id, c.kind))
        .collect())
}

/// Checks a value for SpecId `id` as clSetProgramSpecializationConstant must.
pub fn check(il: &[u8], id: u32, size: usize) -> Result<(), SpirvError> {
    let kind = *declared(il)?.get(&id).ok_or(SpirvError::UnknownId(id))?;
    if kind.size() != size {
        return Err(SpirvError::Size {
            id,
            expected: kind.size(),
            given: size,
        });
    }
    Ok(())
}

/// `il` with the given values (host-order bytes by SpecId, each checked by [`check`]) as its
/// specialization constants' defaults. Unset constants keep theirs.
pub fn specialize(il: &[u8], values: &BTreeMap<u32, Vec<u8>>) -> Result<Vec<u8>, SpirvError> {
    if values.is_empty() {
        return Ok(il.to_vec());
    }
    let mut w = Words::read(il)?;
    let found = constants(&w)?;
    for (id, value) in values {
        let c = found.get(id).ok_or(SpirvError::UnknownId(*id))?;
        if c.kind.size() != value.len() {
            return Err(SpirvError::Size {
                id: *id,
                expected: c.kind.size(),
                given: value.len(),
            });
        }
        let head = w.words[c.at];
        let count = (head >> 16) as usize;
        match c.kind {
            Kind::Bool => {
                let op = if value[0] != 0 {
                    OP_SPEC_CONSTANT_TRUE
                } else {
                    OP_SPEC_CONSTANT_FALSE
                };
                w.words[c.at] = (head & 0xffff_0000) | op;
            }
            Kind::Int { width, signed } => {
                let literal = literal_words(value, width, signed);
                write_literal(&mut w.words, c.at, count, &literal)?;
            }
            Kind::Float { width } => {
                let literal = literal_words(value, width, false);
                write_literal(&mut w.words, c.at, count, &literal)?;
            }
        }
    }
    Ok(w.bytes())
}

/// A value as SPIR-V literal words: low-order word first; below 32 bits in the low bits of one
/// word, zero-extended, or sign-extended for a signed integer.
fn literal_words(value: &[u8], width: u32, signed: bool) -> Vec<u32> {
    let mut bytes = [0u8; 8];
    bytes[..value.len()].copy_from_slice(value);
    let raw = u64::from_ne_bytes(bytes);
    let v = if signed && width < 64 {
        let shift = 64 - width;
        (((raw << shift) as i64) >> shift) as u64
    } else {
        raw
    };
    if width > 32 {
        vec![v as u32, (v >> 32) as u32]
    } else {
        vec![v as u32]
    }
}

/// Puts `literal` in the OpSpecConstant at `at` (of `count` words: opcode, type, id, value).
fn write_literal(
    words: &mut [u32],
    at: usize,
    count: usize,
    literal: &[u32],
) -> Result<(), SpirvError> {
    if count != 3 + literal.len() {
        return Err(SpirvError::Malformed(at));
    }
    words[at + 3..at + count].copy_from_slice(literal);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(op: u32, ops: &[u32]) -> Vec<u32> {
        let mut v = vec![((ops.len() as u32 + 1) << 16) | op];
        v.extend_from_slice(ops);
        v
    }

    /// A module with a bool (SpecId 0), a signed char (1), an unsigned long (2), a half (3)
    /// and an undecorated constant.
    fn module() -> Vec<u32> {
        let mut w = vec![MAGIC, 0x0001_0000, 0, 100, 0];
        w.extend(inst(OP_DECORATE, &[10, DECORATION_SPEC_ID, 0]));
        w.extend(inst(OP_DECORATE, &[11, DECORATION_SPEC_ID, 1]));
        w.extend(inst(OP_DECORATE, &[12, DECORATION_SPEC_ID, 2]));
        w.extend(inst(OP_DECORATE, &[13, DECORATION_SPEC_ID, 3]));
        w.extend(inst(OP_TYPE_BOOL, &[1]));
        w.extend(inst(OP_TYPE_INT, &[2, 8, 1]));
        w.extend(inst(OP_TYPE_INT, &[3, 64, 0]));
        w.extend(inst(OP_TYPE_FLOAT, &[4, 16]));
        w.extend(inst(OP_SPEC_CONSTANT_FALSE, &[1, 10]));
        w.extend(inst(OP_SPEC_CONSTANT, &[2, 11, 5]));
        w.extend(inst(OP_SPEC_CONSTANT, &[3, 12, 7, 0]));
        w.extend(inst(OP_SPEC_CONSTANT, &[4, 13, 0x3c00]));
        w.extend(inst(OP_SPEC_CONSTANT, &[2, 14, 9]));
        w
    }

    fn bytes(words: &[u32], swapped: bool) -> Vec<u8> {
        words
            .iter()
            .flat_map(|w| {
                if swapped {
                    w.to_be_bytes()
                } else {
                    w.to_le_bytes()
                }
            })
            .collect()
    }

    #[test]
    fn declares_decorated_constants_with_their_sizes() {
        for swapped in [false, true] {
            let d = declared(&bytes(&module(), swapped)).unwrap();
            let sizes: Vec<(u32, usize)> = d.iter().map(|(i, k)| (*i, k.size())).collect();
            assert_eq!(sizes, [(0, 1), (1, 1), (2, 8), (3, 2)]);
        }
    }

    #[test]
    fn values_become_defaults_in_the_module_byte_order() {
        for swapped in [false, true] {
            let il = bytes(&module(), swapped);
            let values = BTreeMap::from([
                (0, vec![1u8]),
                (1, vec![0xfeu8]), // -2: sign-extended (SPIR-V literal rule)
                (2, 0x1_0000_0002u64.to_ne_bytes().to_vec()),
                (3, 0x4000u16.to_ne_bytes().to_vec()),
            ]);
            let out = specialize(&il, &values).unwrap();
            let mut expect = module();
            let find = |w: &[u32], op: u32, id: u32| {
                Words {
                    words: w.to_vec(),
                    swapped: false,
                }
                .instructions()
                .map(Result::unwrap)
                .find(|(_, o, ops)| {
                    (*o == op || (op == OP_SPEC_CONSTANT_FALSE && *o == OP_SPEC_CONSTANT_TRUE))
                        && ops[1] == id
                })
                .unwrap()
                .0
            };
            let b = find(&expect, OP_SPEC_CONSTANT_FALSE, 10);
            expect[b] = (3 << 16) | OP_SPEC_CONSTANT_TRUE;
            let c = find(&expect, OP_SPEC_CONSTANT, 11);
            expect[c + 3] = 0xffff_fffe;
            let l = find(&expect, OP_SPEC_CONSTANT, 12);
            expect[l + 3..l + 5].copy_from_slice(&[2, 1]);
            let h = find(&expect, OP_SPEC_CONSTANT, 13);
            expect[h + 3] = 0x4000;
            assert_eq!(out, bytes(&expect, swapped));
        }
    }

    #[test]
    fn reads_the_header_version() {
        let mut w = module();
        w[1] = 0x0001_0300;
        assert_eq!(version(&bytes(&w, false)), Ok((1, 3)));
        assert_eq!(version(&bytes(&w, true)), Ok((1, 3)));
    }

    #[test]
    fn checks_ids_and_sizes() {
        let il = bytes(&module(), false);
        assert_eq!(check(&il, 2, 8), Ok(()));
        assert_eq!(check(&il, 9, 4), Err(SpirvError::UnknownId(9)));
        assert!(matches!(check(&il, 2, 4), Err(SpirvError::Size { .. })));
        assert!(matches!(check(&il, 0, 4), Err(SpirvError::Size { .. })));
    }

    #[test]
    fn malformed_modules_are_errors_not_panics() {
        let good = bytes(&module(), false);
        assert_eq!(declared(&good[..12]), Err(SpirvError::NotSpirv));
        // Every truncation at a word boundary and every corrupted word either parses or errs.
        for n in (HEADER_WORDS * 4..good.len()).step_by(4) {
            let _ = declared(&good[..n]);
        }
        for i in HEADER_WORDS..module().len() {
            for v in [0, 1, 0xffff_ffff, 0x0001_0032, 0x0002_0032] {
                let mut w = module();
                w[i] = v;
                let il = bytes(&w, false);
                let _ = declared(&il);
                let _ = specialize(&il, &BTreeMap::from([(1, vec![1u8])]));
            }
        }
    }
}
