//! The C arguments every entry point checks alike: clGet*Info answers written the way every
//! query must (size check, optional value, optional size), error codes stored where asked,
//! arrays given as pointer and count, and callbacks given with their user data.

use std::ffi::c_void;

use opencl_sys::{cl_int, cl_uint, CL_INVALID_VALUE, CL_OUT_OF_HOST_MEMORY, CL_SUCCESS};

use crate::core::destructors::{Destructor, Destructors};
use crate::core::handle::{ClObject, Handle};
use crate::core::info::Info;
use crate::core::reason::why;

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
            return why(CL_INVALID_VALUE, || {
                format!(
                    "param_value_size {size} is smaller than the answer's {} bytes",
                    bytes.len()
                )
            });
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
        (true, _) => Err(why(CL_INVALID_VALUE, || {
            format!("a list of {n} element(s) is given as a NULL pointer")
        })),
        // SAFETY: the caller's array of n elements.
        (false, n) => Ok(unsafe { std::slice::from_raw_parts(p, n) }),
    }
}

/// Writes a list the application asked for: at most `n` of `items` into `out` (when given),
/// and how many there are into `count` (when given).
///
/// # Safety
/// `out` NULL or `n` writable elements; `count` NULL or valid.
pub unsafe fn list<T: Copy>(items: &[T], n: cl_uint, out: *mut T, count: *mut cl_uint) {
    if !out.is_null() {
        for (k, x) in items.iter().take(n as usize).enumerate() {
            // SAFETY: the caller's array of n elements.
            unsafe { *out.add(k) = *x };
        }
    }
    if !count.is_null() {
        // SAFETY: the caller's pointer.
        unsafe { *count = items.len() as cl_uint };
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

/// The object `handle` names and the application's callback for it: the handle's error, or
/// CL_INVALID_VALUE for no callback.
pub fn with_callback<T: ClObject, F>(
    handle: *mut c_void,
    pfn_notify: Option<F>,
) -> Result<(std::sync::Arc<Handle<T>>, F), cl_int> {
    let object = Handle::<T>::get(handle)?;
    Ok((object, pfn_notify.ok_or(CL_INVALID_VALUE)?))
}

/// clSet*DestructorCallback: registers `pfn_notify` with the destructors (`of`) of the object
/// `handle` names.
pub fn set_destructor<T: ClObject, H: Copy>(
    handle: *mut c_void,
    pfn_notify: Option<Destructor<H>>,
    user_data: *mut c_void,
    of: fn(&T) -> &Destructors<H>,
) -> cl_int {
    status(|| {
        let (object, f) = with_callback::<T, _>(handle, pfn_notify)?;
        of(&object.obj).add(f, user_data);
        Ok(())
    })
}

/// A callback with its user data: CL_INVALID_VALUE for user data without a callback.
pub fn notify_with_data<F>(pfn_notify: Option<F>, user_data: *mut c_void) -> Result<(), cl_int> {
    if pfn_notify.is_none() && !user_data.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}
