//! Command queues and their execution.
//!
//! Each queue has a runtime thread and a umd queue (its own kernel-driver context). An
//! enqueue checks its arguments, creates the command's event (CL_QUEUED) and hands the
//! command to the thread; it returns then, except for blocking reads, writes and maps,
//! which wait for their event as the specification says.
//!
//! The thread runs the queue's commands in order:
//! - a kernel whose wait list is complete, or holds kernels already submitted on the same
//!   device (any queue), is handed to umd when the thread takes it (CL_SUBMITTED) without
//!   waiting for the kernels before it: umd's queue keeps their order on the GPU and makes it
//!   wait for the other queues' kernels; a kernel is CL_RUNNING once everything before it in
//!   its queue has completed. With nothing left to take, the thread waits for its oldest
//!   kernel without a deadline (on the simulator it then runs that kernel itself), and takes
//!   what was enqueued meanwhile after it;
//! - anything else (buffer reads, writes, copies, fills, maps on the host; markers and
//!   barriers), and a kernel whose wait list is not complete, first waits for every earlier
//!   command of the queue and for its wait list;
//! - a host command or a marker enqueued while the queue has nothing unfinished, whose wait
//!   list is complete, runs on the application's thread before the enqueue returns (the
//!   queue's thread starts nothing meanwhile): in order all the same, without two thread
//!   wake-ups per command;
//! - a command whose wait list holds a failed event does not run: its event fails with
//!   CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
//! - a GPU fault or hang fails that kernel's event (CL_OUT_OF_RESOURCES) after the context's
//!   notify callback got umd's report (address, access, kernel, instruction offset); umd
//!   replaces a banned context, so other queues carry on, and this one once the application
//!   was told (the commands behind a failed one share its failure: [`crate::core::failure`]).
//!
//! Out-of-order queues (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) are accepted and run the same
//! way, in order, which honours every wait list and barrier. Profiling times are
//! CLOCK_MONOTONIC nanoseconds ([`crate::core::timer::now_ns`]). A kernel's START and END are the
//! GPU timestamps its batch writes around its walkers (PIPE_CONTROL "Write Timestamp"),
//! converted with the device's timestamp frequency and its GPU/host clock correlation
//! ([`crate::core::device::Device::clock`], shared with clGetDeviceAndHostTimer); other commands' are when the queue's thread ran them.

use std::collections::VecDeque;
use std::ffi::c_void;
use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use opencl_sys::*;

use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::event::{set_status, CommandQueue, Event};
use crate::core::failure::{Failures, Seq, Waits};
use crate::core::handle::{ClObject, Handle, Kind};
use crate::core::info::Info;
use crate::core::kernel::{ArgSnapshot, HeldMems, Kernel};

pub struct Queue {
    pub context: Arc<Handle<Context>>,
    pub device: Arc<Handle<Device>>,
    pub properties: cl_command_queue_properties,
    /// The property list given to clCreateCommandQueueWithProperties (CL_QUEUE_PROPERTIES_ARRAY).
    pub property_list: Vec<cl_queue_properties>,
    /// Its command-queue family and index in it (cl_intel_command_queue_families).
    pub family: (cl_uint, cl_uint),
    exec: Arc<Exec>,
}

impl Queue {
    /// The application was told that the command whose event is `e` failed (see
    /// [`crate::core::failure`]).
    pub fn told(&self, e: &Event) {
        if let Some(seq) = e.seq() {
            self.exec.told(seq);
        }
    }

    /// Waits until every command enqueued so far completed (or failed); false if one failed
    /// that the application was not told of (clFinish).
    pub fn finish(&self) -> bool {
        self.exec.finish()
    }

    /// Whether buffer copies and fills can go to the device's copy engine.
    pub fn has_blitter(&self) -> bool {
        self.exec.umd.has_blitter()
    }

    /// Whether fills with a pattern of `n` bytes go to the copy engine.
    pub fn blitter_fills(&self, n: usize) -> bool {
        self.exec.umd.blitter_fills(n)
    }

    /// Whether a rectangular copy between these sides goes to the copy engine.
    pub fn blitter_copies_rect(
        &self,
        src: &umd::queue::RectSide,
        dst: &umd::queue::RectSide,
        region: [u64; 3],
    ) -> bool {
        self.exec.umd.blitter_copies_rect(src, dst, region)
    }
}

impl CommandQueue for Handle<Queue> {
    fn handle(&self) -> *mut c_void {
        self as *const Handle<Queue> as *mut c_void
    }

    fn profiling(&self) -> bool {
        self.obj.properties & CL_QUEUE_PROFILING_ENABLE != 0
    }

    fn device(&self) -> &Arc<Handle<Device>> {
        &self.obj.device
    }

    fn told(&self, e: &Event) {
        self.obj.told(e);
    }
}

impl ClObject for Queue {
    const KIND: Kind = Kind::Queue;
    const INVALID: cl_int = CL_INVALID_COMMAND_QUEUE;
}

impl Drop for Queue {
    /// The thread finishes what was enqueued, then ends.
    fn drop(&mut self) {
        self.exec.lock().closing = true;
        self.exec.wake.notify_all();
    }
}

/// What a command does once its turn came.
pub enum Work {
    /// Runs on the queue's thread (or the application's, when the queue has nothing else to
    /// do); an error becomes the event's (negative) status.
    Host(HostWork),
    Kernel(KernelRun),
    /// A buffer copy or fill on the device's copy engine, submitted like a kernel.
    Blit(BlitRun),
    /// Markers, barriers, migrations: only their place in the order.
    Nothing,
}

/// A command done on the host: a buffer read, write, copy or fill, a map.
pub type HostWork = Box<dyn FnOnce() -> Result<(), cl_int> + Send>;

/// Submits a blit on the queue's umd queue after the given events.
pub type BlitSubmit = Box<
    dyn FnOnce(
            &umd::queue::Queue,
            &[umd::queue::Event],
        ) -> Result<Option<umd::queue::Event>, umd::Error>
        + Send,
>;

/// A buffer command for the copy engine, made only when [`Queue::has_blitter`] says it runs
/// there (umd answers `None` otherwise, which the queue reports as a failure).
pub struct BlitRun {
    /// The command's name in error reports.
    pub what: &'static str,
    pub submit: BlitSubmit,
    /// Its buffers, held until it completes.
    pub mems: Vec<Arc<Handle<crate::core::memory::Mem>>>,
}

/// What a command umd runs holds until it completes (only kept, never read).
enum Held {
    /// Its mirrored CL_MEM_USE_HOST_PTR images are written back when it completes.
    Kernel { run: KernelRun },
    Mems {
        _mems: Vec<Arc<Handle<crate::core::memory::Mem>>>,
    },
}

/// A kernel with its arguments as they were when it was enqueued.
pub struct KernelRun {
    pub kernel: Arc<Handle<Kernel>>,
    pub range: umd::ndrange::NdRange,
    pub args: Arc<ArgSnapshot>,
    /// The snapshot's buffers, held until the command completes.
    pub mems: HeldMems,
    /// Unified shared memory the kernel reaches besides its arguments (clSetKernelExecInfo).
    pub resident: Vec<umd::memory::Buffer>,
}

/// A command for a queue, as the object rules made it; the C ABI hands it over with the
/// application's wait list and event ([`enqueue`]).
pub struct Command {
    pub queue: Arc<Handle<Queue>>,
    pub kind: cl_command_type,
    /// Whether the enqueue returns only once the command completed.
    pub blocking: bool,
    pub work: Work,
}

impl Command {
    pub fn new(
        queue: &Arc<Handle<Queue>>,
        kind: cl_command_type,
        blocking: bool,
        work: Work,
    ) -> Self {
        Command {
            queue: queue.clone(),
            kind,
            blocking,
            work,
        }
    }
}

/// A command in the queue, waiting for its turn.
struct Queued {
    seq: Seq,
    /// Which earlier commands it waits for besides its wait list.
    waits: Waits,
    /// None when nobody can ask about it: the application asked for no event and does not
    /// wait for it (it completes like any other command; clFinish counts it).
    event: Option<Arc<Handle<Event>>>,
    deps: Vec<Arc<Handle<Event>>>,
    work: Work,
}

/// A kernel umd has, until its event completes.
struct Flight {
    seq: Seq,
    event: Option<Arc<Handle<Event>>>,
    done: umd::queue::Event,
    /// The kernel's or command's name in error reports.
    what: String,
    /// The kernel's printf buffer: its text goes to stdout when the kernel completes.
    printf: Option<umd::printf::PrintfOutput>,
    _held: Held,
    /// Its wait list, kept alive while the GPU waits on their umd events.
    _deps: Vec<Arc<Handle<Event>>>,
}

struct ExecState {
    pending: VecDeque<Queued>,
    /// Commands enqueued and not yet complete (or failed).
    unfinished: usize,
    /// An application thread is running a host command of this queue itself ([`enqueue`]):
    /// the queue's thread starts nothing meanwhile.
    inline: bool,
    closing: bool,
    failures: Failures,
    /// What the last command that failed on its own said, for clFinish's report.
    last_failure: Option<String>,
}

/// The part of a queue its thread shares.
struct Exec {
    umd: umd::queue::Queue,
    device: Arc<Handle<Device>>,
    context: Arc<Handle<Context>>,
    state: Mutex<ExecState>,
    /// The thread waits here for commands.
    wake: Condvar,
    /// clFinish waits here for `unfinished` to reach 0.
    idle: Condvar,
}

impl Exec {
    fn lock(&self) -> MutexGuard<'_, ExecState> {
        // Every update is a single field change: a panic cannot tear the state.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn done(&self) {
        let mut st = self.lock();
        st.unfinished -= 1;
        if st.unfinished == 0 {
            self.idle.notify_all();
        }
    }

    /// Waits for every command; false if one failed that the application was not told of.
    fn finish(&self) -> bool {
        crate::core::spin::spin_for(&self.state, |st| st.unfinished == 0);
        let mut st = self.lock();
        while st.unfinished > 0 {
            st = self.idle.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        let failed = st.failures.finish();
        if failed {
            if let Some(text) = &st.last_failure {
                crate::core::reason::why(CL_OUT_OF_RESOURCES, || text.clone());
            }
        }
        !failed
    }

    /// A command failed on its own: the context's callback hears why (before its event fails,
    /// so whoever waits for the event sees the report too), and so does the call trace.
    fn report_failure(&self, text: String) {
        tracing::warn!("{text}");
        crate::core::context::report(&self.context.obj, &text);
        self.lock().last_failure = Some(text);
    }

    /// Command `seq` failed on its own: ends it with `status` (negative); the commands behind
    /// it share the failure until the application is told.
    fn fail(&self, seq: Seq, e: &Option<Arc<Handle<Event>>>, status: cl_int) {
        self.lock().failures.failed(seq);
        self.end(e, status);
    }

    /// Whether command `seq` fails because a command before it did.
    fn shares_failure(&self, seq: Seq, waits: Waits) -> bool {
        self.lock().failures.shares(seq, waits)
    }

    /// The application was told that command `seq` failed.
    fn told(&self, seq: Seq) {
        self.lock().failures.told(seq);
    }

    /// Ends `e` with `status` and counts it done.
    fn end(&self, e: &Option<Arc<Handle<Event>>>, status: cl_int) {
        if let Some(e) = e {
            if status == CL_COMPLETE {
                set_status(e, CL_SUBMITTED);
                set_status(e, CL_RUNNING);
            }
            set_status(e, status);
        }
        self.done();
    }

    /// Waits until the oldest kernel in flight is done and settles its event; the next one is
    /// then running. The wait has no deadline: on the simulator this thread then runs the
    /// kernel itself when its turn has come, rather than sleeping while the simulator's
    /// thread for the queue wakes to run it and wakes this one after. (Commands enqueued
    /// meanwhile are handed to umd once it is done: they would run after it all the same.)
    fn retire(&self, flight: &mut VecDeque<Flight>) {
        let Some(f) = flight.front() else { return };
        // The status, and whether the failure (if any) is the command's own.
        let (status, own) = match f.done.wait(None) {
            Ok(false) => return,
            // Submitted before an earlier command's failure was known: cancelled with it, or
            // (a replaced context) run, but it shares the failure either way.
            Ok(true) | Err(_) if self.shares_failure(f.seq, Waits::Own) => {
                (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, false)
            }
            Ok(true) => {
                let gpu = |t| self.device.obj.clock().and_then(|c| c.host_ns_of(t));
                if let (Some(ev), Some((s, e))) = (&f.event, f.done.gpu_ticks()) {
                    if let (Some(s), Some(e)) = (gpu(s), gpu(e)) {
                        ev.obj.set_gpu_times(s.max(0) as u64, e.max(0) as u64);
                    }
                }
                if let Some(p) = &f.printf {
                    self.print(&f.what, p);
                }
                // The images kept as device copies back into the application's memory.
                let status = match &f._held {
                    Held::Kernel { run } => crate::core::image::host::after_kernel(run.mems.iter())
                        .map_or_else(|e| e, |_| CL_COMPLETE),
                    Held::Mems { .. } => CL_COMPLETE,
                };
                (status, true)
            }
            // A dependency of another queue failed on the GPU: this kernel did not run.
            Err(umd::Error::DependencyFailed(_)) => {
                (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, true)
            }
            Err(e) => {
                // Before the event fails, so whoever waits for it sees the report too.
                self.report_failure(format!("{}: {e}", f.what));
                (CL_OUT_OF_RESOURCES, true)
            }
        };
        if let Some(f) = flight.pop_front() {
            if own && status < 0 {
                self.fail(f.seq, &f.event, status);
            } else {
                self.end(&f.event, status);
            }
        }
        if let Some(next) = flight.front().and_then(|f| f.event.as_ref()) {
            set_status(next, CL_RUNNING);
        }
    }

    /// Writes a completed kernel's printf output to stdout, as NEO does; a malformed record
    /// ends it and is reported to the context.
    fn print(&self, what: &str, p: &umd::printf::PrintfOutput) {
        let why = match p.decode() {
            Ok(d) => {
                let mut out = std::io::stdout().lock();
                // stdout closed or full: printf output is lost, nothing else is.
                let _ = out.write_all(&d.text).and_then(|_| out.flush());
                d.error.map(|e| e.to_string())
            }
            Err(e) => Some(e.to_string()),
        };
        if let Some(why) = why {
            crate::core::context::report(&self.context.obj, &format!("{what}: printf: {why}"));
        }
    }

    fn drain(&self, flight: &mut VecDeque<Flight>) {
        while !flight.is_empty() {
            self.retire(flight);
        }
    }

    /// Ends `c` without running it when a command before it or its wait list failed; true
    /// then.
    fn refused(&self, c: &Queued) -> bool {
        if self.shares_failure(c.seq, c.waits) {
            self.end(&c.event, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
            return true;
        }
        if c.deps.iter().any(|d| d.obj.status() < 0) {
            self.fail(
                c.seq,
                &c.event,
                CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            );
            return true;
        }
        false
    }

    /// Runs host command `seq` and ends it with what it returned.
    fn host(&self, seq: Seq, event: &Option<Arc<Handle<Event>>>, f: HostWork) {
        if let Some(e) = event {
            set_status(e, CL_SUBMITTED);
            set_status(e, CL_RUNNING);
        }
        match f() {
            Ok(()) => self.end(event, CL_COMPLETE),
            Err(e) => self.fail(seq, event, e),
        }
    }

    /// Runs `c`, a host command or a marker the application's thread took while the queue had
    /// nothing else ([`enqueue`]), then lets the queue's thread go on.
    fn run_inline(&self, c: Queued) {
        if !self.refused(&c) {
            match c.work {
                Work::Host(f) => self.host(c.seq, &c.event, f),
                _ => self.end(&c.event, CL_COMPLETE),
            }
        }
        let mut st = self.lock();
        st.inline = false;
        if !st.pending.is_empty() {
            self.wake.notify_one();
        }
    }

    fn run(&self, flight: &mut VecDeque<Flight>, c: Queued) {
        // A kernel goes to the GPU at once when each event it waits for is complete or is a
        // kernel of this device (any queue): the GPU waits for those itself, once they are
        // submitted.
        let mut gpu_deps = Vec::new();
        // A kernel with a device-copy image waits on the host for everything before it: its
        // copy is filled from the host memory, which must be final by then.
        let mut ready = match &c.work {
            Work::Kernel(k) => !crate::core::image::host::any_mirrored(k.mems.iter()),
            Work::Blit(_) => true,
            _ => false,
        };
        for d in &c.deps {
            if !ready {
                break;
            }
            let gpu_command = matches!(
                d.obj.command,
                CL_COMMAND_NDRANGE_KERNEL | CL_COMMAND_COPY_BUFFER | CL_COMMAND_FILL_BUFFER
            );
            let kernel_here = gpu_command
                && d.obj
                    .queue
                    .as_ref()
                    .is_some_and(|q| Arc::ptr_eq(q.device(), &self.device));
            if !kernel_here {
                ready = d.obj.status() == CL_COMPLETE;
                continue;
            }
            if d.obj.status() > CL_SUBMITTED {
                // Settle this queue's kernels first: whoever waits for them must not wait
                // for another queue too.
                self.drain(flight);
                d.obj.wait_for(CL_SUBMITTED);
            }
            match (d.obj.gpu(), d.obj.status()) {
                (_, CL_COMPLETE) => {}
                (Some(g), s) if s > CL_COMPLETE => gpu_deps.push(g.clone()),
                // Failed: refused below.
                _ => ready = false,
            }
        }
        if !ready {
            gpu_deps.clear();
            // Everything before it, then its wait list.
            self.drain(flight);
            for d in &c.deps {
                d.obj.wait();
            }
        }
        if self.refused(&c) {
            return;
        }
        // What umd was handed (or why not), under the command's name for error reports.
        let (what, submitted) = match c.work {
            Work::Nothing => return self.end(&c.event, CL_COMPLETE),
            Work::Host(f) => return self.host(c.seq, &c.event, f),
            Work::Kernel(k) => {
                if let Err(e) = crate::core::image::host::before_kernel(k.mems.iter()) {
                    self.drain(flight);
                    self.fail(c.seq, &c.event, e);
                    return;
                }
                let what = format!("kernel {}", k.kernel.obj.name);
                let submitted = k
                    .kernel
                    .obj
                    .on(&self.device)
                    .map_err(|e| format!("not built for the device ({e})"))
                    .and_then(|uk| {
                        self.umd
                            .dispatch_resident(uk, &k.range, &k.args.values, &k.resident, &gpu_deps)
                            .map_err(|e| e.to_string())
                    });
                (
                    what,
                    submitted.map(|(done, printf)| (done, printf, Held::Kernel { run: k })),
                )
            }
            Work::Blit(b) => {
                let submitted = match (b.submit)(&self.umd, &gpu_deps) {
                    Ok(Some(done)) => Ok((done, None, Held::Mems { _mems: b.mems })),
                    Ok(None) => Err("the device's copy engine did not take it".to_string()),
                    Err(e) => Err(e.to_string()),
                };
                (b.what.to_string(), submitted)
            }
        };
        match submitted {
            Ok((done, printf, held)) => {
                if let Some(e) = &c.event {
                    e.obj.set_gpu(done.clone());
                    set_status(e, CL_SUBMITTED);
                    if flight.is_empty() {
                        set_status(e, CL_RUNNING);
                    }
                }
                flight.push_back(Flight {
                    seq: c.seq,
                    event: c.event,
                    done,
                    what,
                    printf,
                    _held: held,
                    _deps: c.deps,
                });
            }
            Err(why) => {
                self.report_failure(format!("{what}: {why}"));
                // After the commands before it, which may fail first.
                self.drain(flight);
                self.fail(c.seq, &c.event, CL_OUT_OF_RESOURCES);
            }
        }
    }
}

/// The queue's thread: takes commands in order; between them, settles finished kernels.
fn worker(x: Arc<Exec>) {
    let mut flight: VecDeque<Flight> = VecDeque::new();
    loop {
        let next = {
            let mut st = x.lock();
            // Something to do: a command whose turn came, or closing.
            let due = |st: &ExecState| (!st.inline && !st.pending.is_empty()) || st.closing;
            loop {
                if !st.inline {
                    if let Some(c) = st.pending.pop_front() {
                        break Some(c);
                    }
                }
                if !flight.is_empty() {
                    break None;
                }
                if st.closing && !st.inline {
                    return;
                }
                drop(st);
                crate::core::spin::spin_for(&x.state, due);
                st = x.lock();
                if !due(&st) {
                    st = x.wake.wait(st).unwrap_or_else(|e| e.into_inner());
                }
            }
        };
        match next {
            Some(c) => x.run(&mut flight, c),
            None => x.retire(&mut flight),
        }
    }
}

/// Enqueues `command` on its queue after the events `deps`; gives out its event (the
/// application's reference) when `want_event`; a blocking command returns once it completed
/// (its error if it failed).
pub fn enqueue(
    command: Command,
    deps: Vec<Arc<Handle<Event>>>,
    want_event: bool,
) -> Result<Option<cl_event>, cl_int> {
    let Command {
        queue,
        kind: command,
        blocking,
        work,
    } = command;
    let queue = &queue;
    if blocking && deps.iter().any(|d| d.obj.status() < 0) {
        return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    // An event only where someone can see it: the application's, or a blocking call's.
    let ev = (blocking || want_event).then(|| {
        Handle::create(Event::new(
            queue.obj.context.clone(),
            Some(queue.clone() as Arc<dyn CommandQueue>),
            command,
            CL_QUEUED,
        ))
    });
    let waits = match command {
        CL_COMMAND_BARRIER if deps.is_empty() => Waits::Barrier,
        CL_COMMAND_MARKER if deps.is_empty() => Waits::Marker,
        _ => Waits::Own,
    };
    // A host command or a marker with nothing before it to wait for runs here, on the
    // application's thread: handing it to the queue's thread and its end back cost two
    // thread wake-ups, more than a small copy (CLBlast's tests enqueue a few hundred bytes and
    // finish, thousands of times).
    let may_inline = matches!(work, Work::Host(_) | Work::Nothing)
        && deps.iter().all(|d| d.obj.status() == CL_COMPLETE);
    let x = &queue.obj.exec;
    let (seq, inline) = {
        let mut st = x.lock();
        let seq = st.failures.enqueue();
        if let Some((_, e)) = &ev {
            e.obj.set_seq(seq);
        }
        let c = Queued {
            seq,
            waits,
            event: ev.as_ref().map(|(_, e)| e.clone()),
            deps,
            work,
        };
        st.unfinished += 1;
        if may_inline && st.unfinished == 1 && !st.inline {
            st.inline = true;
            (seq, Some(c))
        } else {
            st.pending.push_back(c);
            (seq, None)
        }
    };
    match inline {
        Some(c) => x.run_inline(c),
        None => x.wake.notify_one(),
    }
    let Some((raw, ev)) = ev else {
        return Ok(None);
    };
    let status = if blocking { ev.obj.wait() } else { CL_SUCCESS };
    if status < 0 {
        x.told(seq);
    }
    if !want_event || status < 0 {
        // The command keeps its own reference.
        Handle::<Event>::release(raw);
    }
    if status < 0 {
        Err(status)
    } else {
        Ok(want_event.then_some(raw))
    }
}

fn queue_props(device: &Device, props: cl_command_queue_properties) -> Result<(), cl_int> {
    let known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
        | CL_QUEUE_PROFILING_ENABLE
        | CL_QUEUE_ON_DEVICE
        | CL_QUEUE_ON_DEVICE_DEFAULT;
    if props & !known != 0 {
        return Err(CL_INVALID_VALUE);
    }
    let supported = match device.info(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) {
        Ok(Info::Ulong(s)) => s,
        _ => 0,
    };
    if props & !supported != 0 {
        // On-device queues are not supported.
        return Err(CL_INVALID_QUEUE_PROPERTIES);
    }
    Ok(())
}

pub fn create_queue(
    context: cl_context,
    device: cl_device_id,
    props: cl_command_queue_properties,
    property_list: Vec<cl_queue_properties>,
    priority: umd::device::QueuePriority,
    (family, index): (Option<u64>, Option<u64>),
) -> Result<cl_command_queue, cl_int> {
    let c = Handle::<Context>::get(context)?;
    let d = Handle::<Device>::get(device)?;
    if !c.obj.has(&d) {
        return Err(CL_INVALID_DEVICE);
    }
    queue_props(&d.obj, props)?;
    let family = crate::core::queue_family::place(&d.obj, family, index)?;
    let umd = d
        .obj
        .umd
        .create_queue_with_priority(priority)
        .map_err(|_| CL_OUT_OF_RESOURCES)?;
    let exec = Arc::new(Exec {
        umd,
        device: d.clone(),
        context: c.clone(),
        state: Mutex::new(ExecState {
            pending: VecDeque::new(),
            unfinished: 0,
            inline: false,
            closing: false,
            failures: Failures::new(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE == 0),
            last_failure: None,
        }),
        wake: Condvar::new(),
        idle: Condvar::new(),
    });
    let thread_exec = exec.clone();
    std::thread::Builder::new()
        .name("cl-queue".into())
        .spawn(move || worker(thread_exec))
        .map_err(|_| CL_OUT_OF_RESOURCES)?;
    Ok(Handle::create(Queue {
        context: c,
        device: d,
        properties: props,
        property_list,
        family,
        exec,
    })
    .0)
}
