//! The event entry points: waiting, queries, callbacks and user events ([`crate::core::event`]).

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;

use crate::api::entry::{entry, retain_release};
use crate::api::info;
use crate::core::context::Context;
use crate::core::event::{on_status, set_status, Callback, Event};
use crate::core::handle::Handle;
use crate::core::info::Info;

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

retain_release! {
    clRetainEvent,
    /// The command keeps its own reference: a released event of a pending command still
    /// completes and runs its callbacks.
    clReleaseEvent,
    e: cl_event => Event
}

entry! {
    fn clGetEventInfo(event: cl_event, param_name: cl_event_info) -> query {
        Handle::<Event>::get(event).and_then(|e| {
            Ok(match param_name {
                CL_EVENT_COMMAND_QUEUE => Info::Ptr(
                    e.obj
                        .queue
                        .as_ref()
                        .map_or(std::ptr::null_mut(), |q| q.handle()),
                ),
                CL_EVENT_CONTEXT => Info::Ptr(e.obj.context.raw()),
                CL_EVENT_COMMAND_TYPE => Info::Uint(e.obj.command),
                CL_EVENT_COMMAND_EXECUTION_STATUS => Info::Int(e.obj.status_told()),
                CL_EVENT_REFERENCE_COUNT => Info::Uint(e.ref_count()),
                _ => return Err(crate::core::reason::unknown_query("event", param_name)),
            })
        })
    }
}

entry! {
    fn clGetEventProfilingInfo(event: cl_event, param_name: cl_profiling_info) -> query {
        Handle::<Event>::get(event).and_then(|e| {
            let profiled = e
                .obj
                .queue
                .as_ref()
                .is_some_and(|q| q.profiling());
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
                _ => return Err(crate::core::reason::unknown_query("event profiling", param_name)),
            }))
        })
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
        info::status(|| {
            let (e, f) = info::with_callback::<Event, _>(event, pfn_notify)?;
            if ![CL_SUBMITTED, CL_RUNNING, CL_COMPLETE].contains(&command_exec_callback_type) {
                return Err(CL_INVALID_VALUE);
            }
            on_status(&e, command_exec_callback_type, f, user_data as usize);
            Ok(())
        })
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
