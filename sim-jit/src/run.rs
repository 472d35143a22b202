//! Runs a thread with its translated runs interleaved with the interpreter: at the first
//! instruction of a translated run the host code runs the whole run when the budget and the
//! waiting channels allow; anything else goes to `sim_eu::run` up to the next run's start.
//! Both work on the same register file and flags.

use sim_eu::regfile::FLAG;
use sim_eu::rounding::Rounding;
use sim_eu::{EuError, Memory, Program, Status, Thread};

use crate::translated::Translated;

/// [`sim_eu::run`] with `tr`, the translation of `prog`: the same result, the same thread
/// state, the same count of executed instructions (`tm0` aside: the interpreter writes the
/// count there when it is entered, which here is once per interpreted stretch).
pub fn run(
    t: &mut Thread,
    prog: &Program,
    tr: &Translated,
    mem: &mut dyn Memory,
    budget: u64,
) -> Result<Status, EuError> {
    run_counted(t, prog, tr, mem, budget, &mut 0)
}

/// [`run`], adding to `translated` the instructions the translated code executed.
pub fn run_counted(
    t: &mut Thread,
    prog: &Program,
    tr: &Translated,
    mem: &mut dyn Memory,
    budget: u64,
    translated: &mut u64,
) -> Result<Status, EuError> {
    // A run without budget does the interpreter's start-of-run bookkeeping (tm0, the
    // dispatched scratch fields of a starting thread) and stops before any instruction.
    let st = sim_eu::run(t, prog, mem, 0)?;
    if st != Status::Budget {
        return Ok(st);
    }
    let mut left = budget;
    loop {
        let ip = t.ip();
        let entry = tr.entries.get(ip as usize).copied().flatten();
        if let Some(e) = entry {
            // The whole run or none of it: it must fit in the budget, and no waiting channels
            // may rejoin inside it (they change the execution mask; rejoining after its last
            // instruction happens in `retire`, as after any instruction).
            let end = u64::from(ip) + u64::from(e.len);
            if u64::from(e.len) <= left
                && u64::from(t.next_wake()) >= end
                && e.extent <= t.file().len()
                && FLAG + 8 <= t.file().len()
                && Rounding::of(t) == Rounding::NearestEven
            {
                let active = t.active();
                let file = t.file_mut().as_mut_ptr();
                // SAFETY: the run's instructions touch register-file bytes below `e.extent`
                // and the 8 flag bytes at `FLAG`, both checked to be inside the file just
                // above; the file is borrowed mutably for the call.
                unsafe { (e.run)(file, active) };
                t.retire(e.len);
                left -= u64::from(e.len);
                *translated += u64::from(e.len);
                continue;
            }
        }
        if left == 0 {
            return Ok(Status::Budget);
        }
        // Interpret up to the next translated instruction (or one, if this one is).
        let next = tr.next.get(ip as usize + 1).copied().unwrap_or(u32::MAX);
        let stretch = u64::from(next.saturating_sub(ip)).clamp(1, left);
        let before = t.instructions_executed();
        let st = sim_eu::run(t, prog, mem, stretch)?;
        left = left.saturating_sub(t.instructions_executed() - before);
        if st != Status::Budget {
            return Ok(st);
        }
    }
}
