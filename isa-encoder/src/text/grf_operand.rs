//! The operand nearly every instruction line carries, a direct GRF region
//! (`-(abs)r12.3<8;8,1>:f`, `r10.0<1>:ud`), read in one pass over its bytes.
//!
//! Anything else — ARF and indirect registers, math-macro operands, immediates, malformed
//! text — gives `None`, and the general operand parser (which also words the errors) takes it.
//! For every text this accepts, the result is the general parser's.

use crate::model::{Addressing, DataType, Reg, RegFile, RegOperand, Region, SrcMod};

/// A position in an operand's bytes.
struct Cursor<'a> {
    b: &'a [u8],
    k: usize,
}

impl Cursor<'_> {
    fn eat(&mut self, c: u8) -> bool {
        let hit = self.b.get(self.k) == Some(&c);
        self.k += usize::from(hit);
        hit
    }

    fn eat_str(&mut self, s: &[u8]) -> bool {
        let hit = self.b.get(self.k..self.k + s.len()) == Some(s);
        if hit {
            self.k += s.len();
        }
        hit
    }

    /// A decimal `u8`: one or more digits, as `parse::dec_u8` reads them.
    fn dec(&mut self) -> Option<u8> {
        let start = self.k;
        let mut v = 0u32;
        while let Some(d) = self.b.get(self.k).map(|c| c.wrapping_sub(b'0')) {
            if d > 9 {
                break;
            }
            v = v * 10 + u32::from(d);
            if v > 255 {
                return None;
            }
            self.k += 1;
        }
        (self.k > start).then_some(v as u8)
    }

    /// `<h>`, `<v;h>`, `<w,h>` or `<v;w,h>`, after the '<'.
    fn region(&mut self) -> Option<Region> {
        let a = self.dec()?;
        let r = if self.eat(b';') {
            let w = self.dec()?;
            if self.eat(b',') {
                Region::full(a, w, self.dec()?)
            } else {
                Region::vh(a, w)
            }
        } else if self.eat(b',') {
            Region::wh(a, self.dec()?)
        } else {
            Region::h(a)
        };
        self.eat(b'>').then_some(r)
    }
}

/// `text` as a direct GRF operand: a destination (no modifier; `(sat)` already taken off) or a
/// source (modifier `-`, `(abs)`, `-(abs)`, and `~` on logic instructions).
pub(super) fn grf_operand(text: &str, dst: bool, logic: bool) -> Option<RegOperand> {
    let mut c = Cursor {
        b: text.as_bytes(),
        k: 0,
    };
    let modifier = match c.b.first() {
        _ if dst => SrcMod::None,
        Some(b'-') => {
            c.k = 1;
            if c.eat_str(b"(abs)") {
                SrcMod::NegAbs
            } else {
                SrcMod::Neg
            }
        }
        Some(b'(') if c.eat_str(b"(abs)") => SrcMod::Abs,
        Some(b'~') if logic => {
            c.k = 1;
            SrcMod::Neg
        }
        _ => SrcMod::None,
    };
    if !c.eat(b'r') {
        return None;
    }
    let num = c.dec()?;
    let sub = if c.eat(b'.') { c.dec()? } else { 0 };
    let region = if c.eat(b'<') {
        c.region()?
    } else if dst {
        Region::h(1)
    } else {
        Region::full(0, 1, 0)
    };
    if !c.eat(b':') {
        return None;
    }
    let ty = DataType::from_syntax(text.get(c.k..)?)?;
    Some(RegOperand {
        addr: Addressing::Direct(Reg {
            file: RegFile::Grf,
            num,
            sub,
        }),
        region,
        ty,
        modifier,
    })
}
