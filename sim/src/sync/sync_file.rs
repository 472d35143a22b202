//! i915's sync_file in/out fences (I915_EXEC_FENCE_IN/OUT). The simulator has no kernel to
//! create real sync_files, so an out-fence is an eventfd that is readable (POLLIN) once the
//! fence has signalled, which is what waiters on a sync_file poll for; the fd is the caller's
//! to close. Only fds handed out here are accepted back as in-fences: anything else is EINVAL,
//! as the kernel answers for a file that is not a sync_file.

use std::collections::HashMap;
use std::os::fd::{IntoRawFd, RawFd};
use std::sync::Arc;

use kmd_iface::seam::Errno;
use nix::sys::eventfd::{EfdFlags, EventFd};
use nix::sys::stat::fstat;

use super::Fence;

#[derive(Debug, Default)]
pub struct SyncFiles {
    /// fd -> (inode of the eventfd, fence). The inode tells a closed-and-reused fd number apart.
    files: HashMap<RawFd, (u64, Arc<Fence>)>,
}

fn inode(fd: RawFd) -> Option<u64> {
    fstat(fd).ok().map(|s| s.st_ino)
}

impl SyncFiles {
    /// A new fd for `fence` (already signalled: execution is synchronous).
    pub fn export(&mut self, fence: Arc<Fence>) -> Result<RawFd, Errno> {
        // Forget fds the user has closed (or whose number now names another file).
        self.files.retain(|&fd, (ino, _)| inode(fd) == Some(*ino));
        let value = u32::from(fence.is_signaled());
        let efd = EventFd::from_value_and_flags(value, EfdFlags::EFD_CLOEXEC)?;
        let fd = std::os::fd::OwnedFd::from(efd).into_raw_fd();
        let ino = inode(fd).ok_or(Errno::EBADF)?;
        self.files.insert(fd, (ino, fence));
        Ok(fd)
    }

    /// The fds handed out and still open (the fuzz driver closes them after each input).
    pub fn exported(&self) -> Vec<RawFd> {
        self.files
            .iter()
            .filter(|(&fd, (ino, _))| inode(fd) == Some(*ino))
            .map(|(&fd, _)| fd)
            .collect()
    }

    /// The fence behind an fd this device exported.
    pub fn import(&self, fd: RawFd) -> Result<Arc<Fence>, Errno> {
        match self.files.get(&fd) {
            Some((ino, f)) if inode(fd) == Some(*ino) => Ok(f.clone()),
            _ => Err(Errno::EINVAL),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::{BorrowedFd, FromRawFd, OwnedFd};

    #[test]
    fn exported_fds_poll_ready_and_come_back() {
        let mut s = SyncFiles::default();
        let f = Fence::signaled();
        let fd = s.export(f.clone()).unwrap();
        // SAFETY: fd was just created by export and is open.
        let b = unsafe { BorrowedFd::borrow_raw(fd) };
        let mut pfd = [nix::poll::PollFd::new(b, nix::poll::PollFlags::POLLIN)];
        assert_eq!(
            nix::poll::poll(&mut pfd, nix::poll::PollTimeout::ZERO),
            Ok(1)
        );
        assert!(Arc::ptr_eq(&s.import(fd).unwrap(), &f));
        assert_eq!(s.import(0).unwrap_err(), Errno::EINVAL);
        // SAFETY: we own fd (export hands ownership to the caller) and close it once.
        drop(unsafe { OwnedFd::from_raw_fd(fd) });
        assert_eq!(s.import(fd).unwrap_err(), Errno::EINVAL);
    }
}
