//! describe() against iga64 on hand-picked sends: the messages named in the issue, register
//! descriptors, unknown SFIDs and reserved encodings; plus describe() never panics.

use crate::sendmsg_support;

use isa_encoder::sendmsg::{describe, DescValue, SendDescription};
use oracles::{require, Oracle};
use platform::Platform;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use sendmsg_support::compare_listing;

/// IGA text per platform, in iga64's own syntax; every line is a send.
fn lines(p: Platform) -> &'static str {
    match p {
        Platform::Skl | Platform::Icllp => {
            "(W) send (16|M0) r4 r6 0xA 0x02284300
(W) sends (16|M0) null r9 r7 0x8A 0x020A0301
(W) send (8|M0) null r127 0x27 0x02000010
(W) send (8|M0) r3 r5 0xC 0x02190000
(W) sends (8|M0) null r5 r3 0x4C 0x020A8001
(W) sends (16|M0) null r15 r11 0x8C 0x04025EFE
(W) send (8|M0) r19 r3 0xA 0x0219E000
(W) send (8|M0) r19 r3 0xA 0x0219E0FE
(W) send (8|M0) r19 r3 0xA 0x0219E100
(W) send (8|M0) r19 r3 0xA 0x0219FE00
(W) send (1|M0) null r20 0x3 0x02000004
(W) send (1|M0) r21 r8 0xA 0x021108FE
(W) sends (1|M0) null r22 r24 0x4C 0x040487FF
(W) send (16|M0) r4 r6 0xA a0.0
(W) sends (16|M0) r4 r6 r8 a0.2 0x02284300
(W) send (16|M0) r4 r6 0x1 0x02284300
(W) send (16|M0) r4 r6 0xE 0x02284300
(W) send (16|M0) r4 r6 0x0 0x02284300
(W) send (16|M0) r4 r6 0x8 0x02284300
(W) send (16|M0) r4 r6 0x4 0x02284300
(W) send (16|M0) r4 r6 0xC 0x02194000
(W) send (16|M0) r4 r6 0xC 0x021C0000
"
        }
        Platform::Tgllp => {
            "(W) send.dc0 (16|M0) r11 r13 null 0x0 0x02284300 {$0}
(W) send.dc0 (16|M0) null r9 r7 0x80 0x020A0301 {$1}
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {$2}
(W) send.gtwy (1|M0) null r21 null 0x0 0x02000004 {$4}
(W) send.dc1 (16|M0) null r15 r11 0x80 0x04025EFE {$0}
(W) send.dc0 (8|M0) r20 r3 null 0x0 0x0219E100 {$3}
(W) send.dc0 (16|M0) r4 r6 null 0x0 a0.0 {$0}
(W) send.dc0 (16|M0) r4 r6 r8 a0.2 0x02284300 {$0}
(W) send.dc0 (16|M0) r4 r6 null 0x0 0x12340000 {$0}
(W) send.dc1 (16|M0) r4 r6 null 0x0 0x02FFC300 {$0}
(W) send.dc2 (16|M0) r4 r6 null 0x0 0x02FFC300 {$0}
(W) send.gtwy (16|M0) r4 r6 null 0x0 0x02FFC300 {$0}
(W) send.null (16|M0) r4 r6 null 0x0 0x02FFC300 {$0}
(W) send.pixi (16|M0) r4 r6 null 0x0 0x02FFC300 {$0}
(W) send.vme (16|M0) r4 r6 null 0x0 0x02FFC300 {$0}
(W) send.cre (16|M0) r4 r6 null 0x0 0x02FFC300 {$0}
(W) send.dc1 (16|M0) r4 r6 null 0x0 0x020F0000 {$0}
(W) send.dc1 (16|M0) r4 r6 null 0x0 0x020F0100 {$0}
"
        }
        Platform::Dg2 => {
            "(W) send.ugm (1|M0) r4 r6 null:0 0x0 0x6228D500 {$1}
(W) send.ugm (1|M0) null r9 r7:2 0x1000000 0x620EC704 {$2}
(W) send.gtwy (8|M0) null r127 null:0 0x0 0x02000010 {$3}
(W) send.ugm (1|M0) r6 r2 null:0 0x0 0x0210651F {$1}
(W) send.slm (1|M0) r19 r3 null:0 0x0 0x0210011F {$5}
(W) send.ugm (1|M0) r20 r3 null:0 0x0 0x0210251F {$6}
(W) send.slm (1|M0) r22 r8 null:0 0x0 0x02188500 {$8}
(W) send.ugm (16|M0) r11 r5 null:0 0x0 0x64280500 {$3}
(W) send.slm (16|M0) null r15 r11:2 0x0 0x040E0504 {$3}
(W) send.dc0 (8|M0) r1 r127 null:0 0x0 0x024844FD {$0}
(W) send.dc0 (8|M0) r1 r127 null:0 0x0 0x0248A4FD {$0}
(W) send.dc1 (1|M0) null r24 r26:1 0x0 0x040487FF {$9}
(W) send.ugm (1|M0) r4 r6 null:0 0x0 a0.0 {$0}
(W) send.ugm (1|M0) null r9 r7:2 a0.2 0x620EC704 {$0}
(W) send.ugm (16|M0) r4 r6 null:0 0x0 0x042C0580 {$0}
(W) send.ugm (16|M0) r4 r6 null:0 0x0 0x04280500 {$0}
(W) send.ugm (16|M0) r4 r6 null:0 0x0 0x0428F502 {$0}
(W) send.tgm (8|M0) r4 r6 null:0 0x0 0x6428F502 {$0}
(W) send.ugm (16|M0) r4 r6 null:0 0x0 0x0428053F {$0}
"
        }
    }
}

#[test]
fn describe_matches_iga64_on_hand_picked_sends() {
    let iga = require!(Oracle::Iga64);
    let mut bad = Vec::new();
    for p in Platform::ALL {
        let text = lines(p);
        let bytes = oracles::iga64::asm(&iga, p, text, &[]).unwrap();
        let listing = oracles::iga64::disasm(&iga, p, &bytes, &[]).unwrap();
        let (b, n) = compare_listing(p, &listing);
        assert_eq!(
            n,
            text.lines().count(),
            "{p}: describe() declined a send:\n{listing}"
        );
        bad.extend(b);
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

fn value() -> impl Strategy<Value = DescValue> {
    prop_oneof![
        8 => any::<u32>().prop_map(DescValue::Imm),
        1 => any::<u8>().prop_map(DescValue::A0),
    ]
}

#[test]
fn describe_never_panics() {
    let all = (
        0..4usize,
        proptest::option::of(any::<u8>()),
        any::<u8>(),
        value(),
        value(),
        proptest::option::of(any::<u8>()),
    );
    let config = ProptestConfig {
        cases: 20_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    TestRunner::new(config)
        .run(&all, |(p, sfid, exec_size, desc, ex_desc, src1_len)| {
            let msg = SendDescription {
                platform: Platform::ALL[p],
                sfid,
                exec_size,
                desc,
                ex_desc,
                src1_len,
            };
            if let Some(text) = describe(&msg) {
                prop_assert!(text.starts_with("wr:"));
            }
            Ok(())
        })
        .unwrap();
}
