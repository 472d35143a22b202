//! Instruction semantics the IGC-compiled corpus depends on, each checked on a hand-written
//! program against the PRM's definition: raw moves keep bit patterns, `break` leaves its loop
//! past the WHILE its UIP names while `cont` executes it, and indirect operands are resolved
//! only in the channels an instruction executes.
// Lanes index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::eu_support as support;

use sim_eu::{run, Status, Thread};
use support::*;

/// Half-precision bit patterns: signalling and quiet NaNs of both signs (the `:hf` view of
/// byte pairs such as 0x7d, 0xfe), infinities, a denormal, -0 and ordinary values.
const HALVES: [u16; 16] = [
    0xfe7d, 0x7c01, 0x7d7f, 0xfc01, 0x7e00, 0xffff, 0x7c00, 0xfc00, 0x0001, 0x8000, 0x3c00, 0xc000,
    0x7bff, 0x03ff, 0x7dfe, 0xfd00,
];

fn halves_as_u32s(h: &[u16]) -> Vec<u32> {
    h.chunks(2)
        .map(|c| u32::from(c[0]) | u32::from(c[1]) << 16)
        .collect()
}

/// PRM Vol 2a "Move": a mov with the same source and destination type, no source modifier
/// and no saturation is a raw move, so every :hf pattern (NaN payloads included) arrives bit
/// for bit. A converting mov (:hf to :f) still converts.
#[test]
fn same_type_mov_is_a_raw_move() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        mov (16|M0) r10.0<1>:hf r2.0<1;1,0>:hf
        mov (8|M0) r12.0<1>:f r2.10<1;1,0>:hf
        mov (16|M0) r13.0<1>:b r3.0<1;1,0>:b
        ";
    let bytes: Vec<u32> = vec![0x7f7d_fe7d, 0x0180_7ffe, 0xfdfc_fffe, 0x0102_0304];
    for p in ALL {
        let prog = program(&iga, p, body);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let t = run_on(&prog, 16, &mut mem, |t| {
            set_u32s(t, 2, &halves_as_u32s(&HALVES));
            set_u32s(t, 3, &bytes);
        })
        .unwrap();
        assert_eq!(u32s(&t, 10, 8), halves_as_u32s(&HALVES), "{p} :hf raw move");
        // r2.10:hf onwards are HALVES[10..]: 1.0, -2.0, 65504, the largest denormal, NaN, NaN.
        let f = f32s(&t, 12, 6);
        assert_eq!(&f[..4], &[1.0, -2.0, 65504.0, 1023.0 / 16_777_216.0], "{p}");
        assert!(f[4].is_nan() && f[5].is_nan(), "{p} NaN converts to NaN");
        assert_eq!(u32s(&t, 13, 4), bytes, "{p} :b raw move");
    }
}

/// IGC's loop shape: an unpredicated WHILE, and `break`/`cont` whose JIP and UIP both name
/// that WHILE (Gen7+; Mesa's brw_set_uip_jip says the same). Continuing channels execute the
/// WHILE and go round again; broken channels stay off until the loop ends and resume after
/// it. Per lane: `for (k = 1;; k++) { if (k >= n) break; if (k < m) continue; body++; }`.
const LOOP: &str = "
        mov (16|M0) r10.0<1>:d 0x0:d
        mov (16|M0) r12.0<1>:d 0x0:d
LOOP:
        add (16|M0) r10.0<1>:d r10.0<8;8,1>:d 0x1:d
        cmp (16|M0) (ge)f0.0 null<1>:d r10.0<8;8,1>:d r2.0<8;8,1>:d
        (f0.0) break (16|M0) WHILE1 WHILE1
        cmp (16|M0) (lt)f0.1 null<1>:d r10.0<8;8,1>:d r4.0<8;8,1>:d
        (f0.1) cont (16|M0) WHILE1 WHILE1
        add (16|M0) r12.0<1>:d r12.0<8;8,1>:d 0x1:d
WHILE1:
        while (16|M0) LOOP
        add (16|M0) r14.0<1>:d r10.0<8;8,1>:d 0x64:d
";

#[test]
fn break_resumes_after_the_while_its_uip_names() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let n: Vec<u32> = (0..16).map(|i| (i * 7 % 11 + 1) as u32).collect();
    let m: Vec<u32> = (0..16).map(|i| (i % 4) as u32 * 2).collect();
    let mask = 0x7fffu32;
    for p in ALL {
        let prog = program(&iga, p, LOOP);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let mut t = Thread::new(mask);
        set_u32s(&mut t, 2, &n);
        set_u32s(&mut t, 4, &m);
        set_u32s(&mut t, 14, &[0xdead; 16]);
        let st = run(&mut t, &prog, &mut mem, 100_000).unwrap();
        assert_eq!(st, Status::Ended, "{p}: the loop must end");
        for i in 0..15 {
            let body = (1..n[i]).filter(|&k| k >= m[i]).count() as u32;
            assert_eq!(t.grf_u32(10 + i / 8, i % 8), n[i], "{p} k lane {i}");
            assert_eq!(t.grf_u32(12 + i / 8, i % 8), body, "{p} body lane {i}");
            assert_eq!(
                t.grf_u32(14 + i / 8, i % 8),
                n[i] + 100,
                "{p} after lane {i}"
            );
        }
        assert_eq!(t.grf_u32(15, 7), 0xdead, "{p} lane 15 is not dispatched");
    }
}

/// `a0.0..a0.15` = 0x100 + i for lanes 0..4, 0x1004 (past the 4 KiB GRF) for the rest; then
/// a VxH byte gather, the same at M16, a predicated one and a 1x1 byte scatter whose lanes
/// 5.. fall past the GRF.
const INDIRECT: &str = "
        (W) mov (16|M0) a0.0<1>:uw r2.0<1;1,0>:uw
        mov (16|M0) r20.0<1>:b r[a0.0]<1,0>:b
        mov (16|M16) r21.0<1>:b r[a0.0]<1,0>:b
        (W) mov (1|M0) f0.0<1>:uw 0x1f:uw
        (f0.0) mov (16|M0) r22.0<1>:b r[a0.0]<1,0>:b
        (W) mov (1|M0) a0.0<1>:uw 0xffb:uw
        mov (16|M0) r[a0.0]<1>:ub 0x55:uw
";

fn indirect_thread(mask: u32) -> Thread {
    let mut t = Thread::new(mask);
    let a0: Vec<u16> = (0..16)
        .map(|i| if i < 5 { 0x100 + i } else { 0x1004 })
        .collect();
    set_u32s(&mut t, 2, &halves_as_u32s(&a0));
    set_u32s(&mut t, 8, &[0x4433_2211, 0x8877_6655]);
    t
}

/// PRM "Register Region Restrictions"/"Indirect Register Addressing": the address register
/// gives each executing channel's operand address. Channels that do not execute (outside the
/// dispatch mask, M16 of a 5-channel thread, predicated off) access nothing.
#[test]
fn indirect_operands_resolve_only_in_executing_channels() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in ALL {
        let prog = program(&iga, p, INDIRECT);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let mut t = indirect_thread(0x1f);
        set_u32s(&mut t, 21, &[0xdead_beef; 8]);
        assert_eq!(
            run(&mut t, &prog, &mut mem, 1000).unwrap(),
            Status::Ended,
            "{p}"
        );
        let gathered = [0x4433_2211, 0x55, 0, 0];
        assert_eq!(u32s(&t, 20, 4), gathered, "{p} VxH gather, lanes 0..4");
        assert_eq!(
            u32s(&t, 21, 8),
            vec![0xdead_beef; 8],
            "{p} M16: no lane runs"
        );
        assert_eq!(u32s(&t, 22, 4), gathered, "{p} predicated gather");
        // The scatter's lanes 0..4 write bytes 0xffb..0xfff: r127.27..31.
        assert_eq!(t.grf_u32(127, 6) >> 24, 0x55, "{p} scatter lane 0");
        assert_eq!(t.grf_u32(127, 7), 0x5555_5555, "{p} scatter lanes 1..4");
    }
}

/// An executing channel's address past the 4 KiB GRF keeps its low 12 bits (regfile
/// `grf_addr_mask`): 0x1004 reads r0.4, and the scatter from 0xffb wraps after r127 into r0.
#[test]
fn executing_channels_past_the_grf_wrap_to_r0() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in ALL {
        let prog = program(&iga, p, INDIRECT);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let mut t = indirect_thread(u32::MAX);
        set_u32s(&mut t, 0, &[0, 0x77]);
        assert_eq!(
            run(&mut t, &prog, &mut mem, 1000).unwrap(),
            Status::Ended,
            "{p}"
        );
        let wrapped = [0x4433_2211, 0x7777_7755, 0x7777_7777, 0x7777_7777];
        assert_eq!(u32s(&t, 20, 4), wrapped, "{p} lanes 5.. read r0.4");
        assert_eq!(u32s(&t, 21, 4), wrapped, "{p} M16 half, a0.0.. again");
        assert_eq!(
            u32s(&t, 22, 4),
            [0x4433_2211, 0x55, 0, 0],
            "{p} predicated gather"
        );
        // Scatter lanes 0..4 write r127.27..31, lanes 5..15 r0.0..10.
        assert_eq!(t.grf_u32(127, 7), 0x5555_5555, "{p} scatter lanes 1..4");
        assert_eq!(t.grf()[..11], [0x55; 11], "{p} scatter lanes 5..15");
        assert_eq!(t.grf()[11], 0, "{p} r0.11 untouched");
    }
}
