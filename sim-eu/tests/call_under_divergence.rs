//! A `call` moves the whole thread: the channels that entered run the callee to its `ret`
//! before any channel outside the call runs on, as the hardware's one instruction pointer does
//! (the per-channel instruction pointers the interpreter keeps would otherwise run first the
//! channels waiting at the lowest instruction). IGC's code at -O0 depends on it: its emulation
//! of 64-bit local atomics takes a lock in one channel, calls a fence function placed after
//! the kernel's body inside the critical section, and releases the lock after the call, while
//! the other channels of the thread loop on the lock; run the other way round the thread
//! never ends.

use platform::Platform;
use sim_eu::regfile::REG_BYTES;
use sim_eu::{run, NoMemory, Program, Status, Thread};

/// Channel 0 calls `func` (placed after the loop) from inside an `if`; the other channels
/// loop until r10.0 is set, which only the callee does; then every channel writes r11.
const PROGRAM: &str = "
        mov (8|M0)  r10.0<1>:ud  0x0:ud
        cmp (8|M0)  (eq)f0.0  null<1>:ud  r1.0<8;8,1>:ud  0x0:ud
(f0.0)  if (8|M0)  L_ENDIF  L_ENDIF
        call (8|M0)  r20.0  L_FUNC
L_ENDIF:
        endif (8|M0)  L_LOOP
L_LOOP:
        cmp (8|M0)  (eq)f0.1  null<1>:ud  r10.0<0;1,0>:ud  0x0:ud
(f0.1)  while (8|M0)  L_LOOP
        mov (8|M0)  r11.0<1>:ud  0x7:ud
        jmpi (1|M0)  L_END
L_FUNC:
(W)     mov (1|M0)  r10.0<1>:ud  0x1:ud
        ret (8|M0)  r20.0
L_END:
        jmpi (1|M0)  L_END
";

#[test]
fn the_callee_runs_before_the_channels_outside_the_call() {
    for p in [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ] {
        let code = isa_encoder::assemble(p, PROGRAM).expect("assembles");
        let prog = Program::decode(p, &code);
        let mut t = Thread::new(0xff);
        for lane in 0..8u32 {
            t.grf_mut()[REG_BYTES + 4 * lane as usize..][..4].copy_from_slice(&lane.to_le_bytes());
        }
        // Far more instructions than the program executes once the callee runs first; it
        // ends in a loop of its own.
        assert_eq!(
            run(&mut t, &prog, &mut NoMemory, 500),
            Ok(Status::Budget),
            "{p}"
        );
        for lane in 0..8 {
            let at = 11 * REG_BYTES + 4 * lane;
            let r11 = u32::from_le_bytes(t.grf()[at..at + 4].try_into().unwrap());
            assert_eq!(r11, 7, "{p}: channel {lane} did not leave the loop");
        }
    }
}
