//! Compaction: the 64-bit compacted instruction forms and the 128-bit native forms they stand
//! for, converted bit to bit with each platform's index tables. No instruction model is needed.
//!
//! A compacted instruction keeps a few fields verbatim (opcode, register numbers, SWSB) and
//! replaces the rest by indices into small tables of common bit patterns. [`expand`] reads the
//! tables; [`compact`] searches them and then re-expands its result, so it compacts exactly
//! when every native bit is reproduced — which is also when iga64 compacts (verified against
//! iga64's `-Xautocompact` in `tests/compaction.rs`).
//!
//! Per platform: Gen9 has 2- and 3-source compacted formats, Gen11 only the 2-source one,
//! Gen12LP and Xe-HPG both (with Xe-HPG's own source-region tables).

mod bits;
mod gen12;
mod gen9_11;
mod layout;
mod placed;
mod tables_gen12;
mod tables_gen9_11;

use platform::Platform;

use bits::{get, set, width, Range};
use layout::{ImmOperand, ImmRule, ImmSpec, Layout, Scheme, CMPT_CONTROL, OPCODE};
use placed::{placed, Care, PlacedLayout};

/// Why a 64-bit word does not expand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompactError {
    /// CmptCtrl (bit 29) is clear: the word starts a 128-bit native instruction.
    #[error("not a compacted instruction (CmptCtrl, bit 29, is clear)")]
    NotCompacted,
    /// The opcode exists only in native form on this platform (e.g. send, branches).
    #[error("opcode {opcode:#04x} has no compacted form on {platform}")]
    NoCompactedForm { opcode: u8, platform: Platform },
}

fn scheme(platform: Platform) -> &'static Scheme {
    match platform {
        Platform::Skl => &gen9_11::GEN9,
        Platform::Icllp => &gen9_11::GEN11,
        Platform::Tgllp => &gen12::GEN12LP,
        Platform::Dg2 => &gen12::XEHPG,
    }
}

/// True when the instruction starting with `first_dword` (little-endian bytes 0..4) is
/// compacted, i.e. 8 bytes long rather than 16. Same bit on every platform.
pub fn is_compacted(first_dword: [u8; 4]) -> bool {
    u32::from_le_bytes(first_dword) & (1 << CMPT_CONTROL.0) != 0
}

/// Expands a compacted instruction to its native 128-bit form, as iga64 encodes that
/// instruction without compaction.
pub fn expand(platform: Platform, compacted: &[u8; 8]) -> Result<[u8; 16], CompactError> {
    let c = u128::from(u64::from_le_bytes(*compacted));
    if get(c, CMPT_CONTROL) == 0 {
        return Err(CompactError::NotCompacted);
    }
    let s = scheme(platform);
    let opcode = get(c, OPCODE) as u8;
    if s.no_compacted_form.contains(&opcode) {
        return Err(CompactError::NoCompactedForm { opcode, platform });
    }
    Ok(expand_word(platform, s, c).to_le_bytes())
}

/// Compacts a native instruction when the platform's tables can represent every one of its
/// bits; `None` when iga64 would leave it native.
pub fn compact(platform: Platform, native: &[u8; 16]) -> Option<[u8; 8]> {
    let n = u128::from_le_bytes(*native);
    if get(n, CMPT_CONTROL) != 0 {
        return None;
    }
    let s = scheme(platform);
    let opcode = get(n, OPCODE) as u8;
    if s.no_compacted_form.contains(&opcode) {
        return None;
    }
    let (layout, fields) = layout_for(platform, s, opcode);
    let imm = layout.imm.as_ref().and_then(|spec| immediate(spec, n));
    let case = match imm {
        Some((0, _, _)) => Care::ImmSrc0,
        Some(_) => Care::ImmSrc1,
        None if has_no_src1(s, n) => Care::NoSrc1,
        None => Care::All,
    };
    let mut c = 0u128;
    for (field, placed) in layout.index.iter().zip(fields) {
        if imm.is_some() && field.absent_with_imm {
            continue;
        }
        let care = placed.care[case as usize];
        let key = n & care;
        let index = if care == placed.mask {
            placed.find_exact(key)?
        } else {
            placed.entries.iter().position(|&e| e & care == key)?
        };
        c = set(c, field.compact, index as u128);
    }
    for d in layout.direct {
        if !(imm.is_some() && d.absent_with_imm) {
            c = set(c, d.compact, get(n, d.native));
        }
    }
    if let (Some(spec), Some((_, _, ty))) = (&layout.imm, imm) {
        let value = get(n, spec.native) as u32;
        let bits = compact_imm_bits(spec);
        let code = narrow_imm(rule(spec, ty), value, bits)?;
        c = write_imm(spec, c, code);
    }
    c = set(c, CMPT_CONTROL, 1);
    // Compacting is searching; the expansion is the definition. Anything the tables cannot
    // reproduce (reserved bits, unmapped high register bits) stays native.
    (expand_word(platform, s, c) == n).then(|| (c as u64).to_le_bytes())
}

/// The layout an opcode's compacted form uses, with its placed index tables.
fn layout_for(
    platform: Platform,
    s: &'static Scheme,
    opcode: u8,
) -> (&'static Layout, &'static PlacedLayout) {
    let placed = placed(platform, s);
    match (&s.three_src, &placed.three_src) {
        (Some((opcodes, layout)), Some(fields)) if opcodes.contains(&opcode) => (layout, fields),
        _ => (&s.two_src, &placed.two_src),
    }
}

fn expand_word(platform: Platform, s: &'static Scheme, c: u128) -> u128 {
    let opcode = get(c, OPCODE) as u8;
    let (layout, fields) = layout_for(platform, s, opcode);
    let mut n = 0u128;
    for (field, placed) in layout.index.iter().zip(fields) {
        n = (n & !placed.mask) | placed.entries[get(c, field.compact) as usize];
    }
    for d in layout.direct {
        n = set(n, d.native, get(c, d.compact));
    }
    let imm = layout.imm.as_ref().and_then(|spec| immediate(spec, n));
    if let (Some(spec), Some((_, _, ty))) = (&layout.imm, imm) {
        let code = read_imm(spec, c);
        let value = widen_imm(rule(spec, ty), code, compact_imm_bits(spec));
        n = set(n, spec.native, u128::from(value));
    }
    for &r in unused_fields(s, imm, n) {
        n = set(n, r, 0);
    }
    n
}

/// Native fields the instruction does not use (an immediate's operand fields, or src1 of a
/// single-source instruction): iga64 writes them as zero and ignores them when compacting.
fn unused_fields(s: &Scheme, imm: Option<(usize, &ImmOperand, u8)>, n: u128) -> &'static [Range] {
    match imm {
        Some((_, operand, _)) => operand.unused,
        None if has_no_src1(s, n) => s.src1_fields,
        None => &[],
    }
}

/// True for opcodes (and math functions) that read no src1: iga64 leaves its fields zero.
fn has_no_src1(s: &Scheme, n: u128) -> bool {
    let opcode = get(n, OPCODE) as u8;
    if s.unary.contains(&opcode) {
        return true;
    }
    match s.unary_math {
        Some((math, fc, unary)) if math == opcode => unary.contains(&(get(n, fc) as u8)),
        _ => false,
    }
}

/// The immediate operand (its index: 0 for src0, 1 for src1) and its type code, if the
/// instruction has one.
fn immediate(spec: &ImmSpec, n: u128) -> Option<(usize, &ImmOperand, u8)> {
    spec.operands
        .iter()
        .enumerate()
        .find(|(_, o)| get(n, o.is_imm) == o.value)
        .map(|(k, o)| (k, o, get(n, o.ty) as u8))
}

fn rule(spec: &ImmSpec, ty: u8) -> ImmRule {
    spec.rules
        .iter()
        .find(|(code, _)| *code == ty)
        .map_or(ImmRule::None, |(_, r)| *r)
}

fn compact_imm_bits(spec: &ImmSpec) -> u32 {
    spec.compact.iter().map(|&r| u32::from(width(r))).sum()
}

fn read_imm(spec: &ImmSpec, c: u128) -> u32 {
    spec.compact
        .iter()
        .fold(0u32, |acc, &r| (acc << width(r)) | get(c, r) as u32)
}

fn write_imm(spec: &ImmSpec, mut c: u128, code: u32) -> u128 {
    let mut shift = compact_imm_bits(spec);
    for &r in spec.compact {
        shift -= u32::from(width(r));
        c = set(c, r, u128::from(code >> shift));
    }
    c
}

fn sign_extend(code: u32, bits: u32) -> u32 {
    let unused = 32 - bits;
    (((code << unused) as i32) >> unused) as u32
}

/// The native 32-bit immediate a compacted immediate of `bits` bits stands for.
fn widen_imm(rule: ImmRule, code: u32, bits: u32) -> u32 {
    match rule {
        ImmRule::SignExtend => sign_extend(code, bits),
        // A type with no compacted form still decodes deterministically (iga64 rejects it).
        ImmRule::ZeroExtend | ImmRule::None => code,
        ImmRule::FloatHigh => code << (32 - bits),
        ImmRule::HalfFloatHigh => (code << (32 - bits)) | (code << (16 - bits)),
        ImmRule::Replicate16 { signed } => {
            let half = if signed {
                sign_extend(code, bits) & 0xffff
            } else {
                code
            };
            (half << 16) | half
        }
    }
}

/// The compacted immediate for a native one, if the rule can represent it exactly.
fn narrow_imm(rule: ImmRule, value: u32, bits: u32) -> Option<u32> {
    let low = value & ((1 << bits) - 1);
    let code = match rule {
        ImmRule::None => return None,
        ImmRule::SignExtend | ImmRule::ZeroExtend | ImmRule::Replicate16 { .. } => low,
        ImmRule::FloatHigh => value >> (32 - bits),
        ImmRule::HalfFloatHigh => (value >> (16 - bits)) & ((1 << bits) - 1),
    };
    (widen_imm(rule, code, bits) == value).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn immediate_rules_round_trip() {
        assert_eq!(widen_imm(ImmRule::SignExtend, 0x1fff, 13), 0xffff_ffff);
        assert_eq!(
            narrow_imm(ImmRule::SignExtend, 0xffff_f000, 13),
            Some(0x1000)
        );
        assert_eq!(narrow_imm(ImmRule::SignExtend, 0x0000_1000, 13), None);
        assert_eq!(narrow_imm(ImmRule::FloatHigh, 0x3f80_0000, 12), Some(0x3f8));
        assert_eq!(narrow_imm(ImmRule::FloatHigh, 0x3f80_0001, 12), None);
        assert_eq!(
            narrow_imm(ImmRule::HalfFloatHigh, 0x3c00_3c00, 12),
            Some(0x3c0)
        );
        assert_eq!(
            narrow_imm(ImmRule::Replicate16 { signed: true }, 0xffff_ffff, 12),
            Some(0xfff)
        );
        assert_eq!(
            narrow_imm(ImmRule::Replicate16 { signed: false }, 0x0005_0005, 12),
            Some(5)
        );
        assert_eq!(narrow_imm(ImmRule::ZeroExtend, 0x1000, 12), None);
        assert_eq!(narrow_imm(ImmRule::None, 0, 12), None);
    }

    #[test]
    fn native_words_do_not_expand() {
        for p in Platform::ALL {
            assert_eq!(
                expand(p, &[0x01, 0, 0, 0, 0, 0, 0, 0]),
                Err(CompactError::NotCompacted)
            );
        }
    }

    #[test]
    fn sends_have_no_compacted_form() {
        // send (0x31) with CmptCtrl set.
        let word = [0x31, 0, 0, 0x20, 0, 0, 0, 0];
        for p in Platform::ALL {
            assert_eq!(
                expand(p, &word),
                Err(CompactError::NoCompactedForm {
                    opcode: 0x31,
                    platform: p
                })
            );
        }
    }

    #[test]
    fn every_index_expands_and_compacts_back_somewhere() {
        // Table entries reachable through each index field: expanding any compacted word never
        // panics, and whatever compacts re-expands to the same native bits.
        for p in Platform::ALL {
            for raw in [0u64, u64::MAX, 0x5555_5555_5555_5555, 0xa5a5_0f0f_3c3c_9696] {
                let mut bytes = (raw | 1 << 29).to_le_bytes();
                bytes[0] = 0x40; // add
                if let Ok(native) = expand(p, &bytes) {
                    if let Some(again) = compact(p, &native) {
                        assert_eq!(expand(p, &again), Ok(native), "{p}");
                    }
                }
            }
        }
    }
}
