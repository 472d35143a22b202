//! The C arguments every entry point checks alike: clGet*Info answers written the way every
//! query must (size check, optional value, optional size), error codes stored where asked,
//! arrays given as pointer and count, and callbacks given with their user data.

use std::ffi::c_void;

use opencl_sys::{cl_int, CL_INVALID_VALUE, CL_OUT_OF_HOST_MEMORY, CL_SUCCESS};

use crate::core::info::Info;

/// Writes `value` for a clGet*Info call: CL_INVALID_VALUE when `param_value` is given and
/// `size` is too small.
///
/// # Safety
/// `param_value` must be NULL or point to `size` writable bytes; `size_ret` NULL or valid.
pub unsafe fn write(
    value: Info,
    size: usize,
    param_value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    let bytes = value.bytes();
    if !param_value.is_null() {
        if size < bytes.len() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: the caller gives `size >= bytes.len()` writable bytes at param_value.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), param_value.cast(), bytes.len()) };
    }
    if !size_ret.is_null() {
        // SAFETY: the caller's pointer to a size_t.
        unsafe { *size_ret = bytes.len() };
    }
    opencl_sys::CL_SUCCESS
}

/// A query answered by `f`, or its error.
///
/// # Safety
/// As for [`write()`].
pub unsafe fn answer(
    result: Result<Info, cl_int>,
    size: usize,
    param_value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    match result {
        // SAFETY: forwarded caller guarantees.
        Ok(v) => unsafe { write(v, size, param_value, size_ret) },
        Err(e) => e,
    }
}

/// Stores an error code where the application asked for it.
///
/// # Safety
/// `errcode_ret` NULL or a valid cl_int pointer.
pub unsafe fn set_err(errcode_ret: *mut cl_int, e: cl_int) {
    if !errcode_ret.is_null() {
        // SAFETY: the caller's pointer.
        unsafe { *errcode_ret = e };
    }
}

/// Runs an entry point's body, turning a panic into CL_OUT_OF_HOST_MEMORY so no unwind
/// crosses into C.
pub fn guard<R>(on_panic: R, f: impl FnOnce() -> R) -> R {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(on_panic)
}

/// An entry point that returns only a status: `f`'s error code, CL_SUCCESS for `Ok`, and
/// CL_OUT_OF_HOST_MEMORY if it panics (see [`guard`]).
pub fn status(f: impl FnOnce() -> Result<(), cl_int>) -> cl_int {
    guard(CL_OUT_OF_HOST_MEMORY, || {
        f().map_or_else(|e| e, |()| CL_SUCCESS)
    })
}

/// `n` elements at `p` as a slice (empty when `n` is 0); CL_INVALID_VALUE for a NULL pointer
/// with a non-zero count.
///
/// # Safety
/// When non-NULL, `p` must point to `n` valid elements.
pub unsafe fn slice<'a, T>(p: *const T, n: usize) -> Result<&'a [T], cl_int> {
    match (p.is_null(), n) {
        (_, 0) => Ok(&[]),
        (true, _) => Err(CL_INVALID_VALUE),
        // SAFETY: the caller's array of n elements.
        (false, n) => Ok(unsafe { std::slice::from_raw_parts(p, n) }),
    }
}

/// Three size_t values at `p` (an origin or region); None for NULL.
///
/// # Safety
/// `p` NULL or pointing at three values.
pub unsafe fn triple(p: *const usize) -> Option<[usize; 3]> {
    // SAFETY: the caller's array of three.
    (!p.is_null()).then(|| unsafe { [*p, *p.add(1), *p.add(2)] })
}

/// A callback with its user data: CL_INVALID_VALUE for user data without a callback.
pub fn notify_with_data<F>(pfn_notify: Option<F>, user_data: *mut c_void) -> Result<(), cl_int> {
    if pfn_notify.is_none() && !user_data.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}
