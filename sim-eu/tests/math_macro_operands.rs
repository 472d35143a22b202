//! Math-macro operands (`madm`, `math.invm`, `math.rsqtm`) are checked against the register
//! file once, when the kernel is decoded: an operand whose lanes run past the last GRF
//! register is the error its instruction reports when reached, before any lane is read or
//! written, and in-range operands run without a per-lane check.

use platform::Platform;
use sim_eu::{run, EuErrorKind, NoMemory, Program, Status, Thread};

fn run_text(text: &str) -> (Result<Status, sim_eu::EuError>, Thread) {
    let code = isa_encoder::assemble(Platform::Skl, &format!("{text}\nnop\n")).expect(text);
    let prog = Program::decode(Platform::Skl, &code);
    let mut t = Thread::new(0xff);
    for (i, b) in t.grf_mut().iter_mut().enumerate() {
        *b = (i % 7) as u8;
    }
    let r = run(&mut t, &prog, &mut NoMemory, 1);
    (r, t)
}

#[test]
fn lanes_past_the_last_register_are_refused_before_any_is_written() {
    // Eight :df lanes from r127 end 32 bytes past the 128-register GRF.
    let (r, t) = run_text("madm (8|M0) r127.mme1:df r10.nomme:df r12.nomme:df r14.nomme:df");
    let e = r.expect_err("out of range");
    assert!(
        matches!(e.kind, EuErrorKind::RegisterOutOfRange { .. }),
        "{e}"
    );
    // Nothing was written: r127 holds what it held.
    let r127 = &t.grf()[127 * 32..128 * 32];
    assert!(r127
        .iter()
        .enumerate()
        .all(|(i, &b)| b == ((127 * 32 + i) % 7) as u8));
}

#[test]
fn lanes_inside_the_file_run() {
    // 1.0 + 2.0 * 3.0 in each of four lanes.
    let text = "(W) mov (4|M0) r10.0<1>:df 1.0:df\n(W) mov (4|M0) r12.0<1>:df 2.0:df\n\
                (W) mov (4|M0) r14.0<1>:df 3.0:df\n\
                madm (4|M0) r124.nomme:df r10.nomme:df r12.nomme:df r14.nomme:df";
    let code = isa_encoder::assemble(Platform::Skl, &format!("{text}\nnop\n")).expect(text);
    let prog = Program::decode(Platform::Skl, &code);
    let mut t = Thread::new(0xff);
    assert_eq!(run(&mut t, &prog, &mut NoMemory, 4), Ok(Status::Budget));
    for lane in 0..4 {
        let b = &t.grf()[124 * 32 + 8 * lane..][..8];
        assert_eq!(
            f64::from_le_bytes(b.try_into().unwrap()),
            7.0,
            "lane {lane}"
        );
    }
}
