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
                let check = checking().then(|| t.clone());
                let active = t.active();
                let file = t.file_mut().as_mut_ptr();
                // SAFETY: the run's instructions touch register-file bytes below `e.extent`
                // and the 8 flag bytes at `FLAG`, both checked to be inside the file just
                // above; the file is borrowed mutably for the call.
                unsafe { (e.run)(file, active) };
                t.retire(e.len);
                if let Some(mut reference) = check {
                    compare_with_interpreter(&mut reference, t, prog, mem, ip, e.len)?;
                }
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

/// The environment variable that makes every translated run be checked against the
/// interpreter (`1`): a debugging aid for the translator, many times slower.
pub const ENV_CHECK: &str = "INTEL_GPU_SIM_JIT_CHECK";

/// Whether [`ENV_CHECK`] is `1` (read once per process).
fn checking() -> bool {
    static CHECK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CHECK.get_or_init(|| std::env::var(ENV_CHECK).is_ok_and(|v| v == "1"))
}

/// Runs the `len` instructions from `ip` on `reference` (the thread before the translated run)
/// with the interpreter and compares the register files: a difference is a translation
/// error, reported with the run and the first differing byte.
fn compare_with_interpreter(
    reference: &mut Thread,
    t: &Thread,
    prog: &Program,
    mem: &mut dyn Memory,
    ip: u32,
    len: u32,
) -> Result<(), EuError> {
    let _ = sim_eu::run(reference, prog, mem, u64::from(len))?;
    let (want, got) = (reference.file(), t.file());
    // tm0 and ip are the interpreter's bookkeeping (it writes tm0 when entered).
    let bookkeeping = sim_eu::regfile::TM0..sim_eu::regfile::IP + 32;
    let differs = |&i: &usize| want[i] != got[i] && !bookkeeping.contains(&i);
    let Some(at) = (0..want.len().min(got.len())).find(differs) else {
        return Ok(());
    };
    let pcs: Vec<String> = (ip..ip + len)
        .filter_map(|i| prog.insts.get(i as usize))
        .map(|i| format!("{:#x}", i.pc))
        .collect();
    Err(sim_eu::EuErrorKind::Illegal(format!(
        "{ENV_CHECK}: the translated run of instructions {ip}..{} (offsets {}) differs from \
             the interpreter at register-file byte {at} (r{}.{}): {:#04x} translated, {:#04x} \
             interpreted",
        ip + len,
        pcs.join(" "),
        at / sim_eu::regfile::REG_BYTES,
        at % sim_eu::regfile::REG_BYTES,
        got[at],
        want[at]
    ))
    .at(prog.insts.get(ip as usize).map_or(0, |i| i.pc)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use platform::Platform;
    use sim_eu::NoMemory;

    #[test]
    fn the_check_names_the_first_register_byte_the_interpreter_disagrees_with() {
        let text = "add (16|M0) r10.0<1>:d r2.0<8;8,1>:d 3:d\nmul (16|M0) r12.0<1>:d r10.0<8;8,1>:d r2.0<8;8,1>:d\nnop\n";
        let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let mut t = Thread::new(0xffff);
        for (i, b) in t.grf_mut().iter_mut().enumerate() {
            *b = i as u8;
        }
        let before = t.clone();
        sim_eu::run(&mut t, &prog, &mut NoMemory, 2).expect("runs");
        // The same instructions from the same state: no difference.
        compare_with_interpreter(&mut before.clone(), &t, &prog, &mut NoMemory, 0, 2)
            .expect("equal");
        // One wrong byte of r12 (as a faulty translation would leave it) is named.
        let at = 12 * 32 + 5;
        t.file_mut()[at] ^= 0x40;
        let e = compare_with_interpreter(&mut before.clone(), &t, &prog, &mut NoMemory, 0, 2)
            .expect_err("differs");
        assert!(
            e.to_string().contains("register-file byte 389 (r12.5)"),
            "{e}"
        );
    }
}
