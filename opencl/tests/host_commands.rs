//! Host commands (buffer reads, writes, markers) on an in-order queue keep the queue's order
//! whichever thread runs them: behind a pending command they wait (OpenCL 3.0 section 5.11,
//! in-order execution), and a command enqueued from another thread while one runs on the
//! application's thread starts only after it. On an idle queue they may complete before the
//! enqueue returns (the ICD runs them there), which CL_COMPLETE and ordered profiling times show.

use crate::in_process;
use in_process::context;

use std::ffi::c_void;
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use intel_gpu_opencl::api::{event, memory, queue};
use intel_gpu_opencl::core::handle::Handle;
use intel_gpu_opencl::core::queue::{enqueue, Command, Queue, Work};
use opencl_sys::*;

fn event_status(e: cl_event) -> cl_int {
    let mut s: cl_int = 0;
    // SAFETY: `s` has room for the status.
    let r = unsafe {
        event::clGetEventInfo(
            e,
            CL_EVENT_COMMAND_EXECUTION_STATUS,
            size_of::<cl_int>(),
            (&mut s as *mut cl_int).cast(),
            null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    s
}

fn profile(e: cl_event, what: cl_profiling_info) -> u64 {
    let mut t = 0u64;
    // SAFETY: `t` has room for the time.
    let r = unsafe {
        event::clGetEventProfilingInfo(e, what, 8, (&mut t as *mut u64).cast(), null_mut())
    };
    assert_eq!(r, CL_SUCCESS);
    t
}

/// An in-order queue with profiling on `dev`.
fn profiling_queue(ctx: cl_context, dev: cl_device_id) -> cl_command_queue {
    let props = [
        CL_QUEUE_PROPERTIES as cl_queue_properties,
        CL_QUEUE_PROFILING_ENABLE,
        0,
    ];
    let mut err = 0;
    // SAFETY: a zero-terminated property list.
    let q =
        unsafe { queue::clCreateCommandQueueWithProperties(ctx, dev, props.as_ptr(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    q
}

fn buffer(ctx: cl_context, bytes: usize) -> cl_mem {
    let mut err = 0;
    // SAFETY: no host pointer.
    let m = unsafe { memory::clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, null_mut(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    m
}

/// Writes `src` into `m` without blocking; returns the command's event.
fn write(q: cl_command_queue, m: cl_mem, src: &[u32], wait: &[cl_event]) -> cl_event {
    let mut e = null_mut();
    // SAFETY: `src` outlives the command (every caller finishes the queue before dropping it).
    let r = unsafe {
        memory::clEnqueueWriteBuffer(
            q,
            m,
            CL_FALSE,
            0,
            size_of_val(src),
            src.as_ptr().cast(),
            wait.len() as cl_uint,
            if wait.is_empty() {
                null()
            } else {
                wait.as_ptr()
            },
            &mut e,
        )
    };
    assert_eq!(r, CL_SUCCESS);
    e
}

fn read(q: cl_command_queue, m: cl_mem, n: usize) -> Vec<u32> {
    let mut out = vec![0u32; n];
    // SAFETY: a blocking read into `out`, which has room for `n` values.
    let r = unsafe {
        memory::clEnqueueReadBuffer(
            q,
            m,
            CL_TRUE,
            0,
            n * 4,
            out.as_mut_ptr().cast::<c_void>(),
            0,
            null(),
            null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    out
}

fn finish(q: cl_command_queue) {
    // SAFETY: a valid queue.
    assert_eq!(unsafe { queue::clFinish(q) }, CL_SUCCESS);
}

#[test]
fn a_write_on_an_idle_queue_completes_with_ordered_times() {
    let (dev, ctx) = context();
    let q = profiling_queue(ctx, dev);
    let m = buffer(ctx, 1024);
    let data: Vec<u32> = (0..256).collect();
    let e = write(q, m, &data, &[]);
    assert_eq!(event_status(e), CL_COMPLETE);
    let times = [
        CL_PROFILING_COMMAND_QUEUED,
        CL_PROFILING_COMMAND_SUBMIT,
        CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END,
        CL_PROFILING_COMMAND_COMPLETE,
    ]
    .map(|p| profile(e, p));
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    assert_eq!(read(q, m, 256), data);
    // SAFETY: handles this test made.
    unsafe {
        event::clReleaseEvent(e);
        memory::clReleaseMemObject(m);
        queue::clReleaseCommandQueue(q);
    }
}

#[test]
fn a_write_behind_a_pending_marker_waits_for_it() {
    let (dev, ctx) = context();
    let q = profiling_queue(ctx, dev);
    let m = buffer(ctx, 64);
    let first = [1u32; 16];
    let second = [2u32; 16];
    finish(q);
    let e0 = write(q, m, &first, &[]);
    let mut err = 0;
    // SAFETY: a valid context.
    let gate = unsafe { event::clCreateUserEvent(ctx, &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let mut marker = null_mut();
    // SAFETY: a wait list of one event.
    let r = unsafe { queue::clEnqueueMarkerWithWaitList(q, 1, &gate, &mut marker) };
    assert_eq!(r, CL_SUCCESS);
    // In order: behind the marker, whatever its own (empty) wait list.
    let e1 = write(q, m, &second, &[]);
    assert_eq!(event_status(e0), CL_COMPLETE);
    assert!(
        event_status(marker) > CL_COMPLETE,
        "the marker waits for its gate"
    );
    assert!(
        event_status(e1) > CL_COMPLETE,
        "the write waits behind the marker"
    );
    // SAFETY: a user event of this context.
    assert_eq!(
        unsafe { event::clSetUserEventStatus(gate, CL_COMPLETE) },
        CL_SUCCESS
    );
    finish(q);
    assert_eq!(event_status(e1), CL_COMPLETE);
    assert!(profile(e1, CL_PROFILING_COMMAND_START) >= profile(marker, CL_PROFILING_COMMAND_END));
    assert_eq!(read(q, m, 16), second);
    // SAFETY: handles this test made.
    unsafe {
        for e in [e0, e1, marker, gate] {
            event::clReleaseEvent(e);
        }
        memory::clReleaseMemObject(m);
        queue::clReleaseCommandQueue(q);
    }
}

/// Enqueues `work` on `queue` as a non-blocking write without an event.
fn enqueue_host(queue: &Arc<Handle<Queue>>, work: Work) {
    enqueue(
        Command::new(queue, CL_COMMAND_WRITE_BUFFER, false, work),
        vec![],
        false,
    )
    .expect("enqueued");
}

/// A host command running on one application thread holds back a command another thread
/// enqueued behind it. The first command waits (at most a second) for the second to start:
/// run in order, it never does; a runtime that started it beside the first is caught.
#[test]
fn a_command_from_another_thread_starts_after_the_running_one() {
    let (dev, ctx) = context();
    let q = profiling_queue(ctx, dev);
    let queue = Handle::<Queue>::get(q.cast()).expect("the queue's handle");
    let first_done = Arc::new(AtomicBool::new(false));
    let (started_tx, started_rx) = mpsc::channel();
    let (second_tx, second_rx) = mpsc::channel::<()>();

    let first = {
        let (queue, first_done) = (queue.clone(), first_done.clone());
        std::thread::spawn(move || {
            let work = Work::Host(Box::new(move || {
                started_tx.send(()).expect("the test waits");
                // Returns early only if the second command started: the failure looked for.
                let _ = second_rx.recv_timeout(Duration::from_secs(1));
                first_done.store(true, Ordering::SeqCst);
                Ok(())
            }));
            enqueue_host(&queue, work);
        })
    };
    started_rx.recv().expect("the first command started");
    let saw_first_done = Arc::new(AtomicBool::new(false));
    let work = {
        let (first_done, saw) = (first_done.clone(), saw_first_done.clone());
        Work::Host(Box::new(move || {
            saw.store(first_done.load(Ordering::SeqCst), Ordering::SeqCst);
            // Wakes the first command if it is (wrongly) still running.
            let _ = second_tx.send(());
            Ok(())
        }))
    };
    enqueue_host(&queue, work);
    first.join().expect("the first thread");
    finish(q);
    assert!(
        saw_first_done.load(Ordering::SeqCst),
        "the second command started before the first ended"
    );
    drop(queue);
    // SAFETY: the queue this test made.
    unsafe { queue::clReleaseCommandQueue(q) };
}
