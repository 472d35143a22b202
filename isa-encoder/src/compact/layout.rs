//! The shape of a compaction scheme, as data: which compacted bits index which table, which
//! native bit ranges a table entry fills, which fields are copied verbatim, and how a compacted
//! immediate widens. `gen9_11.rs` and `gen12.rs` fill these in per platform; the engine in
//! `mod.rs` runs them in both directions.

use super::bits::Range;

/// Opcode bits, the same in both forms and on every supported platform.
pub(super) const OPCODE: Range = (6, 0);
/// CmptCtrl: set in a compacted instruction, clear in a native one (bit 29 of both).
pub(super) const CMPT_CONTROL: Range = (29, 29);

/// One native bit range that a table entry fills: entry bits `shift..shift+width` go to `native`.
#[derive(Debug)]
pub(super) struct Fragment {
    pub native: Range,
    pub shift: u8,
    /// The range lies inside the immediate when an operand is immediate: then it is not looked
    /// up, and the immediate (written last) decides its bits.
    pub under_imm: bool,
}

pub(super) const fn frag(hi: u8, lo: u8, shift: u8) -> Fragment {
    Fragment {
        native: (hi, lo),
        shift,
        under_imm: false,
    }
}

pub(super) const fn frag_under_imm(hi: u8, lo: u8, shift: u8) -> Fragment {
    Fragment {
        native: (hi, lo),
        shift,
        under_imm: true,
    }
}

/// A compacted index field and the table it selects from.
#[derive(Debug)]
pub(super) struct IndexField {
    pub compact: Range,
    pub table: &'static [u64],
    pub fragments: &'static [Fragment],
    /// The field holds immediate bits instead when an operand is immediate (Src1Index).
    pub absent_with_imm: bool,
}

/// A field copied bit for bit between the two forms.
#[derive(Debug)]
pub(super) struct DirectField {
    pub compact: Range,
    pub native: Range,
    /// The field holds immediate bits instead when an operand is immediate (Src1.RegNum).
    pub absent_with_imm: bool,
}

pub(super) const fn direct(compact: Range, native: Range) -> DirectField {
    DirectField {
        compact,
        native,
        absent_with_imm: false,
    }
}

pub(super) const fn direct_not_imm(compact: Range, native: Range) -> DirectField {
    DirectField {
        compact,
        native,
        absent_with_imm: true,
    }
}

/// How the compacted immediate bits widen to the native 32-bit immediate, per operand type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ImmRule {
    /// Two's-complement sign extension of all compacted bits (Gen9/Gen11, every 32-bit type).
    SignExtend,
    /// Zero extension (Gen12 `:ud`, `:v`, `:uv`, `:vf`).
    ZeroExtend,
    /// The compacted bits are the 12 high bits of an `:f` (sign, exponent, 3 mantissa bits).
    FloatHigh,
    /// The compacted bits are the 12 high bits of an `:hf`, replicated into both halves.
    HalfFloatHigh,
    /// 12 bits widened to 16 (signed or not) and replicated into both halves (`:w`, `:uw`).
    Replicate16 { signed: bool },
    /// No compacted form (64-bit and byte immediates).
    None,
}

/// Where an operand says it is an immediate and what its type is (native ranges).
#[derive(Debug)]
pub(super) struct ImmOperand {
    /// The operand is immediate when this range holds `value`.
    pub is_imm: Range,
    pub value: u128,
    /// The operand's hardware type code.
    pub ty: Range,
    /// Fields of this operand that an immediate leaves unused: don't-care when compacting,
    /// zero in iga64's native encoding.
    pub unused: &'static [Range],
}

/// The immediate scheme of a two-source layout.
#[derive(Debug)]
pub(super) struct ImmSpec {
    /// Src0 then src1: the first that is immediate decides the type.
    pub operands: [ImmOperand; 2],
    /// Native range of the 32-bit immediate.
    pub native: Range,
    /// Compacted ranges holding the immediate, most significant first.
    pub compact: &'static [Range],
    /// Type code -> widening rule; types not listed have no compacted form.
    pub rules: &'static [(u8, ImmRule)],
}

/// One compacted instruction format.
#[derive(Debug)]
pub(super) struct Layout {
    pub index: &'static [IndexField],
    pub direct: &'static [DirectField],
    pub imm: Option<ImmSpec>,
}

/// Everything one platform's compaction needs.
#[derive(Debug)]
pub(super) struct Scheme {
    pub two_src: Layout,
    /// The 3-source compacted format and the opcodes that use it, where the platform has one.
    pub three_src: Option<(&'static [u8], Layout)>,
    /// Opcodes iga64 refuses to decode or produce in compacted form (sends, branches, ...).
    pub no_compacted_form: &'static [u8],
    /// Opcodes whose src1 operand is absent: iga64 treats `src1_fields` as don't-care when it
    /// compacts them, and writes them as zero when it encodes the native form.
    pub unary: &'static [u8],
    /// The math opcode, its function-control range and the single-source functions.
    pub unary_math: Option<(u8, Range, &'static [u8])>,
    pub src1_fields: &'static [Range],
}
