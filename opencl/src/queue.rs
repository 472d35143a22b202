//! Command queues and events.
//!
//! Commands run when they are enqueued, through umd's synchronous dispatch, so a queue is
//! in order by construction and every event is complete (or failed) when its enqueue call
//! returns. Profiling timestamps are host nanoseconds around the command.

use std::ffi::c_void;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use opencl_sys::*;

use crate::context::{finish, Context};
use crate::device::Device;
use crate::handle::{ClObject, Handle, Kind};
use crate::info::{self, Info};

pub struct Queue {
    pub context: Arc<Handle<Context>>,
    pub device: Arc<Handle<Device>>,
    pub properties: cl_command_queue_properties,
    /// The property list given to clCreateCommandQueueWithProperties (CL_QUEUE_PROPERTIES_ARRAY).
    pub property_list: Vec<cl_queue_properties>,
}

impl ClObject for Queue {
    const KIND: Kind = Kind::Queue;
    const INVALID: cl_int = CL_INVALID_COMMAND_QUEUE;
}

#[derive(Default, Clone, Copy)]
pub struct Times {
    pub queued: u64,
    pub submit: u64,
    pub start: u64,
    pub end: u64,
}

pub struct Event {
    pub context: Arc<Handle<Context>>,
    pub queue: Option<Arc<Handle<Queue>>>,
    pub command: cl_command_type,
    pub status: AtomicI32,
    pub times: Mutex<Times>,
}

impl ClObject for Event {
    const KIND: Kind = Kind::Event;
    const INVALID: cl_int = CL_INVALID_EVENT;
}

/// Nanoseconds on the host's monotonic clock since the driver was loaded.
pub fn now_ns() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// Checks an event wait list: every event valid and of the queue's context; one that failed
/// fails the command.
///
/// # Safety
/// `list` NULL or `n` valid handles.
pub unsafe fn check_wait_list(
    context: &Arc<Handle<Context>>,
    n: cl_uint,
    list: *const cl_event,
) -> Result<(), cl_int> {
    if (n == 0) != list.is_null() {
        return Err(CL_INVALID_EVENT_WAIT_LIST);
    }
    // SAFETY: the caller's array.
    let events =
        unsafe { info::slice(list, n as usize) }.map_err(|_| CL_INVALID_EVENT_WAIT_LIST)?;
    let mut failed = false;
    for e in events {
        let e = Handle::<Event>::get(*e).map_err(|_| CL_INVALID_EVENT_WAIT_LIST)?;
        if !Arc::ptr_eq(&e.obj.context, context) {
            return Err(CL_INVALID_CONTEXT);
        }
        failed |= e.obj.status.load(Ordering::SeqCst) < 0;
    }
    if failed {
        return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    Ok(())
}

/// Runs one command on `queue`: checks the wait list, runs `body`, and hands out an event
/// when asked for one (failed with the command's error status if `body` failed at run time).
///
/// # Safety
/// `wait`/`n_wait` and `event` as the enqueue entry points define them.
pub unsafe fn run<T>(
    queue: &Arc<Handle<Queue>>,
    command: cl_command_type,
    n_wait: cl_uint,
    wait: *const cl_event,
    event: *mut cl_event,
    body: impl FnOnce() -> Result<T, cl_int>,
) -> Result<T, cl_int> {
    // SAFETY: forwarded.
    unsafe { check_wait_list(&queue.obj.context, n_wait, wait) }?;
    let queued = now_ns();
    let r = body();
    let end = now_ns();
    if !event.is_null() {
        let status = match &r {
            Ok(_) => CL_COMPLETE,
            Err(e) => *e,
        };
        let (raw, _) = Handle::create(Event {
            context: queue.obj.context.clone(),
            queue: Some(queue.clone()),
            command,
            status: AtomicI32::new(status),
            times: Mutex::new(Times {
                queued,
                submit: queued,
                start: queued,
                end,
            }),
        });
        // SAFETY: the application's event pointer.
        unsafe { *event = raw };
    }
    r
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
        // Out-of-order and on-device queues are not supported.
        return Err(CL_INVALID_QUEUE_PROPERTIES);
    }
    Ok(())
}

fn create_queue(
    context: cl_context,
    device: cl_device_id,
    props: cl_command_queue_properties,
    property_list: Vec<cl_queue_properties>,
) -> Result<cl_command_queue, cl_int> {
    let c = Handle::<Context>::get(context)?;
    let d = Handle::<Device>::get(device)?;
    if !c.obj.has(&d) {
        return Err(CL_INVALID_DEVICE);
    }
    queue_props(&d.obj, props)?;
    Ok(Handle::create(Queue {
        context: c,
        device: d,
        properties: props,
        property_list,
    })
    .0)
}

#[no_mangle]
pub unsafe extern "C" fn clCreateCommandQueue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    let r = info::guard(Err(CL_OUT_OF_HOST_MEMORY), || {
        create_queue(context, device, properties, Vec::new())
    });
    // SAFETY: the application\'s errcode pointer.
    unsafe { finish(r, errcode_ret) }
}

#[no_mangle]
pub unsafe extern "C" fn clCreateCommandQueueWithProperties(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    let r = info::guard(Err(CL_OUT_OF_HOST_MEMORY), || {
        let mut props = 0;
        let mut list = Vec::new();
        if !properties.is_null() {
            let mut k = 0;
            loop {
                // SAFETY: the zero-terminated property list.
                let key = unsafe { *properties.add(k) };
                if key == 0 {
                    list.push(0);
                    break;
                }
                // SAFETY: a key is followed by its value.
                let value = unsafe { *properties.add(k + 1) };
                match key as cl_uint {
                    CL_QUEUE_PROPERTIES => props = value,
                    // On-device queues (the only users of a size) are not supported.
                    CL_QUEUE_SIZE => return Err(CL_INVALID_QUEUE_PROPERTIES),
                    _ => return Err(CL_INVALID_VALUE),
                }
                list.extend([key, value]);
                k += 2;
            }
        }
        create_queue(context, device, props, list)
    });
    // SAFETY: the application\'s errcode pointer.
    unsafe { finish(r, errcode_ret) }
}

#[no_mangle]
pub unsafe extern "C" fn clRetainCommandQueue(q: cl_command_queue) -> cl_int {
    Handle::<Queue>::retain(q)
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseCommandQueue(q: cl_command_queue) -> cl_int {
    Handle::<Queue>::release(q)
}

#[no_mangle]
pub unsafe extern "C" fn clGetCommandQueueInfo(
    queue: cl_command_queue,
    param_name: cl_command_queue_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::guard(CL_OUT_OF_HOST_MEMORY, || {
        let r = Handle::<Queue>::get(queue).and_then(|q| {
            Ok(match param_name {
                CL_QUEUE_CONTEXT => Info::Ptr(q.obj.context.raw()),
                CL_QUEUE_DEVICE => Info::Ptr(q.obj.device.raw()),
                CL_QUEUE_REFERENCE_COUNT => Info::Uint(q.ref_count()),
                CL_QUEUE_PROPERTIES => Info::Ulong(q.obj.properties),
                CL_QUEUE_PROPERTIES_ARRAY => Info::Ulongs(q.obj.property_list.clone()),
                CL_QUEUE_SIZE => return Err(CL_INVALID_COMMAND_QUEUE),
                CL_QUEUE_DEVICE_DEFAULT => Info::Ptr(std::ptr::null_mut()),
                _ => return Err(CL_INVALID_VALUE),
            })
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    })
}

/// Every command has run when it was enqueued: flush and finish only check the queue.
#[no_mangle]
pub unsafe extern "C" fn clFlush(q: cl_command_queue) -> cl_int {
    Handle::<Queue>::get(q).map_or_else(|e| e, |_| CL_SUCCESS)
}

#[no_mangle]
pub unsafe extern "C" fn clFinish(q: cl_command_queue) -> cl_int {
    Handle::<Queue>::get(q).map_or_else(|e| e, |_| CL_SUCCESS)
}

#[no_mangle]
pub unsafe extern "C" fn clWaitForEvents(
    num_events: cl_uint,
    event_list: *const cl_event,
) -> cl_int {
    info::guard(CL_OUT_OF_HOST_MEMORY, || {
        if num_events == 0 || event_list.is_null() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: the application's array.
        let events = match unsafe { info::slice(event_list, num_events as usize) } {
            Ok(e) => e,
            Err(e) => return e,
        };
        let mut context = None;
        let mut failed = false;
        for e in events {
            let e = match Handle::<Event>::get(*e) {
                Ok(e) => e,
                Err(err) => return err,
            };
            let c = context.get_or_insert_with(|| e.obj.context.clone());
            if !Arc::ptr_eq(c, &e.obj.context) {
                return CL_INVALID_CONTEXT;
            }
            failed |= e.obj.status.load(Ordering::SeqCst) < 0;
        }
        if failed {
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        } else {
            CL_SUCCESS
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainEvent(e: cl_event) -> cl_int {
    Handle::<Event>::retain(e)
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseEvent(e: cl_event) -> cl_int {
    Handle::<Event>::release(e)
}

#[no_mangle]
pub unsafe extern "C" fn clGetEventInfo(
    event: cl_event,
    param_name: cl_event_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::guard(CL_OUT_OF_HOST_MEMORY, || {
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
                CL_EVENT_COMMAND_EXECUTION_STATUS => Info::Int(e.obj.status.load(Ordering::SeqCst)),
                CL_EVENT_REFERENCE_COUNT => Info::Uint(e.ref_count()),
                _ => return Err(CL_INVALID_VALUE),
            })
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetEventProfilingInfo(
    event: cl_event,
    param_name: cl_profiling_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    info::guard(CL_OUT_OF_HOST_MEMORY, || {
        let r = Handle::<Event>::get(event).and_then(|e| {
            let profiled = e
                .obj
                .queue
                .as_ref()
                .is_some_and(|q| q.obj.properties & CL_QUEUE_PROFILING_ENABLE != 0);
            if !profiled || e.obj.status.load(Ordering::SeqCst) != CL_COMPLETE {
                return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
            }
            let t = *e.obj.times.lock().unwrap_or_else(|p| p.into_inner());
            Ok(Info::Ulong(match param_name {
                CL_PROFILING_COMMAND_QUEUED => t.queued,
                CL_PROFILING_COMMAND_SUBMIT => t.submit,
                CL_PROFILING_COMMAND_START => t.start,
                CL_PROFILING_COMMAND_END | CL_PROFILING_COMMAND_COMPLETE => t.end,
                _ => return Err(CL_INVALID_VALUE),
            }))
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    })
}

/// Markers and barriers: with every command complete on return, they complete at once.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueMarkerWithWaitList(
    queue: cl_command_queue,
    n: cl_uint,
    wait: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    info::guard(CL_OUT_OF_HOST_MEMORY, || {
        let q = match Handle::<Queue>::get(queue) {
            Ok(q) => q,
            Err(e) => return e,
        };
        // SAFETY: the application's wait list and event pointer.
        unsafe { run(&q, CL_COMMAND_MARKER, n, wait, event, || Ok(())) }
            .map_or_else(|e| e, |_| CL_SUCCESS)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueBarrierWithWaitList(
    queue: cl_command_queue,
    n: cl_uint,
    wait: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    info::guard(CL_OUT_OF_HOST_MEMORY, || {
        let q = match Handle::<Queue>::get(queue) {
            Ok(q) => q,
            Err(e) => return e,
        };
        // SAFETY: the application's wait list and event pointer.
        unsafe { run(&q, CL_COMMAND_BARRIER, n, wait, event, || Ok(())) }
            .map_or_else(|e| e, |_| CL_SUCCESS)
    })
}

/// OpenCL 1.1 marker: a marker with no wait list.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueMarker(queue: cl_command_queue, event: *mut cl_event) -> cl_int {
    if event.is_null() {
        return CL_INVALID_VALUE;
    }
    // SAFETY: forwarded.
    unsafe { clEnqueueMarkerWithWaitList(queue, 0, std::ptr::null(), event) }
}

/// OpenCL 1.1 barrier: every earlier command has completed already.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueBarrier(queue: cl_command_queue) -> cl_int {
    Handle::<Queue>::get(queue).map_or_else(|e| e, |_| CL_SUCCESS)
}

/// OpenCL 1.1 wait: the events must be valid, of the queue's context, and not failed.
#[no_mangle]
pub unsafe extern "C" fn clEnqueueWaitForEvents(
    queue: cl_command_queue,
    num_events: cl_uint,
    event_list: *const cl_event,
) -> cl_int {
    info::guard(CL_OUT_OF_HOST_MEMORY, || {
        let q = match Handle::<Queue>::get(queue) {
            Ok(q) => q,
            Err(e) => return e,
        };
        if num_events == 0 || event_list.is_null() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: the application's array.
        match unsafe { check_wait_list(&q.obj.context, num_events, event_list) } {
            Ok(()) => CL_SUCCESS,
            Err(CL_INVALID_EVENT_WAIT_LIST) => CL_INVALID_EVENT,
            Err(e) => e,
        }
    })
}

/// Every event is complete (or failed) from its creation, so the callback runs at once with
/// the event's status, as the specification allows for a status already reached.
#[no_mangle]
pub unsafe extern "C" fn clSetEventCallback(
    event: cl_event,
    command_exec_callback_type: cl_int,
    pfn_notify: Option<unsafe extern "C" fn(cl_event, cl_int, *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    info::guard(CL_OUT_OF_HOST_MEMORY, || {
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
        let status = e.obj.status.load(Ordering::SeqCst);
        // SAFETY: the application's callback with its own user data.
        unsafe {
            f(
                event,
                if status < 0 {
                    status
                } else {
                    command_exec_callback_type
                },
                user_data,
            )
        };
        CL_SUCCESS
    })
}
