//! Opcodes, their mnemonics, operand shapes and per-platform opcode numbers (one table).

use std::sync::OnceLock;

use platform::Platform;

/// How an instruction's operands are laid out; selects the encoding format and the syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// No operands (`nop`, `illegal`).
    Nullary,
    /// dst, src0.
    Unary,
    /// dst, src0, src1.
    Binary,
    /// dst, src0, src1, src2 (align1 three-source format on Gen10+).
    Ternary,
    /// Branch with targets only (`jmpi`, `if`, `else`, `endif`, `while`, `break`, `cont`, `goto`,
    /// `join`, `halt`, `call`, `calla`, `ret`, `brc`, `brd`).
    Branch,
    /// send / sendc / sends / sendsc: dst, payload sources, descriptors.
    Send,
    /// `sync.<fc>`: one source (null, an SBID mask, or a register).
    Sync,
    /// `wait`: one notification-register source.
    Wait,
}

macro_rules! opcodes {
    ($( $v:ident $m:literal $shape:ident [$g9:expr, $g11:expr, $g12:expr, $g125:expr] ),* $(,)?) => {
        /// An EU opcode. Numbers differ per platform: see [`Opcode::number`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum Opcode { $($v),* }

        /// Every opcode with its mnemonic, shape and number per platform (`None`: absent).
        /// Columns follow [`Platform::ALL`]: Gen9, Gen11, Gen12LP, Xe-HPG.
        pub const OPCODES: &[(Opcode, &str, Shape, [Option<u8>; 4])] = &[
            $( (Opcode::$v, $m, Shape::$shape, [$g9, $g11, $g12, $g125]) ),*
        ];
    };
}

const N: Option<u8> = None;
const fn y(n: u8) -> Option<u8> {
    Some(n)
}

// Numbers verified against `iga64 -a` (the encoders' bits [6:0]); Gen12 moved the logic ops
// and mov/sel/cmp up by 0x60. Presence per platform follows `iga64 -Xlist-ops -p=P`.
opcodes! {
    Illegal "illegal" Nullary [y(0x00), y(0x00), y(0x00), y(0x00)],
    Sync    "sync"    Sync    [N, N, y(0x01), y(0x01)],
    Mov     "mov"     Unary   [y(0x01), y(0x01), y(0x61), y(0x61)],
    Sel     "sel"     Binary  [y(0x02), y(0x02), y(0x62), y(0x62)],
    Movi    "movi"    Binary  [y(0x03), y(0x03), y(0x63), y(0x63)],
    Not     "not"     Unary   [y(0x04), y(0x04), y(0x64), y(0x64)],
    And     "and"     Binary  [y(0x05), y(0x05), y(0x65), y(0x65)],
    Or      "or"      Binary  [y(0x06), y(0x06), y(0x66), y(0x66)],
    Xor     "xor"     Binary  [y(0x07), y(0x07), y(0x67), y(0x67)],
    Shr     "shr"     Binary  [y(0x08), y(0x08), y(0x68), y(0x68)],
    Shl     "shl"     Binary  [y(0x09), y(0x09), y(0x69), y(0x69)],
    Smov    "smov"    Binary  [y(0x0a), y(0x0a), N, N],
    Asr     "asr"     Binary  [y(0x0c), y(0x0c), y(0x6c), y(0x6c)],
    Ror     "ror"     Binary  [N, y(0x0e), y(0x6e), y(0x6e)],
    Rol     "rol"     Binary  [N, y(0x0f), y(0x6f), y(0x6f)],
    Cmp     "cmp"     Binary  [y(0x10), y(0x10), y(0x70), y(0x70)],
    Cmpn    "cmpn"    Binary  [y(0x11), y(0x11), y(0x71), y(0x71)],
    Csel    "csel"    Ternary [y(0x12), y(0x12), y(0x72), y(0x72)],
    Bfrev   "bfrev"   Unary   [y(0x17), y(0x17), y(0x77), y(0x77)],
    Bfe     "bfe"     Ternary [y(0x18), y(0x18), y(0x78), y(0x78)],
    Bfi1    "bfi1"    Binary  [y(0x19), y(0x19), y(0x79), y(0x79)],
    Bfi2    "bfi2"    Ternary [y(0x1a), y(0x1a), y(0x7a), y(0x7a)],
    Jmpi    "jmpi"    Branch  [y(0x20), y(0x20), y(0x20), y(0x20)],
    Brd     "brd"     Branch  [y(0x21), y(0x21), y(0x21), y(0x21)],
    If      "if"      Branch  [y(0x22), y(0x22), y(0x22), y(0x22)],
    Brc     "brc"     Branch  [y(0x23), y(0x23), y(0x23), y(0x23)],
    Else    "else"    Branch  [y(0x24), y(0x24), y(0x24), y(0x24)],
    Endif   "endif"   Branch  [y(0x25), y(0x25), y(0x25), y(0x25)],
    While   "while"   Branch  [y(0x27), y(0x27), y(0x27), y(0x27)],
    Break   "break"   Branch  [y(0x28), y(0x28), y(0x28), y(0x28)],
    Cont    "cont"    Branch  [y(0x29), y(0x29), y(0x29), y(0x29)],
    Halt    "halt"    Branch  [y(0x2a), y(0x2a), y(0x2a), y(0x2a)],
    Calla   "calla"   Branch  [y(0x2b), y(0x2b), y(0x2b), y(0x2b)],
    Call    "call"    Branch  [y(0x2c), y(0x2c), y(0x2c), y(0x2c)],
    Ret     "ret"     Branch  [y(0x2d), y(0x2d), y(0x2d), y(0x2d)],
    Goto    "goto"    Branch  [y(0x2e), y(0x2e), y(0x2e), y(0x2e)],
    Join    "join"    Branch  [y(0x2f), y(0x2f), y(0x2f), y(0x2f)],
    Wait    "wait"    Wait    [y(0x30), y(0x30), N, N],
    Send    "send"    Send    [y(0x31), y(0x31), y(0x31), y(0x31)],
    Sendc   "sendc"   Send    [y(0x32), y(0x32), y(0x32), y(0x32)],
    Sends   "sends"   Send    [y(0x33), y(0x33), N, N],
    Sendsc  "sendsc"  Send    [y(0x34), y(0x34), N, N],
    Math    "math"    Binary  [y(0x38), y(0x38), y(0x38), y(0x38)],
    Add     "add"     Binary  [y(0x40), y(0x40), y(0x40), y(0x40)],
    Mul     "mul"     Binary  [y(0x41), y(0x41), y(0x41), y(0x41)],
    Avg     "avg"     Binary  [y(0x42), y(0x42), y(0x42), y(0x42)],
    Frc     "frc"     Unary   [y(0x43), y(0x43), y(0x43), y(0x43)],
    Rndu    "rndu"    Unary   [y(0x44), y(0x44), y(0x44), y(0x44)],
    Rndd    "rndd"    Unary   [y(0x45), y(0x45), y(0x45), y(0x45)],
    Rnde    "rnde"    Unary   [y(0x46), y(0x46), y(0x46), y(0x46)],
    Rndz    "rndz"    Unary   [y(0x47), y(0x47), y(0x47), y(0x47)],
    Mac     "mac"     Binary  [y(0x48), y(0x48), y(0x48), y(0x48)],
    Mach    "mach"    Binary  [y(0x49), y(0x49), y(0x49), y(0x49)],
    Lzd     "lzd"     Unary   [y(0x4a), y(0x4a), y(0x4a), y(0x4a)],
    Fbh     "fbh"     Unary   [y(0x4b), y(0x4b), y(0x4b), y(0x4b)],
    Fbl     "fbl"     Unary   [y(0x4c), y(0x4c), y(0x4c), y(0x4c)],
    Cbit    "cbit"    Unary   [y(0x4d), y(0x4d), y(0x4d), y(0x4d)],
    Addc    "addc"    Binary  [y(0x4e), y(0x4e), y(0x4e), y(0x4e)],
    Subb    "subb"    Binary  [y(0x4f), y(0x4f), y(0x4f), y(0x4f)],
    Sad2    "sad2"    Binary  [y(0x50), N, N, N],
    Sada2   "sada2"   Binary  [y(0x51), N, N, N],
    Add3    "add3"    Ternary [N, N, N, y(0x52)],
    Dp4     "dp4"     Binary  [y(0x54), N, N, N],
    Dph     "dph"     Binary  [y(0x55), N, N, N],
    Dp3     "dp3"     Binary  [y(0x56), N, N, N],
    Dp2     "dp2"     Binary  [y(0x57), N, N, N],
    Dp4a    "dp4a"    Ternary [N, N, y(0x58), y(0x58)],
    Line    "line"    Binary  [y(0x59), N, N, N],
    Dpas    "dpas"    Ternary [N, N, N, y(0x59)],
    Pln     "pln"     Binary  [y(0x5a), N, N, N],
    Dpasw   "dpasw"   Ternary [N, N, N, y(0x5a)],
    Mad     "mad"     Ternary [y(0x5b), y(0x5b), y(0x5b), y(0x5b)],
    Lrp     "lrp"     Ternary [y(0x5c), N, N, N],
    Madm    "madm"    Ternary [y(0x5d), y(0x5d), N, y(0x5d)],
    Nop     "nop"     Nullary [y(0x7e), y(0x7e), y(0x60), y(0x60)],
    Bfn     "bfn"     Ternary [N, N, N, y(0x6b)],
}

impl Opcode {
    fn row(self) -> &'static (Opcode, &'static str, Shape, [Option<u8>; 4]) {
        // OPCODES is generated in the enum's declaration order.
        &OPCODES[self as usize]
    }

    /// The IGA mnemonic (`mov`, `send`, …) without any subfunction suffix.
    pub fn mnemonic(self) -> &'static str {
        self.row().1
    }

    /// The operand layout.
    pub fn shape(self) -> Shape {
        self.row().2
    }

    /// The 7-bit opcode number on `platform`, or `None` if the platform lacks the instruction.
    pub fn number(self, platform: Platform) -> Option<u8> {
        self.row().3[platform as usize]
    }

    /// The opcode whose number on `platform` is `number`.
    pub fn from_number(platform: Platform, number: u8) -> Option<Opcode> {
        // A per-platform reverse index of OPCODES, built once (decoding looks this up for every
        // instruction).
        static BY_NUMBER: OnceLock<[[Option<Opcode>; 128]; 4]> = OnceLock::new();
        let t = BY_NUMBER.get_or_init(|| {
            let mut t = [[None; 128]; 4];
            for r in OPCODES {
                for (p, n) in r.3.iter().enumerate() {
                    if let Some(n) = n {
                        t[p][(*n & 0x7F) as usize] = Some(r.0);
                    }
                }
            }
            t
        });
        t[platform as usize].get(number as usize).copied().flatten()
    }

    /// The opcode spelled `mnemonic` that exists on `platform`.
    pub fn from_mnemonic(platform: Platform, mnemonic: &str) -> Option<Opcode> {
        const KEYS: [u64; OPCODES.len()] = super::name_keys!(OPCODES, |r| r.1);
        const INDEX: super::KeyIndex<1024> = super::KeyIndex::new(&KEYS);
        let row = &OPCODES[INDEX.row(&KEYS, super::name_key(mnemonic)?)?];
        row.3[platform as usize].map(|_| row.0)
    }

    /// send, sendc, sends, sendsc.
    pub fn is_send(self) -> bool {
        self.shape() == Shape::Send
    }

    /// Control-flow instructions whose operands are jump targets.
    pub fn is_branch(self) -> bool {
        self.shape() == Shape::Branch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mnemonics_are_unique_and_found() {
        let keys = super::super::name_keys!(OPCODES, |r| r.1);
        for (k, key) in keys.iter().enumerate() {
            assert!(!keys[..k].contains(key), "{}", OPCODES[k].1);
        }
        for p in Platform::ALL {
            for r in OPCODES {
                let found = Opcode::from_mnemonic(p, r.1);
                assert_eq!(found, r.3[p as usize].map(|_| r.0), "{p} {}", r.1);
            }
        }
    }

    #[test]
    fn table_order_matches_enum() {
        for (i, row) in OPCODES.iter().enumerate() {
            assert_eq!(row.0 as usize, i, "{}", row.1);
        }
    }

    #[test]
    fn numbers_are_unique_per_platform() {
        for p in Platform::ALL {
            for a in OPCODES {
                for b in OPCODES {
                    if a.0 != b.0 && a.3[p as usize].is_some() {
                        assert_ne!(a.3[p as usize], b.3[p as usize], "{} {} on {p}", a.1, b.1);
                    }
                }
            }
        }
    }
}
