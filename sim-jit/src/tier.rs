//! Tier-up: a kernel binary runs interpreted until its threads have executed enough
//! instructions to pay for its translation, and only then is it translated, once, for every
//! thread that starts after that.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use platform::Platform;
use sim_eu::Program;

use crate::translated::{Translated, CACHE_KERNELS, FIRST_CHANNELS, MIN_RUN};

/// Interpreted instructions per instruction of a kernel after which it translates: a kernel
/// of `n` instructions translates once its threads have run `n * HOT_PER_INSTRUCTION`
/// instructions interpreted.
///
/// Why this value: translating costs CPU time in proportion to the instructions translated,
/// and it pays back only through the instructions run afterwards. Translating once the
/// interpreter has spent about as much CPU on the kernel as its translation costs bounds the
/// loss on a kernel that stops right then to about 2× its interpreted time. Measured (release
/// build, BENCHMARKS.md): `jit_alu`'s fully translatable kernels cost 0.12–0.73 ms CPU per
/// instruction to translate (each run compiled twice, with and without execution masks) and
/// 6.7–10 ns per interpreted SIMD16 instruction, a ratio of 12,000–110,000; kernels with
/// sends and control flow translate only part of their
/// instructions, so per kernel instruction they cost less. With 32,768 the `sim_kernels`
/// `mad_loop` kernel translated only after 5–7 of its dispatches (about 60 ms of interpreted
/// CPU); 8,192, below the measured range, translates it in its second dispatch, while the
/// conformance corpus's kernels (small dispatches, run a few times) still stay below it.
pub const HOT_PER_INSTRUCTION: u64 = 1 << 13;

/// A kernel binary on its way from the interpreter to translated code. The count is relaxed
/// (only compared with the threshold); the host thread whose count crosses the threshold
/// translates, the others keep interpreting meanwhile.
///
/// Once translated, threads with only their first channels ([`FIRST_CHANNELS`]: work-groups
/// of one item) run it until they too have executed the threshold's instructions; then a
/// translation of their own is made ([`Translated::for_first_channels`]), which leaves out
/// what the other channels would compute.
pub struct Tiered {
    /// Instructions its threads executed interpreted, and the translation.
    all: Stage,
    /// Instructions threads with only their first channels executed after that, and their
    /// translation.
    first: Stage,
    /// Counts at which a stage translates.
    threshold: u64,
    /// The kernel's bytes, kept only for [`crate::dump`].
    source: Option<Vec<u8>>,
}

/// A translation on its way: instructions counted towards it, the host thread that makes it,
/// and it once made (`None` inside: it failed, and what would run it stays as it was).
#[derive(Default)]
struct Stage {
    counted: AtomicU64,
    claimed: AtomicBool,
    translation: OnceLock<Option<Arc<Translated>>>,
}

impl Stage {
    fn ready(&self) -> Option<&Arc<Translated>> {
        self.translation.get().and_then(Option::as_ref)
    }

    /// Counts `n`; the call that crosses `threshold` translates with `make` unless another
    /// thread has or is doing so. Returns whether this call translated.
    fn note(
        &self,
        n: u64,
        threshold: u64,
        make: impl FnOnce() -> Result<Translated, crate::JitError>,
    ) -> bool {
        if n == 0 || self.translation.get().is_some() {
            return false;
        }
        let before = self.counted.fetch_add(n, Ordering::Relaxed);
        before.saturating_add(n) >= threshold && self.translate(make)
    }

    fn translate(&self, make: impl FnOnce() -> Result<Translated, crate::JitError>) -> bool {
        if self.claimed.swap(true, Ordering::Relaxed) {
            return false;
        }
        let _ = self.translation.set(make().ok().map(Arc::new));
        true
    }
}

impl Tiered {
    /// A kernel that translates after `threshold` interpreted instructions.
    pub fn new(threshold: u64) -> Tiered {
        Tiered {
            all: Stage::default(),
            first: Stage::default(),
            threshold,
            source: None,
        }
    }

    /// The translation, once made.
    pub fn ready(&self) -> Option<&Arc<Translated>> {
        self.all.ready()
    }

    /// The translation for threads with only their [`FIRST_CHANNELS`], once made.
    pub fn ready_for_first_channels(&self) -> Option<&Arc<Translated>> {
        self.first.ready()
    }

    /// Counts `n` instructions the kernel's threads ran interpreted; the call that crosses
    /// the threshold translates `prog` (the kernel decoded) on the calling thread. Returns
    /// whether this call translated it.
    pub fn note_interpreted(&self, n: u64, prog: &Program) -> bool {
        self.all
            .note(n, self.threshold, || self.make(prog, u32::MAX))
    }

    /// Counts `n` instructions threads with only their [`FIRST_CHANNELS`] ran after the
    /// kernel translated; the call that crosses the threshold makes their translation on the
    /// calling thread. Returns whether this call translated.
    pub fn note_first_channels(&self, n: u64, prog: &Program) -> bool {
        if self.all.ready().is_none() {
            return false;
        }
        self.first
            .note(n, self.threshold, || self.make(prog, FIRST_CHANNELS))
    }

    /// `prog` translated for threads whose channels are all in `live`.
    fn make(&self, prog: &Program, live: u32) -> Result<Translated, crate::JitError> {
        let inside = !crate::check::checking();
        Translated::build(prog, MIN_RUN, inside, self.source.as_deref(), live)
    }

    /// Translates `prog` now, unless another thread has or is doing so.
    fn translate(&self, prog: &Program) -> bool {
        self.all.translate(|| self.make(prog, u32::MAX))
    }

    /// Interpreted instructions counted so far.
    pub fn interpreted(&self) -> u64 {
        self.all.counted.load(Ordering::Relaxed)
    }
}

/// [`Tiered`] kernels per platform, GRF register count and kernel binary (the decoded form,
/// and so which instructions translate, depends on all three), shared by every host thread
/// that runs them.
/// Kernels are kept apart per threshold too: users asking for another threshold (a test
/// that translates every kernel at once) count on kernels of their own.
#[derive(Default)]
pub struct TierCache {
    map: Mutex<HashMap<TierKey, KernelsByBinary>>,
}

/// Platform, GRF register count and threshold.
type TierKey = (Platform, usize, u64);
/// The kernels of one [`TierKey`], by binary.
type KernelsByBinary = HashMap<Vec<u8>, Arc<Tiered>>;

impl TierCache {
    pub fn new() -> TierCache {
        TierCache::default()
    }

    /// The kernel `bytes` on `platform` (`prog` its decoded form), which translates after
    /// `per_instruction` interpreted instructions per instruction of it ([`HOT_PER_INSTRUCTION`]
    /// normally; 0: here, before it runs). Past [`CACHE_KERNELS`] kernels the cache starts
    /// over (those in use live on in their users' `Arc`s).
    pub fn get(
        &self,
        platform: Platform,
        bytes: &[u8],
        prog: &Program,
        per_instruction: u64,
    ) -> Arc<Tiered> {
        let t = {
            let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
            let kernels = map
                .entry((platform, prog.grf_regs, per_instruction))
                .or_default();
            if let Some(t) = kernels.get(bytes) {
                return Arc::clone(t);
            }
            if kernels.len() >= CACHE_KERNELS {
                kernels.clear();
            }
            let threshold = per_instruction.saturating_mul(prog.fast.len().max(1) as u64);
            let mut t = Tiered::new(threshold);
            t.source = crate::dump::enabled().then(|| bytes.to_vec());
            let t = Arc::new(t);
            kernels.insert(bytes.to_vec(), Arc::clone(&t));
            t
        };
        if per_instruction == 0 {
            t.translate(prog);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_eu::{NoMemory, Status, Thread};

    fn kernel() -> (Vec<u8>, Program) {
        // A run of `MIN_RUN` translatable instructions, then the end of the thread.
        let mut text = String::new();
        for _ in 0..crate::MIN_RUN / 2 {
            text.push_str("add (16|M0) r10.0<1>:d r10.0<8;8,1>:d r12.0<8;8,1>:d\n");
            text.push_str("mul (16|M0) r16.0<1>:d r10.0<8;8,1>:d r12.0<16;8,2>:w\n");
        }
        text.push_str("send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}\n");
        let bytes = isa_encoder::assemble(Platform::Tgllp, &text).expect("assembles");
        let prog = Program::decode(Platform::Tgllp, &bytes);
        (bytes, prog)
    }

    /// Runs the kernel's thread interpreted until the cache's kernel has a translation,
    /// then once more through it; returns the interpreted runs and the translated
    /// instructions of the last run.
    fn runs_until_translated(cache: &TierCache, per_instruction: u64) -> (u64, u64) {
        let (bytes, prog) = kernel();
        let tier = cache.get(Platform::Tgllp, &bytes, &prog, per_instruction);
        let mut t = Thread::new(0xffff);
        let mut runs = 0;
        while tier.ready().is_none() {
            t.restart(0xffff);
            let before = t.instructions_executed();
            let st = sim_eu::run(&mut t, &prog, &mut NoMemory, u64::MAX).expect("runs");
            assert_eq!(st, Status::Ended);
            runs += 1;
            tier.note_interpreted(t.instructions_executed() - before, &prog);
            assert!(runs <= 1000, "never translated");
        }
        let tr = tier.ready().expect("translated");
        t.restart(0xffff);
        let mut translated = 0;
        let st = crate::run_counted(&mut t, &prog, tr, &mut NoMemory, u64::MAX, &mut translated);
        assert_eq!(st.expect("runs"), Status::Ended);
        (runs, translated)
    }

    #[test]
    fn a_kernel_translates_when_its_interpreted_instructions_cross_the_threshold() {
        // Every instruction once per run: the threshold of 10 per instruction is crossed on
        // the tenth run, not before.
        let (runs, translated) = runs_until_translated(&TierCache::new(), 10);
        assert_eq!(runs, 10);
        assert_eq!(
            translated,
            crate::MIN_RUN as u64,
            "the adds and muls run translated"
        );
    }

    #[test]
    fn a_threshold_of_zero_translates_before_the_first_run() {
        let (runs, translated) = runs_until_translated(&TierCache::new(), 0);
        assert_eq!(runs, 0);
        assert_eq!(translated, crate::MIN_RUN as u64);
    }

    #[test]
    fn threads_of_few_channels_get_their_translation_once_hot_after_the_kernels() {
        let cache = TierCache::new();
        let (bytes, prog) = kernel();
        let t = cache.get(Platform::Tgllp, &bytes, &prog, 10);
        let threshold = 10 * prog.fast.len() as u64;
        // Before the kernel translates, their instructions count for the kernel only.
        assert!(!t.note_first_channels(threshold, &prog));
        assert!(t.ready_for_first_channels().is_none());
        assert!(t.note_interpreted(threshold, &prog));
        assert!(!t.note_first_channels(threshold - 1, &prog));
        assert!(t.ready_for_first_channels().is_none());
        assert!(t.note_first_channels(1, &prog));
        let first = t.ready_for_first_channels().expect("translated");
        assert!(!t.note_first_channels(threshold, &prog), "translated once");
        // A thread of the first four channels runs its runs; one with others does not.
        for (mask, runs_it) in [(0x1, true), (0xf, true), (0x1f, false), (0xffff, false)] {
            let mut th = Thread::new(mask);
            let mut translated = 0;
            let st = crate::run_counted(
                &mut th,
                &prog,
                first,
                &mut NoMemory,
                u64::MAX,
                &mut translated,
            );
            assert_eq!(st.expect("runs"), Status::Ended);
            assert_eq!(translated != 0, runs_it, "channels {mask:#x}");
        }
    }

    #[test]
    fn a_kernel_below_the_threshold_stays_interpreted_and_shares_its_count() {
        let cache = TierCache::new();
        let (bytes, prog) = kernel();
        let hot = HOT_PER_INSTRUCTION;
        let a = cache.get(Platform::Tgllp, &bytes, &prog, hot);
        let threshold = HOT_PER_INSTRUCTION * prog.fast.len() as u64;
        assert!(!a.note_interpreted(threshold - 1, &prog));
        assert!(a.ready().is_none());
        // Another user of the same binary counts on the same kernel.
        let b = cache.get(Platform::Tgllp, &bytes, &prog, hot);
        assert_eq!(b.interpreted(), threshold - 1);
        assert!(b.note_interpreted(1, &prog));
        assert!(a.ready().is_some());
        // Translated once: later crossings do not translate again.
        assert!(!a.note_interpreted(threshold, &prog));
        // Another platform's kernel of the same bytes counts apart.
        let c = cache.get(Platform::Dg2, &bytes, &prog, hot);
        assert_eq!(c.interpreted(), 0);
        assert!(c.ready().is_none());
    }
}
