//! What the property tests comparing translated runs with the interpreter share: assembling
//! random instruction lines, a thread with given registers, and the comparison itself.

use platform::Platform;
use proptest::prelude::*;
use sim_eu::regfile::{ACC, TM0};
use sim_eu::{NoMemory, Program, Status, Thread};
use sim_jit::{Translated, FIRST_CHANNELS};

/// f32 values where rounding, NaN propagation and denormals show: quiet and signalling NaNs
/// with payloads of both signs, infinities, zeros, denormals, the extremes, ones.
pub const SPECIAL: [u32; 14] = [
    0x7fc0_0000,
    0xffc0_1234,
    0x7f80_0001,
    0xff80_4321,
    0x7f80_0000,
    0xff80_0000,
    0,
    0x8000_0000,
    0x0000_0001,
    0x807f_ffff,
    0x7f7f_ffff,
    0x3f80_0000,
    0xbf80_0000,
    0x3380_0000,
];

/// After the lines: an instruction that neither translates nor runs inside a translated run
/// (an indirect destination), so a run of the lines ends before it and fits in a budget of
/// their count. (The thread's end would not do: a run takes it as its last instruction, and a
/// run longer than the budget is never entered.) The budget stops the thread before it.
const END: &str = "mov (1|M0) r[a0.0]<1>:ud 0x0:ud\n";

/// The lines that assemble on their own, assembled together (with [`END`] after the last, so
/// that a run of the lines fits in a budget of their count and the thread stops at an
/// instruction, not off the end), and how many there are.
pub fn program(lines: &[String]) -> Option<(Program, usize)> {
    program_on(Platform::Tgllp, lines)
}

/// [`program`] in `platform`'s encoding.
pub fn program_on(platform: Platform, lines: &[String]) -> Option<(Program, usize)> {
    let ok: Vec<&String> = lines
        .iter()
        .filter(|l| isa_encoder::assemble(platform, &format!("{l}\nnop\n")).is_ok())
        .collect();
    if ok.is_empty() {
        return None;
    }
    let mut text: String = ok.iter().map(|l| format!("{l}\n")).collect();
    text.push_str(END);
    let bytes = isa_encoder::assemble(platform, &text).ok()?;
    let prog = Program::decode(platform, &bytes);
    prog.insts
        .iter()
        .all(|i| i.invalid.is_none())
        .then_some((prog, ok.len()))
}

/// An execution mask: every channel (a thread that has not diverged: a translated run then
/// takes its copy without per-instruction masks) or the first 16 or 8 about half the time,
/// any other the rest.
pub fn active() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(u32::MAX),
        Just(0xffff),
        Just(0xff),
        any::<u32>(),
        any::<u32>(),
        // Only some of the first four: the copy of a run for such threads.
        0u32..16,
    ]
}

/// A thread whose GRF starts with `file`'s DWords, with the flag registers `flags`; its
/// accumulators (which `mac` adds to) hold `file`'s last 64 DWords.
pub fn thread(file: &[u32], active: u32, flags: u64) -> Thread {
    let mut t = Thread::new(active);
    for (c, w) in t.grf_mut().chunks_exact_mut(4).zip(file) {
        c.copy_from_slice(&w.to_le_bytes());
    }
    let acc = &mut t.file_mut()[ACC..ACC + 8 * 32];
    let last = &file[file.len().saturating_sub(acc.len() / 4)..];
    for (c, w) in acc.chunks_exact_mut(4).zip(last) {
        c.copy_from_slice(&w.to_le_bytes());
    }
    let f = t.flag_offset();
    t.file_mut()[f..f + 8].copy_from_slice(&flags.to_le_bytes());
    t
}

/// Runs `n` instructions of `prog` on a thread made of `file`, `active` and `flags` through
/// the interpreter, and through `sim_jit::run` with `tr` in budget slices taken in turn from
/// `slices`; the instruction pointers, executed counts and register files (`tm0` aside)
/// must match. `what` names the case in a failure.
#[allow(clippy::too_many_arguments)]
pub fn same_as_interpreter(
    prog: &Program,
    tr: &Translated,
    n: usize,
    file: &[u32],
    active: u32,
    flags: u64,
    slices: &[u64],
    what: &str,
) -> Result<(), TestCaseError> {
    let mut want = thread(file, active, flags);
    let st = sim_eu::run(&mut want, prog, &mut NoMemory, n as u64);
    prop_assume!(matches!(st, Ok(Status::Budget)));

    // Also through the translation for threads with only their first channels, which
    // others do not enter (they run interpreted).
    let first = Translated::with_min_run_for(prog, 1, FIRST_CHANNELS).expect("translates");
    for (tr, which) in [
        (tr, "translated"),
        (&first, "translated for the first channels"),
    ] {
        let mut got = thread(file, active, flags);
        let mut k = 0;
        while got.instructions_executed() < n as u64 {
            let left = n as u64 - got.instructions_executed();
            let slice = slices[k % slices.len()].min(left);
            k += 1;
            let st = sim_jit::run(&mut got, prog, tr, &mut NoMemory, slice);
            prop_assert!(
                matches!(st, Ok(Status::Budget)),
                "{:?} {} for\n{}",
                st,
                which,
                what
            );
        }
        prop_assert_eq!(got.ip(), want.ip());
        prop_assert_eq!(got.instructions_executed(), want.instructions_executed());
        let (g, w) = (got.file(), want.file());
        for at in (0..w.len()).filter(|a| !(TM0..TM0 + 16).contains(a)) {
            prop_assert_eq!(
                g[at],
                w[at],
                "byte {} differs ({} of {} {}) for\n{}",
                at,
                tr.translated(),
                tr.instructions(),
                which,
                what
            );
        }
    }
    Ok(())
}

/// `lines` assembled for `platform` ([`program_on`]), translated with runs of any length and
/// run against the interpreter ([`same_as_interpreter`], channels `active` and the first);
/// with `all_translate`, every line that assembles must translate.
#[allow(clippy::too_many_arguments)]
pub fn lines_match_on(
    platform: Platform,
    lines: &[String],
    file: &[u32],
    active: u32,
    flags: u64,
    slices: &[u64],
    all_translate: bool,
) -> Result<(), TestCaseError> {
    let Some((prog, n)) = program_on(platform, lines) else {
        return Err(TestCaseError::reject("nothing assembles"));
    };
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    let what = lines.join("\n");
    if all_translate {
        prop_assert_eq!(tr.translated(), n, "every line translates:\n{}", what);
    }
    same_as_interpreter(&prog, &tr, n, file, active | 1, flags, slices, &what)
}

/// Translates `lines` for `platform` (each must assemble and translate) and runs them on
/// every channel of a thread whose file starts as `file`, translated and interpreted: the
/// same results.
pub fn every_line_translates_and_matches_on(platform: Platform, lines: &[String], file: &[u32]) {
    let (prog, n) = program_on(platform, lines).expect("assembles");
    assert_eq!(n, lines.len(), "every line assembles");
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.translated(), n, "every line translates");
    same_as_interpreter(
        &prog,
        &tr,
        n,
        file,
        u32::MAX,
        0,
        &[1 << 20],
        &lines.join("\n"),
    )
    .expect("same as the interpreter");
}
