//! CL objects as handles: every object the application sees starts with the ICD loader's
//! dispatch-table pointer (cl_khr_icd), carries the reference count the application manages,
//! and is known to a registry so a stale or foreign handle is refused with the entry point's
//! error instead of being dereferenced.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::{cl_int, cl_uint};

/// Which CL type a handle is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Platform,
    Device,
    Context,
    Queue,
    Mem,
    Program,
    Kernel,
    Event,
    Sampler,
}

/// A CL object type: its kind and the error a bad handle of it gets.
pub trait ClObject: Send + Sync + 'static {
    const KIND: Kind;
    const INVALID: cl_int;
    /// Called when the last reference goes, with the handle value the application had.
    fn destroyed(&self, _raw: *mut c_void) {}
    /// Called when the application's reference count reaches zero: the object is gone as far
    /// as the API is concerned, though commands may still hold it.
    fn released(&self) {}
}

/// The memory behind a handle. `#[repr(C)]` keeps `dispatch` at offset 0, where the loader
/// reads it.
#[repr(C)]
pub struct Handle<T: ClObject> {
    dispatch: *const cl_icd_dispatch,
    refs: AtomicU32,
    pub obj: T,
}

// SAFETY: `dispatch` points at the immutable static dispatch table; the rest is T's.
unsafe impl<T: ClObject> Send for Handle<T> {}
// SAFETY: as above.
unsafe impl<T: ClObject> Sync for Handle<T> {}

impl<T: ClObject> Drop for Handle<T> {
    fn drop(&mut self) {
        let raw = self as *mut Handle<T> as *mut c_void;
        self.obj.destroyed(raw);
    }
}

/// Live handles by address.
static LIVE: LazyLock<Mutex<HashMap<usize, Kind>>> = LazyLock::new(Default::default);

fn live() -> MutexGuard<'static, HashMap<usize, Kind>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

impl<T: ClObject> Handle<T> {
    /// A new handle with reference count 1, returned as the pointer the application gets
    /// and the driver's own reference.
    pub fn create(obj: T) -> (*mut c_void, Arc<Handle<T>>) {
        let arc = Arc::new(Handle {
            dispatch: crate::icd::dispatch(),
            refs: AtomicU32::new(1),
            obj,
        });
        let raw = Arc::into_raw(arc.clone()) as *mut c_void;
        live().insert(raw as usize, T::KIND);
        (raw, arc)
    }

    /// The object behind `raw`, or `T::INVALID`.
    pub fn get(raw: *mut c_void) -> Result<Arc<Handle<T>>, cl_int> {
        let map = live();
        if map.get(&(raw as usize)) != Some(&T::KIND) {
            return Err(T::INVALID);
        }
        let p = raw as *const Handle<T>;
        // SAFETY: the registry holds `raw` only while the handle's own Arc reference (from
        // `create`) is alive, and we hold the registry lock, so the count cannot reach zero
        // between this increment and `from_raw`.
        unsafe {
            Arc::increment_strong_count(p);
            Ok(Arc::from_raw(p))
        }
    }

    /// The application's pointer to this object.
    pub fn raw(self: &Arc<Self>) -> *mut c_void {
        Arc::as_ptr(self) as *mut c_void
    }

    pub fn ref_count(&self) -> cl_uint {
        self.refs.load(Ordering::SeqCst)
    }

    /// clRetain*.
    pub fn retain(raw: *mut c_void) -> cl_int {
        match Self::get(raw) {
            Ok(h) => {
                h.refs.fetch_add(1, Ordering::SeqCst);
                opencl_sys::CL_SUCCESS
            }
            Err(e) => e,
        }
    }

    /// clRelease*: at zero the handle stops being valid; the object lives on while the driver
    /// still holds it (a kernel its program, a command its buffers).
    pub fn release(raw: *mut c_void) -> cl_int {
        let mut map = live();
        if map.get(&(raw as usize)) != Some(&T::KIND) {
            return T::INVALID;
        }
        let p = raw as *const Handle<T>;
        // SAFETY: registered, so the handle's own reference is alive (see `get`).
        let h = unsafe { &*p };
        if h.refs.fetch_sub(1, Ordering::SeqCst) == 1 {
            map.remove(&(raw as usize));
            drop(map);
            h.obj.released();
            // SAFETY: this gives back the reference `create` leaked into `raw`, exactly once
            // (the registry entry is gone).
            drop(unsafe { Arc::from_raw(p) });
        }
        opencl_sys::CL_SUCCESS
    }
}

/// A static handle that is never released (platform, root devices): leaked once.
pub fn leak<T: ClObject>(obj: T) -> Arc<Handle<T>> {
    Handle::create(obj).1
}
