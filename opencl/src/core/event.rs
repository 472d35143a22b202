//! Events: the status of one command (CL_QUEUED → CL_SUBMITTED → CL_RUNNING → CL_COMPLETE, or
//! a negative error), its profiling times, the callbacks waiting for a status, and user
//! events the application completes itself.
//!
//! Callbacks run on one runtime thread (`callbacks`), never on the application's thread
//! and never while an event's lock is held, so a callback may call any entry point (release
//! the event, enqueue, wait for another event). A command keeps its event alive until it
//! completes and its callbacks ran, whatever the application released.

use std::ffi::c_void;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};

use opencl_sys::*;

use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::handle::{ClObject, Handle, Kind};
use crate::core::timer::now_ns;

/// clSetEventCallback's pfn_notify.
pub type Callback = unsafe extern "C" fn(cl_event, cl_int, *mut c_void);

/// Profiling times in nanoseconds on one clock (see [`now_ns`]).
#[derive(Default, Clone, Copy, Debug)]
pub struct Times {
    pub queued: u64,
    pub submit: u64,
    pub start: u64,
    pub end: u64,
    pub complete: u64,
}

struct State {
    status: cl_int,
    times: Times,
    /// (status waited for, callback, user data as an address).
    callbacks: Vec<(cl_int, Callback, usize)>,
}

/// What an event knows of the queue its command was enqueued on, and holds alive. The queue
/// implements it ([`crate::core::queue`]), so events need not know queues.
pub trait CommandQueue: Send + Sync {
    /// The queue's handle (CL_EVENT_COMMAND_QUEUE).
    fn handle(&self) -> *mut c_void;
    /// Whether the queue records profiling times (CL_QUEUE_PROFILING_ENABLE).
    fn profiling(&self) -> bool;
    /// The device the queue's commands run on.
    fn device(&self) -> &Arc<Handle<Device>>;
    /// The application was told that the command whose event is `e` failed.
    fn told(&self, e: &Event);
}

pub struct Event {
    pub context: Arc<Handle<Context>>,
    /// None for a user event.
    pub queue: Option<Arc<dyn CommandQueue>>,
    pub command: cl_command_type,
    state: Mutex<State>,
    changed: Condvar,
    /// A kernel's umd event once submitted: later kernels on the same device name it as a
    /// dependency, so the GPU orders them without the host waiting.
    gpu: OnceLock<umd::queue::Event>,
    /// Its command's place in its queue's order.
    seq: OnceLock<crate::core::failure::Seq>,
}

impl ClObject for Event {
    const KIND: Kind = Kind::Event;
    const INVALID: cl_int = CL_INVALID_EVENT;
}

type Job = Box<dyn FnOnce() + Send>;

/// The runtime thread every event callback runs on, in the order their statuses were reached
/// (None if the thread could not be started).
fn callbacks() -> Option<&'static Mutex<Sender<Job>>> {
    static TX: OnceLock<Option<Mutex<Sender<Job>>>> = OnceLock::new();
    TX.get_or_init(|| {
        let (tx, rx) = channel::<Job>();
        std::thread::Builder::new()
            .name("cl-callbacks".into())
            .spawn(move || {
                for job in rx {
                    job();
                }
            })
            .ok()
            .map(|_| Mutex::new(tx))
    })
    .as_ref()
}

impl Event {
    pub fn new(
        context: Arc<Handle<Context>>,
        queue: Option<Arc<dyn CommandQueue>>,
        command: cl_command_type,
        status: cl_int,
    ) -> Event {
        let now = now_ns();
        Event {
            context,
            queue,
            command,
            state: Mutex::new(State {
                status,
                times: Times {
                    queued: now,
                    ..Times::default()
                },
                callbacks: Vec::new(),
            }),
            changed: Condvar::new(),
            gpu: OnceLock::new(),
            seq: OnceLock::new(),
        }
    }

    pub fn set_gpu(&self, e: umd::queue::Event) {
        let _ = self.gpu.set(e);
    }

    pub fn gpu(&self) -> Option<&umd::queue::Event> {
        self.gpu.get()
    }

    pub fn set_seq(&self, seq: crate::core::failure::Seq) {
        let _ = self.seq.set(seq);
    }

    pub fn seq(&self) -> Option<crate::core::failure::Seq> {
        self.seq.get().copied()
    }

    /// Its status, as the application reads it: a failure read is a failure told
    /// ([`crate::core::failure`]).
    pub fn status_told(&self) -> cl_int {
        let s = self.status();
        if s < 0 {
            if let Some(q) = &self.queue {
                q.told(self);
            }
        }
        s
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every update below is complete before the guard drops: a panic cannot tear it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn status(&self) -> cl_int {
        self.lock().status
    }

    pub fn times(&self) -> Times {
        self.lock().times
    }

    /// Blocks until the event is complete or failed; returns its final status.
    pub fn wait(&self) -> cl_int {
        self.wait_for(CL_COMPLETE)
    }

    /// Blocks until the status is `status` or later (or failed); returns it.
    pub fn wait_for(&self, status: cl_int) -> cl_int {
        crate::core::spin::spin_for(&self.state, |st| st.status <= status);
        let mut st = self.lock();
        while st.status > status {
            st = self.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        st.status
    }

    /// Records the GPU's start and end (host-clock nanoseconds) when the completion is seen.
    /// The clocks' correlation has a small error either way: the times are kept between the
    /// submission and now, so commands of a queue never appear to overlap.
    pub fn set_gpu_times(&self, start: u64, end: u64) {
        let now = now_ns();
        let mut st = self.lock();
        let t = &mut st.times;
        t.end = end.min(now).max(t.submit);
        t.start = start.max(t.submit).min(t.end);
    }
}

/// Moves `e` on to `status` (a later status or a negative error), stamping the profiling
/// time and handing the callbacks this status satisfies to the callback thread. A status
/// that is not later than the current one is ignored (statuses only move forward); returns
/// whether it moved.
pub fn set_status(e: &Arc<Handle<Event>>, status: cl_int) -> bool {
    let due: Vec<(cl_int, Callback, usize)> = {
        let mut st = e.obj.lock();
        if st.status <= CL_COMPLETE || status >= st.status {
            return false;
        }
        let now = now_ns();
        let t = &mut st.times;
        if status <= CL_SUBMITTED && t.submit == 0 {
            t.submit = now.max(t.queued);
        }
        if status <= CL_RUNNING && t.start == 0 {
            t.start = now.max(t.submit);
        }
        if status <= CL_COMPLETE {
            if t.end == 0 {
                t.end = now.max(t.start);
            }
            t.complete = now.max(t.end);
        }
        st.status = status;
        let (due, keep) = std::mem::take(&mut st.callbacks)
            .into_iter()
            .partition(|(want, _, _)| status <= *want);
        st.callbacks = keep;
        due
    };
    e.obj.changed.notify_all();
    fire(e, status, due);
    true
}

/// Registers `f` for `status` (clSetEventCallback). A status already reached runs it at once
/// (on the callback thread) with that status, or with the event's error.
pub fn on_status(e: &Arc<Handle<Event>>, status: cl_int, f: Callback, user_data: usize) {
    let now = {
        let mut st = e.obj.lock();
        if st.status <= status {
            Some(st.status)
        } else {
            st.callbacks.push((status, f, user_data));
            None
        }
    };
    if let Some(reached) = now {
        fire(e, reached, vec![(status, f, user_data)]);
    }
}

/// Queues `due` on the callback thread; each gets the status it waited for, or the error.
fn fire(e: &Arc<Handle<Event>>, status: cl_int, mut due: Vec<(cl_int, Callback, usize)>) {
    if due.is_empty() {
        return;
    }
    // CL_SUBMITTED's callbacks before CL_RUNNING's before CL_COMPLETE's.
    due.sort_by_key(|(want, _, _)| -*want);
    let held = e.clone();
    let job: Job = Box::new(move || {
        for (want, f, data) in due {
            let arg = if status < 0 { status } else { want };
            // SAFETY: the application's callback with its own user data; the event stays
            // alive (`held`) while it runs.
            unsafe { f(held.raw(), arg, data as *mut c_void) };
        }
    });
    match callbacks() {
        Some(tx) => {
            // The receiving thread lives as long as the process.
            let _ = tx.lock().unwrap_or_else(|p| p.into_inner()).send(job);
        }
        // Without the thread, on the caller's (no lock of ours is held here).
        None => job(),
    }
}
