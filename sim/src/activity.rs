//! What a GEM object is busy with: the requests using it, shared by all its handles in every
//! file, which GEM_BUSY and the waits look at.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::sync::Fence;

/// A request using an object: its fence, the engine (index) it runs on and whether it writes
/// the object (EXEC_OBJECT_WRITE).
#[derive(Debug, Clone)]
pub struct Request {
    pub fence: Arc<Fence>,
    pub engine: usize,
    pub write: bool,
}

/// The requests using an object that were still running when the newest was added: the
/// fences of its reservation object, which busy and wait look at. One per object, shared by
/// its handles in every file (a handle from GEM_OPEN or a PRIME import sees the requests of
/// all files, as the kernel tracks them per object).
#[derive(Debug, Default)]
pub struct Activity(Mutex<Vec<Request>>);

impl Activity {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Vec<Request>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
