//! The one way an exported entry point is written: `entry!` makes the
//! `#[no_mangle] pub unsafe extern "C" fn`, runs the body under `catch_unwind` so a panic
//! becomes an error code instead of unwinding into C, and traces the call (its name, its
//! arguments Debug-printed, pointers as hex, and its result) through `tracing`, which costs a
//! disabled-callsite check when no subscriber listens ([`crate::api::trace`]).
//!
//! Four forms:
//! - `entry! { fn clFoo(a: A, …) -> R { body } }`: the body returns `R` (a `cl_int` status,
//!   a pointer, or nothing); a panic returns CL_OUT_OF_HOST_MEMORY, NULL or nothing.
//! - `entry! { fn clEnqueueFoo(a: A, …) -> enqueue [n, wait, event] { body } }`: the C function
//!   gets the wait list and event every enqueue takes, under those names; the body makes the
//!   command (`Result<Command, cl_int>`), which `api::enqueue::submit` enqueues.
//! - `entry! { fn clGetFooInfo(a: A, …) -> query [size, value, size_ret] { body } }`: the C
//!   function gets the three arguments every query ends with; the body gives the answer
//!   (`Result<Info, cl_int>`), which `api::info::answer` writes. Without the names, they are
//!   `param_value_size`, `param_value` and `param_value_size_ret`, out of the body's reach.
//! - `entry! { fn clCreateFoo(a: A, …) -> cl_foo, errcode_ret { body } }`: the C function
//!   gets a last `errcode_ret: *mut cl_int` parameter; the body returns
//!   `Result<cl_foo, cl_int>`, and the error (CL_OUT_OF_HOST_MEMORY for a panic) is written
//!   to `errcode_ret` with NULL returned.

use std::ffi::c_void;

use opencl_sys::{cl_int, CL_OUT_OF_HOST_MEMORY, CL_SUCCESS};

use crate::api::misuse;

/// What an entry point returns: its value after a panic, how the trace shows it, and its
/// status (the sanitizer's `api` check reports the errors).
pub trait Outcome {
    fn on_panic() -> Self;
    fn describe(&self) -> String;
    /// The status, for an entry point that returns one.
    fn status(&self) -> Option<cl_int> {
        None
    }
}

impl Outcome for cl_int {
    fn on_panic() -> Self {
        CL_OUT_OF_HOST_MEMORY
    }
    fn describe(&self) -> String {
        code(*self)
    }
    fn status(&self) -> Option<cl_int> {
        Some(*self)
    }
}

impl<T> Outcome for *mut T {
    fn on_panic() -> Self {
        std::ptr::null_mut()
    }
    fn describe(&self) -> String {
        format!("{:p}", *self)
    }
}

impl Outcome for () {
    fn on_panic() -> Self {}
    fn describe(&self) -> String {
        "()".to_string()
    }
}

/// CL_SUCCESS by name, any other status by number.
pub fn code(status: cl_int) -> String {
    match status {
        CL_SUCCESS => "CL_SUCCESS".to_string(),
        e => e.to_string(),
    }
}

/// Runs `body`, giving `R::on_panic()` if it panics.
pub fn guarded<R: Outcome>(body: impl FnOnce() -> R) -> R {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).unwrap_or_else(|_| R::on_panic())
}

/// Runs a handle-returning body; a panic is CL_OUT_OF_HOST_MEMORY.
pub fn guarded_handle<T>(body: impl FnOnce() -> Result<T, cl_int>) -> Result<T, cl_int> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(body))
        .unwrap_or(Err(CL_OUT_OF_HOST_MEMORY))
}

/// Traces an entry point's result (inside its span, which carries the name and arguments)
/// and ends its `api` check `call`.
pub fn traced<R: Outcome>(result: R, call: Option<misuse::Call>) -> R {
    if crate::api::trace::tracing_works() {
        tracing::debug!(result = %result.describe());
    }
    if let Some(c) = call {
        c.end(result.status());
    }
    result
}

/// A handle-returning entry point's end: the trace, `errcode_ret`, and the handle or NULL.
///
/// # Safety
/// `errcode_ret` NULL or a valid cl_int pointer.
pub unsafe fn handle_or_null<T>(
    result: Result<*mut T, cl_int>,
    errcode_ret: *mut cl_int,
    call: Option<misuse::Call>,
) -> *mut T {
    let (value, status) = match result {
        Ok(h) => (h, CL_SUCCESS),
        Err(e) => (std::ptr::null_mut(), e),
    };
    if crate::api::trace::tracing_works() {
        tracing::debug!(result = %code(status), handle = ?value as *mut c_void);
    }
    if let Some(c) = call {
        c.end(Some(status));
    }
    if !errcode_ret.is_null() {
        // SAFETY: the caller's pointer.
        unsafe { *errcode_ret = status };
    }
    value
}

/// Writes an exported entry point; see the module documentation.
macro_rules! entry {
    // The sanitizer's `api` check of this call (`api::misuse`): off, one load and a branch.
    (@check $name:ident($($arg:ident),*)) => {{
        $crate::api::misuse::install();
        if $crate::core::reason::enabled() {
            $crate::api::misuse::begin(
                stringify!($name),
                &[$((stringify!($arg), &$arg as &dyn std::fmt::Debug, &$arg as &dyn std::any::Any)),*],
            )
        } else {
            None
        }
    }};
    // An entry point ending in three arguments and an answer every entry point of a kind shares:
    // `$finish(body, the three)` gives the status.
    (@ending $finish:path, [$a:ident: $ta:ty, $b:ident: $tb:ty, $c:ident: $tc:ty], $(#[$m:meta])* fn $name:ident($($arg:ident: $ty:ty),*) $body:block) => {
        $crate::api::entry::entry! {
            $(#[$m])*
            fn $name($($arg: $ty,)* $a: $ta, $b: $tb, $c: $tc) -> opencl_sys::cl_int {
                let answer = $body;
                // SAFETY: the application's last three arguments, as the entry point defines them.
                unsafe { $finish(answer, $a, $b, $c) }
            }
        }
    };
    ($(#[$m:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> enqueue [$n:ident, $w:ident, $e:ident] $body:block) => {
        $crate::api::entry::entry! { @ending $crate::api::enqueue::submit, [$n: opencl_sys::cl_uint, $w: *const opencl_sys::cl_event, $e: *mut opencl_sys::cl_event], $(#[$m])* fn $name($($arg: $ty),*) $body }
    };
    ($(#[$m:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> query [$s:ident, $v:ident, $r:ident] $body:block) => {
        $crate::api::entry::entry! { @ending $crate::api::info::answer, [$s: usize, $v: *mut std::ffi::c_void, $r: *mut usize], $(#[$m])* fn $name($($arg: $ty),*) $body }
    };
    ($(#[$m:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> query $body:block) => {
        $crate::api::entry::entry! { $(#[$m])* fn $name($($arg: $ty),*) -> query [param_value_size, param_value, param_value_size_ret] $body }
    };
    ($(#[$m:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty, $err:ident $body:block) => {
        $(#[$m])*
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty,)* $err: *mut opencl_sys::cl_int) -> $ret {
            $crate::api::trace::install();
            let span = $crate::api::trace::span(|| tracing::debug_span!(stringify!($name), $($arg = ?$arg),*));
            let _entered = span.enter();
            let call = $crate::api::entry::entry!(@check $name($($arg),*));
            let result = $crate::api::entry::guarded_handle(|| $body);
            // SAFETY: the application's errcode pointer (or NULL).
            unsafe { $crate::api::entry::handle_or_null(result, $err, call) }
        }
    };
    ($(#[$m:meta])* fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$m])*
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $ret {
            $crate::api::trace::install();
            let span = $crate::api::trace::span(|| tracing::debug_span!(stringify!($name), $($arg = ?$arg),*));
            let _entered = span.enter();
            let call = $crate::api::entry::entry!(@check $name($($arg),*));
            $crate::api::entry::traced($crate::api::entry::guarded(|| -> $ret { $body }), call)
        }
    };
}
pub(crate) use entry;

/// An object kind's clRetainX and clReleaseX (`$doc` on the release): the application's count
/// of `$obj` handles.
macro_rules! retain_release {
    ($retain:ident, $(#[$doc:meta])* $release:ident, $arg:ident: $ty:ty => $obj:ty) => {
        $crate::api::entry::entry! {
            fn $retain($arg: $ty) -> opencl_sys::cl_int {
                $crate::core::handle::Handle::<$obj>::retain($arg)
            }
        }
        $crate::api::entry::entry! {
            $(#[$doc])*
            fn $release($arg: $ty) -> opencl_sys::cl_int {
                $crate::core::handle::Handle::<$obj>::release($arg)
            }
        }
    };
}
pub(crate) use retain_release;

/// An object kind's clSet*DestructorCallback: the application's callback joins the object's
/// destructors ([`crate::api::info::set_destructor`]).
macro_rules! destructor_callback {
    ($name:ident, $arg:ident: $ty:ty => $obj:ty) => {
        $crate::api::entry::entry! {
            fn $name(
                $arg: $ty,
                pfn_notify: Option<$crate::core::destructors::Destructor<$ty>>,
                user_data: *mut std::ffi::c_void,
            ) -> opencl_sys::cl_int {
                let (f, data) = (pfn_notify, user_data);
                $crate::api::info::set_destructor::<$obj, _>($arg, f, data, |o| &o.destructors)
            }
        }
    };
}
pub(crate) use destructor_callback;

#[cfg(test)]
mod tests {
    use std::ffi::c_void;

    use opencl_sys::{cl_int, CL_INVALID_VALUE, CL_OUT_OF_HOST_MEMORY, CL_SUCCESS};

    entry! {
        /// Panics when asked to: the guard's test subject.
        fn testStatusEntry(fail: cl_int) -> cl_int {
            if fail != 0 {
                panic!("a panic inside an entry point");
            }
            CL_SUCCESS
        }
    }

    entry! {
        /// A handle-returning entry point that panics, errs or succeeds.
        fn testHandleEntry(mode: cl_int, out: *mut c_void) -> *mut c_void, errcode_ret {
            match mode {
                0 => Ok(out),
                1 => Err(CL_INVALID_VALUE),
                _ => panic!("a panic inside a handle-returning entry point"),
            }
        }
    }

    #[test]
    fn a_panic_becomes_out_of_host_memory() {
        // SAFETY: plain integers.
        assert_eq!(unsafe { testStatusEntry(0) }, CL_SUCCESS);
        // SAFETY: as above.
        assert_eq!(unsafe { testStatusEntry(1) }, CL_OUT_OF_HOST_MEMORY);
    }

    #[test]
    fn a_panic_in_a_handle_entry_writes_the_error_and_returns_null() {
        let mut anchor = 0u8;
        let out = &mut anchor as *mut u8 as *mut c_void;
        for (mode, handle, status) in [
            (0, out, CL_SUCCESS),
            (1, std::ptr::null_mut(), CL_INVALID_VALUE),
            (2, std::ptr::null_mut(), CL_OUT_OF_HOST_MEMORY),
        ] {
            let mut err: cl_int = 12345;
            // SAFETY: a valid errcode pointer.
            assert_eq!(unsafe { testHandleEntry(mode, out, &mut err) }, handle);
            assert_eq!(err, status);
            // SAFETY: NULL errcode_ret is allowed.
            assert_eq!(
                unsafe { testHandleEntry(mode, out, std::ptr::null_mut()) },
                handle
            );
        }
    }
}
