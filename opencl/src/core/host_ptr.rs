//! Application memory a command reads or writes on its queue's thread.

/// An application address a command reads or writes on the queue's thread. The application
/// keeps it valid until the command completes: the specification's rule for non-blocking
/// commands; blocking ones wait for completion before returning.
#[derive(Clone, Copy)]
pub struct HostPtr(pub usize);

impl HostPtr {
    /// The application's pointer; None for NULL.
    pub fn of(p: *const std::ffi::c_void) -> Option<HostPtr> {
        (!p.is_null()).then_some(HostPtr(p as usize))
    }

    /// # Safety
    /// `len` bytes at `at` past the address are the application's, writable, and nothing
    /// else uses them while the slice lives.
    pub unsafe fn bytes_mut<'a>(self, at: usize, len: usize) -> &'a mut [u8] {
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts_mut((self.0 + at) as *mut u8, len) }
    }
}
