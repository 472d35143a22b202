//! Why a call failed, in words: the sanitizer's `api` check (`INTEL_GPU_SANITIZE=api`)
//! reports every entry point that returns an error with the cause the code that refused it
//! knew, not only the code. Where an error is decided, [`why`] notes the cause on the calling
//! thread and gives the code back; the entry point takes the note when it returns the same
//! code. While the check is off nothing is noted and the sentence is never built: [`why`] costs
//! one relaxed load.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

use opencl_sys::cl_int;

static ON: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// The last cause noted on this thread since its entry point began: (code, sentence).
    static NOTED: RefCell<Option<(cl_int, String)>> = const { RefCell::new(None) };
}

/// Turns the notes on (the `api` check is on in this process).
pub fn enable() {
    ON.store(true, Ordering::Relaxed);
}

/// Whether causes are noted.
pub fn enabled() -> bool {
    ON.load(Ordering::Relaxed)
}

/// `code`, with `cause()` noted as why (built only while the `api` check is on). The last
/// note of a call wins: an error some code recovered from is replaced by the next one.
pub fn why(code: cl_int, cause: impl FnOnce() -> String) -> cl_int {
    if enabled() {
        let c = cause();
        // try_with: after the thread's TLS destructors ran (a call from exit()), no note.
        let _ = NOTED.try_with(|n| *n.borrow_mut() = Some((code, c)));
    }
    code
}

/// CL_INVALID_VALUE for a clGet*Info `param_name` that no `what` query has, noted as such.
pub fn unknown_query(what: &str, param: u32) -> cl_int {
    why(opencl_sys::CL_INVALID_VALUE, || {
        format!(
            "param_name {param:#x} is not a {what} query of OpenCL 3.0 or of an extension \
             this device lists"
        )
    })
}

/// The cause noted for `code` since [`clear`], taken; None when the last note was of another
/// code (the call turned one error into another) or there is none.
pub fn take(code: cl_int) -> Option<String> {
    NOTED
        .try_with(|n| n.borrow_mut().take())
        .ok()
        .flatten()
        .and_then(|(c, s)| (c == code).then_some(s))
}

/// Forgets this thread's note (an entry point begins).
pub fn clear() {
    let _ = NOTED.try_with(|n| *n.borrow_mut() = None);
}
