//! sync_files: i915's in/out fences (I915_EXEC_FENCE_IN/OUT) and syncobj's
//! EXPORT/IMPORT_SYNC_FILE. The simulator has no kernel to create real sync_files, so one is
//! an eventfd that becomes readable (POLLIN) when the fence signals, which is what waiters on
//! a sync_file poll for; the fd is the caller's to close. Only fds handed out here are
//! accepted back: anything else is EINVAL, as the kernel answers for a file that is not a
//! sync_file. They are known process-wide (a sync file of one DRM file, or GPU, is accepted by
//! another, as the kernel's are), by fd number.

use std::collections::HashMap;
use std::os::fd::{IntoRawFd, OwnedFd, RawFd};
use std::sync::{Arc, Mutex, MutexGuard};

use kmd_iface::seam::Errno;
use nix::sys::eventfd::{EfdFlags, EventFd};
use nix::sys::stat::fstat;

use super::Fence;

/// fd -> (inode of the eventfd, fence), for every sync file of the process. The inode tells a
/// closed-and-reused fd number of another kind of file apart.
type Files = HashMap<RawFd, (u64, Arc<Fence>)>;

static FILES: Mutex<Option<Files>> = Mutex::new(None);

fn files() -> MutexGuard<'static, Option<Files>> {
    FILES.lock().unwrap_or_else(|e| e.into_inner())
}

/// A DRM file's view of the sync files: it exports into the process-wide table and remembers
/// its own exports (for the fuzz driver to close).
#[derive(Debug, Default)]
pub struct SyncFiles {
    mine: Vec<(RawFd, u64)>,
}

fn inode(fd: RawFd) -> Option<u64> {
    fstat(fd).ok().map(|s| s.st_ino)
}

impl SyncFiles {
    /// A new fd for `fence`, readable once the fence signals.
    pub fn export(&mut self, fence: Arc<Fence>) -> Result<RawFd, Errno> {
        // Forget fds the user has closed (or whose number now names another file).
        self.mine.retain(|&(fd, ino)| inode(fd) == Some(ino));
        let efd = OwnedFd::from(EventFd::from_value_and_flags(0, EfdFlags::EFD_CLOEXEC)?);
        // Our own reference to the eventfd, written when the fence signals and then closed.
        let ours = efd.try_clone().map_err(|_| Errno::EMFILE)?;
        fence.on_signal(move |_| {
            let _ = nix::unistd::write(&ours, &1u64.to_ne_bytes());
        });
        let fd = efd.into_raw_fd();
        let ino = inode(fd).ok_or(Errno::EBADF)?;
        let mut all = files();
        let all = all.get_or_insert_with(HashMap::new);
        all.retain(|&fd, (ino, _)| inode(fd) == Some(*ino));
        all.insert(fd, (ino, fence));
        self.mine.push((fd, ino));
        Ok(fd)
    }

    /// The fds this file handed out and still open (the fuzz driver closes them after each
    /// input).
    pub fn exported(&self) -> Vec<RawFd> {
        self.mine
            .iter()
            .filter(|&&(fd, ino)| inode(fd) == Some(ino))
            .map(|&(fd, _)| fd)
            .collect()
    }

    /// The fence behind a sync file fd of this process.
    pub fn import(&self, fd: RawFd) -> Result<Arc<Fence>, Errno> {
        match files().as_ref().and_then(|m| m.get(&fd)) {
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
