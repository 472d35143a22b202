//! The index tables with each entry already moved to its native bit positions, built once per
//! platform from the declarative layouts: expanding an index field is then one masked OR, and
//! compacting compares whole native words instead of re-assembling a key per table entry.

use std::sync::OnceLock;

use platform::Platform;

use super::bits::{mask, set};
use super::layout::{IndexField, Layout, Scheme};

/// One index field, placed.
pub(super) struct PlacedField {
    /// Each table entry as the native bits it fills (zero elsewhere).
    pub entries: Vec<u128>,
    /// Every native bit the field fills.
    pub mask: u128,
    /// Per fragment: its native mask, whether it lies under an immediate, and its range.
    pub fragments: Vec<(u128, bool, (u8, u8))>,
}

/// A layout's index fields, placed, in the layout's order.
pub(super) type PlacedLayout = Vec<PlacedField>;

/// A scheme's two layouts, placed.
pub(super) struct PlacedScheme {
    pub two_src: PlacedLayout,
    pub three_src: Option<PlacedLayout>,
}

fn place_field(f: &IndexField) -> PlacedField {
    let entries = f
        .table
        .iter()
        .map(|&e| {
            f.fragments
                .iter()
                .fold(0u128, |n, fr| set(n, fr.native, u128::from(e) >> fr.shift))
        })
        .collect();
    let fragments: Vec<_> = f
        .fragments
        .iter()
        .map(|fr| (mask(fr.native), fr.under_imm, fr.native))
        .collect();
    PlacedField {
        entries,
        mask: fragments.iter().fold(0, |m, fr| m | fr.0),
        fragments,
    }
}

fn place_layout(l: &Layout) -> PlacedLayout {
    l.index.iter().map(place_field).collect()
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
        two_src: place_layout(&s.two_src),
        three_src: s.three_src.as_ref().map(|(_, l)| place_layout(l)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
