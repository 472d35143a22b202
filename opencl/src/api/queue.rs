//! The command-queue entry points: creation, queries, flush and finish, markers and barriers
//! ([`crate::core::queue`]); how every enqueue entry point hands its command to the queue is
//! [`crate::api::enqueue`].

use opencl_sys::*;

use crate::api::enqueue::submit;
use crate::api::entry::{entry, retain_release};
use crate::api::info;
use crate::core::handle::Handle;
use crate::core::info::Info;
use crate::core::queue::{create_queue, Command, Queue, Work};

entry! {
    fn clCreateCommandQueue(
        context: cl_context,
        device: cl_device_id,
        properties: cl_command_queue_properties,
    ) -> cl_command_queue, errcode_ret {
        create_queue(
            context,
            device,
            properties,
            Vec::new(),
            umd::device::QueuePriority::Normal,
            (None, None),
        )
    }
}

entry! {
    fn clCreateCommandQueueWithProperties(
        context: cl_context,
        device: cl_device_id,
        properties: *const cl_queue_properties,
    ) -> cl_command_queue, errcode_ret {
        let mut props = 0;
        let mut priority = umd::device::QueuePriority::Normal;
        let mut list = Vec::new();
        let (mut family, mut index) = (None, None);
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
                    // cl_khr_priority_hints: one of the three levels ([`hinted_priority`]).
                    PRIORITY_KHR => priority = hinted_priority(value)?,
                    // cl_khr_throttle_hints: one of the three levels. Neither i915 nor xe has
                    // a per-context power setting, so the hint is kept in the property list
                    // and changes nothing else (NEO on Linux does the same).
                    THROTTLE_KHR => {
                        if ![CL_QUEUE_THROTTLE_HIGH_KHR, CL_QUEUE_THROTTLE_MED_KHR, CL_QUEUE_THROTTLE_LOW_KHR]
                            .contains(&(value as cl_queue_throttle_khr))
                        {
                            return Err(CL_INVALID_VALUE);
                        }
                    }
                    // cl_intel_command_queue_families: checked against the device's families
                    // by `create_queue`.
                    FAMILY_INTEL => family = Some(value),
                    INDEX_INTEL => index = Some(value),
                    _ => return Err(CL_INVALID_VALUE),
                }
                list.extend([key, value]);
                k += 2;
            }
        }
        // Both hints are for host queues (the extensions: CL_INVALID_QUEUE_PROPERTIES with
        // CL_QUEUE_ON_DEVICE, which is refused with that code anyway).
        create_queue(context, device, props, list, priority, (family, index))
    }
}

/// The two hints' property names as `cl_queue_properties` keys (the headers type them as
/// queue properties).
const PRIORITY_KHR: cl_uint = CL_QUEUE_PRIORITY_KHR as cl_uint;
const THROTTLE_KHR: cl_uint = CL_QUEUE_THROTTLE_KHR as cl_uint;
const FAMILY_INTEL: cl_uint = CL_QUEUE_FAMILY_INTEL as cl_uint;
const INDEX_INTEL: cl_uint = CL_QUEUE_INDEX_INTEL as cl_uint;

/// The kernel driver's priority for a CL_QUEUE_PRIORITY_KHR hint, CL_INVALID_VALUE for a value
/// that is not one of the three levels. Low lowers the queue's context as NEO does; medium is
/// the default; high stays at the default too, since raising a context needs CAP_SYS_NICE
/// (NEO also leaves it there).
fn hinted_priority(value: cl_queue_properties) -> Result<umd::device::QueuePriority, cl_int> {
    match value as cl_queue_priority_khr {
        CL_QUEUE_PRIORITY_LOW_KHR => Ok(umd::device::QueuePriority::Low),
        CL_QUEUE_PRIORITY_MED_KHR | CL_QUEUE_PRIORITY_HIGH_KHR => {
            Ok(umd::device::QueuePriority::Normal)
        }
        _ => Err(CL_INVALID_VALUE),
    }
}

retain_release!(clRetainCommandQueue, clReleaseCommandQueue, q: cl_command_queue => Queue);

entry! {
    fn clGetCommandQueueInfo(queue: cl_command_queue, param_name: cl_command_queue_info) -> query {
        Handle::<Queue>::get(queue).and_then(|q| {
            Ok(match param_name {
                CL_QUEUE_CONTEXT => Info::Ptr(q.obj.context.raw()),
                CL_QUEUE_DEVICE => Info::Ptr(q.obj.device.raw()),
                CL_QUEUE_REFERENCE_COUNT => Info::Uint(q.ref_count()),
                CL_QUEUE_PROPERTIES => Info::Ulong(q.obj.properties),
                CL_QUEUE_PROPERTIES_ARRAY => Info::Ulongs(q.obj.property_list.clone()),
                CL_QUEUE_SIZE => return Err(CL_INVALID_COMMAND_QUEUE),
                CL_QUEUE_DEVICE_DEFAULT => Info::Ptr(std::ptr::null_mut()),
                FAMILY_INTEL => Info::Uint(q.obj.family.0),
                INDEX_INTEL => Info::Uint(q.obj.family.1),
                _ => return Err(crate::core::reason::unknown_query("command-queue", param_name)),
            })
        })
    }
}

entry! {
    /// Every command is handed to the queue's thread when it is enqueued.
    fn clFlush(q: cl_command_queue) -> cl_int {
        Handle::<Queue>::get(q).map_or_else(|e| e, |_| CL_SUCCESS)
    }
}

entry! {
    /// Waits until every command enqueued so far completed (or failed).
    fn clFinish(q: cl_command_queue) -> cl_int {
        info::guard(CL_OUT_OF_HOST_MEMORY, || match Handle::<Queue>::get(q) {
            // A failure the application was not told of (NEO answers a GPU hang the same way).
            Ok(q) => {
                if q.obj.finish() {
                    CL_SUCCESS
                } else {
                    CL_OUT_OF_RESOURCES
                }
            }
            Err(e) => e,
        })
    }
}

/// A marker or barrier: complete once its wait list, or (empty list) every earlier command,
/// is. The queue runs in order, so both wait for every earlier command.
///
/// # Safety
/// As the entry points'.
unsafe fn order(
    queue: cl_command_queue,
    command: cl_command_type,
    n: cl_uint,
    wait: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    info::guard(CL_OUT_OF_HOST_MEMORY, || {
        let command =
            Handle::<Queue>::get(queue).map(|q| Command::new(&q, command, false, Work::Nothing));
        // SAFETY: the application's wait list and event pointer.
        unsafe { submit(command, n, wait, event) }
    })
}

entry! {
    fn clEnqueueMarkerWithWaitList(
        queue: cl_command_queue,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        // SAFETY: forwarded.
        unsafe { order(queue, CL_COMMAND_MARKER, n, wait, event) }
    }
}

entry! {
    fn clEnqueueBarrierWithWaitList(
        queue: cl_command_queue,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        // SAFETY: forwarded.
        unsafe { order(queue, CL_COMMAND_BARRIER, n, wait, event) }
    }
}

entry! {
    /// OpenCL 1.1 marker: a marker with no wait list, whose event is required.
    fn clEnqueueMarker(queue: cl_command_queue, event: *mut cl_event) -> cl_int {
        if Handle::<Queue>::get(queue).is_ok() && event.is_null() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: forwarded.
        unsafe { order(queue, CL_COMMAND_MARKER, 0, std::ptr::null(), event) }
    }
}

entry! {
    /// OpenCL 1.1 barrier: later commands wait for every earlier one.
    fn clEnqueueBarrier(queue: cl_command_queue) -> cl_int {
        // SAFETY: no wait list, no event.
        unsafe {
            order(
                queue,
                CL_COMMAND_BARRIER,
                0,
                std::ptr::null(),
                std::ptr::null_mut(),
            )
        }
    }
}

entry! {
    /// OpenCL 1.1 wait: later commands of the queue wait for these events (a barrier on them).
    fn clEnqueueWaitForEvents(
        queue: cl_command_queue,
        num_events: cl_uint,
        event_list: *const cl_event,
    ) -> cl_int {
        if let Err(e) = Handle::<Queue>::get(queue) {
            return e;
        }
        if num_events == 0 || event_list.is_null() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: the application's array.
        match unsafe {
            order(
                queue,
                CL_COMMAND_BARRIER,
                num_events,
                event_list,
                std::ptr::null_mut(),
            )
        } {
            CL_INVALID_EVENT_WAIT_LIST => CL_INVALID_EVENT,
            e => e,
        }
    }
}
