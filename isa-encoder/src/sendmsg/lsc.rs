//! Xe-HPG load/store cache (LSC) messages on SFIDs UGM, UGML, SLM and TGM: descriptor fields,
//! opcodes, and the `load.ugm.d32x16t.a32.ca.ca.bti[0]` spelling iga64 prints for them.
//!
//! Source: IGA `Backend/Messages/MessageDecoderLSC.cpp` and `IR/EnumSendOpInfo.hpp`
//! (igc-1.0.12504), Mesa `brw_eu_defines.h` LSC enums; iga64 is the judge
//! (`tests/sendmsg_oracle.rs`).
//!
//! Descriptor: \[30:29\] address type, \[28:25\] mlen, \[24:20\] rlen, \[19:17\] cache control,
//! \[15\] transposed, \[14:12\] vector size (or channel mask for quad ops), \[11:9\] data size,
//! \[8:7\] address size, \[5:0\] opcode. Extended descriptor: \[31:24\] BTI, or \[31:11\]
//! surface-state offset, \[10:6\] src1 length (iga64 prints it as the `r7:2` suffix instead).

use super::fields::{append_coordinates, bits};
use super::sfid::Sfid;
use super::DescValue;

/// Field positions (offset, length) in the descriptor.
pub const ADDR_TYPE: (u32, u32) = (29, 2);
pub const CACHE: (u32, u32) = (17, 3);
pub const TRANSPOSED: (u32, u32) = (15, 1);
pub const VECTOR: (u32, u32) = (12, 3);
pub const CHANNELS: (u32, u32) = (12, 4);
pub const DATA_SIZE: (u32, u32) = (9, 3);
pub const ADDR_SIZE: (u32, u32) = (7, 2);
pub const OPCODE: (u32, u32) = (0, 6);
/// Fence: flush operation and scope.
pub const FENCE_FLUSH: (u32, u32) = (12, 3);
pub const FENCE_SCOPE: (u32, u32) = (9, 3);
/// Extended descriptor BTI.
pub const EX_BTI: (u32, u32) = (24, 8);

/// Field `(offset, length)` (one of the constants above) of descriptor `desc`.
pub const fn field(desc: u32, (offset, length): (u32, u32)) -> u32 {
    bits(desc, offset, length)
}

/// How an opcode's descriptor reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Vector load: cache control has load meaning.
    Load,
    /// Vector store.
    Store,
    /// Quad (channel-mask) load/store: \[15:12\] is a channel-enable mask.
    LoadQuad,
    StoreQuad,
    /// 2D block load/store: A64 implied; load has a VNNI bit \[7\].
    Block2dLoad,
    Block2dStore,
    /// Atomics: cache control has store meaning.
    Atomic,
    /// Load status: must be non-transposed with rlen 1.
    LoadStatus,
    Fence,
    ReadState,
    /// Compression-state control: page/sector clear/uncompress in \[19:17\].
    Ccs,
}

/// One LSC opcode: value, iga64 mnemonic, iga64 description (printed when the descriptor is
/// invalid), how it reads.
pub struct Op {
    pub code: u32,
    pub mnemonic: &'static str,
    pub description: &'static str,
    pub class: Class,
}

const fn op(code: u32, mnemonic: &'static str, description: &'static str, class: Class) -> Op {
    Op {
        code,
        mnemonic,
        description,
        class,
    }
}

#[rustfmt::skip]
pub const OPS: &[Op] = &[
    op(0x00, "load", "gathering load", Class::Load),
    op(0x01, "load_strided", "strided load (a.k.a load_block)", Class::Load),
    op(0x02, "load_quad", "quad load (a.k.a. load_cmask)", Class::LoadQuad),
    op(0x03, "load_block2d", "block2d load", Class::Block2dLoad),
    op(0x04, "store", "scattering store", Class::Store),
    op(0x05, "store_strided", "strided store (a.k.a store_block)", Class::Store),
    op(0x06, "store_quad", "quad store (a.k.a. store_cmask)", Class::StoreQuad),
    op(0x07, "store_block2d", "block2d store", Class::Block2dStore),
    op(0x08, "atomic_iinc", "atomic integer increment", Class::Atomic),
    op(0x09, "atomic_idec", "atomic integer decrement", Class::Atomic),
    op(0x0A, "atomic_load", "atomic load", Class::Atomic),
    op(0x0B, "atomic_store", "atomic store", Class::Atomic),
    op(0x0C, "atomic_iadd", "atomic integer add", Class::Atomic),
    op(0x0D, "atomic_isub", "atomic integer subtract", Class::Atomic),
    op(0x0E, "atomic_smin", "atomic signed-integer minimum", Class::Atomic),
    op(0x0F, "atomic_smax", "atomic signed-integer maximum", Class::Atomic),
    op(0x10, "atomic_umin", "atomic unsigned-integer minimum", Class::Atomic),
    op(0x11, "atomic_umax", "atomic unsigned-integer maximum", Class::Atomic),
    op(0x12, "atomic_icas", "atomic integer compare and swap", Class::Atomic),
    op(0x13, "atomic_fadd", "atomic float add", Class::Atomic),
    op(0x14, "atomic_fsub", "atomic float subtract", Class::Atomic),
    op(0x15, "atomic_fmin", "atomic float minimum", Class::Atomic),
    op(0x16, "atomic_fmax", "atomic float maximum", Class::Atomic),
    op(0x17, "atomic_fcas", "atomic float compare and swap", Class::Atomic),
    op(0x18, "atomic_and", "atomic logical and", Class::Atomic),
    op(0x19, "atomic_or", "atomic logical or", Class::Atomic),
    op(0x1A, "atomic_xor", "atomic logical xor", Class::Atomic),
    op(0x1B, "load_status", "load status", Class::LoadStatus),
    op(0x1C, "store_uncompressed", "scattering store uncompressed", Class::Store),
    op(0x1D, "ccs", "compression-state control", Class::Ccs),
    op(0x1E, "read_state", "read state information", Class::ReadState),
    op(0x1F, "fence", "fence", Class::Fence),
    op(0x20, "store_uncompressed_quad", "store quad uncompressed", Class::StoreQuad),
];

/// Data size \[11:9\]: syntax and (register, memory) bits.
#[rustfmt::skip]
pub const DATA_SIZES: [(&str, u32, u32); 7] = [
    ("d8", 8, 8), ("d16", 16, 16), ("d32", 32, 32), ("d64", 64, 64),
    ("d8u32", 32, 8), ("d16u32", 32, 16), ("d16u32h", 32, 16),
];

/// Vector size \[14:12\] -> elements per address.
pub const VECTOR_SIZES: [u32; 8] = [1, 2, 3, 4, 8, 16, 32, 64];

/// Address size \[8:7\]: (syntax, bits); 0 is invalid.
pub const ADDR_SIZES: [Option<(&str, u32)>; 4] = [
    None,
    Some(("a16", 16)),
    Some(("a32", 32)),
    Some(("a64", 64)),
];

/// Cache control \[19:17\]: (L1.L3 for loads, L1.L3 for stores and atomics); 0 = state default.
#[rustfmt::skip]
pub const CACHE_CONTROLS: [(&str, &str); 8] = [
    ("", ""),
    (".uc.uc", ".uc.uc"),
    (".uc.ca", ".uc.wb"),
    (".ca.uc", ".wt.uc"),
    (".ca.ca", ".wt.wb"),
    (".st.uc", ".st.uc"),
    (".st.ca", ".st.wb"),
    (".ri.ca", ".wb.wb"),
];

/// Address type \[30:29\].
pub const ADDR_FLAT: u32 = 0;
pub const ADDR_BSS: u32 = 1;
pub const ADDR_SS: u32 = 2;
pub const ADDR_BTI: u32 = 3;

/// Fence flush operations \[14:12\]: (syntax, description); 6 and 7 are invalid.
#[rustfmt::skip]
pub const FENCE_FLUSHES: [Option<(&str, &str)>; 8] = [
    Some(("none", "no op")),
    Some(("evict", "evict (dirty lines invalidated and evicted)")),
    Some(("invalidate", "invalidate (all clean lines, but do not evict)")),
    Some(("discard", "discard (dirty and clean lines invalidated without eviction)")),
    Some(("clean", "clean (dirty lines written out, but kept in clean state)")),
    Some(("flushl3", "flush L3 only")),
    None,
    None,
];

/// Fence scopes \[11:9\]: (syntax, description); 7 is invalid.
#[rustfmt::skip]
pub const FENCE_SCOPES: [Option<(&str, &str)>; 8] = [
    Some(("group", "thread group")),
    Some(("local", "slice")),
    Some(("tile", "tile")),
    Some(("gpu", "gpu")),
    Some(("gpus", "all gpus")),
    Some(("sysrel", "system release")),
    Some(("sysacq", "system acquire")),
    None,
];

pub fn find_op(code: u32) -> Option<&'static Op> {
    OPS.iter().find(|o| o.code == code)
}

/// The surface part: `bti[3]`, `ss[0x800]`, `bti[a0.2]`; empty for flat addresses.
fn surface(addr_type: u32, ex_desc: DescValue) -> String {
    let name = match addr_type {
        ADDR_BSS => "bss",
        ADDR_SS => "ss",
        ADDR_BTI => "bti",
        _ => return String::new(),
    };
    match ex_desc {
        DescValue::A0(sub) => format!("{name}[a0.{sub}]"),
        DescValue::Imm(x) if addr_type == ADDR_BTI => format!("{name}[{}]", bits(x, 24, 8)),
        DescValue::Imm(x) => format!("{name}[0x{:X}]", x & !0x7FF),
    }
}

/// The LSC message text: its syntax, or iga64's description when the descriptor is invalid.
/// `exec_size` feeds the typed coordinate hint.
pub fn describe(sfid: Sfid, exec_size: u8, desc: u32, ex_desc: DescValue) -> Option<String> {
    let Some(op) = find_op(bits(desc, OPCODE.0, OPCODE.1)) else {
        return Some("?".into());
    };
    let sfid_name = sfid.mnemonic();
    match op.class {
        Class::Ccs => Some(ccs(sfid, desc, ex_desc)),
        Class::Fence => {
            let flush = FENCE_FLUSHES[bits(desc, FENCE_FLUSH.0, FENCE_FLUSH.1) as usize];
            let scope = FENCE_SCOPES[bits(desc, FENCE_SCOPE.0, FENCE_SCOPE.1) as usize];
            Some(match (flush, scope) {
                (Some((f, _)), Some((s, _))) => format!("fence.{sfid_name}.{f}.{s}"),
                _ => format!(
                    "fence {} scoped to {}",
                    flush.map_or("invalid flush type", |f| f.1),
                    scope.map_or("invalid flush scope", |s| s.1)
                ),
            })
        }
        Class::ReadState => {
            let at = bits(desc, ADDR_TYPE.0, ADDR_TYPE.1);
            let mut text = if at == ADDR_FLAT {
                op.description.into()
            } else {
                format!("read_state.{sfid_name}.{}", surface(at, ex_desc))
            };
            // One SIMD1 A64 address payload: each register holds one coordinate.
            append_coordinates(&mut text, desc, 1, 64);
            Some(text)
        }
        _ => Some(message(op, sfid, exec_size, desc, ex_desc)),
    }
}

/// CCS operations \[19:17\]: (mnemonic suffix, description, page operation).
const CCS_OPS: [(&str, &str, bool); 4] = [
    ("_pc", " page clear (64k)", true),
    ("_sc", " sector clear (2-cachelines)", false),
    ("_pu", " page uncompress (64k)", true),
    ("_su", " sector uncompress (2-cachelines)", false),
];

fn ccs(sfid: Sfid, desc: u32, ex_desc: DescValue) -> String {
    let at = bits(desc, ADDR_TYPE.0, ADDR_TYPE.1);
    let Some(&(suffix, what, page)) = CCS_OPS.get(bits(desc, CACHE.0, CACHE.1) as usize) else {
        return "compression-state controlinvalid ccs sop".into();
    };
    // Page operations take one flat A64 address; sector operations are vector messages that
    // iga64 always spells `.a32`.
    let valid = !page || (at == ADDR_FLAT && bits(desc, ADDR_SIZE.0, ADDR_SIZE.1) == 3);
    if !valid {
        return format!("compression-state control{what}");
    }
    let mut s = format!("ccs{suffix}.{}", sfid.mnemonic());
    if !page {
        s.push_str(".a32");
    }
    let surf = surface(at, ex_desc);
    if !surf.is_empty() {
        s.push('.');
        s.push_str(&surf);
    }
    s
}

fn message(op: &Op, sfid: Sfid, exec_size: u8, desc: u32, ex_desc: DescValue) -> String {
    let mut valid = true;
    if let DescValue::Imm(x) = ex_desc {
        valid &= x & 0x7FF == 0;
    }
    let transposed = bits(desc, TRANSPOSED.0, TRANSPOSED.1) != 0;
    if op.class == Class::LoadStatus {
        valid &= !transposed && bits(desc, 20, 5) == 1;
    }
    let block2d = matches!(op.class, Class::Block2dLoad | Class::Block2dStore);
    let (asize, addr_bits) = if block2d {
        ("a64", 64)
    } else {
        match ADDR_SIZES[bits(desc, ADDR_SIZE.0, ADDR_SIZE.1) as usize] {
            Some(a) => a,
            None => {
                valid = false;
                ("a???", 0)
            }
        }
    };
    let dsize = match DATA_SIZES.get(bits(desc, DATA_SIZE.0, DATA_SIZE.1) as usize) {
        Some((s, _, _)) => (*s).to_string(),
        None => format!("0x{:X}", bits(desc, DATA_SIZE.0, DATA_SIZE.1)),
    };
    let quad = matches!(op.class, Class::LoadQuad | Class::StoreQuad);
    let vector = if quad {
        let en = bits(desc, CHANNELS.0, CHANNELS.1);
        valid &= en != 0;
        let chans: String = "xyzw"
            .chars()
            .enumerate()
            .filter(|(i, _)| en & (1 << i) != 0)
            .map(|(_, c)| c)
            .collect();
        format!(".{chans}")
    } else {
        let n = VECTOR_SIZES[bits(desc, VECTOR.0, VECTOR.1) as usize];
        let mut v = String::new();
        if n > 1 || (transposed && !block2d) {
            v = format!("x{n}");
        }
        if transposed {
            v.push('t');
        }
        if op.class == Class::Block2dLoad && bits(desc, 7, 1) != 0 {
            v.push('v');
        }
        v
    };
    let cache = if sfid == Sfid::Slm || matches!(op.class, Class::Fence | Class::ReadState) {
        ""
    } else {
        let (load, store) = CACHE_CONTROLS[bits(desc, CACHE.0, CACHE.1) as usize];
        let is_load = matches!(
            op.class,
            Class::Load | Class::LoadQuad | Class::Block2dLoad | Class::LoadStatus
        );
        if is_load {
            load
        } else {
            store
        }
    };
    let mut text = if valid {
        let mut s = format!(
            "{}.{}.{dsize}{vector}.{asize}{cache}",
            op.mnemonic,
            sfid.mnemonic()
        );
        let surf = surface(bits(desc, ADDR_TYPE.0, ADDR_TYPE.1), ex_desc);
        if !surf.is_empty() {
            s.push('.');
            s.push_str(&surf);
        }
        s
    } else {
        op.description.to_string()
    };
    // Typed quad and atomic messages: iga64 appends the coordinates the address payload holds.
    if sfid == Sfid::Tgm && (quad || op.class == Class::Atomic) {
        append_coordinates(&mut text, desc, u32::from(exec_size), addr_bits);
    }
    text
}
