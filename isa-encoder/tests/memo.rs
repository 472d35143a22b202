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
