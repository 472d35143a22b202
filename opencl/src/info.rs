//! clGet*Info answers: a typed value, written the way every query entry point must (size
//! check, optional value, optional size).

use std::ffi::c_void;

use opencl_sys::{
    cl_int, cl_name_version, CL_INVALID_VALUE, CL_NAME_VERSION_MAX_NAME_SIZE,
    CL_OUT_OF_HOST_MEMORY, CL_SUCCESS,
};

/// One query's answer.
pub enum Info {
    Uint(u32),
    Int(i32),
    Ulong(u64),
    Size(usize),
    Bool(bool),
    /// Written NUL-terminated.
    Str(String),
    Sizes(Vec<usize>),
    Uints(Vec<u32>),
    Ulongs(Vec<u64>),
    Ptr(*mut c_void),
    Ptrs(Vec<*mut c_void>),
    Bytes(Vec<u8>),
    NameVersions(Vec<(String, u32)>),
}

impl Info {
    fn bytes(self) -> Vec<u8> {
        match self {
            Info::Uint(v) => v.to_ne_bytes().to_vec(),
            Info::Int(v) => v.to_ne_bytes().to_vec(),
            Info::Ulong(v) => v.to_ne_bytes().to_vec(),
            Info::Size(v) => v.to_ne_bytes().to_vec(),
            Info::Bool(b) => (b as u32).to_ne_bytes().to_vec(),
            Info::Str(s) => {
                let mut v = s.into_bytes();
                v.push(0);
                v
            }
            Info::Sizes(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            Info::Uints(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            Info::Ulongs(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            Info::Ptr(p) => (p as usize).to_ne_bytes().to_vec(),
            Info::Ptrs(v) => v.iter().flat_map(|p| (*p as usize).to_ne_bytes()).collect(),
            Info::Bytes(v) => v,
            Info::NameVersions(v) => v
                .iter()
                .flat_map(|(name, version)| {
                    let mut rec = vec![0u8; std::mem::size_of::<cl_name_version>()];
                    rec[..4].copy_from_slice(&version.to_ne_bytes());
                    let n = name.len().min(CL_NAME_VERSION_MAX_NAME_SIZE - 1);
                    rec[4..4 + n].copy_from_slice(&name.as_bytes()[..n]);
                    rec
                })
                .collect(),
        }
    }
}

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
