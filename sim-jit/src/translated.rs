//! A kernel's translation: its runs of translatable instructions compiled to host functions,
//! looked up by instruction index, and a cache of translations per kernel binary and platform.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cranelift_jit::JITModule;
use platform::Platform;
use sim_eu::Program;

use crate::dump::RunText;
use crate::emit::{Emitter, RunFn};
use crate::error::JitError;
use isa_encoder::model::Shape;
use sim_eu::exec::runs_inside_a_run;

use crate::select::{select, Item, Step};

/// What a kernel's instruction is to a translation.
enum Kind {
    Step(Step),
    /// Interpreted inside a run ([`Item::Interpreted`]).
    Inside,
    /// Ends a run.
    Outside,
}

/// A translated run, entered at its first instruction.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    /// The run's host function.
    pub run: RunFn,
    /// Its instructions, the interpreted ones inside it included.
    pub len: u32,
    /// One past the last register-file byte the run touches.
    pub extent: usize,
}

/// The fewest translated instructions a run is made with by [`Translated::new`]: each entry
/// leaves the interpreter's loop for the host code and comes back through a new
/// `sim_eu::run` call, which costs more than interpreting a short run. Not tuned by
/// measurement yet: 8 keeps the one-to-four-instruction runs between sends and control flow
/// of `sim_kernels`' `group_sum` and `branchy` (IGC's code, disassembled) interpreted and
/// translates `mad_loop`'s 128-instruction loop body and `jit_alu`'s kernels.
pub const MIN_RUN: usize = 8;

/// A kernel's translated runs.
pub struct Translated {
    /// Per instruction index: the translated run that starts there, if one does.
    pub(crate) entries: Vec<Option<Entry>>,
    /// Per instruction index k: where a stretch the interpreter runs from just before k stops
    /// so as not to pass a run start: at the first run start at or after k, or just after the
    /// first branch at or after k - 1 (which may land anywhere, on a run start too).
    pub(crate) stop: Vec<u32>,
    /// Translated instructions.
    translated: usize,
    /// Owns the code the entries point to; freed with the translation.
    module: Option<JITModule>,
}

// SAFETY: after `finalize_definitions` the module is never used again except to free its
// memory on drop (with `&mut self`); the entries are plain function pointers into read-only,
// executable code that any thread may call.
unsafe impl Send for Translated {}
// SAFETY: as above; `&Translated` only reads the entries.
unsafe impl Sync for Translated {}

impl Drop for Translated {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: the functions' addresses live only in `entries`, which is dropped with
            // `self`; no run of them is in progress (a run borrows `self`).
            unsafe { m.free_memory() };
        }
    }
}

impl Translated {
    /// Translates every maximal run of at least [`MIN_RUN`] translatable instructions of
    /// `prog`, with the instructions between them that stay in sequence interpreted inside
    /// the run ([`Item::Interpreted`]); without those when `interpreted_inside` is false.
    pub fn new(prog: &Program, interpreted_inside: bool) -> Result<Translated, JitError> {
        Translated::build(prog, MIN_RUN, interpreted_inside, None)
    }

    /// [`Translated::new`] of the kernel `bytes` (`prog` their decoded form): the same
    /// translation, with the EU instructions' text in what [`crate::dump`] writes.
    pub fn of_kernel(
        prog: &Program,
        bytes: &[u8],
        interpreted_inside: bool,
    ) -> Result<Translated, JitError> {
        Translated::build(prog, MIN_RUN, interpreted_inside, Some(bytes))
    }

    /// Translates every maximal run of at least `min_run` (at least 1) translatable
    /// instructions of `prog` ([`Translated::new`], with interpreted instructions inside).
    pub fn with_min_run(prog: &Program, min_run: usize) -> Result<Translated, JitError> {
        Translated::build(prog, min_run, true, None)
    }

    /// A run starts and ends at a translated instruction; between them it holds translated
    /// instructions and, with `interpreted_inside`, ones that stay in sequence. It also ends
    /// before a branch target, so that control flow enters runs only at their start (a run
    /// is entered only there). `source`: the kernel's bytes, for [`crate::dump`].
    fn build(
        prog: &Program,
        min_run: usize,
        interpreted_inside: bool,
        source: Option<&[u8]>,
    ) -> Result<Translated, JitError> {
        let mut em = Emitter::new()?;
        let kinds: Vec<Kind> = prog
            .fast
            .iter()
            .zip(&prog.insts)
            .zip(&prog.simple)
            .map(|((f, inst), simple)| {
                let step = f.as_ref().and_then(select).or_else(|| {
                    // A `nop` or a `sync` other than a barrier wait does nothing here.
                    simple
                        .filter(|s| s.send.is_none())
                        .map(|s| Step::keep(s.ch))
                });
                match step.filter(|s| em.supports(s.op)) {
                    Some(s) => Kind::Step(s),
                    None if interpreted_inside && runs_inside_a_run(inst) => Kind::Inside,
                    None => Kind::Outside,
                }
            })
            .collect();
        let n = kinds.len();
        let mut target = vec![false; n];
        for i in &prog.insts {
            for t in [i.jip, i.uip].into_iter().flatten().flatten() {
                if let Some(x) = target.get_mut(t as usize) {
                    *x = true;
                }
            }
        }
        let mut runs = Vec::new();
        let mut i = 0;
        while i < n {
            if !matches!(kinds[i], Kind::Step(_)) {
                i += 1;
                continue;
            }
            let start = i;
            let (mut end, mut steps) = (i + 1, 1);
            i += 1;
            while i < n && !target[i] && !matches!(kinds[i], Kind::Outside) {
                if matches!(kinds[i], Kind::Step(_)) {
                    end = i + 1;
                    steps += 1;
                }
                i += 1;
            }
            i = end;
            if steps < min_run.max(1) {
                continue;
            }
            let mut items: Vec<Item> = Vec::new();
            for k in &kinds[start..end] {
                match (k, items.last_mut()) {
                    (Kind::Step(s), _) => items.push(Item::Step(*s)),
                    (_, Some(Item::Interpreted(c))) => *c += 1,
                    _ => items.push(Item::Interpreted(1)),
                }
            }
            let id = em.compile(&items)?;
            runs.push((start, items, id));
        }
        let ids: Vec<_> = runs.iter().map(|r| r.2).collect();
        let listings = em.take_listings();
        let (module, fns) = em.finish(&ids)?;
        if crate::dump::enabled() {
            let texts: Vec<RunText> = runs
                .iter()
                .zip(&fns)
                .zip(listings)
                .map(|(((start, items, _), f), (clif, host, size))| RunText {
                    start: *start,
                    items: items.clone(),
                    clif,
                    host,
                    size,
                    addr: *f as usize,
                })
                .collect();
            crate::dump::write(prog, source, &texts);
        }
        let mut entries = vec![None; n];
        let mut translated = 0;
        for ((start, items, _), f) in runs.iter().zip(fns) {
            let mut extent = 0;
            for item in items {
                if let Item::Step(s) = item {
                    translated += 1;
                    extent = extent.max(s.extent());
                }
            }
            entries[*start] = Some(Entry {
                run: f,
                len: crate::select::run_len(items),
                extent,
            });
        }
        let is_branch = |k: usize| matches!(prog.insts[k].opcode.shape(), Shape::Branch);
        // The first branch at or after each index.
        let mut first_branch = vec![u32::MAX; n + 1];
        for m in (0..n).rev() {
            first_branch[m] = if is_branch(m) {
                m as u32
            } else {
                first_branch[m + 1]
            };
        }
        let mut stop = vec![u32::MAX; n];
        let mut start_after = u32::MAX;
        for k in (0..n).rev() {
            if entries[k].is_some() {
                start_after = k as u32;
            }
            let after_branch = match k {
                0 => u32::MAX,
                _ => first_branch[k - 1].saturating_add(1),
            };
            stop[k] = start_after.min(after_branch);
        }
        Ok(Translated {
            entries,
            stop,
            translated,
            module: Some(module),
        })
    }

    /// How many instructions have a translated form.
    pub fn translated(&self) -> usize {
        self.translated
    }

    /// The translated runs: (first instruction, instructions), the interpreted ones inside
    /// them included.
    pub fn runs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.map(|e| (i, e.len as usize)))
    }

    /// How many instructions the kernel has.
    pub fn instructions(&self) -> usize {
        self.entries.len()
    }
}

/// A kernel binary, the platform it runs on and its threads' GRF register count (the decoded
/// form, and so which instructions translate, depends on all three).
type Key = (Platform, usize, Vec<u8>);

/// Kernels a [`TranslationCache`] keeps: past this many, it starts over (the translations
/// still in use live on in their users' `Arc`s), so a process that builds kernels without end
/// holds a bounded amount of code.
pub const CACHE_KERNELS: usize = 4096;

/// Translations per kernel binary and platform, shared by every thread that runs them.
#[derive(Default)]
pub struct TranslationCache {
    map: Mutex<HashMap<Key, Arc<Translated>>>,
}

impl TranslationCache {
    pub fn new() -> TranslationCache {
        TranslationCache::default()
    }

    /// The translation of the kernel `bytes` for `platform` (`prog` its decoded form),
    /// translated on first use. The lock is held while a kernel translates, so host threads
    /// asking for the same kernel at once translate it once.
    pub fn get_or_translate(
        &self,
        platform: Platform,
        bytes: &[u8],
        prog: &Program,
    ) -> Result<Arc<Translated>, JitError> {
        let key = (platform, prog.grf_regs, bytes.to_vec());
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = map.get(&key) {
            return Ok(Arc::clone(t));
        }
        let t = Arc::new(Translated::of_kernel(
            prog,
            bytes,
            !crate::check::checking(),
        )?);
        if map.len() >= CACHE_KERNELS {
            map.clear();
        }
        map.insert(key, Arc::clone(&t));
        Ok(t)
    }

    /// How many kernels the cache holds.
    pub fn len(&self) -> usize {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
