//! How every enqueue entry point hands its command to the queue: the application's wait list
//! checked and turned into events, the command enqueued after them, its event written where the
//! application asked for one ([`crate::core::queue::enqueue`]).

use std::sync::Arc;

use opencl_sys::*;

use crate::api::info;
use crate::core::context::Context;
use crate::core::event::Event;
use crate::core::handle::Handle;
use crate::core::queue::Command;

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

/// Enqueues `command` after the events of the application's wait list; writes its event where
/// the application asked for one; a blocking command returns once it completed (its error if
/// it failed).
///
/// # Safety
/// `wait`/`n_wait` and `event` as the enqueue entry points define them.
pub unsafe fn enqueue(
    command: Command,
    n_wait: cl_uint,
    wait: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    // SAFETY: forwarded.
    let deps = unsafe { wait_list(&command.queue.obj.context, n_wait, wait) }?;
    let given = crate::core::queue::enqueue(command, deps, !event.is_null())?;
    if let Some(raw) = given {
        // SAFETY: the application's event pointer.
        unsafe { *event = raw };
    }
    Ok(())
}

/// An enqueue entry point's status: `command`'s error, or that of enqueuing it ([`enqueue`]).
///
/// # Safety
/// As for [`enqueue`].
pub unsafe fn submit(
    command: Result<Command, cl_int>,
    n_wait: cl_uint,
    wait: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    // SAFETY: forwarded.
    command
        .and_then(|c| unsafe { enqueue(c, n_wait, wait, event) })
        .map_or_else(|e| e, |()| CL_SUCCESS)
}
