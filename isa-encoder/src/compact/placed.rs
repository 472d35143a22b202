//! The index tables with each entry already moved to its native bit positions, built once per
//! platform from the declarative layouts: expanding an index field is then one masked OR, and
//! compacting compares whole native words instead of re-assembling a key per table entry.

use std::sync::OnceLock;

use platform::Platform;

use super::bits::{mask, set};
use super::layout::{IndexField, Layout, Scheme};

/// Which native bits of a compacted instruction's fields matter: the index into
/// [`PlacedField::care`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Care {
    /// No immediate, src1 read: every bit.
    All = 0,
    /// No immediate, no src1 (unary opcodes): not the scheme's src1 fields.
    NoSrc1 = 1,
    /// Src0 is immediate: not the bits under it, nor the fields it leaves unused.
    ImmSrc0 = 2,
    /// Src1 is immediate, likewise.
    ImmSrc1 = 3,
}

/// One index field, placed.
pub(super) struct PlacedField {
    /// Each table entry as the native bits it fills (zero elsewhere).
    pub entries: Vec<u128>,
    /// Every native bit the field fills.
    pub mask: u128,
    /// The bits compared when compacting, by case ([`Care`]): the field's bits less those an
    /// immediate covers and those the instruction leaves unused (don't-care).
    pub care: [u128; 4],
    /// Open-addressed hash of `entries` (by [`slot`]): each slot holds an entry and its first
    /// index in the table plus one (0: empty). Finds the index of a native word whose every
    /// field bit matters without comparing it to each entry in turn.
    index: Vec<(u128, u8)>,
}

/// Slots of [`PlacedField::index`]: a power of two, at least four times the largest table
/// (32 entries), so that probe runs stay short.
const INDEX_SLOTS: usize = 128;

/// The home slot of a placed entry.
fn slot(e: u128) -> usize {
    let folded = (e as u64) ^ ((e >> 64) as u64).rotate_left(29);
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - INDEX_SLOTS.trailing_zeros())) as usize
}

impl PlacedField {
    /// The first index whose entry equals `bits` on every bit of [`PlacedField::mask`]
    /// (`bits` holding nothing outside it): the same answer as searching `entries` in order.
    pub fn find_exact(&self, bits: u128) -> Option<usize> {
        let mut k = slot(bits);
        loop {
            let (e, i) = *self.index.get(k)?;
            if i == 0 {
                return None;
            }
            if e == bits {
                return Some(usize::from(i - 1));
            }
            k = (k + 1) % INDEX_SLOTS;
        }
    }
}

/// Hashes `entries`, keeping the first index of entries that occur more than once.
fn build_index(entries: &[u128]) -> Vec<(u128, u8)> {
    let mut index = vec![(0u128, 0u8); INDEX_SLOTS];
    // Tables have at most 32 entries, so indices fit in a u8 and the probing below ends.
    for (i, &e) in entries.iter().enumerate().take(INDEX_SLOTS / 2) {
        let mut k = slot(e);
        while index[k].1 != 0 && index[k].0 != e {
            k = (k + 1) % INDEX_SLOTS;
        }
        if index[k].1 == 0 {
            index[k] = (e, (i + 1) as u8);
        }
    }
    index
}

/// A layout's index fields, placed, in the layout's order.
pub(super) type PlacedLayout = Vec<PlacedField>;

/// A scheme's two layouts, placed.
pub(super) struct PlacedScheme {
    pub two_src: PlacedLayout,
    pub three_src: Option<PlacedLayout>,
}

fn place_field(f: &IndexField, l: &Layout, s: &Scheme) -> PlacedField {
    let entries = f
        .table
        .iter()
        .map(|&e| {
            f.fragments
                .iter()
                .fold(0u128, |n, fr| set(n, fr.native, u128::from(e) >> fr.shift))
        })
        .collect::<Vec<u128>>();
    // The bits that matter: those of every fragment neither under an immediate (when there is
    // one) nor in a don't-care range.
    let care = |imm: bool, dont_care: &[(u8, u8)]| {
        f.fragments
            .iter()
            .filter(|fr| !((imm && fr.under_imm) || dont_care.contains(&fr.native)))
            .fold(0u128, |m, fr| m | mask(fr.native))
    };
    let unused = |k: usize| {
        l.imm
            .as_ref()
            .map_or(&[][..], |spec| spec.operands[k].unused)
    };
    PlacedField {
        index: build_index(&entries),
        entries,
        mask: care(false, &[]),
        care: [
            care(false, &[]),
            care(false, s.src1_fields),
            care(true, unused(0)),
            care(true, unused(1)),
        ],
    }
}

fn place_layout(l: &Layout, s: &Scheme) -> PlacedLayout {
    l.index.iter().map(|f| place_field(f, l, s)).collect()
}

/// The placed tables of `platform`'s scheme `s`, built on first use.
pub(super) fn placed(platform: Platform, s: &Scheme) -> &'static PlacedScheme {
    static PLACED: [OnceLock<PlacedScheme>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    PLACED[platform as usize].get_or_init(|| PlacedScheme {
        two_src: place_layout(&s.two_src, s),
        three_src: s.three_src.as_ref().map(|(_, l)| place_layout(l, s)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hashed index answers as the in-order search does, for every entry of every table
    /// and for words that are no entry.
    #[test]
    fn index_finds_the_first_equal_entry() {
        for p in Platform::ALL {
            let s = super::super::scheme(p);
            let placed = placed(p, s);
            let layouts = std::iter::once(&placed.two_src).chain(placed.three_src.as_ref());
            for l in layouts {
                for f in l {
                    assert!(f.entries.len() <= INDEX_SLOTS / 2);
                    for &e in &f.entries {
                        let first = f.entries.iter().position(|&x| x == e);
                        assert_eq!(f.find_exact(e), first);
                        let other = e ^ (f.mask & f.mask.wrapping_neg());
                        let first = f.entries.iter().position(|&x| x == other);
                        assert_eq!(f.find_exact(other), first);
                    }
                }
            }
        }
    }

    /// Placing is only faithful when the fragments of one field do not overlap: each native bit
    /// then comes from exactly one entry bit.
    #[test]
    fn fragments_of_a_field_are_disjoint() {
        for p in Platform::ALL {
            let s = super::super::scheme(p);
            let layouts = std::iter::once(&s.two_src).chain(s.three_src.as_ref().map(|t| &t.1));
            for l in layouts {
                for f in l.index {
                    let mut seen = 0u128;
                    for fr in f.fragments {
                        assert_eq!(seen & mask(fr.native), 0, "{p}: {:?}", fr.native);
                        seen |= mask(fr.native);
                    }
                }
            }
        }
    }
}
