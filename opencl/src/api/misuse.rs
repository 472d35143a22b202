//! The sanitizer's `api` check (`INTEL_GPU_SANITIZE=api`, or `all`), as Oclgrind's
//! `--check-api`: every entry point that returns an error is reported with its name, its
//! arguments and the cause the ICD found ([`crate::core::reason`]), once per (function, error
//! code, cause) with the number of calls that made it. The reports are made when the process
//! exits (or the library is unloaded): on stderr in the sanitizer's words, and with
//! `INTEL_GPU_SANITIZE_LOG=<file>` appended to the file as one JSON object per line, beside
//! the simulator's findings about kernels.
//!
//! Every entry point calls [`begin`] and [`Call::end`] (`api::entry::entry!`); with the check
//! off, `begin` is one relaxed load and nothing else happens.

use std::any::Any;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::ffi::{c_char, CStr};
use std::fmt::{Debug, Write as _};
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::{Mutex, Once, OnceLock};

use opencl_sys::{cl_int, cl_kernel, CL_SUCCESS};
use sim::sanitize::{Check, Settings};

use crate::core::handle::Handle;
use crate::core::kernel::Kernel;
use crate::core::reason;

/// One report: the first call's arguments and kernel, and how many calls made it.
struct Seen {
    arguments: String,
    kernel: Option<String>,
    count: u64,
}

/// (function, code, cause) → what was seen.
type Reports = BTreeMap<(&'static str, cl_int, String), Seen>;

static REPORTS: Mutex<Reports> = Mutex::new(BTreeMap::new());
static LOG: OnceLock<Option<PathBuf>> = OnceLock::new();
static INSTALL: Once = Once::new();
static AT_EXIT: Once = Once::new();

thread_local! {
    /// Entry points running on this thread (one may call another: only the outermost reports).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Reads `INTEL_GPU_SANITIZE` once per process: with `api` (or `all`) in it, the check is on.
/// A list that does not parse leaves it off (opening a device reports the list's error).
pub fn install() {
    INSTALL.call_once(|| {
        let Ok(s) = Settings::from_env() else { return };
        if s.checks.has(Check::Api) {
            let _ = LOG.set(s.log);
            reason::enable();
        }
    });
}

/// An entry point's call, while the check is on.
pub struct Call {
    function: &'static str,
    /// None for a call inside another entry point's call.
    outer: Option<(String, Option<String>)>,
}

/// One argument as `entry!` hands it over: its name and value.
pub type Arg<'a> = (&'static str, &'a dyn Debug, &'a dyn Any);

/// An entry point begins; None while the check is off.
pub fn begin(function: &'static str, args: &[Arg<'_>]) -> Option<Call> {
    if !reason::enabled() {
        return None;
    }
    let depth = DEPTH.with(|d| {
        d.set(d.get() + 1);
        d.get()
    });
    if depth > 1 {
        return Some(Call {
            function,
            outer: None,
        });
    }
    let mut arguments = String::new();
    let mut kernel = None;
    for (i, (name, value, any)) in args.iter().enumerate() {
        if i > 0 {
            arguments.push_str(", ");
        }
        let _ = write!(arguments, "{name}={value:?}");
        if kernel.is_none() {
            kernel = kernel_named(name, *any);
        }
    }
    // After the lookups above, which note why a handle is no kernel.
    reason::clear();
    Some(Call {
        function,
        outer: Some((arguments, kernel)),
    })
}

/// The kernel an argument names: a live kernel's name (handles are all `*mut c_void`: the
/// registry says which one is a kernel), or clCreateKernel's `kernel_name`.
fn kernel_named(name: &str, value: &dyn Any) -> Option<String> {
    if let Some(k) = value.downcast_ref::<cl_kernel>() {
        return Handle::<Kernel>::get(*k).ok().map(|k| k.obj.name.clone());
    }
    let s = value.downcast_ref::<*const c_char>()?;
    if name != "kernel_name" || s.is_null() {
        return None;
    }
    // SAFETY: clCreateKernel's kernel_name, a NUL-terminated string by the specification,
    // which the entry point reads as well.
    Some(unsafe { CStr::from_ptr(*s) }.to_string_lossy().into_owned())
}

impl Call {
    /// The entry point returns `status` (None: it returns no status, as clSVMAlloc).
    pub fn end(self, status: Option<cl_int>) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
        let (Some((arguments, kernel)), Some(code)) = (self.outer, status) else {
            return;
        };
        if code == CL_SUCCESS {
            return;
        }
        let cause = reason::take(code)
            .unwrap_or_else(|| "(no finer cause recorded by the ICD for this error)".into());
        let mut reports = REPORTS.lock().unwrap_or_else(|e| e.into_inner());
        reports
            .entry((self.function, code, cause))
            .and_modify(|s| s.count += 1)
            .or_insert(Seen {
                arguments,
                kernel,
                count: 1,
            });
        drop(reports);
        AT_EXIT.call_once(|| {
            // SAFETY: registers a plain extern "C" function with no arguments; glibc runs it
            // at exit, or when this library is unloaded (it is registered with the library's
            // own handle).
            unsafe { atexit(report_at_exit) };
        });
    }
}

extern "C" {
    fn atexit(f: extern "C" fn()) -> i32;
}

extern "C" fn report_at_exit() {
    // A panic must not unwind into C.
    let _ = std::panic::catch_unwind(report);
}

/// Writes the reports (and forgets them): stderr, and the log file if there is one.
pub fn report() {
    let reports = std::mem::take(&mut *REPORTS.lock().unwrap_or_else(|e| e.into_inner()));
    if reports.is_empty() {
        return;
    }
    let mut text = String::new();
    let mut json = String::new();
    for ((function, code, cause), seen) in &reports {
        let f = Report {
            function,
            code: *code,
            cause,
            seen,
        };
        text += &f.to_text();
        text.push('\n');
        json += &f.to_json();
        json.push('\n');
    }
    let _ = std::io::stderr().write_all(text.as_bytes());
    if let Some(Some(path)) = LOG.get() {
        match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            Ok(mut f) => {
                let _ = f.write_all(json.as_bytes());
            }
            Err(e) => eprintln!(
                "INTEL_GPU_SANITIZE_LOG: cannot open {}: {e}",
                path.display()
            ),
        }
    }
}

struct Report<'a> {
    function: &'a str,
    code: cl_int,
    cause: &'a str,
    seen: &'a Seen,
}

impl Report<'_> {
    fn to_text(&self) -> String {
        let mut s = format!(
            "sanitizer api: {} returned {} ({}): {}",
            self.function,
            error_name(self.code),
            self.code,
            self.cause
        );
        if let Some(k) = &self.seen.kernel {
            s += &format!(" in kernel {k}");
        }
        s += &format!("\n  arguments: {}", self.seen.arguments);
        s += &format!("\n  {} time(s)", self.seen.count);
        s
    }

    /// `check` "api", `kernel` (null unless the call names a kernel), `offset`, `file`,
    /// `line`, `address` and `allocation` null, `function`, `error` (the code's name), `code`,
    /// `what` (the cause), `arguments` (the first call's), `count`.
    fn to_json(&self) -> String {
        use sim_eu::sanitize::finding::json_string as j;
        format!(
            "{{\"check\":\"api\",\"kernel\":{},\"offset\":null,\"file\":null,\"line\":null,\
             \"address\":null,\"allocation\":null,\"function\":{},\"error\":{},\"code\":{},\"what\":{},\
             \"arguments\":{},\"count\":{}}}",
            self.seen.kernel.as_deref().map_or("null".into(), j),
            j(self.function),
            j(error_name(self.code)),
            self.code,
            j(self.cause),
            j(&self.seen.arguments),
            self.seen.count
        )
    }
}

/// The OpenCL name of an error code (OpenCL 3.0 and the extensions this ICD reports).
pub fn error_name(code: cl_int) -> &'static str {
    macro_rules! names {
        ($($c:ident),* $(,)?) => {
            match code {
                $(opencl_sys::$c => stringify!($c),)*
                _ => "an unknown error code",
            }
        };
    }
    names!(
        CL_DEVICE_NOT_FOUND,
        CL_DEVICE_NOT_AVAILABLE,
        CL_COMPILER_NOT_AVAILABLE,
        CL_MEM_OBJECT_ALLOCATION_FAILURE,
        CL_OUT_OF_RESOURCES,
        CL_OUT_OF_HOST_MEMORY,
        CL_PROFILING_INFO_NOT_AVAILABLE,
        CL_MEM_COPY_OVERLAP,
        CL_IMAGE_FORMAT_MISMATCH,
        CL_IMAGE_FORMAT_NOT_SUPPORTED,
        CL_BUILD_PROGRAM_FAILURE,
        CL_MAP_FAILURE,
        CL_MISALIGNED_SUB_BUFFER_OFFSET,
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
        CL_COMPILE_PROGRAM_FAILURE,
        CL_LINKER_NOT_AVAILABLE,
        CL_LINK_PROGRAM_FAILURE,
        CL_DEVICE_PARTITION_FAILED,
        CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
        CL_INVALID_VALUE,
        CL_INVALID_DEVICE_TYPE,
        CL_INVALID_PLATFORM,
        CL_INVALID_DEVICE,
        CL_INVALID_CONTEXT,
        CL_INVALID_QUEUE_PROPERTIES,
        CL_INVALID_COMMAND_QUEUE,
        CL_INVALID_HOST_PTR,
        CL_INVALID_MEM_OBJECT,
        CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        CL_INVALID_IMAGE_SIZE,
        CL_INVALID_SAMPLER,
        CL_INVALID_BINARY,
        CL_INVALID_BUILD_OPTIONS,
        CL_INVALID_PROGRAM,
        CL_INVALID_PROGRAM_EXECUTABLE,
        CL_INVALID_KERNEL_NAME,
        CL_INVALID_KERNEL_DEFINITION,
        CL_INVALID_KERNEL,
        CL_INVALID_ARG_INDEX,
        CL_INVALID_ARG_VALUE,
        CL_INVALID_ARG_SIZE,
        CL_INVALID_KERNEL_ARGS,
        CL_INVALID_WORK_DIMENSION,
        CL_INVALID_WORK_GROUP_SIZE,
        CL_INVALID_WORK_ITEM_SIZE,
        CL_INVALID_GLOBAL_OFFSET,
        CL_INVALID_EVENT_WAIT_LIST,
        CL_INVALID_EVENT,
        CL_INVALID_OPERATION,
        CL_INVALID_GL_OBJECT,
        CL_INVALID_BUFFER_SIZE,
        CL_INVALID_MIP_LEVEL,
        CL_INVALID_GLOBAL_WORK_SIZE,
        CL_INVALID_PROPERTY,
        CL_INVALID_IMAGE_DESCRIPTOR,
        CL_INVALID_COMPILER_OPTIONS,
        CL_INVALID_LINKER_OPTIONS,
        CL_INVALID_DEVICE_PARTITION_COUNT,
        CL_INVALID_PIPE_SIZE,
        CL_INVALID_DEVICE_QUEUE,
        CL_INVALID_SPEC_ID,
        CL_MAX_SIZE_RESTRICTION_EXCEEDED,
        CL_PLATFORM_NOT_FOUND_KHR,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_named_and_reports_are_json_lines() {
        assert_eq!(
            error_name(opencl_sys::CL_INVALID_KERNEL_ARGS),
            "CL_INVALID_KERNEL_ARGS"
        );
        assert_eq!(error_name(-12345), "an unknown error code");
        let seen = Seen {
            arguments: "kernel=0x10, work_dim=1".into(),
            kernel: Some("k\"".into()),
            count: 3,
        };
        let r = Report {
            function: "clEnqueueNDRangeKernel",
            code: opencl_sys::CL_INVALID_KERNEL_ARGS,
            cause: "argument 1 (`n`) is not set",
            seen: &seen,
        };
        let j = r.to_json();
        assert!(
            j.starts_with(
                "{\"check\":\"api\",\"kernel\":\"k\\\"\",\"offset\":null,\"file\":null,\
                 \"line\":null,\"address\":null"
            ),
            "{j}"
        );
        assert!(
            j.contains("\"error\":\"CL_INVALID_KERNEL_ARGS\",\"code\":-52"),
            "{j}"
        );
        assert!(j.ends_with("\"count\":3}"), "{j}");
        let t = r.to_text();
        assert!(t.starts_with("sanitizer api: clEnqueueNDRangeKernel returned CL_INVALID_KERNEL_ARGS (-52): argument 1"), "{t}");
    }
}
