//! `exec::begin`, the translated run loop's start, against the interpreter's own start: a run
//! without budget. Same answer and the same thread afterwards (file and `tm0` included), at
//! the places a run loop starts: a fresh thread, one part way, one past the kernel's end, an
//! ended one, one at a fused pair's `dpasw`.

use platform::Platform;
use sim_eu::{exec, run, EuError, Memory, NoMemory, Program, Status, Thread};

fn same_start(prog: &Program, t: &Thread) -> Result<Status, EuError> {
    let (mut a, mut b) = (t.clone(), t.clone());
    let want = run(&mut a, prog, &mut NoMemory, 0);
    let got = exec::begin(
        &mut b,
        prog,
        NoMemory.observes_sends(),
        NoMemory.tracks_registers(),
    );
    assert_eq!(got, want);
    assert!(a.same_state(&b), "the threads differ after the start");
    assert_eq!(a.file(), b.file());
    assert_eq!(a.instructions_executed(), b.instructions_executed());
    want
}

#[test]
fn begin_is_a_run_without_budget() {
    let text =
        "add (16|M0) r10.0<1>:d r2.0<8;8,1>:d 0x1:d\nmov (16|M0) r12.0<1>:d r10.0<8;8,1>:d\n\
                (W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let mut t = Thread::new(0xffff);
    for (i, b) in t.grf_mut().iter_mut().enumerate() {
        *b = (i * 7) as u8;
    }
    assert_eq!(same_start(&prog, &t), Ok(Status::Budget));
    // Part way: one instruction run, so tm0 shows a count.
    run(&mut t, &prog, &mut NoMemory, 1).expect("runs");
    assert_eq!(same_start(&prog, &t), Ok(Status::Budget));
    // Past the end: the interpreter's error.
    let mut past = t.clone();
    past.resume(9, past.instructions_executed());
    assert!(same_start(&prog, &past).is_err());
    // Ended.
    run(&mut t, &prog, &mut NoMemory, 100).expect("runs");
    assert!(t.is_ended());
    assert_eq!(same_start(&prog, &t), Ok(Status::Ended));

    // At a fused pair's dpasw.
    let text = "dpasw.8x8 (8|M0) r10:f r20:f r30:hf r50.0:hf\nnop\n";
    let bytes = isa_encoder::assemble(Platform::Dg2, text).expect("assembles");
    let prog = Program::decode(Platform::Dg2, &bytes);
    assert_eq!(same_start(&prog, &Thread::new(0xff)), Ok(Status::Fused));
}

/// `exec::end_plain` at the thread spawner's end of thread ends the thread as the interpreter
/// does (counted, not advanced; `tm0` aside, which nothing reads after the end), and at any
/// other instruction changes nothing.
#[test]
fn the_plain_end_ends_as_the_interpreter_does() {
    let text = "add (16|M0) r10.0<1>:d r2.0<8;8,1>:d 0x1:d\n\
                (W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let mut t = Thread::new(0xffff);
    for (i, b) in t.grf_mut().iter_mut().enumerate() {
        *b = (i * 3) as u8;
    }
    assert_eq!(exec::begin(&mut t, &prog, false, false), Ok(Status::Budget));
    // At the `add`: not an end.
    let before = t.clone();
    assert!(!exec::end_plain(&mut t, &prog));
    assert!(t.same_state(&before) && t.file() == before.file());
    run(&mut t, &prog, &mut NoMemory, 1).expect("runs");
    assert_eq!(t.ip(), 1);
    let (mut want, mut got) = (t.clone(), t.clone());
    assert_eq!(run(&mut want, &prog, &mut NoMemory, 1), Ok(Status::Ended));
    assert!(exec::end_plain(&mut got, &prog));
    assert!(got.same_state(&want), "the threads differ after the end");
    assert_eq!(got.instructions_executed(), want.instructions_executed());
    assert_eq!((got.ip(), got.is_ended()), (1, true));
    // Ended: nothing more.
    let ended = got.clone();
    assert!(!exec::end_plain(&mut got, &prog));
    assert!(got.same_state(&ended));
}
