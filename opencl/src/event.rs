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

use crate::api::entry::entry;
use crate::context::Context;
use crate::handle::{ClObject, Handle, Kind};
use crate::info::{self, Info};
use crate::queue::Queue;

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

pub struct Event {
    pub context: Arc<Handle<Context>>,
    /// None for a user event.
    pub queue: Option<Arc<Handle<Queue>>>,
    pub command: cl_command_type,
    state: Mutex<State>,
    changed: Condvar,
    /// A kernel's umd event once submitted: later kernels on the same device name it as a
    /// dependency, so the GPU orders them without the host waiting.
    gpu: OnceLock<umd::queue::Event>,
    /// Its command's place in its queue's order.
    seq: OnceLock<crate::failure::Seq>,
}

impl ClObject for Event {
    const KIND: Kind = Kind::Event;
    const INVALID: cl_int = CL_INVALID_EVENT;
}

/// Nanoseconds on the host's CLOCK_MONOTONIC: the clock every profiling time is on (GPU
/// timestamps are converted to it).
pub fn now_ns() -> u64 {
    u64::try_from(kmd_iface::drm_core::monotonic_now_ns()).unwrap_or(0)
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
        queue: Option<Arc<Handle<Queue>>>,
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

    pub fn set_seq(&self, seq: crate::failure::Seq) {
        let _ = self.seq.set(seq);
    }

    pub fn seq(&self) -> Option<crate::failure::Seq> {
        self.seq.get().copied()
    }

    /// Its status, as the application reads it: a failure read is a failure told
    /// ([`crate::failure`]).
    pub fn status_told(&self) -> cl_int {
        let s = self.status();
        if s < 0 {
            if let Some(q) = &self.queue {
                q.obj.told(self);
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

/// The events of a wait list, each valid and of `context`.
///
/// # Safety
/// `list` NULL or `n` valid handles.
pub unsafe fn wait_list(
    context: &Arc<Handle<Context>>,
    n: cl_uint,
    list: *const cl_event,
) -> Result<Vec<Arc<Handle<Event>>>, cl_int> {
    if (n == 0) != list.is_null() {
        return Err(CL_INVALID_EVENT_WAIT_LIST);
    }
    // SAFETY: the caller's array.
    let raw = unsafe { info::slice(list, n as usize) }.map_err(|_| CL_INVALID_EVENT_WAIT_LIST)?;
    let mut out = Vec::with_capacity(raw.len());
    for e in raw {
        let e = Handle::<Event>::get(*e).map_err(|_| CL_INVALID_EVENT_WAIT_LIST)?;
        if !Arc::ptr_eq(&e.obj.context, context) {
            return Err(CL_INVALID_CONTEXT);
        }
        out.push(e);
    }
    Ok(out)
}

entry! {
    fn clWaitForEvents(num_events: cl_uint, event_list: *const cl_event) -> cl_int {
        if num_events == 0 || event_list.is_null() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: the application's array.
        let raw = match unsafe { info::slice(event_list, num_events as usize) } {
            Ok(e) => e,
            Err(e) => return e,
        };
        let mut events = Vec::with_capacity(raw.len());
        for e in raw {
            match Handle::<Event>::get(*e) {
                Ok(e) => events.push(e),
                Err(err) => return err,
            }
        }
        if events
            .iter()
            .any(|e| !Arc::ptr_eq(&e.obj.context, &events[0].obj.context))
        {
            return CL_INVALID_CONTEXT;
        }
        // Every command is already with its queue's thread (an implicit flush).
        let mut failed = false;
        for e in &events {
            if e.obj.wait() < 0 {
                failed = true;
                e.obj.status_told();
            }
        }
        if failed {
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        } else {
            CL_SUCCESS
        }
    }
}

entry! {
    fn clRetainEvent(e: cl_event) -> cl_int {
        Handle::<Event>::retain(e)
    }
}

entry! {
    /// The command keeps its own reference: a released event of a pending command still
    /// completes and runs its callbacks.
    fn clReleaseEvent(e: cl_event) -> cl_int {
        Handle::<Event>::release(e)
    }
}

entry! {
    fn clGetEventInfo(
        event: cl_event,
        param_name: cl_event_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let r = Handle::<Event>::get(event).and_then(|e| {
            Ok(match param_name {
                CL_EVENT_COMMAND_QUEUE => Info::Ptr(
                    e.obj
                        .queue
                        .as_ref()
                        .map_or(std::ptr::null_mut(), |q| q.raw()),
                ),
                CL_EVENT_CONTEXT => Info::Ptr(e.obj.context.raw()),
                CL_EVENT_COMMAND_TYPE => Info::Uint(e.obj.command),
                CL_EVENT_COMMAND_EXECUTION_STATUS => Info::Int(e.obj.status_told()),
                CL_EVENT_REFERENCE_COUNT => Info::Uint(e.ref_count()),
                _ => return Err(CL_INVALID_VALUE),
            })
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    }
}

entry! {
    fn clGetEventProfilingInfo(
        event: cl_event,
        param_name: cl_profiling_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let r = Handle::<Event>::get(event).and_then(|e| {
            let profiled = e
                .obj
                .queue
                .as_ref()
                .is_some_and(|q| q.obj.properties & CL_QUEUE_PROFILING_ENABLE != 0);
            // User events and commands of queues without profiling have no times; the
            // others have them once complete.
            if !profiled || e.obj.status() != CL_COMPLETE {
                return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
            }
            let t = e.obj.times();
            Ok(Info::Ulong(match param_name {
                CL_PROFILING_COMMAND_QUEUED => t.queued,
                CL_PROFILING_COMMAND_SUBMIT => t.submit,
                CL_PROFILING_COMMAND_START => t.start,
                CL_PROFILING_COMMAND_END => t.end,
                CL_PROFILING_COMMAND_COMPLETE => t.complete,
                _ => return Err(CL_INVALID_VALUE),
            }))
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    }
}

entry! {
    /// Registers `pfn_notify` for a status. A status already reached runs it at once (on the
    /// callback thread) with that status, or with the event's error.
    fn clSetEventCallback(
        event: cl_event,
        command_exec_callback_type: cl_int,
        pfn_notify: Option<Callback>,
        user_data: *mut c_void,
    ) -> cl_int {
        let e = match Handle::<Event>::get(event) {
            Ok(e) => e,
            Err(err) => return err,
        };
        let Some(f) = pfn_notify else {
            return CL_INVALID_VALUE;
        };
        if ![CL_SUBMITTED, CL_RUNNING, CL_COMPLETE].contains(&command_exec_callback_type) {
            return CL_INVALID_VALUE;
        }
        let now = {
            let mut st = e.obj.lock();
            if st.status <= command_exec_callback_type {
                Some(st.status)
            } else {
                st.callbacks
                    .push((command_exec_callback_type, f, user_data as usize));
                None
            }
        };
        if let Some(status) = now {
            fire(
                &e,
                status,
                vec![(command_exec_callback_type, f, user_data as usize)],
            );
        }
        CL_SUCCESS
    }
}

entry! {
    fn clCreateUserEvent(context: cl_context) -> cl_event, errcode_ret {
        let c = Handle::<Context>::get(context)?;
        Ok(Handle::create(Event::new(c, None, CL_COMMAND_USER, CL_SUBMITTED)).0)
    }
}

entry! {
    /// Completes a user event (CL_COMPLETE) or fails it (a negative status), once.
    fn clSetUserEventStatus(event: cl_event, execution_status: cl_int) -> cl_int {
        let e = match Handle::<Event>::get(event) {
            Ok(e) => e,
            Err(err) => return err,
        };
        if e.obj.command != CL_COMMAND_USER || e.obj.queue.is_some() {
            return CL_INVALID_EVENT;
        }
        if execution_status > CL_COMPLETE {
            return CL_INVALID_VALUE;
        }
        if set_status(&e, execution_status) {
            CL_SUCCESS
        } else {
            // Its status was set already.
            CL_INVALID_OPERATION
        }
    }
}
