//! Hand-picked instruction forms the compiler corpus rarely shows (ARF destinations, indirect
//! operands, channel offsets, predicate controls, register descriptors, ExBSO, calla's absolute
//! target, bfn, add3 immediates, SWSB pipes), each assembled by iga64 and then checked:
//! our disassembly equals iga64's and our assembly of iga64's text equals iga64's bytes.
//! Also: which mnemonics exist per platform equals `iga64 -Xlist-ops`.

use crate::common;

use isa_encoder::model::OPCODES;
use oracles::Oracle;
use platform::Platform;

const GEN12LP: &str = "\
L0:\n\
        nop\n\
        illegal\n\
(W)     mov (1|M0)               acc0.0<1>:f   r2.0<0;1,0>:f\n\
(W)     mov (1|M0)               f0.1<1>:uw    r2.0<0;1,0>:uw\n\
        sel (8|M0)    (lt)f0.0   r1.0<1>:f     r2.0<8;8,1>:f     r3.0<8;8,1>:f\n\
        cmpn (8|M0)   (ne)f1.1   null<1>:f     r2.0<8;8,1>:f     r3.0<8;8,1>:f\n\
        bfe (8|M0)               r1.0<1>:ud    r2.0<8;1>:ud      r3.0<8;1>:ud      r4.0<1>:ud\n\
        bfi2 (8|M0)              r1.0<1>:ud    r2.0<8;1>:ud      r3.0<8;1>:ud      r4.0<1>:ud\n\
        bfi1 (8|M0)              r1.0<1>:ud    r2.0<8;8,1>:ud    r3.0<8;8,1>:ud\n\
        lzd (8|M0)               r1.0<1>:ud    r2.0<8;8,1>:ud\n\
        fbl (8|M0)               r1.0<1>:ud    r2.0<8;8,1>:ud\n\
        rndz (8|M0)              r1.0<1>:f     r2.0<8;8,1>:f\n\
        mad (8|M0)               r1.0<1>:w     r2.0<1;0>:w       r3.0<1;0>:w       -5:w\n\
        mov (8|M0)               r1.0<1>:ud    r[a0.1,-64]<1,0>:ud\n\
        mov (8|M0)               r1.0<1>:ud    r[a0.1]<8;8,1>:ud\n\
        mov (8|M0)               r[a0.3]<1>:ud  r2.0<8;8,1>:ud\n\
        add (16|M16)             r1.0<1>:d     r2.0<8;8,1>:d     r3.0<8;8,1>:d\n\
        add (8|M24)              r1.0<1>:d     r2.0<8;8,1>:d     r3.0<8;8,1>:d\n\
        add (4|M4)               r1.0<1>:d     r2.0<4;4,1>:d     r3.0<4;4,1>:d\n\
(W&f0.0.all16h) add (1|M0)      r1.0<1>:d     r2.0<0;1,0>:d     r3.0<0;1,0>:d\n\
(~f1.1.anyv) add (1|M0)         r1.0<1>:d     r2.0<0;1,0>:d     r3.0<0;1,0>:d\n\
        sync.host                            null\n\
        sync.allrd                           null\n\
        and (8|M0)               r1.0<1>:ud    ~r2.0<8;8,1>:ud   0x3:ud\n\
        add (8|M0)               r1.0<1>:uq    r2.0<4;4,1>:uq    r4.0<4;4,1>:uq\n\
        mov (8|M0)               r1.0<1>:df    0.5:df\n\
        mov (8|M0)               r1.0<1>:hf    0x7E00:hf\n\
        mov (8|M0)               r1.0<1>:q     -9223372036854775808:q\n\
        send.dc0 (8|M0)          r1       r2      r3      a0.2           a0.0\n\
        sendc.dc1 (8|M0)         null     r2      null    0x0            0x02000000           {EOT}\n\
        mov (8|M0)               r1.0<1>:f     r2.0<8;8,1>:f                    {Atomic}\n\
        mov (8|M0)               r1.0<1>:f     r2.0<8;8,1>:f                    {Breakpoint}\n\
        goto.b (16|M0)                       L0                  L0\n\
        halt (16|M0)                         L0                  L0\n\
        call (1|M0)              r2.0          L0\n\
        ret (1|M0)                           r2.0\n\
        calla (1|M0)             r2.0          L0\n\
        jmpi                                 r5.0\n\
        dp4a (8|M0)              r1.0<1>:d     r2.0<1;0>:d       r3.0<1;0>:d       r4.0<1>:d\n\
";

const XEHPG: &str = "\
L0:\n\
        nop\n\
        illegal\n\
(W)     mov (1|M0)               acc0.0<1>:f   r2.0<0;1,0>:f\n\
        add3 (8|M0)              r1.0<1>:d     0x5:w             r3.0<1;0>:d       -7:w\n\
        bfn.(s0^s1^s2) (8|M0)    r1.0<1>:ud    r2.0<1;0>:ud      r3.0<1;0>:ud      r4.0<1>:ud\n\
        bfn.0x12 (8|M0)          r1.0<1>:ud    r2.0<1;0>:ud      r3.0<1;0>:ud      r4.0<1>:ud\n\
        dp4a (8|M0)              r1.0<1>:d     r2.0<1;0>:d       r3.0<1;0>:d       r4.0<1>:d\n\
        mov (8|M0)               r1.0<1>:bf    r2.0<8;8,1>:bf\n\
        send.ugm (8|M0)          r1       r2      r3:2    0x0            0x02000000           {A@1,$3}\n\
        send.slm (8|M0)          r1       r2      null:0  a0.2           a0.0                 {F@2}\n\
        send.tgm (8|M0)          null     r2      r5:4    0x30000        0x02000000           {L@3}\n\
        math.inv (8|M0)          r1.0<1>:f     r2.0<8;8,1>:f                    {@2,$4}\n\
        add (8|M0)               r1.0<1>:f     r2.0<8;8,1>:f     r3.0<8;8,1>:f    {@3,$4.dst}\n\
        sync.allwr                           ($0,$31)\n\
        calla (1|M0)             r2.0          L0\n\
        goto.b (16|M0)                       L0                  L0\n\
";

fn check(platform: Platform, text: &str) {
    let iga = oracles::require!(Oracle::Iga64);
    common::check_text_against_iga64(&iga, platform, text);
}

#[test]
fn gen12lp_forms() {
    check(Platform::Tgllp, GEN12LP);
}

#[test]
fn xehpg_forms() {
    check(Platform::Dg2, XEHPG);
}

#[test]
fn opcode_table_matches_iga64_list_ops() {
    let iga = oracles::require!(Oracle::Iga64);
    for p in Platform::ALL {
        let out = std::process::Command::new(&iga)
            .arg("-Xlist-ops")
            .arg(format!("-p={}", p.iga_name()))
            .output()
            .expect("iga64 runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        let mut theirs: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("Mnemonic"))
            .skip(1)
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        theirs.sort_unstable();
        theirs.dedup();
        let mut ours: Vec<&str> = OPCODES
            .iter()
            .filter(|r| r.3[p as usize].is_some())
            .map(|r| r.1)
            .collect();
        ours.sort_unstable();
        assert!(!theirs.is_empty(), "no ops listed for {p}: {text}");
        assert_eq!(ours, theirs, "{p}");
    }
}
