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

/// Where an instruction sits in a translated run.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    /// The run's host function.
    pub run: RunFn,
    /// This instruction's index in the run.
    pub at: u32,
    /// Instructions from this one to the run's end.
    pub left: u32,
    /// One past the last register-file byte the rest of the run touches.
    pub extent: usize,
}

/// A kernel's translated runs.
pub struct Translated {
    /// Per instruction index: its place in a translated run, if it has one.
    pub(crate) entries: Vec<Option<Entry>>,
    /// Per instruction index: the index of the next translated instruction at or after it.
    pub(crate) next: Vec<u32>,
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
    /// Translates every maximal run of consecutive translatable instructions of `prog`.
    pub fn new(prog: &Program) -> Result<Translated, JitError> {
        let mut em = Emitter::new()?;
        let steps: Vec<Option<Step>> = prog
            .fast
            .iter()
            .map(|f| f.as_ref().and_then(select).filter(|s| em.supports(s.op)))
            .collect();
        let mut runs = Vec::new();
        let mut i = 0;
        while i < steps.len() {
            if steps[i].is_none() {
                i += 1;
                continue;
            }
            let start = i;
            while steps.get(i).is_some_and(Option::is_some) {
                i += 1;
            }
            let run: Vec<Step> = steps[start..i].iter().flatten().copied().collect();
            let id = em.compile(&run)?;
            runs.push((start, run, id));
        }
        let ids: Vec<_> = runs.iter().map(|r| r.2).collect();
        let (module, fns) = em.finish(&ids)?;
        let mut entries = vec![None; steps.len()];
        for ((start, run, _), f) in runs.iter().zip(fns) {
            let mut extent = 0;
            for (k, s) in run.iter().enumerate().rev() {
                extent = extent.max(s.extent());
                entries[start + k] = Some(Entry {
                    run: f,
                    at: k as u32,
                    left: (run.len() - k) as u32,
                    extent,
                });
            }
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
            module: Some(module),
        })
    }

    /// How many instructions have a translated form.
    pub fn translated(&self) -> usize {
        self.entries.iter().flatten().count()
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
