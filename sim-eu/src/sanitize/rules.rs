//! The alignment and size rules of the block-IO extensions, each with the sentence of its
//! spec, and which data-port messages implement the built-ins they constrain.
//!
//! IGC (Debian ocloc 22.43) lowers `intel_sub_group_block_read` on buffers to the HDC OWord
//! block read that takes a byte offset (DC0 type 1 through a binding table, DC1 type 0x14
//! stateless), `intel_sub_group_block_write` to the OWord block write that takes an offset in
//! OWords (DC0 type 8: IGC shifts the byte offset right by 4 itself, so a misaligned pointer
//! loses its low bits before the message; the sanitizer recovers the byte offset from that
//! `shr`) or the stateless DC1 type 0x15, and the image block built-ins and
//! `intel_sub_group_media_block_*` to media block messages (DC1 types 4 and 0xA) on every
//! simulated platform; on Xe-HPG buffer block reads and writes are transposed LSC loads and
//! stores (`load.ugm.d32x16t`, `store.ugm.d64x8t`), whose data-port rules (4 and 8 bytes) are
//! looser than the spec's for writes.

use isa_encoder::sendmsg::{lsc, Sfid};
use platform::Platform;

/// A rule of a spec: its name, the sentence, and the alignment it asks of an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub spec: &'static str,
    pub sentence: &'static str,
    pub align: u64,
}

impl Rule {
    pub fn cite(&self) -> String {
        format!("{}: \"{}\"", self.spec, self.sentence)
    }
}

/// cl_intel_subgroups, buffer block reads.
pub const BLOCK_READ: Rule = Rule {
    spec: "cl_intel_subgroups",
    sentence: "The pointer p must be 32-bit (4-byte) aligned for reads, and must be 128-bit \
               (16-byte) aligned for writes.",
    align: 4,
};

/// cl_intel_subgroups, buffer block writes.
pub const BLOCK_WRITE: Rule = Rule {
    spec: "cl_intel_subgroups",
    sentence: "The pointer p must be 32-bit (4-byte) aligned for reads, and must be 128-bit \
               (16-byte) aligned for writes.",
    align: 16,
};

/// cl_intel_subgroups, image block writes.
pub const IMAGE_BLOCK_WRITE_X: Rule = Rule {
    spec: "cl_intel_subgroups",
    sentence: "the x-component of the byte coordinate for the image block write functions \
               must be a multiple of four",
    align: 4,
};

/// cl_intel_media_block_io, Table 6.X.
pub const MEDIA_BLOCK_SIZE: Rule = Rule {
    spec: "cl_intel_media_block_io",
    sentence: "The following restrictions in Table 6.X apply for allowed sizes for the explicit \
               width and height parameters (width in bytes 4: at most 64 rows; 8: 32; 12, 16: \
               16; 20 to 32: 8)",
    align: 4,
};

/// The largest height cl_intel_media_block_io's Table 6.X allows a block `width` bytes wide
/// (None: no height makes that width legal).
pub fn media_max_height(width: u32) -> Option<u32> {
    match width {
        4 => Some(64),
        8 => Some(32),
        12 | 16 => Some(16),
        20 | 24 | 28 | 32 => Some(8),
        _ => None,
    }
}

/// LSC opcodes (desc\[5:0\]) of plain loads and stores.
const LSC_LOAD: u32 = 0x00;
const LSC_STORE: u32 = 0x04;

/// What the sanitizer needs to know of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A buffer block read whose message carries the byte address.
    BlockRead,
    /// A stateless buffer block write whose message carries the byte address.
    BlockWrite,
    /// A block write through a binding table whose header holds the offset in OWords.
    BlockWriteOwords {
        bti: u32,
    },
    MediaRead,
    MediaWrite,
    /// Any other message.
    Other,
}

/// The kind of the message with `sfid` and descriptor `desc` on `p`, in a walker of `simd`
/// lanes (None: unknown).
pub fn classify(p: Platform, sfid: u8, desc: u32, simd: Option<u32>) -> Kind {
    let ty = desc >> 14 & 0x1f;
    match Sfid::decode(p, sfid) {
        Some(Sfid::Dc0) => match ty {
            0x01 => Kind::BlockRead,
            0x08 => Kind::BlockWriteOwords { bti: desc & 0xff },
            _ => Kind::Other,
        },
        // Transposed (block) LSC loads and stores of more than one element: Xe-HPG's block
        // messages. One element (`d32x1t`, `d64x1t`) is IGC's form of a uniform scalar load
        // or store (one lane's `if (lid == 0) out[g] = v;`), never a sub-group's block: the
        // smallest of those, eight `uchar`s, IGC moves as `d32x2t`. A sub-group's block is
        // sub-group size × element × count bytes, all powers of two: three elements
        // (`d32x3t`) are IGC's uniform copy of a 12-byte struct, not a block. And a block
        // moves at least a byte per lane: fewer bytes than the walker has lanes are IGC's
        // uniform load or store of a small value (`store.ugm.d32x2t` of one `long` at SIMD16).
        Some(Sfid::Ugm)
            if lsc::field(desc, lsc::TRANSPOSED) != 0
                && lsc::field(desc, lsc::VECTOR) != 0
                && transposed_bytes(desc).is_some_and(|(n, bytes)| {
                    n.is_power_of_two() && simd.is_none_or(|lanes| bytes >= lanes)
                }) =>
        {
            match lsc::field(desc, lsc::OPCODE) {
                LSC_LOAD => Kind::BlockRead,
                LSC_STORE => Kind::BlockWrite,
                _ => Kind::Other,
            }
        }
        Some(Sfid::Dc1) => match ty {
            0x14 => Kind::BlockRead,
            0x15 => Kind::BlockWrite,
            0x04 => Kind::MediaRead,
            0x0A => Kind::MediaWrite,
            _ => Kind::Other,
        },
        _ => Kind::Other,
    }
}

/// A transposed LSC message's elements and the bytes they move.
fn transposed_bytes(desc: u32) -> Option<(u32, u32)> {
    let n = *lsc::VECTOR_SIZES.get(lsc::field(desc, lsc::VECTOR) as usize)?;
    let (_, _, mem_bits) = lsc::DATA_SIZES.get(lsc::field(desc, lsc::DATA_SIZE) as usize)?;
    Some((n, mem_bits / 8 * n))
}

/// The rule a misaligned address breaks for a message of `kind`, when a spec states one.
pub fn address_rule(kind: Kind) -> Option<Rule> {
    match kind {
        Kind::BlockRead => Some(BLOCK_READ),
        Kind::BlockWrite | Kind::BlockWriteOwords { .. } => Some(BLOCK_WRITE),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_heights_follow_table_6x() {
        assert_eq!(media_max_height(4), Some(64));
        assert_eq!(media_max_height(16), Some(16));
        assert_eq!(media_max_height(32), Some(8));
        assert_eq!(media_max_height(64), None);
        assert_eq!(media_max_height(6), None);
    }

    #[test]
    fn igc_block_messages_classify() {
        // ocloc's dg2 block read and write: load.ugm.d32x16t and store.ugm.d64x8t (BTI).
        assert_eq!(
            classify(Platform::Dg2, 0xF, 0x6228_D500, None),
            Kind::BlockRead
        );
        assert_eq!(
            classify(Platform::Dg2, 0xF, 0x620E_C704, None),
            Kind::BlockWrite
        );
        // IGC's uniform store of one dword (`store.ugm.d32x1t.a32...bti[3]`, PyOpenCL's
        // scan writing a unit's sum from its first lane).
        assert_eq!(classify(Platform::Dg2, 0xF, 0x620E_8504, None), Kind::Other);
        assert_eq!(classify(Platform::Dg2, 0xF, 0x6428_0500, None), Kind::Other);
        // IGC's uniform copy of a 12-byte struct (`store.ugm.d32x3t.a32.wb.wb.bti[1]`).
        assert_eq!(classify(Platform::Dg2, 0xF, 0x620E_A504, None), Kind::Other);
        // Descriptors from ocloc's skl kernels: DC0 "oword aligned block read x4" (type 1,
        // byte offset) and "oword block write x4" (type 8) to BTI 1 and 0.
        assert_eq!(
            classify(Platform::Skl, 0xA, 0x0228_4300, None),
            Kind::BlockRead
        );
        assert_eq!(
            classify(Platform::Skl, 0xA, 0x020A_0301, None),
            Kind::BlockWriteOwords { bti: 1 }
        );
    }

    #[test]
    fn transposed_messages_smaller_than_a_byte_per_lane_are_no_block() {
        // `store.ugm.d32x2t.a32.wb.wb.bti[0]` (iga64 -p 12p71), 8 bytes: IGC's uniform store of
        // a long in CTS test_atomics' SIMD16 kernel; at SIMD8 it may be eight uchars' block.
        let d32x2t = 0x620E_9504;
        let at = |simd| classify(Platform::Dg2, 0xF, d32x2t, simd);
        assert_eq!(at(Some(16)), Kind::Other);
        assert_eq!(at(Some(32)), Kind::Other);
        assert_eq!(at(Some(8)), Kind::BlockWrite);
        assert_eq!(at(None), Kind::BlockWrite);
        // A sub-group's 64-byte block read (`load.ugm.d32x16t`) stays one at SIMD16 and 32.
        for simd in [16, 32] {
            let k = classify(Platform::Dg2, 0xF, 0x6228_D500, Some(simd));
            assert_eq!(k, Kind::BlockRead);
        }
        // HDC messages are classified whatever the width.
        let owords = classify(Platform::Skl, 0xA, 0x0228_4300, Some(32));
        assert_eq!(owords, Kind::BlockRead);
    }
}
