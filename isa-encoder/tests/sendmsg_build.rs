//! Builders -> iga64: every built message, assembled and disassembled by iga64, gets the
//! payload sizes the builder computed and the message name the builder intends; and describe()
//! of the built message equals iga64's comment.

use crate::sendmsg_support;

use isa_encoder::sendmsg::build::*;
use isa_encoder::sendmsg::{describe, DescValue, SendDescription, Sfid};
use oracles::{require, Oracle};
use platform::Platform;
use sendmsg_support::{compare_listing, iga_round_trip, listed_sends, Send};

fn send(m: &Message, exec_size: u8) -> Send {
    Send {
        sfid: m.sfid,
        exec_size,
        desc: m.desc,
        ex_desc: m.ex_desc,
        src1_len: m.src1_len,
    }
}

/// (message, exec size, the message text iga64 must print) for `p`.
fn cases(p: Platform) -> Vec<(Message, u8, &'static str)> {
    let mut v = vec![
        (
            oword_block_read(p, 3, 4, true).unwrap(),
            16,
            "oword aligned block read x4",
        ),
        (
            oword_block_read(p, 0, 1, false).unwrap(),
            8,
            "oword block read x1",
        ),
        (
            oword_block_read(p, 5, 8, false).unwrap(),
            8,
            "oword block read x8",
        ),
        (
            oword_block_write(p, 1, 4).unwrap(),
            16,
            "oword block write x4",
        ),
        (
            oword_block_write(p, 1, 2).unwrap(),
            8,
            "oword block write x2",
        ),
        (
            a64_oword_block_read(p, 8, false).unwrap(),
            8,
            "a64 unaligned oword block read x8",
        ),
        (
            a64_oword_block_read(p, 2, true).unwrap(),
            8,
            "a64 aligned oword block read x2",
        ),
        (
            a64_oword_block_write(p, 4).unwrap(),
            8,
            "a64 unaligned oword block write x4",
        ),
        (
            media_block_read(p, 2, 32, 8).unwrap(),
            8,
            "media block read",
        ),
        (
            media_block_write(p, 2, 16, 4).unwrap(),
            8,
            "media block write",
        ),
        (
            untyped_surface_read(p, 4, 16, 0b1).unwrap(),
            16,
            "untyped surface read with x",
        ),
        (
            untyped_surface_write(p, BTI_SLM, 8, 0b1111).unwrap(),
            8,
            "untyped surface write with xyzw",
        ),
        (
            a64_untyped_surface_read(p, 8, 0b11).unwrap(),
            8,
            "a64 untyped surface read with xy",
        ),
        (
            a64_untyped_surface_write(p, 16, 0b1).unwrap(),
            16,
            "a64 untyped surface write with x",
        ),
        (
            byte_scattered(p, true, BTI_SLM, 8, 4).unwrap(),
            8,
            "byte gathering read 32b",
        ),
        (
            byte_scattered(p, false, 7, 16, 1).unwrap(),
            16,
            "byte scattering write 8b",
        ),
        (
            dword_scattered(p, true, 7, 16).unwrap(),
            16,
            "dword gathering read",
        ),
        (
            dword_scattered(p, false, 7, 8).unwrap(),
            8,
            "dword scattering write",
        ),
        (
            a64_scattered(p, true, 8, A64Element::Bytes(2)).unwrap(),
            8,
            "a64 byte gathering read 16b",
        ),
        (
            a64_scattered(p, false, 16, A64Element::Dword).unwrap(),
            16,
            "a64 dword scattering write",
        ),
        (
            a64_scattered(p, true, 8, A64Element::Qword).unwrap(),
            8,
            "a64 qword gathering read",
        ),
        (
            untyped_atomic(p, 3, 16, AtomicOp::Add, true).unwrap(),
            16,
            "untyped atomic int32 integer add",
        ),
        (
            untyped_atomic(p, BTI_SLM, 8, AtomicOp::CmpXchg, false).unwrap(),
            8,
            "untyped atomic int32 integer compare and swap",
        ),
        (
            a64_untyped_atomic(p, AtomicOp::Add, false, false).unwrap(),
            1,
            "untyped a64 atomic int32 integer add",
        ),
        (
            a64_untyped_atomic(p, AtomicOp::UMax, true, true).unwrap(),
            8,
            "untyped a64 atomic int64 unsigned-integer max",
        ),
        (
            hdc_fence(p, FenceTarget::Global, true).unwrap(),
            8,
            "synchronized global fence flushing",
        ),
        (
            hdc_fence(p, FenceTarget::Slm, true).unwrap(),
            8,
            "synchronized SLM fence",
        ),
        (end_of_thread(p).unwrap(), 8, "end of thread"),
        (barrier(p).unwrap(), 1, "signal barrier"),
    ];
    if p >= Platform::Dg2 {
        let block = LscAccess {
            port: Sfid::Ugm,
            surface: LscSurface::Bti(0),
            simd: 1,
            data: LscData::D32,
            vector: 16,
            transposed: true,
            addr_bits: 32,
            cache: LscCache::CachedCached,
        };
        let gather = LscAccess {
            port: Sfid::Ugm,
            surface: LscSurface::Flat,
            simd: 16,
            data: LscData::D32,
            vector: 1,
            transposed: false,
            addr_bits: 64,
            cache: LscCache::Default,
        };
        let slm = LscAccess {
            port: Sfid::Slm,
            addr_bits: 32,
            ..gather
        };
        v.extend([
            (
                lsc_load(p, &block).unwrap(),
                1,
                "load.ugm.d32x16t.a32.ca.ca.bti[0]",
            ),
            (
                lsc_store(
                    p,
                    &LscAccess {
                        data: LscData::D64,
                        vector: 8,
                        surface: LscSurface::Bti(1),
                        cache: LscCache::InvalidateCached,
                        ..block
                    },
                )
                .unwrap(),
                1,
                "store.ugm.d64x8t.a32.wb.wb.bti[1]",
            ),
            (lsc_load(p, &gather).unwrap(), 16, "load.ugm.d32.a64"),
            (
                lsc_store(
                    p,
                    &LscAccess {
                        vector: 4,
                        ..gather
                    },
                )
                .unwrap(),
                16,
                "store.ugm.d32x4.a64",
            ),
            (
                lsc_load(
                    p,
                    &LscAccess {
                        data: LscData::D16U32,
                        ..slm
                    },
                )
                .unwrap(),
                16,
                "load.slm.d16u32.a32",
            ),
            (lsc_store(p, &slm).unwrap(), 16, "store.slm.d32.a32"),
            (
                lsc_load(
                    p,
                    &LscAccess {
                        surface: LscSurface::SurfaceState(0x1800),
                        ..gather
                    },
                )
                .unwrap(),
                16,
                "load.ugm.d32.a64.ss[0x1800]",
            ),
            (
                lsc_fence(p, Sfid::Ugm, LscFlush::Invalidate, LscScope::Tile).unwrap(),
                1,
                "fence.ugm.invalidate.tile",
            ),
            (
                lsc_fence(p, Sfid::Slm, LscFlush::None, LscScope::Group).unwrap(),
                1,
                "fence.slm.none.group",
            ),
        ]);
    }
    v
}

#[test]
fn built_messages_are_what_iga64_names() {
    let iga = require!(Oracle::Iga64);
    let mut bad = Vec::new();
    for p in Platform::ALL {
        let cases = cases(p);
        let sends: Vec<Send> = cases.iter().map(|(m, e, _)| send(m, *e)).collect();
        let listing = iga_round_trip(&iga, p, &sends);
        let listed = listed_sends(p, &listing);
        assert_eq!(listed.len(), cases.len(), "{p}: {listing}");
        for ((m, _, want), got) in cases.iter().zip(&listed) {
            let comment = got.comment.clone().unwrap_or_default();
            let h = if m.desc >> 19 & 1 != 0 && !m.sfid.is_lsc() {
                "h"
            } else {
                ""
            };
            let sizes = format!("wr:{}{h}+{}, rd:{}", m.mlen, m.src1_len, m.rlen);
            if !comment.starts_with(&sizes) || !comment.ends_with(&format!("; {want}")) {
                bad.push(format!(
                    "{p}: want {sizes} .. {want}\n    iga64: {}",
                    got.line.trim()
                ));
            }
        }
        let (b, n) = compare_listing(p, &listing);
        assert_eq!(n, cases.len(), "{p}: describe() declined a built message");
        bad.extend(b);
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Without iga64: describe() of each built message names what the builder intended (the same
/// expectations the oracle test above checks against iga64).
#[test]
fn built_messages_describe_as_intended() {
    for p in Platform::ALL {
        for (m, exec_size, want) in cases(p) {
            let msg = SendDescription {
                platform: p,
                sfid: m.sfid_bits(p),
                exec_size,
                desc: DescValue::Imm(m.desc),
                ex_desc: DescValue::Imm(m.ex_desc_text(p)),
                src1_len: (p >= Platform::Dg2).then_some(m.src1_len),
            };
            let text = describe(&msg).unwrap_or_default();
            assert!(
                text.ends_with(&format!("; {want}")),
                "{p}: {text:?} should name {want:?}"
            );
        }
    }
}

#[test]
fn invalid_combinations_are_errors() {
    let p = Platform::Tgllp;
    assert!(matches!(
        oword_block_read(p, 0, 3, true),
        Err(BuildError::BadValue { .. })
    ));
    assert!(matches!(
        oword_block_read(p, 0, 16, true),
        Err(BuildError::Unsupported { .. })
    ));
    assert!(oword_block_read(Platform::Dg2, 0, 16, true).is_ok());
    assert!(matches!(
        media_block_read(p, 0, 65, 1),
        Err(BuildError::BadValue { .. })
    ));
    assert!(matches!(
        media_block_read(p, 0, 64, 8),
        Err(BuildError::TooLong { .. })
    ));
    assert!(matches!(
        untyped_surface_read(p, 0, 32, 1),
        Err(BuildError::BadValue { .. })
    ));
    assert!(matches!(
        untyped_surface_read(p, 0, 8, 0),
        Err(BuildError::BadValue { .. })
    ));
    assert!(matches!(
        byte_scattered(p, true, 0, 8, 3),
        Err(BuildError::BadValue { .. })
    ));
    let a = LscAccess {
        port: Sfid::Ugm,
        surface: LscSurface::Flat,
        simd: 16,
        data: LscData::D32,
        vector: 16,
        transposed: false,
        addr_bits: 64,
        cache: LscCache::Default,
    };
    assert!(matches!(
        lsc_load(p, &a),
        Err(BuildError::Unsupported { .. })
    ));
    let d = Platform::Dg2;
    assert!(matches!(
        lsc_load(d, &a),
        Err(BuildError::BadCombination(_))
    ));
    assert!(matches!(
        lsc_load(
            d,
            &LscAccess {
                transposed: true,
                ..a
            }
        ),
        Err(BuildError::BadCombination(_))
    ));
    assert!(matches!(
        lsc_load(d, &LscAccess { vector: 5, ..a }),
        Err(BuildError::BadValue { .. })
    ));
    assert!(matches!(
        lsc_load(
            d,
            &LscAccess {
                vector: 1,
                addr_bits: 48,
                ..a
            }
        ),
        Err(BuildError::BadValue { .. })
    ));
    assert!(matches!(
        lsc_load(
            d,
            &LscAccess {
                vector: 1,
                port: Sfid::Slm,
                surface: LscSurface::Bti(1),
                ..a
            }
        ),
        Err(BuildError::BadCombination(_))
    ));
    // 8 x SIMD32 x d64 = 16 registers per element vector: over the 31-register destination limit.
    assert!(matches!(
        lsc_load(
            d,
            &LscAccess {
                vector: 8,
                simd: 32,
                data: LscData::D64,
                ..a
            }
        ),
        Err(BuildError::TooLong { .. })
    ));
    assert!(matches!(
        lsc_fence(d, Sfid::Dc0, LscFlush::None, LscScope::Group),
        Err(BuildError::BadCombination(_))
    ));
}
