//! The assembler and disassembler remember lines (instruction words) they have done once.
//! Repeats that must not be taken from memory: branches (their targets are relative to
//! their own address) and lines after one that failed. Checked against iga64 on text and
//! words that repeat such lines.

use oracles::{iga64, Oracle};
use platform::Platform;

/// Gen12LP text: the same branch, plain and compacted lines at several addresses, labels
/// between them.
const TGLLP: &str = "\
L0:
        mov (16|M0)              r10.0<1>:f    r2.0<1;1,0>:f
        add (16|M0)              r12.0<1>:f    r10.0<1;1,0>:f    1.0:f               {Compacted}
(W)     jmpi                                 L96
        mov (16|M0)              r10.0<1>:f    r2.0<1;1,0>:f
        add (16|M0)              r12.0<1>:f    r10.0<1;1,0>:f    1.0:f               {Compacted}
(W)     jmpi                                 L96
L64:
        mov (16|M0)              r10.0<1>:f    r2.0<1;1,0>:f
        add (16|M0)              r12.0<1>:f    r10.0<1;1,0>:f    1.0:f               {Compacted}
L96:
(W)     jmpi                                 L64
(W)     jmpi                                 L0
        mov (16|M0)              r10.0<1>:f    r2.0<1;1,0>:f
";

#[test]
fn repeated_lines_assemble_and_print_as_iga64_does() {
    let iga = oracles::require!(Oracle::Iga64);
    let p = Platform::Tgllp;
    let want = iga64::asm(&iga, p, TGLLP, &[]).expect("iga64 -a");
    assert_eq!(isa_encoder::assemble(p, TGLLP).expect("assembles"), want);
    // The words twice over: every word repeats, branches at other addresses.
    let twice = want.repeat(2);
    let text = iga64::disasm(&iga, p, &twice, &[]).expect("iga64 -d");
    assert_eq!(
        isa_encoder::disassemble(p, &twice).expect("disassembles"),
        text
    );
    let mut written = Vec::new();
    isa_encoder::disassemble_to(p, &twice, &mut written).expect("disassembles");
    assert_eq!(String::from_utf8(written).expect("UTF-8"), text);
    assert_eq!(isa_encoder::assemble(p, &text).expect("assembles"), twice);
}

#[test]
fn a_repeated_line_after_a_failure_still_reports_the_first_error() {
    // `{Compacted}` on an instruction with no compacted form fails to encode; the good line
    // before it is remembered, but the text error after the failure is still the one reported
    // (text errors come first), and a repeat of the failing line reports its own line.
    let p = Platform::Tgllp;
    let good = "        mov (16|M0)              r10.0<1>:f    r2.0<1;1,0>:f\n";
    let bad = "        mov (16|M0)              r10.0<1>:q    r2.0<1;1,0>:q   {Compacted}\n";
    let e = isa_encoder::assemble(p, &format!("{good}{good}{bad}{good}{bad}")).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    let e = isa_encoder::assemble(p, &format!("{good}{bad}{good}nonsense\n")).unwrap_err();
    assert_eq!(e.line, 4, "{e}");
}

/// Lines drawn at random from a pool (plain, compacted, branches, labels, lines that fail to
/// parse or to encode) assemble to the same bytes, or fail on the same line, as the same text
/// with every line indented differently (so no line equals an earlier one and none comes from
/// the line memo), and as with both memos off. Long enough for the memo's probation to pass.
#[test]
fn remembered_lines_assemble_as_unremembered_ones() {
    let p = Platform::Tgllp;
    let pool = [
        "mov (16|M0)              r10.0<1>:f    r2.0<1;1,0>:f",
        "add (16|M0)              r12.0<1>:f    r10.0<1;1,0>:f    1.0:f               {Compacted}",
        "(W)     mov (8|M0)               r127.0<1>:ud  r0.0<1;1,0>:ud",
        "(W)     jmpi                                 L0",
        "(W)     jmpi                                 L64",
        "mul (16|M0)              r20.0<1>:d    r4.0<1;1,0>:d     r6.0<1;1,0>:d",
        "mov (16|M0)              r10.0<1>:q    r2.0<1;1,0>:q   {Compacted}",
        "nonsense",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for round in 0..40 {
        let mut repeated = String::from("L0:\n");
        let mut distinct = String::from("L0:\n");
        let lines = 300 + next() % 5000;
        for k in 0..lines {
            // Few failing lines, so that most texts assemble.
            let pick = next() as usize % if round % 4 == 0 { pool.len() } else { 6 };
            let line = pool[pick];
            repeated.push_str(line);
            repeated.push('\n');
            distinct.push_str(&" ".repeat(k as usize + 1));
            distinct.push_str(line);
            distinct.push('\n');
            if k == 3 {
                repeated.push_str("L64:\n");
                distinct.push_str("L64:\n");
            }
        }
        let a = isa_encoder::assemble(p, &repeated).map_err(|e| e.line);
        let b = isa_encoder::assemble(p, &distinct).map_err(|e| e.line);
        assert_eq!(a, b, "round {round}");
        // Without any memo (lines nor tokens), every line parsed in full: the same again.
        let none = isa_encoder::Memos::NONE;
        let c = isa_encoder::assemble_with(p, &repeated, none).map_err(|e| e.line);
        assert_eq!(a, c, "round {round}, no memos");
    }
}

/// `disassemble_to` decodes everything before it writes: bytes that stop decoding part-way
/// (here an instruction cut short after a long kernel) give the error and no text at all.
#[test]
fn disassemble_to_writes_nothing_for_bytes_that_do_not_decode() {
    let p = Platform::Tgllp;
    let good = isa_encoder::assemble(p, TGLLP).expect("assembles");
    let mut bytes = good.repeat(2000);
    bytes.extend_from_slice(&good[..12]);
    let mut written = Vec::new();
    let e = isa_encoder::disassemble_to(p, &bytes, &mut written).unwrap_err();
    let want = isa_encoder::disassemble(p, &bytes).unwrap_err();
    assert!(
        matches!(&e, isa_encoder::DisassembleToError::Decode(d) if *d == want),
        "{e}"
    );
    assert!(written.is_empty());
}
