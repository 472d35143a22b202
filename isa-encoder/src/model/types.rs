//! Operand data types and their IGA spellings.

/// An operand data type. Spelled `:ud`, `:f`, … in IGA syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DataType {
    Ub,
    B,
    Uw,
    W,
    Ud,
    D,
    Uq,
    Q,
    Hf,
    F,
    Df,
    Bf,
    /// Packed signed half-byte vector immediate (8 x 4 bits).
    V,
    /// Packed unsigned half-byte vector immediate.
    Uv,
    /// Packed restricted-float vector immediate (4 x 8 bits).
    Vf,
    /// Packed unsigned 4-bit / 2-bit integer (dpas operands, Xe-HPG).
    U4,
    S4,
    U2,
    S2,
    /// Non-arithmetic 32-bit float (dpas, Xe-HPG).
    Tf32,
}

/// IGA syntax of each type (without the leading ':'), and its size in bits.
const TYPES: &[(DataType, &str, u32)] = &[
    (DataType::Ub, "ub", 8),
    (DataType::B, "b", 8),
    (DataType::Uw, "uw", 16),
    (DataType::W, "w", 16),
    (DataType::Ud, "ud", 32),
    (DataType::D, "d", 32),
    (DataType::Uq, "uq", 64),
    (DataType::Q, "q", 64),
    (DataType::Hf, "hf", 16),
    (DataType::F, "f", 32),
    (DataType::Df, "df", 64),
    (DataType::Bf, "bf", 16),
    (DataType::V, "v", 32),
    (DataType::Uv, "uv", 32),
    (DataType::Vf, "vf", 32),
    (DataType::U4, "u4", 4),
    (DataType::S4, "s4", 4),
    (DataType::U2, "u2", 2),
    (DataType::S2, "s2", 2),
    (DataType::Tf32, "tf32", 32),
];

impl DataType {
    /// The IGA spelling without ':' (`ud`, `hf`, …).
    pub fn syntax(self) -> &'static str {
        TYPES[self as usize].1
    }

    /// Width in bits of one element (packed vectors: of the whole immediate lane, 16 or 32).
    pub fn bits(self) -> u32 {
        TYPES[self as usize].2
    }

    /// Parses an IGA type spelling without ':'.
    pub fn from_syntax(s: &str) -> Option<DataType> {
        const KEYS: [u64; TYPES.len()] = super::name_keys!(TYPES, |t| t.1);
        const INDEX: super::KeyIndex<128> = super::KeyIndex::new(&KEYS);
        INDEX.row(&KEYS, super::name_key(s)?).map(|i| TYPES[i].0)
    }

    /// True for the floating-point types.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            DataType::Hf
                | DataType::F
                | DataType::Df
                | DataType::Bf
                | DataType::Vf
                | DataType::Tf32
        )
    }

    /// True for 64-bit types (the immediate then occupies the whole upper qword).
    pub fn is_64bit(self) -> bool {
        self.bits() == 64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_order_matches_enum() {
        for (i, t) in TYPES.iter().enumerate() {
            assert_eq!(t.0 as usize, i);
            assert_eq!(DataType::from_syntax(t.1), Some(t.0));
        }
    }
}
