//! The architecture registers a program may write (`Program::arf_writes`), which a reused
//! thread clears and no other: what the instructions write by the ISA's rules (a
//! destination, a conditional modifier's flag register, `mach`'s accumulator under AccWrEn,
//! `addc`'s carry, a math macro's `.mme` bits) is in the set, and after running the program
//! every architecture-register byte that is not zero lies in it. Registers none of them
//! names (a0, n0, the other accumulators) stay out, so a reused thread leaves them alone.

use platform::Platform;
use sim_eu::regfile::{ArfSet, A0, ACC, ACC_WIDE, ARF_PIECES, CR0, FLAG, MME, N0, REG_BYTES};
use sim_eu::{run, NoMemory, Program, Status, Thread};

/// Runs `text` on a thread of 16 channels whose GRF holds a pattern, and checks that the
/// architecture registers it left non-zero are all in its program's set; returns the set.
fn written_by(p: Platform, text: &str) -> ArfSet {
    let code = isa_encoder::assemble(p, &format!("{text}\nnop\n")).expect(text);
    let prog = Program::decode(p, &code);
    let mut t = Thread::new(0xffff);
    for (i, b) in t.grf_mut().iter_mut().enumerate() {
        *b = (i % 251) as u8 | 1;
    }
    let n = text.lines().count() as u64;
    assert_eq!(
        run(&mut t, &prog, &mut NoMemory, n),
        Ok(Status::Budget),
        "{text}"
    );
    for k in 0..ARF_PIECES {
        let at = A0 + 32 * k;
        let piece = &t.file()[at..at + 32];
        assert!(
            prog.arf_writes.contains(k) || piece.iter().all(|&b| b == 0),
            "{text}: file byte {at} ({piece:?}) is not in the program's set"
        );
    }
    prog.arf_writes
}

fn has(set: ArfSet, at: usize) -> bool {
    set.contains((at - A0) / 32)
}

#[test]
fn igc_multiply_high_writes_acc0_and_its_wide_value_only() {
    // IGC's 32x32-bit product (`mul acc0; mach`), with the accumulator's low DWord kept.
    let set = written_by(
        Platform::Tgllp,
        "mul (1|M0) acc0.0<1>:d r8.5<0;1,0>:d r3.2<0;1,0>:uw\n\
         mach (1|M0) r4.0<1>:d r8.5<0;1,0>:d r3.1<0;1,0>:d {AccWrEn}",
    );
    assert!(has(set, ACC) && has(set, ACC_WIDE));
    // acc1 onward, their wide values, the flags, a0 and n0 are nobody's.
    for at in [ACC + REG_BYTES, ACC_WIDE + 64, FLAG, A0, N0, MME] {
        assert!(!has(set, at), "byte {at}");
    }
}

#[test]
fn conditional_modifiers_write_the_flags_and_cr0_writes_cr0() {
    let set = written_by(
        Platform::Tgllp,
        "cmp (16|M0) (lt)f1.0 null<1>:d r2.0<8;8,1>:d 0x40:d\n\
         or (1|M0) cr0.0<1>:ud cr0.0<0;1,0>:ud 0x4C0:uw",
    );
    assert!(has(set, FLAG) && has(set, CR0));
    assert!(!has(set, ACC));
}

#[test]
fn addc_writes_its_carries_to_the_accumulator() {
    let set = written_by(
        Platform::Tgllp,
        "addc (16|M0) r10.0<1>:ud r2.0<8;8,1>:ud 0xffffff00:ud",
    );
    // 16 DWord carries: acc0 and acc1, and their wide values.
    assert!(has(set, ACC) && has(set, ACC + REG_BYTES));
    assert!(has(set, ACC_WIDE) && has(set, ACC_WIDE + 64));
}

#[test]
fn a_math_macro_writes_its_mme_bits() {
    let set = written_by(
        Platform::Skl,
        "madm (4|M0) r20.mme3:df r10.nomme:df r12.nomme:df r14.nomme:df",
    );
    assert!(has(set, MME + 3 * REG_BYTES));
    assert!(!has(set, MME));
}

/// A thread object reused without clearing the pieces every start writes again
/// (`Program::arf_rewritten_at_start`), its sr0 IDs set, starts with the architecture
/// registers of a fresh thread; a program that writes sr0 or tm0 itself has them cleared.
#[test]
fn a_reused_thread_starts_with_a_fresh_threads_architecture_registers() {
    use sim_eu::regfile::{SR0, TM0, ZERO};
    let kernels = [
        "mul (1|M0) acc0.0<1>:d r8.5<0;1,0>:d r3.2<0;1,0>:uw\n\
         mach (1|M0) r4.0<1>:d r8.5<0;1,0>:d r3.1<0;1,0>:d {AccWrEn}\n\
         or (1|M0) cr0.0<1>:ud cr0.0<0;1,0>:ud 0x4C0:uw",
        "mov (1|M0) sr0.1<1>:ud 0x1234:ud\nmov (1|M0) tm0.2<1>:ud 0x77:ud",
    ];
    for text in kernels {
        let code = isa_encoder::assemble(Platform::Tgllp, &format!("{text}\nnop\n")).expect(text);
        let prog = Program::decode(Platform::Tgllp, &code);
        let n = text.lines().count() as u64;
        let start = |t: &mut Thread, ids: u32| {
            t.set_sr0_ids(ids);
            // A run of no instruction: the start's bookkeeping alone.
            assert_eq!(
                run(t, &prog, &mut NoMemory, 0),
                Ok(Status::Budget),
                "{text}"
            );
        };
        let mut reused = Thread::new(0xffff);
        start(&mut reused, 0x5a5a);
        assert_eq!(
            run(&mut reused, &prog, &mut NoMemory, n),
            Ok(Status::Budget)
        );
        let clear = prog.arf_writes.without(prog.arf_rewritten_at_start);
        reused.reset_runs(0xff, &[], clear);
        start(&mut reused, 0x0101);
        let mut fresh = Thread::new(0xff);
        start(&mut fresh, 0x0101);
        assert_eq!(
            reused.file()[A0..ZERO],
            fresh.file()[A0..ZERO],
            "{text}: the reused thread's architecture registers"
        );
        // The program that writes into sr0 and tm0 has those pieces cleared.
        let own = text.contains("sr0");
        assert_eq!(has(prog.arf_rewritten_at_start, SR0), !own, "{text}");
        assert_eq!(has(prog.arf_rewritten_at_start, TM0), !own, "{text}");
    }
}
