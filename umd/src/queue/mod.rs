//! Queues and asynchronous submission: the API a runtime (an OpenCL ICD) drives.
//!
//! - A [`Queue`] owns its own kernel-driver context (i915) or exec queue (xe) in the device's
//!   VM. Work on one queue runs in submission order; queues of one device, and threads on one
//!   queue, submit without waiting for each other's GPU work (a queue's lock covers building
//!   and handing over a batch, never the GPU's run).
//! - [`Queue::dispatch`] and [`Queue::submit_raw`] return an [`Event`] as soon as the batch is
//!   submitted. An event can be polled, waited on with a timeout, and named in `wait_for` of
//!   later submissions on any queue of the device: the kernel waits for it (i915
//!   `I915_EXEC_FENCE_ARRAY`, xe exec syncs), never the CPU.
//! - [`Queue::copy_buffer`] and [`Queue::fill_buffer`] queue buffer copies and fills on the
//!   copy engine where the platform's blitter has a packet for them (Gen12, Xe-HPG), with
//!   events, dependencies and the queue's order as for dispatches (see `blit.rs`); elsewhere
//!   they answer `None` and the caller copies on the CPU after the dependencies.
//! - [`Queue::copy_buffer_rect`] copies a 2D/3D region between buffers with row and slice
//!   pitches the same way, where the copy packet's pitch field holds them (`blit_rect.rs`).
//! - [`Device::host_event`] makes an event the host signals ([`Event::signal`]) or fails
//!   ([`Event::fail`]). Work that depends on one is held by its queue (with everything queued
//!   behind it, to keep the order) and handed to the kernel when it is signalled.
//! - A failure (GPU fault, hang, a failed dependency) is reported by the event of the
//!   submission that caused it, with its own detail; other queues carry on. When the kernel
//!   has banned the queue's context (i915 refuses it with EIO, xe with ECANCELED), the queue
//!   replaces it for its later work.
//! - A kernel's ISA is uploaded once per device and kept while the kernel lives; the batch,
//!   state heaps and fence come from a per-queue pool of arenas reused once their batch
//!   retires; private memory and scratch are per queue (its work runs in order) and grown on
//!   demand. The steady-state work of a dispatch is writing the payload and a short batch;
//!   it allocates nothing (payload, exec-object and kernel-driver argument arrays live in the
//!   queue, and a retired submission nobody holds is reused with its syncobj, whose fence the
//!   kernel replaces at the next submission). Each arena remembers what its last batch was
//!   built from: the same dispatch again (kernel, range, arguments, scratch) rewrites only
//!   the fence value in the batch already there; one with other arguments or group counts
//!   (same kernel and local size) rewrites only the payload, surface states and walker
//!   commands that changed.
//!
//! [`Device::dispatch`] and [`Device::submit_raw`] are the same on the device's default
//! queue followed by a wait.
//!
//! `Send + Sync`: [`Device`], [`Queue`], [`Event`], [`crate::memory::Buffer`],
//! [`crate::image::Image`] and [`crate::kernel::Kernel`] are all `Send + Sync` (tested by
//! `tests/queues_sim.rs`).
//!
//! [`Device`]: crate::device::Device
//! [`Device::host_event`]: crate::device::Device::host_event
//! [`Device::dispatch`]: crate::device::Device::dispatch
//! [`Device::submit_raw`]: crate::device::Device::submit_raw

pub(crate) mod arena;
mod blit;
mod blit_rect;
mod event;

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

pub use blit_rect::RectSide;
pub use event::{Event, Status};

pub(crate) use arena::{Staging, ARENA_BYTES, FENCE_AT};
use event::{DepState, Flight, State, Work};
pub(crate) use event::{Fence, NEXT_FENCE};

use crate::batch_memo::{ArenaMemo, BatchKey};
use crate::device::{Engine, ExecObject, HoldsWork, Inner, Outcome, QueuePriority, SubmitScratch};
use crate::error::{Error, Result};
use crate::memory::Bo;
use crate::payload::Payload;
use crate::printf::pool::{PrintfPool, POOL_BYTES};
use crate::scratch::ScratchCache;

/// A batch ready to hand to the kernel, and what must live until it retires.
#[derive(Debug)]
pub(crate) struct Ready {
    /// The engine it runs on.
    pub engine: Engine,
    pub objects: Vec<ExecObject>,
    pub fence: Fence,
    pub keep: Vec<Arc<Bo>>,
    /// An arena to return to the pool once the batch retired.
    pub arena: Option<Arc<Bo>>,
    /// The kernel binary a dispatch runs (address, bytes): error offsets are counted from it.
    pub isa: Option<(u64, u64)>,
}

/// A submission the queue holds until its dependencies are submitted.
#[derive(Debug)]
struct HeldWork {
    work: Arc<Work>,
    ready: Ready,
    deps: Vec<Event>,
}

/// A submitted batch's resources, kept until it retires.
#[derive(Debug)]
struct InFlight {
    work: Arc<Work>,
    keep: Vec<Arc<Bo>>,
    arena: Option<Arc<Bo>>,
}

#[derive(Debug)]
pub(crate) struct QueueState {
    ctx: u32,
    /// What `ctx` (and a replacement, and the blit exec queue) is scheduled at.
    priority: QueuePriority,
    /// The exec queue of its blits on xe, made at the first one (i915 uses `ctx`).
    copy_ctx: Option<u32>,
    /// The last work handed to the kernel and its engine: work for the other engine waits for
    /// it, which keeps the queue in order across engines.
    last: Option<(Engine, Arc<Work>)>,
    held: VecDeque<HeldWork>,
    in_flight: VecDeque<InFlight>,
    /// Arenas whose batches retired.
    free_arenas: Vec<Arc<Bo>>,
    pub scratch: ScratchCache,
    /// Private memory (per-thread `__private` arrays IGC did not keep in registers).
    pub private: Option<Arc<Bo>>,
    /// Host memory the batch and heaps are built in before one copy to the arena.
    pub staging: Staging,
    /// A dispatch's payload and SLM offsets, built in memory kept from the last one.
    pub payload: Payload,
    pub slm_offsets: Vec<Option<u32>>,
    /// The inputs of the dispatch being built, and what each arena holds from its last
    /// batch (see [`crate::dispatch`]).
    pub key: BatchKey,
    pub memos: Vec<ArenaMemo>,
    /// Emptied vectors and retired works (each with its syncobj) for the next submissions:
    /// a dispatch in steady state allocates nothing and creates no syncobj.
    spare_keep: Vec<Vec<Arc<Bo>>>,
    spare_objects: Vec<Vec<ExecObject>>,
    spare_works: Vec<Arc<Work>>,
    /// The kernel-driver argument arrays of a submission, reused.
    submit: SubmitScratch,
}

#[derive(Debug)]
pub(crate) struct QueueInner {
    pub dev: Arc<Inner>,
    state: Mutex<QueueState>,
    /// printf buffers nobody holds (`crate::printf::pool`). Its own lock: a buffer comes
    /// back when its last output drops, which may be while the state is locked.
    pub printf_pool: Arc<PrintfPool>,
}

/// A submission queue of a device. Cloning shares it; it is released (after its work
/// retires) when the last clone goes.
#[derive(Debug, Clone)]
pub struct Queue {
    pub(crate) inner: Arc<QueueInner>,
}

impl Queue {
    pub(crate) fn new(dev: &Arc<Inner>, priority: QueuePriority) -> Result<Queue> {
        let ctx = dev.backend().context_create(priority)?;
        let inner = Arc::new(QueueInner {
            dev: dev.clone(),
            state: Mutex::new(QueueState {
                ctx,
                priority,
                copy_ctx: None,
                last: None,
                held: VecDeque::new(),
                in_flight: VecDeque::new(),
                free_arenas: Vec::new(),
                scratch: ScratchCache::default(),
                private: None,
                staging: Staging::default(),
                payload: Payload::default(),
                slm_offsets: Vec::new(),
                key: BatchKey::default(),
                memos: Vec::new(),
                spare_keep: Vec::new(),
                spare_objects: Vec::new(),
                spare_works: Vec::new(),
                submit: SubmitScratch::default(),
            }),
            printf_pool: Arc::default(),
        });
        // The device hands this queue its held work when a host event is signalled.
        let weak: Weak<dyn HoldsWork> = Arc::downgrade(&inner) as Weak<QueueInner>;
        dev.register_queue(weak);
        Ok(Queue { inner })
    }

    /// Waits for everything submitted so far. Returns the first failure among them.
    pub fn finish(&self) -> Result<()> {
        let works: Vec<Event> = {
            let st = self.inner.lock();
            st.held
                .iter()
                .map(|h| Event(h.work.clone()))
                .chain(st.in_flight.iter().map(|f| Event(f.work.clone())))
                .collect()
        };
        let mut first = Ok(());
        for w in works {
            if let Err(e) = w.wait(None) {
                if first.is_ok() {
                    first = Err(e);
                }
            }
        }
        self.inner.lock().reap();
        first
    }

    /// Whether both name the same queue.
    pub fn same(&self, other: &Queue) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl QueueInner {
    pub fn lock(&self) -> MutexGuard<'_, QueueState> {
        // A panic while building a batch leaves at most an unused arena behind.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands `ready` to the kernel after `deps`, or holds it until they are submitted.
    /// Called with the queue locked, so work enters the queue in submission order.
    pub fn enqueue(&self, st: &mut QueueState, ready: Ready, deps: &[Event]) -> Result<Event> {
        for d in deps {
            if !Arc::ptr_eq(&d.0.dev, &self.dev) {
                return Err(Error::Argument(
                    "a dependency is an event of another device".into(),
                ));
            }
        }
        let work = match st.spare_works.pop() {
            Some(w) => w,
            None => Work::new(self.dev.clone(), State::Held),
        };
        let held = HeldWork {
            work: work.clone(),
            ready,
            deps: deps.to_vec(),
        };
        if st.held.is_empty() {
            // A failure is the event's to report.
            if let Ok(Some(h)) = st.try_submit(&self.dev, held) {
                st.held.push_back(h);
            }
        } else {
            st.held.push_back(held);
        }
        Ok(Event(work))
    }

    /// An arena from the pool (reaping retired batches first), else a new one.
    pub fn arena(&self, st: &mut QueueState) -> Result<Arc<Bo>> {
        if st.free_arenas.is_empty() {
            st.reap();
        }
        match st.free_arenas.pop() {
            Some(a) => Ok(a),
            None => self.dev.alloc_bo(ARENA_BYTES as u64),
        }
    }
}

impl HoldsWork for QueueInner {
    /// Submits held work whose dependencies are now submitted; true if any was.
    fn flush(&self) -> bool {
        let mut st = self.lock();
        let mut progress = false;
        while let Some(h) = st.held.pop_front() {
            match st.try_submit(&self.dev, h) {
                Ok(None) => progress = true,
                Ok(Some(h)) => {
                    st.held.push_front(h);
                    break;
                }
                // The work's own event carries the error; later work goes on.
                Err(_) => progress = true,
            }
        }
        progress
    }
}

impl QueueInner {
    /// A printf buffer for a dispatch: a free one no submission still holds (reaping retired
    /// ones first), else a new one. Concurrent dispatches each get their own.
    pub fn printf_bo(&self, st: &mut QueueState) -> Result<Arc<Bo>> {
        if let Some(b) = self.printf_pool.take() {
            return Ok(b);
        }
        st.reap();
        match self.printf_pool.take() {
            Some(b) => Ok(b),
            None => self.dev.alloc_bo(POOL_BYTES),
        }
    }
}

impl QueueState {
    /// Submits `h` if every dependency is submitted (returns None), else gives it back. A
    /// failed dependency or submission fails `h`'s event (and returns the error too).
    fn try_submit(&mut self, dev: &Arc<Inner>, h: HeldWork) -> Result<Option<HeldWork>> {
        let mut waits = Vec::new();
        for d in &h.deps {
            // A dependency that already failed is known now; one still running is the
            // kernel's to order (and to skip this work if it fails).
            let _ = d.poll();
            match d.0.dependency() {
                Ok(Some(s)) => waits.push(s),
                Ok(None) => {}
                Err(DepState::Pending) => return Ok(Some(h)),
                Err(DepState::Failed(why)) => {
                    let e = Error::DependencyFailed(why);
                    h.work.set(State::Failed(e.clone()));
                    self.recycle(h.ready.arena);
                    return Err(e);
                }
            }
        }
        // The kernel orders one context's work on one engine; across engines the queue's
        // previous submission is an explicit dependency.
        if let Some((engine, last)) = &self.last {
            let s = last.syncobj.load(Ordering::Acquire);
            if *engine != h.ready.engine && s != 0 {
                waits.push(s);
            }
        }
        match self.submit(dev, &h.work, h.ready, &waits, h.deps) {
            Ok(()) => Ok(None),
            Err(e) => {
                h.work.set(State::Failed(e.clone()));
                Err(e)
            }
        }
    }

    fn submit(
        &mut self,
        dev: &Arc<Inner>,
        work: &Arc<Work>,
        ready: Ready,
        waits: &[u32],
        deps: Vec<Event>,
    ) -> Result<()> {
        let b = dev.backend();
        // A reused work keeps its syncobj: the kernel replaces its fence at the submission.
        let syncobj = match work.syncobj.load(Ordering::Acquire) {
            0 => {
                let s = b.syncobj()?;
                work.syncobj.store(s, Ordering::Release);
                s
            }
            s => s,
        };
        let engine = ready.engine;
        let mut ctx = self.context_for(dev, engine)?;
        let mut outcome = b.submit(
            ctx,
            engine,
            &ready.objects,
            waits,
            syncobj,
            &mut self.submit,
        )?;
        if outcome == Outcome::Banned {
            // The kernel banned the context after an earlier failure (reported by that
            // submission's event); a new one takes this and later work.
            ctx = self.replace_context(dev, engine)?;
            outcome = b.submit(
                ctx,
                engine,
                &ready.objects,
                waits,
                syncobj,
                &mut self.submit,
            )?;
        }
        if outcome == Outcome::Banned {
            return Err(Error::Incomplete(format!(
                "the kernel refused a new context too for batch {:#x}",
                ready.objects.first().map_or(0, |o| o.gpu_address)
            )));
        }
        let batch_address = ready.objects.first().map_or(0, |o| o.gpu_address);
        let mut objects = ready.objects;
        objects.clear();
        self.spare_objects.push(objects);
        self.last = Some((engine, work.clone()));
        work.set(State::Submitted(Flight {
            fence: ready.fence,
            ctx,
            batch_address,
            isa: ready.isa,
            deps,
        }));
        self.in_flight.push_back(InFlight {
            work: work.clone(),
            keep: ready.keep,
            arena: ready.arena,
        });
        Ok(())
    }

    /// The context `engine`'s work goes to, made on first use for xe's copy engine.
    fn context_for(&mut self, dev: &Arc<Inner>, engine: Engine) -> Result<u32> {
        match (engine, self.copy_ctx) {
            (Engine::Compute, _) => Ok(self.ctx),
            (Engine::Copy, Some(c)) => Ok(c),
            (Engine::Copy, None) => {
                let c = dev.backend().copy_context_create(self.ctx, self.priority)?;
                if dev.backend().copy_context_is_separate() {
                    self.copy_ctx = Some(c);
                }
                Ok(c)
            }
        }
    }

    /// Replaces the banned context of `engine` (on i915 one context serves both engines).
    fn replace_context(&mut self, dev: &Arc<Inner>, engine: Engine) -> Result<u32> {
        let b = dev.backend();
        match (engine, self.copy_ctx) {
            (Engine::Copy, Some(old)) => {
                let fresh = b.copy_context_create(self.ctx, self.priority)?;
                b.context_destroy(old);
                self.copy_ctx = Some(fresh);
                Ok(fresh)
            }
            _ => {
                let fresh = b.context_create(self.priority)?;
                b.context_destroy(std::mem::replace(&mut self.ctx, fresh));
                Ok(fresh)
            }
        }
    }

    fn recycle(&mut self, arena: Option<Arc<Bo>>) {
        self.free_arenas.extend(arena);
    }

    /// An empty vector for a submission's objects to keep alive.
    pub fn spare_keep(&mut self) -> Vec<Arc<Bo>> {
        self.spare_keep.pop().unwrap_or_default()
    }

    /// An empty vector for a submission's exec objects.
    pub fn spare_objects(&mut self) -> Vec<ExecObject> {
        self.spare_objects.pop().unwrap_or_default()
    }

    /// Frees the resources of retired batches, oldest first (the queue runs in order): one
    /// syncobj check for a batch nobody has waited for.
    fn reap(&mut self) {
        while let Some(f) = self.in_flight.front() {
            if !Event(f.work.clone()).poll().unwrap_or(true) {
                break;
            }
            if let Some(f) = self.in_flight.pop_front() {
                self.free_arenas.extend(f.arena);
                let mut keep = f.keep;
                keep.clear();
                self.spare_keep.push(keep);
                // Nobody else holds the work (its events are gone): reuse it and its syncobj.
                let mut work = f.work;
                // Retired: later work on the other engine need not wait for it, and `last`
                // must not keep it from being reused.
                if self
                    .last
                    .as_ref()
                    .is_some_and(|(_, l)| Arc::ptr_eq(l, &work))
                {
                    self.last = None;
                }
                if let Some(w) = Arc::get_mut(&mut work) {
                    w.reset();
                    self.spare_works.push(work);
                }
            }
        }
    }
}

impl Drop for QueueInner {
    fn drop(&mut self) {
        let st = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        for h in st.held.drain(..) {
            h.work.set(State::Failed(Error::DependencyFailed(
                "its queue was released before its dependencies were met".into(),
            )));
        }
        // The kernel must be done with every batch before its context and arenas go.
        for f in st.in_flight.drain(..) {
            let _ = Event(f.work).wait(None);
        }
        self.dev.backend().context_destroy(st.ctx);
        if let Some(c) = st.copy_ctx {
            self.dev.backend().context_destroy(c);
        }
    }
}
