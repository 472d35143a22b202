//! What a translator of pre-decoded instructions to host code (the `sim-jit` crate) needs of a
//! thread beyond the public API: the whole byte file, the executing channels, and retiring
//! instructions it ran exactly as the run loop does. Kept in its own file so that the thread's
//! layout (`regfile`) can change without touching this seam.

use super::advance;
use crate::regfile::{Thread, FLAG};

impl Thread {
    /// The thread's whole byte file (GRF, then the architecture registers); its length bounds
    /// every operand offset a decoded instruction holds.
    pub fn file(&self) -> &[u8] {
        &self.file
    }

    /// [`Thread::file`], writable.
    pub fn file_mut(&mut self) -> &mut [u8] {
        &mut self.file
    }

    /// The byte offset of the flag registers (f0.0 first) in [`Thread::file`].
    pub fn flag_offset(&self) -> usize {
        FLAG
    }

    /// The channels executing at [`Thread::ip`].
    pub fn active(&self) -> u32 {
        self.active
    }

    /// The first instruction a waiting channel resumes at (`u32::MAX`: none waits): the run
    /// loop lets those channels rejoin when sequential execution reaches it.
    pub fn next_wake(&self) -> u32 {
        self.next_wake
    }

    /// Counts and advances past `n` instructions that ran in sequence from [`Thread::ip`], as
    /// the run loop does after each (waiting channels rejoin where theirs is reached).
    pub fn retire(&mut self, n: u32) {
        for _ in 0..n {
            self.executed += 1;
            advance(self);
        }
    }
}
