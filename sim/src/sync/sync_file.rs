//! i915's sync_file in/out fences (I915_EXEC_FENCE_IN/OUT). The simulator has no kernel to
//! create real sync_files, so an out-fence is an eventfd that becomes readable (POLLIN) when the
//! fence signals, which is what waiters on a sync_file poll for; the fd is the caller's to
//! close. Only fds handed out here are accepted back as in-fences: anything else is EINVAL,
//! as the kernel answers for a file that is not a sync_file.

use std::collections::HashMap;
use std::os::fd::{IntoRawFd, OwnedFd, RawFd};
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
    /// A new fd for `fence`, readable once the fence signals.
    pub fn export(&mut self, fence: Arc<Fence>) -> Result<RawFd, Errno> {
        // Forget fds the user has closed (or whose number now names another file).
        self.files.retain(|&fd, (ino, _)| inode(fd) == Some(*ino));
        let efd = OwnedFd::from(EventFd::from_value_and_flags(0, EfdFlags::EFD_CLOEXEC)?);
        // Our own reference to the eventfd, written when the fence signals and then closed.
        let ours = efd.try_clone().map_err(|_| Errno::EMFILE)?;
        fence.on_signal(move |_| {
            let _ = nix::unistd::write(&ours, &1u64.to_ne_bytes());
        });
        let fd = efd.into_raw_fd();
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
    use std::os::fd::{BorrowedFd, FromRawFd};

    fn readable(fd: RawFd) -> bool {
        // SAFETY: the tests only poll fds export just created and has not closed.
        let b = unsafe { BorrowedFd::borrow_raw(fd) };
        let mut pfd = [nix::poll::PollFd::new(b, nix::poll::PollFlags::POLLIN)];
        nix::poll::poll(&mut pfd, nix::poll::PollTimeout::ZERO) == Ok(1)
    }

    #[test]
    fn exported_fds_poll_ready_once_signalled_and_come_back() {
        let mut s = SyncFiles::default();
        let f = Fence::new();
        let fd = s.export(f.clone()).unwrap();
        assert!(!readable(fd));
        f.signal(None);
        assert!(readable(fd));
        let done = s.export(Fence::signaled()).unwrap();
        assert!(readable(done));
        // SAFETY: we own done (export hands ownership to the caller) and close it once.
        drop(unsafe { OwnedFd::from_raw_fd(done) });
        assert!(Arc::ptr_eq(&s.import(fd).unwrap(), &f));
        assert_eq!(s.import(0).unwrap_err(), Errno::EINVAL);
        // SAFETY: we own fd (export hands ownership to the caller) and close it once.
        drop(unsafe { OwnedFd::from_raw_fd(fd) });
        assert_eq!(s.import(fd).unwrap_err(), Errno::EINVAL);
    }
}
