//! `INTEL_GPU_OPENCL_TRACE`: unset or `0`, nothing; `1` or `calls`, every entry point with
//! its arguments and result (and every program build's options and log) to stderr; any
//! other value is a file the same lines are appended to. The subscriber is installed once,
//! by the first entry point called (the loader's first is clIcdGetPlatformIDsKHR or
//! clGetPlatformIDs); without it the `tracing` calls cost a disabled-callsite check.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};

use tracing::Level;

/// The environment variable that turns the call trace on.
pub const VARIABLE: &str = "INTEL_GPU_OPENCL_TRACE";

static INSTALL: Once = Once::new();

/// Installs the trace subscriber the variable asks for, once per process. An application
/// that set its own `tracing` subscriber keeps it.
pub fn install() {
    INSTALL.call_once(|| {
        let Ok(value) = std::env::var(VARIABLE) else {
            return;
        };
        let builder = tracing_subscriber::fmt()
            .with_max_level(Level::DEBUG)
            .with_target(false);
        // `try_init` fails only when a global subscriber exists already: that one stays.
        let _ = match value.as_str() {
            "" | "0" => return,
            "1" | "calls" => builder.with_writer(std::io::stderr).try_init(),
            path => match std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                Ok(file) => builder.with_writer(Mutex::new(file)).try_init(),
                Err(e) => {
                    eprintln!("{VARIABLE}: cannot open {path}: {e}");
                    return;
                }
            },
        };
    });
}

/// Set once making a span has panicked: `tracing`'s registry keeps per-thread state that is gone
/// when a C++ static destructor calls an entry point from `exit()` (glibc runs the thread's
/// TLS destructors first), and the calls after that are made without spans.
static SPANS_BROKEN: AtomicBool = AtomicBool::new(false);

/// An entry point's span from `make`, or none where spans cannot be made (see `SPANS_BROKEN`):
/// tracing never turns an application's call into an abort.
pub fn span(make: impl FnOnce() -> tracing::Span) -> tracing::Span {
    if SPANS_BROKEN.load(Ordering::Relaxed) {
        return tracing::Span::none();
    }
    quiet_panic_hook();
    set_quiet(true);
    let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(make));
    set_quiet(false);
    made.unwrap_or_else(|_| {
        SPANS_BROKEN.store(true, Ordering::Relaxed);
        tracing::Span::none()
    })
}

thread_local! {
    /// Set while this thread makes a span: a panic there is expected (see `SPANS_BROKEN`) and
    /// handled, so the panic hook does not print it to the application's stderr. A `const`
    /// Cell has no destructor, so it stays readable from `exit()`.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn set_quiet(on: bool) {
    let _ = QUIET.try_with(|q| q.set(on));
}

/// Wraps the panic hook (this library's own: a cdylib carries its own Rust runtime) so that
/// panics while making a span stay silent; every other panic is reported as before.
fn quiet_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.try_with(|q| q.get()).unwrap_or(false) {
                previous(info);
            }
        }));
    });
}

/// Whether entry points still trace (see `SPANS_BROKEN`).
pub fn tracing_works() -> bool {
    !SPANS_BROKEN.load(Ordering::Relaxed)
}
