//! A kernel's translation: its runs of translatable instructions and structured branches
//! compiled to host functions, looked up by the instruction index they are entered at, and a
//! cache of translations per kernel binary and platform.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cranelift_jit::JITModule;
use platform::Platform;
use sim_eu::Program;

use crate::dump::RunText;
use crate::emit::{Emitter, RunFn};
use crate::error::JitError;
use isa_encoder::model::{Opcode, Shape};
use sim_eu::exec::{runs_inside_a_run, stops_for_a_barrier};

use crate::select::{
    branch, convert, double, ends_thread, message, select, send, wide, Branch, Item, Message, Own,
    Step,
};
use sim_eu::exec::structured::Jumps;
use sim_eu::program::channels::Channels;

/// What a kernel's instruction is to a translation.
#[derive(Clone, Copy)]
enum Kind {
    Step(Step),
    /// Interpreted inside a run ([`Item::Interpreted`]).
    Inside,
    /// The thread's end (a classified end-of-thread send), interpreted inside a run: the last
    /// instruction a run holds, so that the thread ends there instead of after a return to
    /// the run loop; the thread spawner's ([`Item::End`]) when `true`.
    End(bool),
    /// A structured branch to the instruction (absolute index) ([`Item::Branch`]).
    Branch(Jumps, u32, Channels),
    /// A classified send called directly ([`Item::Send`]).
    Send(Channels, Own),
    /// A send without a classified form handled in part by the run's code
    /// ([`Item::Message`]).
    Message(Channels, Message),
    /// A barrier's wait ([`Item::Wait`]).
    Wait,
    /// Ends a run.
    Outside,
}

/// Where a translated run may be entered: at one of its blocks (its first instruction, a
/// branch target, the instruction after a branch).
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    /// The run's host function.
    pub run: RunFn,
    /// The block's number in the run ([`RunFn`]'s `entry`).
    pub block: u32,
    /// The run's first instruction.
    pub start: u32,
    /// The run's instructions, the interpreted ones inside it included.
    pub len: u32,
    /// One past the last register-file byte the run touches.
    pub extent: usize,
}

/// The fewest translated instructions a run is made with by [`Translated::new`]: each entry
/// leaves the interpreter's loop for the host code and comes back through a new
/// `sim_eu::run` call, which costs more than interpreting one short instruction but less
/// than interpreting two. Measured (BENCHMARKS.md, "The shortest translated run"): CTS
/// `work_group_suggested_local_size_3D` on sim:dg2 took 20-30 % less CPU with 1 or 2 than
/// with 8 (IGC's Xe-HPG code there has short runs between instructions that leave a run),
/// and `sim_kernels`' cases, whose runs hold their sends and branches, ran the same host
/// instructions with 1, 2, 4, 8 and 16.
pub const MIN_RUN: usize = 2;

/// The channels a thread may have for [`Translated::for_first_channels`]'s translation: its
/// first four (a work-group of one item is one channel of one thread).
pub const FIRST_CHANNELS: u32 = 0xf;

/// A kernel's translated runs.
pub struct Translated {
    /// Per instruction index: the translated run that starts there, if one does.
    pub(crate) entries: Vec<Option<Entry>>,
    /// Per instruction index k: where a stretch the interpreter runs from just before k stops
    /// so as not to pass a run start: at the first run start at or after k, or just after the
    /// first branch at or after k - 1 (which may land anywhere, on a run start too).
    pub(crate) stop: Vec<u32>,
    /// Channels wait only at the runs' block starts (no branch of the kernel lands on an
    /// instruction computed at run time: a register `jmpi`, a `ret`), so a run checks for
    /// them there; otherwise a run is entered only when none waits before its end.
    pub(crate) waits_at_blocks: bool,
    /// Per instruction index: its block's number in the run it starts a block of
    /// ([`Entry::block`]), `u32::MAX` where none starts: where a run goes on after a branch
    /// whose channels part ways.
    pub(crate) block_of: Vec<u32>,
    /// No thread with channels outside these (dispatched and not halted:
    /// [`sim_eu::Thread::live`]) enters the runs: all ones, or [`FIRST_CHANNELS`].
    pub(crate) live: u32,
    /// Translated instructions.
    translated: usize,
    /// Owns the code the entries point to; freed with the translation.
    module: Option<JITModule>,
    /// The tables of the runs of `mad`s the code reads ([`crate::mads`]), by address.
    _mad_tables: Vec<Box<[crate::mads::Mad]>>,
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
        Translated::build(prog, MIN_RUN, interpreted_inside, None, u32::MAX)
    }

    /// [`Translated::new`] for threads with only their [`FIRST_CHANNELS`]: what masked
    /// instructions would do on other channels is left out (nothing: no such channel
    /// executes), and their results past the first row of four DWords are neither computed
    /// nor written. Other threads do not enter its runs.
    pub fn for_first_channels(
        prog: &Program,
        interpreted_inside: bool,
    ) -> Result<Translated, JitError> {
        Translated::build(prog, MIN_RUN, interpreted_inside, None, FIRST_CHANNELS)
    }

    /// [`Translated::new`] of the kernel `bytes` (`prog` their decoded form): the same
    /// translation, with the EU instructions' text in what [`crate::dump`] writes.
    pub fn of_kernel(
        prog: &Program,
        bytes: &[u8],
        interpreted_inside: bool,
    ) -> Result<Translated, JitError> {
        Translated::build(prog, MIN_RUN, interpreted_inside, Some(bytes), u32::MAX)
    }

    /// Translates every maximal run of at least `min_run` (at least 1) translatable
    /// instructions of `prog` ([`Translated::new`], with interpreted instructions inside).
    pub fn with_min_run(prog: &Program, min_run: usize) -> Result<Translated, JitError> {
        Translated::build(prog, min_run, true, None, u32::MAX)
    }

    /// [`Translated::with_min_run`] for threads whose channels are all in `live`
    /// ([`Translated::for_first_channels`]'s, with another set of channels).
    pub fn with_min_run_for(
        prog: &Program,
        min_run: usize,
        live: u32,
    ) -> Result<Translated, JitError> {
        Translated::build(prog, min_run, true, None, live)
    }

    /// A run starts at a translated instruction and ends at one or at a structured branch;
    /// between them it holds translated instructions, structured branches whose targets are
    /// inside it (or its end) and, with `interpreted_inside`, instructions that stay in
    /// sequence. It is entered at its first instruction and at those of its blocks (branch
    /// targets, instructions after a branch) that lead to enough translated code or lie in
    /// one of its loops. `source`: the kernel's bytes, for [`crate::dump`]; `live`: the
    /// channels threads that enter its runs may have.
    pub(crate) fn build(
        prog: &Program,
        min_run: usize,
        interpreted_inside: bool,
        source: Option<&[u8]>,
        live: u32,
    ) -> Result<Translated, JitError> {
        Translated::translate(prog, min_run, interpreted_inside, source, live)
            .inspect_err(|e| crate::dump::failed(prog, e))
    }

    /// [`Translated::build`] but for telling the dump of a failure.
    fn translate(
        prog: &Program,
        min_run: usize,
        interpreted_inside: bool,
        source: Option<&[u8]>,
        live: u32,
    ) -> Result<Translated, JitError> {
        let mut em = Emitter::new()?;
        let kinds: Vec<Kind> = prog
            .fast
            .iter()
            .zip(&prog.insts)
            .zip(&prog.simple)
            .enumerate()
            .map(|(k, ((f, inst), simple))| {
                if let Some((jumps, to, ch)) = branch(inst, k as u32) {
                    return Kind::Branch(jumps, to, ch);
                }
                let step = f
                    .as_ref()
                    .and_then(select)
                    .or_else(|| wide(inst))
                    .or_else(|| convert(inst))
                    .or_else(|| double(inst))
                    .or_else(|| {
                        // A `nop` or a `sync` other than a barrier wait does nothing here.
                        simple
                            .filter(|s| s.send.is_none())
                            .map(|s| Step::keep(s.ch))
                    });
                match step.filter(|s| em.supports(s.op)) {
                    Some(s) => Kind::Step(s),
                    None if !interpreted_inside => Kind::Outside,
                    None if let Some((ch, d)) = send(inst, simple.as_ref()) => Kind::Send(ch, d),
                    None if ends_thread(inst, simple.as_ref()) => {
                        Kind::End(simple.is_some_and(|s| s.ends_plainly()))
                    }
                    None if inst.invalid.is_none() && stops_for_a_barrier(inst) => Kind::Wait,
                    None if let Some((ch, m)) = message(inst) => Kind::Message(ch, m),
                    None if runs_inside_a_run(inst) => Kind::Inside,
                    None => Kind::Outside,
                }
            })
            .collect();
        let n = kinds.len();
        let blocks = BlockStarts::of(prog);
        let mut runs = Vec::new();
        let mut i = 0;
        while i < n {
            if !matches!(kinds[i], Kind::Step(_)) {
                i += 1;
                continue;
            }
            let start = i;
            let end = run_end(&kinds, start);
            i = end;
            let steps = kinds[start..end]
                .iter()
                .filter(|k| matches!(k, Kind::Step(_)))
                .count();
            if steps < min_run.max(1) {
                continue;
            }
            // The run's blocks, counted from its first instruction.
            let starts: Vec<u32> = (start..end)
                .filter(|&k| k == start || blocks.starts[k])
                .map(|k| (k - start) as u32)
                .collect();
            let mut items: Vec<Item> = Vec::new();
            for (k, kind) in kinds.iter().enumerate().take(end).skip(start) {
                let new_block = k != start && blocks.starts[k];
                match (*kind, items.last_mut()) {
                    (Kind::Step(s), _) => items.push(Item::Step(s)),
                    (Kind::Send(ch, d), _) => items.push(Item::Send(ch, d)),
                    (Kind::Message(ch, m), _) => items.push(Item::Message(ch, m)),
                    (Kind::Wait, _) => items.push(Item::Wait),
                    (Kind::End(true), _) => items.push(Item::End),
                    (Kind::Branch(jumps, to, ch), _) => items.push(Item::Branch(Branch {
                        jumps,
                        to: (to - start as u32),
                        ch,
                    })),
                    (_, Some(Item::Interpreted(c))) if !new_block => *c += 1,
                    _ => items.push(Item::Interpreted(1)),
                }
            }
            let id = em.compile(&items, &starts, blocks.waits_at_blocks, live)?;
            runs.push((start, items, starts, id));
        }
        let ids: Vec<_> = runs.iter().map(|r| r.3).collect();
        let listings = em.take_listings();
        let (code, fns) = em.finish(&ids)?;
        if crate::dump::enabled() {
            let texts: Vec<RunText> = runs
                .iter()
                .zip(&fns)
                .zip(listings)
                .map(|(((start, items, _, _), f), l)| RunText {
                    start: *start,
                    items: items.clone(),
                    clif: l.clif,
                    host: l.host,
                    size: l.size,
                    bytes: l.bytes,
                    addr: *f as usize,
                })
                .collect();
            crate::dump::write(prog, source, &texts);
        }
        let mut entries = vec![None; n];
        let mut block_of = vec![u32::MAX; n];
        let mut translated = 0;
        for ((start, items, starts, _), f) in runs.iter().zip(fns) {
            let mut extent = 0;
            for item in items {
                match item {
                    Item::Step(s) => {
                        translated += 1;
                        extent = extent.max(s.extent());
                    }
                    // The host code reads the offsets and copies the data itself.
                    Item::Send(_, Own::Copy(d)) => extent = extent.max(d.extent()),
                    _ => {}
                }
            }
            let len = crate::select::run_len(items);
            // Steps from each instruction of the run to its end.
            let mut steps_after = vec![0usize; len as usize + 1];
            let mut at = len as usize;
            for item in items.iter().rev() {
                let c = item.instructions() as usize;
                let here = usize::from(matches!(item, Item::Step(_)));
                for k in (at - c..at).rev() {
                    steps_after[k] = steps_after[k + 1] + here;
                }
                at -= c;
            }
            // The run's jumps back: (branch, target).
            let mut backs = Vec::new();
            let mut k = 0;
            for item in items {
                if let Item::Branch(br) = item {
                    if br.to <= k {
                        backs.push((k, br.to));
                    }
                }
                k += item.instructions();
            }
            let loops = |b: u32| backs.iter().any(|&(at, to)| to <= b && b <= at);
            for (block, &b) in starts.iter().enumerate() {
                block_of[*start + b as usize] = block as u32;
                // A block is entered when enough translated code follows it, or it is in a
                // loop of the run (whose iterations then stay in host code).
                if b == 0 || steps_after[b as usize] >= min_run.max(1) || loops(b) {
                    entries[*start + b as usize] = Some(Entry {
                        run: f,
                        block: block as u32,
                        start: *start as u32,
                        len,
                        extent,
                    });
                }
            }
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
            waits_at_blocks: blocks.waits_at_blocks,
            block_of,
            live,
            translated,
            module: Some(code.module),
            _mad_tables: code.mad_tables,
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
            .filter_map(|(i, e)| e.filter(|e| e.start as usize == i))
            .map(|e| (e.start as usize, e.len as usize))
    }

    /// The instructions at which translated code is entered: the runs' first instructions and
    /// those of their blocks that lead to enough translated instructions or lie in a loop.
    pub fn entries(&self) -> impl Iterator<Item = usize> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.map(|_| i))
    }

    /// How many instructions the kernel has.
    pub fn instructions(&self) -> usize {
        self.entries.len()
    }
}

/// Where a run may be entered: at a branch target or the instruction after a branch (the
/// run loop adds waiting channels only there, so channels wait only at block starts unless a
/// branch lands on an instruction computed at run time), and at and after a barrier's wait
/// (where a thread that stopped for the barrier resumes, and where one that passed it
/// outside a run goes on).
struct BlockStarts {
    /// Per instruction index (and one past the last): a block starts there.
    starts: Vec<bool>,
    waits_at_blocks: bool,
}

impl BlockStarts {
    fn of(prog: &Program) -> BlockStarts {
        let n = prog.insts.len();
        let mut starts = vec![false; n + 1];
        let mut waits_at_blocks = true;
        for (k, i) in prog.insts.iter().enumerate() {
            for t in [i.jip, i.uip].into_iter().flatten().flatten() {
                if let Some(x) = starts.get_mut(t as usize) {
                    *x = true;
                }
            }
            // A thread stopped at a barrier's wait resumes there, where its run is entered
            // again; one that passed the wait outside a run goes on at the next instruction.
            if stops_for_a_barrier(i) {
                starts[k] = true;
                starts[k + 1] = true;
            }
            if matches!(i.opcode.shape(), Shape::Branch) {
                starts[k + 1] = true;
                let computed = match i.opcode {
                    Opcode::Ret => true,
                    Opcode::Jmpi => i.jip.is_none(),
                    _ => false,
                };
                waits_at_blocks &= !computed;
            }
        }
        BlockStarts {
            starts,
            waits_at_blocks,
        }
    }
}

/// One past the last instruction of the run starting at the translated instruction `start`:
/// it holds translated instructions, instructions that stay in sequence and structured
/// branches whose targets are inside it (or its end), and ends at a translated instruction, a
/// branch or the thread's end.
fn run_end(kinds: &[Kind], start: usize) -> usize {
    let mut end = (start..kinds.len())
        .find(|&k| matches!(kinds[k], Kind::Outside))
        .unwrap_or(kinds.len());
    loop {
        // Interpreted instructions at the end go back to the run loop, but for the thread's
        // end (the run loop would take it just the same, after a return).
        while end > start + 1
            && matches!(
                kinds[end - 1],
                Kind::Inside | Kind::Send(..) | Kind::Message(..) | Kind::Wait
            )
        {
            end -= 1;
        }
        let leaves = (start..end).find(|&k| {
            matches!(kinds[k], Kind::Branch(_, to, _) if !(start..=end).contains(&(to as usize)))
        });
        match leaves {
            Some(k) => end = k,
            None => return end,
        }
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
