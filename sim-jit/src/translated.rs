//! A kernel's translation: its runs of translatable instructions compiled to host functions,
//! looked up by instruction index, and a cache of translations per kernel binary and platform.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cranelift_jit::JITModule;
use platform::Platform;
use sim_eu::Program;

use crate::emit::{Emitter, RunFn};
use crate::error::JitError;
use crate::select::{select, Step};

/// A translated run, entered at its first instruction.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    /// The run's host function.
    pub run: RunFn,
    /// Its instructions.
    pub len: u32,
    /// One past the last register-file byte the run touches.
    pub extent: usize,
}

/// The fewest instructions a run is translated with by [`Translated::new`]: each entry
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
    /// Per instruction index: the index of the next run start at or after it.
    pub(crate) next: Vec<u32>,
    /// Instructions inside translated runs.
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
    /// Translates every maximal run of at least [`MIN_RUN`] consecutive translatable
    /// instructions of `prog`.
    pub fn new(prog: &Program) -> Result<Translated, JitError> {
        Translated::with_min_run(prog, MIN_RUN)
    }

    /// Translates every maximal run of at least `min_run` (at least 1) consecutive
    /// translatable instructions of `prog`. A run also ends before a branch target, so that
    /// control flow enters runs only at their start (a run is entered only there).
    pub fn with_min_run(prog: &Program, min_run: usize) -> Result<Translated, JitError> {
        let mut em = Emitter::new()?;
        let steps: Vec<Option<Step>> = prog
            .fast
            .iter()
            .map(|f| f.as_ref().and_then(select).filter(|s| em.supports(s.op)))
            .collect();
        let mut target = vec![false; steps.len()];
        for i in &prog.insts {
            for t in [i.jip, i.uip].into_iter().flatten().flatten() {
                if let Some(x) = target.get_mut(t as usize) {
                    *x = true;
                }
            }
        }
        let mut runs = Vec::new();
        let mut i = 0;
        while i < steps.len() {
            if steps[i].is_none() {
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            while steps.get(i).is_some_and(Option::is_some) && !target[i] {
                i += 1;
            }
            if i - start < min_run.max(1) {
                continue;
            }
            let run: Vec<Step> = steps[start..i].iter().flatten().copied().collect();
            let id = em.compile(&run)?;
            runs.push((start, run, id));
        }
        let ids: Vec<_> = runs.iter().map(|r| r.2).collect();
        let (module, fns) = em.finish(&ids)?;
        let mut entries = vec![None; steps.len()];
        let mut translated = 0;
        for ((start, run, _), f) in runs.iter().zip(fns) {
            entries[*start] = Some(Entry {
                run: f,
                len: run.len() as u32,
                extent: run.iter().map(Step::extent).max().unwrap_or(0),
            });
            translated += run.len();
        }
        let mut next = vec![u32::MAX; steps.len()];
        let mut after = u32::MAX;
        for k in (0..steps.len()).rev() {
            if entries[k].is_some() {
                after = k as u32;
            }
            next[k] = after;
        }
        Ok(Translated {
            entries,
            next,
            translated,
            module: Some(module),
        })
    }

    /// How many instructions have a translated form.
    pub fn translated(&self) -> usize {
        self.translated
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
        let t = Arc::new(Translated::new(prog)?);
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
