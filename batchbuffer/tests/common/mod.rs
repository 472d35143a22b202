//! Shared test helpers: turning random dwords into a valid packet image by the layout tables.

#![allow(dead_code)]

use batchbuffer::layout::{or_bits, read_bits};
use batchbuffer::{Kind, Layout, Loc};
use platform::Platform;

/// Keeps only the bits of fields present on `p`, forces headers and lengths, and replaces enum
/// values that name nothing with the first defined value. Writes `layout.len_on(p)` dwords.
pub fn canonicalize(l: &Layout, p: Platform, raw: &[u32], out: &mut [u32]) {
    let len = l.len_on(p).expect("packet exists");
    out[..len].fill(0);
    for f in l.fields {
        let Some(loc) = f.loc(p) else { continue };
        match f.kind {
            Kind::Const(v) => assert!(or_bits(out, loc, v)),
            Kind::Length(b) => assert!(or_bits(out, loc, len as u64 - b as u64)),
            Kind::Struct => {
                let at = loc.dw as usize;
                canonicalize(f.nested.unwrap(), p, &raw[at..], &mut out[at..]);
            }
            // The base length holds no trailing-group element (tests/load_register_imm.rs).
            Kind::Repeated => {}
            Kind::Dwords => {
                for i in 0..(loc.width() / 32) as usize {
                    out[loc.dw as usize + i] = raw[loc.dw as usize + i];
                }
            }
            Kind::Enum => {
                let mut v = read_bits(raw, loc);
                if f.value_name(v).is_none() {
                    v = f.values[0].0;
                }
                or_bits(out, loc, v);
            }
            _ => {
                or_bits(out, loc, read_bits(raw, loc));
            }
        }
    }
}

/// Every (field name, location) of a layout present on `p`, nested structs flattened with their
/// dword offset added.
pub fn flat_fields(l: &Layout, p: Platform, base: u16) -> Vec<(String, Kind, Loc)> {
    let mut v = Vec::new();
    for f in l.fields {
        let Some(loc) = f.loc(p) else { continue };
        let at = Loc::new(loc.dw + base, loc.lo, loc.hi);
        match f.kind {
            Kind::Struct => v.extend(flat_fields(f.nested.unwrap(), p, at.dw)),
            Kind::Repeated => {}
            _ => v.push((format!("{}.{}", l.name, f.name), f.kind, at)),
        }
    }
    v
}
