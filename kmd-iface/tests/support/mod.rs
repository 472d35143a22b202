//! A recording fake `DeviceFile` for wrapper tests: it logs every ioctl's request number and
//! argument bytes, and answers from a script, like a kernel would, in place.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use kmd_iface::seam::{DeviceFile, Errno, HeapBacking, Mapping};
use zerocopy::{FromBytes, Immutable, IntoBytes};

/// One recorded ioctl: the request and the argument bytes as the wrapper passed them in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub request: u64,
    pub arg: Vec<u8>,
}

impl Call {
    /// The argument decoded as the struct the request carries.
    pub fn arg<T: FromBytes>(&self) -> T {
        T::read_from_bytes(&self.arg).expect("argument has the struct's size")
    }
}

type Reply = Box<dyn FnMut(&mut [u8]) -> Result<i32, Errno> + Send>;

#[derive(Default)]
pub struct FakeDevice {
    calls: Mutex<Vec<Call>>,
    mmaps: Mutex<Vec<(u64, usize)>>,
    fixed_mmaps: Mutex<Vec<(u64, usize, usize)>>,
    script: Mutex<VecDeque<Reply>>,
}

impl std::fmt::Debug for FakeDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeDevice").finish_non_exhaustive()
    }
}

impl FakeDevice {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Scripts the next ioctl's answer: `f` sees the argument struct and may change it.
    pub fn on<T: FromBytes + IntoBytes + Immutable>(
        &self,
        mut f: impl FnMut(&mut T) -> Result<i32, Errno> + Send + 'static,
    ) {
        self.script
            .lock()
            .unwrap()
            .push_back(Box::new(move |bytes: &mut [u8]| {
                let mut v = T::read_from_bytes(bytes).expect("scripted struct matches the request");
                let r = f(&mut v);
                bytes.copy_from_slice(v.as_bytes());
                r
            }));
    }

    /// Scripts the next ioctl to fail with `errno` without touching the argument.
    pub fn fail(&self, errno: Errno) {
        self.script
            .lock()
            .unwrap()
            .push_back(Box::new(move |_| Err(errno)));
    }

    pub fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap().clone()
    }

    pub fn requests(&self) -> Vec<u64> {
        self.calls().iter().map(|c| c.request).collect()
    }

    pub fn mmaps(&self) -> Vec<(u64, usize)> {
        self.mmaps.lock().unwrap().clone()
    }

    /// `mmap_at` calls: (offset, length, address).
    pub fn fixed_mmaps(&self) -> Vec<(u64, usize, usize)> {
        self.fixed_mmaps.lock().unwrap().clone()
    }

    pub fn script_is_done(&self) -> bool {
        self.script.lock().unwrap().is_empty()
    }
}

impl DeviceFile for FakeDevice {
    unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        self.calls.lock().unwrap().push(Call {
            request,
            arg: arg.to_vec(),
        });
        let reply = self.script.lock().unwrap().pop_front();
        match reply {
            Some(mut f) => f(arg),
            None => Err(Errno::ENOTTY),
        }
    }

    fn mmap(&self, offset: u64, len: usize) -> Result<Mapping, Errno> {
        self.mmaps.lock().unwrap().push((offset, len));
        let backing = HeapBacking::zeroed(len).ok_or(Errno::EINVAL)?;
        Ok(Mapping::new(Arc::new(backing)))
    }

    /// Records the call and maps fresh zeroed pages at `at`, as the kernel would map the BO.
    unsafe fn mmap_at(&self, offset: u64, len: usize, at: *mut u8) -> Result<Mapping, Errno> {
        self.fixed_mmaps
            .lock()
            .unwrap()
            .push((offset, len, at as usize));
        let size = std::num::NonZeroUsize::new(len).ok_or(Errno::EINVAL)?;
        let addr = std::num::NonZeroUsize::new(at as usize).ok_or(Errno::EINVAL)?;
        use nix::sys::mman::{mmap_anonymous, MapFlags, ProtFlags};
        // SAFETY: the caller gave up the range at `at` (the trait's contract).
        let p = unsafe {
            mmap_anonymous(
                Some(addr),
                size,
                ProtFlags::PROT_READ | ProtFlags::PROT_WRITE,
                MapFlags::MAP_PRIVATE | MapFlags::MAP_FIXED,
            )
        }?;
        // SAFETY: the mapping just made, owned by nothing else.
        let pages = unsafe { kmd_iface::fixed_pages::FixedPages::adopt(p.cast(), len) };
        Ok(Mapping::new(Arc::new(pages)))
    }
}

/// Reads `len` bytes at a process address a wrapper put in an argument (the fake kernel's
/// `copy_from_user`).
///
/// # Safety
/// `addr` must be a pointer the wrapper under test placed in the argument of the ioctl being
/// answered, to at least `len` readable bytes, alive for that call.
pub unsafe fn read_user(addr: u64, len: usize) -> Vec<u8> {
    assert_ne!(addr, 0, "null user pointer");
    // SAFETY: per this function's contract.
    unsafe { std::slice::from_raw_parts(addr as *const u8, len) }.to_vec()
}

/// Reads a `T` at a process address (see [`read_user`]).
///
/// # Safety
/// As for [`read_user`] with `len = size_of::<T>()`.
pub unsafe fn read_user_struct<T: FromBytes>(addr: u64) -> T {
    // SAFETY: per this function's contract.
    T::read_from_bytes(&unsafe { read_user(addr, size_of::<T>()) }).unwrap()
}

/// Writes `bytes` at a process address (the fake kernel's `copy_to_user`).
///
/// # Safety
/// `addr` must be a buffer of at least `bytes.len()` writable bytes the wrapper under test placed
/// in the argument of the ioctl being answered.
pub unsafe fn write_user(addr: u64, bytes: &[u8]) {
    assert_ne!(addr, 0, "null user pointer");
    // SAFETY: per this function's contract; the buffer is the wrapper's, distinct from `bytes`.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), addr as *mut u8, bytes.len()) };
}

/// A range of this process's address space held with no access, to be given up to an
/// `mmap_at` (which replaces it and unmaps it when done: this value never unmaps it).
pub struct Reservation {
    pub at: *mut u8,
}

impl Reservation {
    pub fn new(len: usize) -> Reservation {
        use nix::sys::mman::{mmap_anonymous, MapFlags, ProtFlags};
        let len = std::num::NonZeroUsize::new(len).expect("a non-empty reservation");
        // SAFETY: a new private mapping nothing else refers to.
        let p = unsafe { mmap_anonymous(None, len, ProtFlags::PROT_NONE, MapFlags::MAP_PRIVATE) }
            .expect("address space for the reservation");
        Reservation {
            at: p.as_ptr().cast(),
        }
    }

    /// The address, for a call that takes the range over.
    pub fn give_up(&self) -> *mut u8 {
        self.at
    }
}
