//! CL objects as handles: every object the application sees starts with the ICD loader's
//! dispatch-table pointer (cl_khr_icd), carries the reference count the application manages,
//! and is known to a registry so a stale or foreign handle is refused with the entry point's
//! error instead of being dereferenced.
//!
//! The rule (OpenCL 3.0, clRelease*: an object is deleted once its count is zero *and* the
//! objects that hold it are gone): a handle stays valid for as long as the object lives, not
//! just while the application's count is above zero. A kernel holds its program, a queue its
//! context, a sub-buffer its buffer; the application may get such a parent back through a
//! query (CL_KERNEL_PROGRAM, CL_QUEUE_CONTEXT, CL_MEM_ASSOCIATED_MEMOBJECT, …) after releasing
//! its own references, and retain it again. Only a release that would take the count below
//! zero is refused.

use std::any::Any;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, OnceLock, Weak};

use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::{cl_int, cl_uint};

use crate::core::reason::why;

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
    Accelerator,
}

/// A CL object type: its kind and the error a bad handle of it gets.
pub trait ClObject: Send + Sync + 'static {
    const KIND: Kind;
    const INVALID: cl_int;
    /// Called when the last reference goes, with the handle value the application had.
    fn destroyed(&self, _raw: *mut c_void) {}
    /// Called when the application's reference count reaches zero: the object is gone as far
    /// as the application's own references are concerned, though other objects and commands
    /// may still hold it. Runs under the registry lock: it must not drop a handle.
    fn released(&self) {}
    /// Called when the application retains the object again after its count had reached zero
    /// (a handle got back through a query): undoes what `released` did.
    fn revived(&self) {}
}

/// The memory behind a handle. `#[repr(C)]` keeps `dispatch` at offset 0, where the loader
/// reads it.
#[repr(C)]
pub struct Handle<T: ClObject> {
    /// The dispatch table ([`set_dispatch`]); an AtomicPtr has a pointer's layout.
    dispatch: AtomicPtr<cl_icd_dispatch>,
    /// The application's count. While it is above zero the handle owns one strong reference
    /// to itself (leaked into the raw pointer), so the object lives at least that long.
    refs: AtomicU32,
    pub obj: T,
}

impl<T: ClObject> Drop for Handle<T> {
    fn drop(&mut self) {
        let raw = self as *mut Handle<T> as *mut c_void;
        live().remove(&(raw as usize));
        self.obj.destroyed(raw);
    }
}

/// The ICD dispatch table every handle starts with. The C ABI owns the table and sets it
/// before the loader sees a handle; the objects themselves never call through it.
static DISPATCH: OnceLock<&'static cl_icd_dispatch> = OnceLock::new();

/// Sets the dispatch table handles start with, once; the handles made before get it too.
pub fn set_dispatch(table: &'static cl_icd_dispatch) {
    if DISPATCH.set(table).is_err() {
        return;
    }
    // Dropped after the registry lock is: a last reference's drop takes it.
    let held: Vec<Arc<dyn Registered>> = live().values().filter_map(|(_, w)| w.upgrade()).collect();
    for h in &held {
        h.dispatch_slot().store(dispatch(), Ordering::SeqCst);
    }
}

fn dispatch() -> *mut cl_icd_dispatch {
    DISPATCH.get().map_or(std::ptr::null_mut(), |d| {
        *d as *const cl_icd_dispatch as *mut cl_icd_dispatch
    })
}

/// What the registry keeps of a live object: the object, type-erased, and its dispatch slot.
trait Registered: Send + Sync {
    fn any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync>;
    fn dispatch_slot(&self) -> &AtomicPtr<cl_icd_dispatch>;
}

impl<T: ClObject> Registered for Handle<T> {
    fn any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync> {
        self
    }

    fn dispatch_slot(&self) -> &AtomicPtr<cl_icd_dispatch> {
        &self.dispatch
    }
}

/// Live objects by handle address: a weak reference, so a lookup never revives an object
/// whose last reference is going.
type Live = HashMap<usize, (Kind, Weak<dyn Registered>)>;
static LIVE: LazyLock<Mutex<Live>> = LazyLock::new(Default::default);

fn live() -> MutexGuard<'static, Live> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

impl Kind {
    /// The C type of a handle of this kind.
    pub fn c_type(self) -> &'static str {
        match self {
            Kind::Platform => "cl_platform_id",
            Kind::Device => "cl_device_id",
            Kind::Context => "cl_context",
            Kind::Queue => "cl_command_queue",
            Kind::Mem => "cl_mem",
            Kind::Program => "cl_program",
            Kind::Kernel => "cl_kernel",
            Kind::Event => "cl_event",
            Kind::Sampler => "cl_sampler",
            Kind::Accelerator => "cl_accelerator_intel",
        }
    }
}

/// The object registered at `raw` if it is a `T` and still alive.
fn lookup<T: ClObject>(map: &Live, raw: *mut c_void) -> Result<Arc<Handle<T>>, cl_int> {
    let gone = || {
        why(T::INVALID, || {
            format!(
                "{raw:p} is not a {} this ICD made (its objects are released, or it never was one)",
                T::KIND.c_type()
            )
        })
    };
    match map.get(&(raw as usize)) {
        _ if raw.is_null() => Err(why(T::INVALID, || {
            format!("the {} is NULL", T::KIND.c_type())
        })),
        Some((kind, weak)) if *kind == T::KIND => weak
            .upgrade()
            .and_then(|r| r.any().downcast::<Handle<T>>().ok())
            .ok_or_else(gone),
        Some((kind, _)) => Err(why(T::INVALID, || {
            format!("{raw:p} is a {}, not a {}", kind.c_type(), T::KIND.c_type())
        })),
        None => Err(gone()),
    }
}

impl<T: ClObject> Handle<T> {
    /// A new handle with reference count 1, returned as the pointer the application gets
    /// and the driver's own reference.
    pub fn create(obj: T) -> (*mut c_void, Arc<Handle<T>>) {
        let arc = Arc::new(Handle {
            dispatch: AtomicPtr::new(dispatch()),
            refs: AtomicU32::new(1),
            obj,
        });
        let weak: Weak<dyn Registered> = Arc::downgrade(&arc) as _;
        // The application's reference: given back when its count reaches zero.
        let raw = Arc::into_raw(arc.clone()) as *mut c_void;
        live().insert(raw as usize, (T::KIND, weak));
        (raw, arc)
    }

    /// The object behind `raw`, or `T::INVALID`.
    pub fn get(raw: *mut c_void) -> Result<Arc<Handle<T>>, cl_int> {
        let map = live();
        lookup(&map, raw)
    }

    /// The application's pointer to this object.
    pub fn raw(self: &Arc<Self>) -> *mut c_void {
        Arc::as_ptr(self) as *mut c_void
    }

    pub fn ref_count(&self) -> cl_uint {
        self.refs.load(Ordering::SeqCst)
    }

    /// clRetain*: valid while the object lives; from zero the application owns it again.
    pub fn retain(raw: *mut c_void) -> cl_int {
        Self::counted(raw, |h| {
            if h.refs.fetch_add(1, Ordering::SeqCst) == 0 {
                // The application's reference again (see `create`).
                std::mem::forget(h.clone());
                h.obj.revived();
            }
            opencl_sys::CL_SUCCESS
        })
    }

    /// clRelease*: at zero the application's reference goes; the object lives on (and its
    /// handle stays valid) while other objects or commands still hold it. Releasing a handle
    /// whose count is already zero is refused.
    pub fn release(raw: *mut c_void) -> cl_int {
        Self::counted(raw, |h| {
            match h
                .refs
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            {
                Err(_) => {
                    return why(T::INVALID, || {
                        format!(
                            "the {}'s reference count is already zero: it was released more \
                             often than created and retained",
                            T::KIND.c_type()
                        )
                    })
                }
                Ok(1) => {
                    h.obj.released();
                    // SAFETY: gives back the application's reference (`create`, or `retain`
                    // from zero), exactly once: the count went 1 → 0 under the registry lock,
                    // and `h` still holds the object, so this is not the last reference.
                    unsafe { Arc::decrement_strong_count(Arc::as_ptr(h)) };
                }
                Ok(_) => {}
            }
            opencl_sys::CL_SUCCESS
        })
    }

    /// Changes the application's count of the object at `raw` under the registry lock, so
    /// retains and releases around zero are serialised.
    fn counted(raw: *mut c_void, change: impl FnOnce(&Arc<Self>) -> cl_int) -> cl_int {
        let map = live();
        let h = match lookup::<T>(&map, raw) {
            Ok(h) => h,
            Err(e) => return e,
        };
        let status = change(&h);
        // `h` may be the last reference now: its drop takes the registry lock.
        drop(map);
        drop(h);
        status
    }
}

/// A static handle that is never released (platform, root devices): leaked once.
pub fn leak<T: ClObject>(obj: T) -> Arc<Handle<T>> {
    Handle::create(obj).1
}
