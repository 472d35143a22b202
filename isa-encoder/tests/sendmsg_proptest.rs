//! describe() against iga64 over random descriptor fields, per message family and platform.
//! Each case is one batch of sends: one `iga64 -a` and one `iga64 -d` per platform.

use crate::sendmsg_support;

use isa_encoder::sendmsg::Sfid;
use oracles::{require, Oracle};
use platform::Platform;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use sendmsg_support::{compare_listing, iga_round_trip, Send};

/// Sends per batch.
const BATCH: usize = 96;

/// A descriptor with the common fields random and the family's message field drawn from the
/// values that family assigns (plus any value, to reach reserved encodings).
fn family_desc(kind: u8, raw: u32, pick: u32) -> (Sfid, u32) {
    // mlen [28:25], rlen [24:20], and everything below bit 20 random.
    let base = raw & 0x1FFF_FFFF;
    let set = |d: u32, off: u32, len: u32, v: u32| {
        let mask = ((1u32 << len) - 1) << off;
        (d & !mask) | ((v << off) & mask)
    };
    const DC0_TYPES: [u32; 13] = [
        0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D,
    ];
    // DC1 assigns 0x01..=0x1E except 0x08, 0x0F, 0x16..=0x18; 0x1F is reserved.
    const DC1_TYPES: [u32; 27] = [
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x10, 0x11,
        0x12, 0x13, 0x14, 0x15, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x00,
    ];
    const ALL_SFIDS: [Sfid; 19] = [
        Sfid::Null,
        Sfid::Ugml,
        Sfid::Sampler,
        Sfid::Gateway,
        Sfid::Dc2,
        Sfid::RenderCache,
        Sfid::Urb,
        Sfid::ThreadSpawner,
        Sfid::Btd,
        Sfid::Vme,
        Sfid::Rta,
        Sfid::Dcro,
        Sfid::Dc0,
        Sfid::PixelInterpolator,
        Sfid::Dc1,
        Sfid::Cre,
        Sfid::Tgm,
        Sfid::Slm,
        Sfid::Ugm,
    ];
    match kind % 10 {
        // Any shared function (messages describe() declines are skipped by the comparison).
        6 => (ALL_SFIDS[(pick as usize) % ALL_SFIDS.len()], base),
        7 => (Sfid::Sampler, raw & 0x7FFF_FFFF),
        // URB opcodes 7..=9 are assigned.
        8 => (Sfid::Urb, set(base, 0, 4, 6 + pick % 5)),
        9 => {
            const DCRO_TYPES: [u32; 10] =
                [0x00, 0x01, 0x03, 0x09, 0x0C, 0x0D, 0x17, 0x18, 0x19, 0x1F];
            (
                Sfid::Dcro,
                set(base, 14, 5, DCRO_TYPES[(pick as usize) % DCRO_TYPES.len()]),
            )
        }
        0 => (
            Sfid::Dc0,
            set(base, 14, 5, DC0_TYPES[(pick as usize) % DC0_TYPES.len()]),
        ),
        1 => (
            Sfid::Dc1,
            set(base, 14, 5, DC1_TYPES[(pick as usize) % DC1_TYPES.len()]),
        ),
        // Fence: BTI 0 or SLM most of the time.
        2 => {
            let bti = [0, 0xFE, pick & 0xFF][(pick as usize >> 8) % 3];
            (Sfid::Dc0, set(set(base, 14, 5, 0x07), 0, 8, bti))
        }
        3 => (Sfid::Gateway, base),
        4 => (Sfid::Dc0, base),
        _ => (Sfid::Dc1, base),
    }
}

fn lsc_desc(raw: u32, pick: u32) -> (Sfid, u32) {
    let ports = [Sfid::Ugm, Sfid::Ugml, Sfid::Slm, Sfid::Tgm];
    let port = ports[(pick as usize) % ports.len()];
    // Opcodes 0..=0x20 mostly, any 6-bit value sometimes.
    let op = if pick & 0x100 != 0 {
        (pick >> 9) & 0x3F
    } else {
        (pick >> 9) % 0x21
    };
    (port, (raw & !0x3F) | op)
}

fn sends_for(p: Platform, raw: &[(u8, u32, u32, u32, u8, u8)]) -> Vec<Send> {
    raw.iter()
        .map(|&(kind, d, pick, ex, xlen, exec)| {
            let (sfid, desc) = if p >= Platform::Dg2 && kind % 3 == 0 {
                lsc_desc(d, pick)
            } else {
                family_desc(kind, d, pick)
            };
            let sfid = if p < Platform::Dg2 && kind % 11 == 10 {
                Sfid::ThreadSpawner
            } else {
                sfid
            };
            // ex_desc: the bits above the src1 length iga64 can encode ([31:16] before Gen12,
            // [31:11] after); send_text adds the src1 length and SFID.
            let ex_desc = if p < Platform::Tgllp {
                ex & 0xFFFF_0000
            } else {
                ex & !0x7FF
            };
            Send {
                sfid,
                // SIMD32 sends exist on Xe-HPG only.
                exec_size: if p >= Platform::Dg2 {
                    [1, 2, 4, 8, 16, 32][exec as usize % 6]
                } else {
                    [1, 2, 4, 8, 16][exec as usize % 5]
                },
                desc,
                ex_desc,
                src1_len: xlen % 4,
            }
        })
        .collect()
}

#[test]
fn describe_matches_iga64_on_random_descriptors() {
    let iga = require!(Oracle::Iga64);
    let config = ProptestConfig {
        cases: 40,
        max_shrink_iters: 8,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    let batch = proptest::collection::vec(
        (
            any::<u8>(),
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            any::<u8>(),
            any::<u8>(),
        ),
        BATCH,
    );
    let result = TestRunner::new(config).run(&batch, |raw| {
        for p in Platform::ALL {
            let sends = sends_for(p, &raw);
            let listing = iga_round_trip(&iga, p, &sends);
            let (bad, compared) = compare_listing(p, &listing);
            prop_assert!(
                compared >= BATCH / 2,
                "{}: only {} of {} compared",
                p,
                compared,
                BATCH
            );
            prop_assert!(
                bad.is_empty(),
                "{} mismatches:\n{}",
                bad.len(),
                bad.join("\n")
            );
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
