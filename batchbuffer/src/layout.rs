//! The data model every packet definition is made of: where a field sits on each generation,
//! what kind of value it holds, and the bit-level reads and writes.
//!
//! A [`Loc`] counts bits from the start of one dword, like genxml's `start`/`end` attributes
//! (genxml `start = 32 * dw + lo`); a field may run past bit 31 into the following dwords.

use platform::Platform;

/// A set of generations, as a bit per [`Platform`] (bit index = the enum's order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GenSet(pub u8);

/// Gen9 (Skylake).
pub const G9: GenSet = GenSet(1 << Platform::Skl as u8);
/// Gen11 (Ice Lake LP).
pub const G11: GenSet = GenSet(1 << Platform::Icllp as u8);
/// Gen12LP (Tiger Lake LP).
pub const G12: GenSet = GenSet(1 << Platform::Tgllp as u8);
/// Xe-HPG (DG2), genxml 12.5.
pub const G125: GenSet = GenSet(1 << Platform::Dg2 as u8);
/// Every supported generation.
pub const ALL: GenSet = GenSet(G9.0 | G11.0 | G12.0 | G125.0);

impl GenSet {
    /// True when `p` belongs to the set.
    pub const fn contains(self, p: Platform) -> bool {
        self.0 & (1 << p as u8) != 0
    }
}

/// Where a field lives: bits `lo..=hi` counted from the first bit of dword `dw`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc {
    /// Dword index inside the packet or struct.
    pub dw: u16,
    /// First bit, counted from bit 0 of `dw` (always < 32).
    pub lo: u16,
    /// Last bit, counted from bit 0 of `dw` (may exceed 31 for multi-dword fields).
    pub hi: u16,
}

impl Loc {
    /// A location; `lo` and `hi` count from bit 0 of dword `dw`.
    pub const fn new(dw: u16, lo: u16, hi: u16) -> Loc {
        Loc { dw, lo, hi }
    }
    /// Width in bits.
    pub const fn width(self) -> u32 {
        (self.hi - self.lo + 1) as u32
    }
    /// genxml's `start` attribute (bit index from the start of the packet).
    pub const fn start(self) -> u32 {
        self.dw as u32 * 32 + self.lo as u32
    }
    /// genxml's `end` attribute.
    pub const fn end(self) -> u32 {
        self.dw as u32 * 32 + self.hi as u32
    }
    /// Dwords spanned from dword 0 of the packet to this field's last bit.
    pub const fn dwords_needed(self) -> usize {
        (self.end() / 32 + 1) as usize
    }
}

/// How a field's value maps to its bits (genxml's `type` attribute, reduced to what matters
/// for packing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Unsigned integer, stored shifted down to bit `lo`.
    Uint,
    /// Two's-complement signed integer.
    Int,
    /// One bit.
    Bool,
    /// Graphics address, stored in place: its low `lo` bits must be zero (genxml `address`).
    Address,
    /// Offset or pointer, stored in place like an address (genxml `offset`).
    Offset,
    /// A value from a named list (genxml `<value>` lists and top-level enums).
    Enum,
    /// An embedded struct laid out from bit 0 of `dw` (genxml struct-typed fields).
    Struct,
    /// Consecutive whole dwords (a genxml `<group>` of one 32-bit field).
    Dwords,
    /// An open-ended trailing group (genxml `<group count="0">`): elements laid out like the
    /// `nested` layout, one every `width / 32` dwords from `dw` to the end of the packet, as many
    /// as the DWord Length says.
    Repeated,
    /// A header field with a fixed value (command type, opcodes).
    Const(u64),
    /// The header's DWord Length field: packet length in dwords minus this bias.
    Length(u8),
}

/// One field of a packet or struct.
#[derive(Debug, Clone, Copy)]
pub struct FieldDesc {
    /// The field's name, exactly as genxml spells it.
    pub name: &'static str,
    /// How the value is stored.
    pub kind: Kind,
    /// Where the field is, per set of generations; absent generations lack the field.
    pub locs: &'static [(GenSet, Loc)],
    /// Value names for [`Kind::Enum`] fields.
    pub values: &'static [(u64, &'static str)],
    /// Layout of a [`Kind::Struct`] field, or of one element of a [`Kind::Repeated`] group.
    pub nested: Option<&'static Layout>,
}

impl FieldDesc {
    /// The field's location on `p`, or `None` when the field does not exist there.
    pub fn loc(&self, p: Platform) -> Option<Loc> {
        find_loc(self.locs, p)
    }
    /// The name of enum value `v`, if it has one.
    pub fn value_name(&self, v: u64) -> Option<&'static str> {
        self.values.iter().find(|(x, _)| *x == v).map(|(_, n)| *n)
    }
}

/// The layout of one packet (a command, with header fields) or struct (no header).
#[derive(Debug)]
pub struct Layout {
    /// genxml's name: `PIPE_CONTROL`, `INTERFACE_DESCRIPTOR_DATA`, ...
    pub name: &'static str,
    /// Length in dwords per set of generations; the packet exists exactly on these.
    pub len: &'static [(GenSet, u16)],
    /// Every field, header fields first.
    pub fields: &'static [FieldDesc],
}

impl Layout {
    /// The packet's (default) length in dwords on `p`, or `None` when it does not exist there.
    pub fn len_on(&self, p: Platform) -> Option<usize> {
        self.len
            .iter()
            .find(|(g, _)| g.contains(p))
            .map(|(_, n)| *n as usize)
    }
    /// True for commands (packets with a fixed-value header), false for memory structs.
    pub fn is_command(&self) -> bool {
        self.fields.iter().any(|f| matches!(f.kind, Kind::Const(_)))
    }
    /// The field named `name` (genxml spelling).
    pub fn field(&self, name: &str) -> Option<&'static FieldDesc> {
        self.fields.iter().find(|f| f.name == name)
    }
    /// The header fields with fixed values on `p` as a (mask, value) pair over dword 0.
    pub fn header_match(&self, p: Platform) -> (u32, u32) {
        let mut mask = 0u32;
        let mut value = 0u32;
        for f in self.fields {
            if let (Kind::Const(v), Some(loc)) = (f.kind, f.loc(p)) {
                if loc.dw == 0 && loc.hi < 32 {
                    let m = low_mask(loc.width()) as u32;
                    mask |= m << loc.lo;
                    value |= ((v as u32) & m) << loc.lo;
                }
            }
        }
        (mask, value)
    }
    /// The DWord Length field and its bias on `p`, when the packet has one.
    pub fn length_field(&self, p: Platform) -> Option<(Loc, u8)> {
        self.fields.iter().find_map(|f| match f.kind {
            Kind::Length(bias) => f.loc(p).map(|l| (l, bias)),
            _ => None,
        })
    }
}

pub(crate) fn find_loc(locs: &[(GenSet, Loc)], p: Platform) -> Option<Loc> {
    locs.iter().find(|(g, _)| g.contains(p)).map(|(_, l)| *l)
}

/// A mask of the low `bits` bits (`bits` ≤ 64).
pub const fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Reads up to 64 bits at `loc`; dwords past the end of `dw` read as zero.
pub fn read_bits(dw: &[u32], loc: Loc) -> u64 {
    let (start, end) = (loc.start(), loc.end());
    let mut v = 0u64;
    let mut bit = start;
    while bit <= end && bit - start < 64 {
        let off = bit % 32;
        let n = (32 - off).min(end - bit + 1);
        let word = dw.get((bit / 32) as usize).copied().unwrap_or(0) as u64;
        v |= ((word >> off) & low_mask(n)) << (bit - start);
        bit += n;
    }
    v
}

/// ORs `v` (already range-checked) into the bits at `loc`. Returns false when a nonzero part
/// falls past the end of `dw`.
pub fn or_bits(dw: &mut [u32], loc: Loc, v: u64) -> bool {
    let (start, end) = (loc.start(), loc.end());
    let mut bit = start;
    while bit <= end && bit - start < 64 {
        let off = bit % 32;
        let n = (32 - off).min(end - bit + 1);
        let part = (v >> (bit - start)) & low_mask(n);
        match dw.get_mut((bit / 32) as usize) {
            Some(w) => *w |= (part as u32) << off,
            None if part != 0 => return false,
            None => {}
        }
        bit += n;
    }
    true
}

/// Replaces the bits at `loc` with `v` (truncated to the field's width); bits past the end of
/// `dw` are dropped.
pub fn write_bits(dw: &mut [u32], loc: Loc, v: u64) {
    let (start, end) = (loc.start(), loc.end());
    let mut bit = start;
    while bit <= end && bit - start < 64 {
        let off = bit % 32;
        let n = (32 - off).min(end - bit + 1);
        let m = (low_mask(n) as u32) << off;
        if let Some(w) = dw.get_mut((bit / 32) as usize) {
            *w = (*w & !m) | ((((v >> (bit - start)) & low_mask(n)) as u32) << off);
        }
        bit += n;
    }
}
