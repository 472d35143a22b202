//! Destructor callbacks (clSetContextDestructorCallback, clSetMemObjectDestructorCallback):
//! kept in the order the application registered them, run most recently registered first when
//! the object is destroyed (the specification's order), each with its user data.

use std::ffi::c_void;
use std::sync::Mutex;

/// A destructor callback of objects whose handle is `H`.
pub type Destructor<H> = unsafe extern "C" fn(H, *mut c_void);

/// The destructor callbacks of one object, with their user data (an address).
pub struct Destructors<H>(Mutex<Vec<(Destructor<H>, usize)>>);

impl<H> Default for Destructors<H> {
    fn default() -> Self {
        Destructors(Mutex::default())
    }
}

impl<H: Copy> Destructors<H> {
    /// Registers `f` with the application's `user_data`.
    pub fn add(&self, f: Destructor<H>, user_data: *mut c_void) {
        let mut list = self.0.lock().unwrap_or_else(|e| e.into_inner());
        list.push((f, user_data as usize));
    }

    /// Runs the callbacks for the destroyed object `me`, most recently registered first.
    pub fn run(&self, me: H) {
        let callbacks = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        for (f, data) in callbacks.into_iter().rev() {
            // SAFETY: the application's callback with its own user data.
            unsafe { f(me, data as *mut c_void) };
        }
    }
}
