//! Translation of the EU interpreter's pre-decoded kernels to host code with Cranelift.
//!
//! What translates: runs of consecutive instructions in the fast path's word form — `mov`,
//! `not`, `add`, `add3`, `mul`, `mad`, `and`, `or`, `xor`, `shl`, `shr`, `asr` on integers (a
//! condition modifier testing the result of the one- and two-source ones), `mov`, `add`,
//! `mul`, `mad` on `:f` and to `:hf` (the half rounding by a call to the interpreter's own),
//! `cmp`/`cmpn` with their flags and `sel` by the predicate or a condition — on 1, 4, 8, 16
//! or 32 channels, each source consecutive DWords, words or bytes at a fixed step, one scalar
//! element or an immediate (with the fast path's source modifiers), the destination
//! consecutive DWords, with the execution mask and a per-channel or horizontal predicate
//! ([`select`] has the exact rule); the structured branches (`if`, `else`, `endif`, `join`,
//! `while`, `break`, `cont`, `halt`) whose targets are inside the run, as host jumps while
//! every executing channel goes the same way and through a call that takes the branch as the
//! run loop does where they part ways; and classified sends, called directly. Everything else
//! (`csel`, condition modifiers on `:f` arithmetic, gathered regions, other sends, other
//! branches, a barrier's wait) is interpreted: inside a run, called from its
//! code, when it stays in sequence ([`sim_eu::exec::runs_inside_a_run`]: no branch, no write
//! of the control registers), else between runs; runs of fewer than [`MIN_RUN`] translated
//! instructions are not made. [`run()`] enters a translated run at its first instruction or
//! one of its blocks and runs it until it leaves, and calls [`sim_eu::run`] for the rest, on
//! the same thread state.
//!
//! - [`select`]: which pre-decoded instructions translate ([`select::Step`]).
//! - [`emit`]: the Cranelift code of a run of them.
//! - [`mads`]: runs of f32 `mad`s, computed by one call from that code.
//! - [`translated`]: a kernel's translation and the per-binary cache.
//! - [`tier`]: translating a kernel binary only once it has run hot in the interpreter.
//! - [`run`](mod@run): the interleaving run loop.
//! - [`check`]: checking every translated run against the interpreter (`INTEL_GPU_SIM_JIT_CHECK`).
//! - [`dump`]: translated runs named for `perf` and written out as text
//!   (`INTEL_GPU_SIM_JIT_PERF_MAP`, `INTEL_GPU_SIM_JIT_DUMP`).

pub mod check;
pub mod dump;
pub mod emit;
pub mod error;
pub mod mads;
pub mod run;
pub mod select;
pub mod tier;
pub mod translated;

pub use error::JitError;
pub use run::{run, run_counted, run_counting, Bound, Counts, Starter};
pub use tier::{TierCache, Tiered, HOT_PER_INSTRUCTION};
pub use translated::{Translated, TranslationCache, FIRST_CHANNELS, MIN_RUN};
