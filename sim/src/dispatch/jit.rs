//! Whether a walker's threads run translated host code (`sim-jit`) for their straight-line ALU
//! runs or the EU interpreter alone, and the process's translations.
//!
//! The switch is `INTEL_GPU_SIM_JIT` (`1` on, `0` off, unset: [`DEFAULT`]), read here and
//! nowhere else; an executor can override it ([`super::EuExecutor::with_jit`]). Both ways
//! give the same memory, registers and instruction counts (`sim-jit`'s proptests and the
//! conformance corpus run with it on). A walker under the sanitizer always runs interpreted:
//! its checks sit in the interpreter's memory accesses, and its per-instruction bookkeeping
//! is the interpreter's. A kernel binary runs interpreted until it is hot ([`Tier`]); it is
//! then translated once per process (per platform and GRF register count) and shared by the
//! host threads and devices that run it: groups that start after that run its translation,
//! those already running stay interpreted. A kernel that fails to translate stays interpreted.
//! The translator is the `jit` feature (a default of the ICD and the shim, not of `sim` or
//! `intel-gpu-run`, whose first build stays short): a build without it runs interpreted and
//! refuses `INTEL_GPU_SIM_JIT=1`.

use std::sync::OnceLock;

use platform::Platform;
use sim_eu::{EuError, Memory, Program, Status, Thread};

/// The environment variable switching translated code on (`1`) or off (`0`).
pub const ENV_JIT: &str = "INTEL_GPU_SIM_JIT";

/// The switch when `INTEL_GPU_SIM_JIT` is unset: on wherever the translator is built in. With
/// the tier-up no kernel measured runs slower translated (host instructions per dispatch,
/// BENCHMARKS.md). (It was off for a while: NEO's OpenVINO runs through the shim on sim:dg2
/// sometimes ended in heap corruption, translated or not; the cause was NEO 22.43's own
/// out-of-bounds store setting USM pointer arguments, tests/apps/README.md.)
pub const DEFAULT: bool = cfg!(feature = "jit");

/// A value of `INTEL_GPU_SIM_JIT` other than `0` and `1`, or `1` in a build without the
/// translator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwitchError {
    #[error("INTEL_GPU_SIM_JIT={0:?}: expected 1 (translated code) or 0 (interpreter)")]
    Value(String),
    #[error("INTEL_GPU_SIM_JIT=1: this simulator was built without its `jit` feature (build with `--features jit`)")]
    NotBuilt,
}

/// The switch as `INTEL_GPU_SIM_JIT` says (read once per process).
pub fn from_env() -> Result<bool, SwitchError> {
    static SWITCH: OnceLock<Result<bool, SwitchError>> = OnceLock::new();
    SWITCH
        .get_or_init(|| parse(std::env::var(ENV_JIT).ok().as_deref()))
        .clone()
}

/// The switch for the variable's value (`None`: unset).
pub fn parse(value: Option<&str>) -> Result<bool, SwitchError> {
    let on = match value {
        None => return Ok(DEFAULT),
        Some("1") => true,
        Some("0") => false,
        Some(v) => return Err(SwitchError::Value(v.to_string())),
    };
    if on && !cfg!(feature = "jit") {
        return Err(SwitchError::NotBuilt);
    }
    Ok(on)
}

/// A kernel's translated runs.
#[cfg(feature = "jit")]
pub type Translation = std::sync::Arc<sim_jit::Translated>;
/// A kernel's translated runs (none in a build without the translator).
#[cfg(not(feature = "jit"))]
pub enum Translation {}

/// A kernel binary on its way to translated code: it runs interpreted until its threads have
/// run [`sim_jit::HOT_PER_INSTRUCTION`] instructions per instruction of it, all walkers,
/// devices and host threads of the process together, and is translated then, once.
#[cfg(feature = "jit")]
pub type Tier = std::sync::Arc<sim_jit::Tiered>;
/// A kernel binary on its way to translated code (never, without the translator).
#[cfg(not(feature = "jit"))]
pub enum Tier {}

/// Interpreted instructions per instruction of a kernel after which it translates (the
/// measured value and why: [`sim_jit::HOT_PER_INSTRUCTION`]).
#[cfg(feature = "jit")]
pub const HOT_PER_INSTRUCTION: u64 = sim_jit::HOT_PER_INSTRUCTION;
/// Never: a build without the translator translates nothing.
#[cfg(not(feature = "jit"))]
pub const HOT_PER_INSTRUCTION: u64 = u64::MAX;

/// The process's record of the kernel `bytes` (`prog` decoded from them for `platform`),
/// which translates after `per_instruction` interpreted instructions per instruction of it
/// (0: before its first run).
#[cfg(feature = "jit")]
pub fn tier(
    platform: Platform,
    bytes: &[u8],
    prog: &Program,
    per_instruction: u64,
) -> Option<Tier> {
    static CACHE: OnceLock<sim_jit::TierCache> = OnceLock::new();
    Some(
        CACHE
            .get_or_init(sim_jit::TierCache::new)
            .get(platform, bytes, prog, per_instruction),
    )
}

#[cfg(not(feature = "jit"))]
pub fn tier(_: Platform, _: &[u8], _: &Program, _: u64) -> Option<Tier> {
    None
}

/// The translation of the kernel, if it has been made (and did not fail).
pub fn ready(tier: Option<&Tier>) -> Option<&Translation> {
    match tier {
        #[cfg(feature = "jit")]
        Some(t) => t.ready(),
        #[cfg(not(feature = "jit"))]
        Some(never) => match *never {},
        None => None,
    }
}

/// The kernel's translation for threads with only their first channels (work-groups of one
/// item: [`FIRST_CHANNELS`]), if it has been made (and did not fail).
pub fn ready_for_first_channels(tier: Option<&Tier>) -> Option<&Translation> {
    match tier {
        #[cfg(feature = "jit")]
        Some(t) => t.ready_for_first_channels(),
        #[cfg(not(feature = "jit"))]
        Some(never) => match *never {},
        None => None,
    }
}

/// The channels a thread may have to run [`ready_for_first_channels`]'s translation.
#[cfg(feature = "jit")]
pub const FIRST_CHANNELS: u32 = sim_jit::FIRST_CHANNELS;
/// No thread runs translated code without the translator.
#[cfg(not(feature = "jit"))]
pub const FIRST_CHANNELS: u32 = 0;

/// Counts `n` instructions threads with only their [`FIRST_CHANNELS`] ran; makes their
/// translation (on this thread) when that makes them hot, once the kernel has translated.
#[cfg_attr(not(feature = "jit"), allow(unused_variables))]
pub fn note_first_channels(tier: Option<&Tier>, n: u64, prog: &Program) {
    match tier {
        #[cfg(feature = "jit")]
        Some(t) => {
            t.note_first_channels(n, prog);
        }
        #[cfg(not(feature = "jit"))]
        Some(never) => match *never {},
        None => {}
    }
}

/// Counts `n` instructions the kernel's threads ran interpreted; translates it (on this
/// thread) when that makes it hot.
#[cfg_attr(not(feature = "jit"), allow(unused_variables))]
pub fn note_interpreted(tier: Option<&Tier>, n: u64, prog: &Program) {
    match tier {
        #[cfg(feature = "jit")]
        Some(t) => {
            t.note_interpreted(n, prog);
        }
        #[cfg(not(feature = "jit"))]
        Some(never) => match *never {},
        None => {}
    }
}

/// Threads started through a kernel's translated run at instruction 0, with what that asks
/// worked out once for a group's threads ([`sim_jit::Starter`]).
#[cfg(feature = "jit")]
pub type Starter<'a> = sim_jit::Starter<'a>;
/// None without the translator.
#[cfg(not(feature = "jit"))]
pub struct Starter<'a>(std::convert::Infallible, std::marker::PhantomData<&'a ()>);

/// The starter of `prog`'s translation `tr` with `mem`, where threads can take its way.
#[cfg_attr(not(feature = "jit"), allow(unused_variables))]
pub fn starter<'a>(
    prog: &'a Program,
    tr: Option<&'a Translation>,
    mem: &dyn Memory,
) -> Option<Starter<'a>> {
    match tr {
        #[cfg(feature = "jit")]
        Some(tr) => sim_jit::Starter::new(prog, tr, mem),
        #[cfg(not(feature = "jit"))]
        Some(never) => match *never {},
        None => None,
    }
}

/// A starter with the memory it was made for, for a group's threads ([`sim_jit::Bound`]).
#[cfg(feature = "jit")]
pub type Bound<'s, 'a, 'm> = sim_jit::Bound<'s, 'a, 'm>;
/// None without the translator.
#[cfg(not(feature = "jit"))]
pub struct Bound<'s, 'a, 'm>(
    std::convert::Infallible,
    std::marker::PhantomData<(&'s (), &'a (), &'m ())>,
);

/// `starter` with `mem`, when it is the memory the starter was made for.
pub fn bind<'s, 'a, 'm>(
    starter: &'s Starter<'a>,
    mem: &'m mut dyn Memory,
) -> Option<Bound<'s, 'a, 'm>> {
    #[cfg(feature = "jit")]
    {
        starter.bind(mem)
    }
    #[cfg(not(feature = "jit"))]
    {
        let _ = mem;
        match starter.0 {}
    }
}

/// [`start`] through a bound starter.
#[cfg_attr(not(feature = "jit"), allow(unused_variables))]
#[inline]
pub fn start_bound(
    bound: &mut Bound<'_, '_, '_>,
    t: &mut Thread,
    budget: u64,
    translated: &mut u64,
) -> Result<Status, EuError> {
    #[cfg(feature = "jit")]
    {
        let mut counts = sim_jit::Counts::default();
        let st = bound.run(t, budget, &mut counts);
        *translated += counts.translated;
        st
    }
    #[cfg(not(feature = "jit"))]
    match bound.0 {}
}

/// [`run`] for a thread that has executed nothing, through `starter` (made for `mem`).
#[cfg_attr(not(feature = "jit"), allow(unused_variables))]
pub fn start(
    starter: &Starter<'_>,
    t: &mut Thread,
    mem: &mut dyn Memory,
    budget: u64,
    translated: &mut u64,
) -> Result<Status, EuError> {
    #[cfg(feature = "jit")]
    {
        let mut counts = sim_jit::Counts::default();
        let st = starter.run(t, mem, budget, &mut counts);
        *translated += counts.translated;
        st
    }
    #[cfg(not(feature = "jit"))]
    match starter.0 {}
}

/// Runs thread `t` for up to `budget` instructions as [`sim_eu::run`] does, through the
/// translated code `tr` where it has some; adds to `translated` the instructions that ran as
/// translated code.
pub fn run(
    t: &mut Thread,
    prog: &Program,
    tr: Option<&Translation>,
    mem: &mut dyn Memory,
    budget: u64,
    translated: &mut u64,
) -> Result<Status, EuError> {
    match tr {
        #[cfg(feature = "jit")]
        Some(tr) => sim_jit::run_counted(t, prog, tr, mem, budget, translated),
        #[cfg(not(feature = "jit"))]
        Some(never) => match *never {},
        None => {
            let _ = translated;
            sim_eu::run(t, prog, mem, budget)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_switch_takes_one_and_zero_and_refuses_anything_else() {
        assert_eq!(parse(Some("0")), Ok(false));
        let one = if cfg!(feature = "jit") {
            Ok(true)
        } else {
            Err(SwitchError::NotBuilt)
        };
        assert_eq!(parse(Some("1")), one);
        assert_eq!(parse(None), Ok(cfg!(feature = "jit")));
        assert_eq!(parse(Some("yes")), Err(SwitchError::Value("yes".into())));
        assert_eq!(parse(Some("")), Err(SwitchError::Value(String::new())));
    }
}
