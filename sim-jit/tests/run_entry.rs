//! A translated run is entered whenever execution reaches its first instruction or a branch
//! target inside it: the interpreter's stretches between runs stop after each branch instead
//! of interpreting on past the place it landed; and after a barrier's wait, where a thread
//! that stopped for the barrier goes on.

use platform::Platform;
use sim_eu::dataport::Surface;
use sim_eu::error::MemFault;
use sim_eu::{Memory, NoMemory, Program, Status, Thread};
use sim_jit::Translated;

/// A jump over three moves to a run of eight adds, then the end of the thread.
const KERNEL: &str = "
cmp (16|M0) (lt)f0.0 null<1>:d r2.0<8;8,1>:d 0x100:d
(W) jmpi RUN
mov (16|M0) r10.0<1>:d 0x1:d
mov (16|M0) r12.0<1>:d 0x2:d
mov (16|M0) r14.0<1>:d 0x3:d
RUN:
add (16|M0) r20.0<1>:d r2.0<8;8,1>:d 0x1:d
add (16|M0) r22.0<1>:d r20.0<8;8,1>:d 0x2:d
add (16|M0) r24.0<1>:d r22.0<8;8,1>:d 0x3:d
add (16|M0) r26.0<1>:d r24.0<8;8,1>:d 0x4:d
add (16|M0) r28.0<1>:d r26.0<8;8,1>:d 0x5:d
add (16|M0) r30.0<1>:d r28.0<8;8,1>:d 0x6:d
add (16|M0) r32.0<1>:d r30.0<8;8,1>:d 0x7:d
add (16|M0) r34.0<1>:d r32.0<8;8,1>:d 0x8:d
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

#[test]
fn a_jump_to_a_run_start_enters_the_run() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, KERNEL).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::new(&prog, true).expect("translates");
    // One run from the first move to the end of the thread (the `jmpi` stays interpreted),
    // entered at its start and at the jump's target.
    assert_eq!(tr.runs().collect::<Vec<_>>(), [(2, 12)]);
    assert_eq!(tr.entries().collect::<Vec<_>>(), [2, 5]);
    let mut t = Thread::new(0xffff);
    let mut translated = 0;
    let st = sim_jit::run_counted(&mut t, &prog, &tr, &mut NoMemory, 1 << 20, &mut translated);
    assert_eq!(st, Ok(Status::Ended));
    // cmp, jmpi, the eight adds as translated code, the end of the thread.
    assert_eq!((translated, t.instructions_executed()), (8, 11));
}

/// A barrier's wait inside a run: the run leaves where the thread stops for the barrier, and
/// the thread, released, goes on in the same run, entered again at the wait; a thread whose
/// barrier already completed runs through without leaving.
#[test]
fn a_barrier_wait_leaves_the_run_and_is_entered_after() {
    let adds = |from: u32| -> String {
        (0..8)
            .map(|k| {
                format!(
                    "add (16|M0) r{}.0<1>:d r2.0<8;8,1>:d 0x{:x}:d\n",
                    from + 2 * k,
                    k + 1
                )
            })
            .collect()
    };
    let text = format!(
        "{}(W) send.gtwy (1|M0) null r1 null 0x0 0x02000004\n(W) sync.bar null\n{}\
         (W) send.ts (8|M0) null r127 null 0x0 0x02000010 {{EOT}}\n",
        adds(20),
        adds(40)
    );
    let bytes = isa_encoder::assemble(Platform::Tgllp, &text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::new(&prog, true).expect("translates");
    // One run of both groups of adds, the signal (a send called from the run), the wait and
    // the end of the thread (the run leaves at both for the interpreter).
    assert_eq!(tr.runs().collect::<Vec<_>>(), [(0, 19)]);
    assert_eq!(tr.entries().collect::<Vec<_>>(), [0, 9, 10]);

    let start = || {
        let mut t = Thread::new(0xffff);
        for (i, b) in t.grf_mut()[64..96].iter_mut().enumerate() {
            *b = i as u8 * 7;
        }
        t
    };
    // The interpreter's way: it stops at the wait (ip 9), is released, ends.
    let mut want = start();
    assert_eq!(
        sim_eu::run(&mut want, &prog, &mut NoMemory, 1 << 20),
        Ok(Status::Barrier)
    );
    assert_eq!(want.ip(), 9);
    let at_wait = want.clone();
    want.release_barrier();
    assert_eq!(
        sim_eu::run(&mut want, &prog, &mut NoMemory, 1 << 20),
        Ok(Status::Ended)
    );

    // A budget that ends right after the signal: entered again at the wait with the barrier
    // pending, the run stops there as the interpreter does.
    let mut sliced = start();
    let st = sim_jit::run(&mut sliced, &prog, &tr, &mut NoMemory, 9);
    assert_eq!((st, sliced.ip()), (Ok(Status::Budget), 9));
    assert!(sliced.barrier_pending());
    let st = sim_jit::run(&mut sliced, &prog, &tr, &mut NoMemory, 1 << 20);
    assert_eq!((st, sliced.ip()), (Ok(Status::Barrier), 9));
    assert_eq!(
        sliced.instructions_executed(),
        at_wait.instructions_executed()
    );

    let mut t = start();
    let mut translated = 0;
    let st = sim_jit::run_counted(&mut t, &prog, &tr, &mut NoMemory, 1 << 20, &mut translated);
    assert_eq!(st, Ok(Status::Barrier));
    // Stopped at the wait as the interpreter did, the first adds and the signal done from
    // host code.
    assert_eq!((t.ip(), translated), (9, 9));
    assert_eq!(t.instructions_executed(), at_wait.instructions_executed());
    assert_eq!(t.file()[..128 * 32], at_wait.file()[..128 * 32]);
    assert!(t.barrier_pending());
    t.release_barrier();
    let st = sim_jit::run_counted(&mut t, &prog, &tr, &mut NoMemory, 1 << 20, &mut translated);
    assert_eq!(st, Ok(Status::Ended));
    // The wait again (now passing, in host code: no barrier pending), the second adds in
    // host code, the end.
    assert_eq!(translated, 18);
    assert_eq!(t.instructions_executed(), want.instructions_executed());
    assert_eq!(t.file()[..128 * 32], want.file()[..128 * 32]);
}

/// No memory, but one that hears of every send, as the sanitizer's does: the interpreter's
/// run loop then runs each send (and a barrier's wait where the thread stops) on its own.
#[derive(Default)]
struct Hearing {
    sends: Vec<u32>,
}

impl Memory for Hearing {
    fn read(&mut self, addr: u64, b: &mut [u8]) -> Result<(), MemFault> {
        NoMemory.read(addr, b)
    }
    fn write(&mut self, addr: u64, b: &[u8]) -> Result<(), MemFault> {
        NoMemory.write(addr, b)
    }
    fn slm_read(&mut self, offset: u32, b: &mut [u8]) -> Result<(), MemFault> {
        NoMemory.slm_read(offset, b)
    }
    fn slm_write(&mut self, offset: u32, b: &[u8]) -> Result<(), MemFault> {
        NoMemory.slm_write(offset, b)
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        NoMemory.surface(bti)
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        NoMemory.surface_state(offset)
    }
    fn observes_sends(&self) -> bool {
        true
    }
    fn on_send(&mut self, _: &Thread, ip: u32, _: u32) {
        self.sends.push(ip);
    }
}

/// The same barrier with a memory that hears of sends: the thread stops at the wait and ends
/// as the interpreter's do, and the memory hears of the signal and the end once each.
#[test]
fn a_barrier_wait_with_a_memory_that_hears_of_sends() {
    let adds: String = (0..8)
        .map(|k| {
            format!(
                "add (16|M0) r{}.0<1>:d r2.0<8;8,1>:d 0x{:x}:d\n",
                20 + 2 * k,
                k + 1
            )
        })
        .collect();
    let text = format!(
        "{adds}(W) send.gtwy (1|M0) null r1 null 0x0 0x02000004\n(W) sync.bar null\n{adds}\
         (W) send.ts (8|M0) null r127 null 0x0 0x02000010 {{EOT}}\n"
    );
    let bytes = isa_encoder::assemble(Platform::Tgllp, &text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::new(&prog, true).expect("translates");
    let (mut want, mut t) = (Thread::new(0xffff), Thread::new(0xffff));
    let (mut heard_want, mut heard) = (Hearing::default(), Hearing::default());
    for (status, ip) in [(Status::Barrier, 9), (Status::Ended, 18)] {
        let w = sim_eu::run(&mut want, &prog, &mut heard_want, 1 << 20);
        let g = sim_jit::run(&mut t, &prog, &tr, &mut heard, 1 << 20);
        assert_eq!((w, want.ip()), (Ok(status), ip));
        assert_eq!((g, t.ip()), (Ok(status), ip));
        assert_eq!(t.instructions_executed(), want.instructions_executed());
        want.release_barrier();
        t.release_barrier();
    }
    assert_eq!(heard.sends, heard_want.sends);
    assert_eq!(heard.sends, [8, 18]);
    assert_eq!(t.file()[..128 * 32], want.file()[..128 * 32]);
}
