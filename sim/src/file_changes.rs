//! Whether the files of some directories may have changed since the last look: the sysfs
//! tree's property files are read before every submission (a user's write takes effect at the
//! next one, as the kernel's does at once), and reading two files is ten system calls where
//! asking inotify is one. Anything the watch cannot vouch for counts as a change: no inotify
//! (the files are then read every time, as before), an overflowed queue, a directory that
//! could not be watched, a forked child (which shares the parent's queue of events: either
//! could take the other's).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use nix::errno::Errno;
use nix::sys::inotify::{AddWatchFlags, InitFlags, Inotify};

/// Events that may change what a file in a watched directory reads.
fn changing() -> AddWatchFlags {
    AddWatchFlags::IN_MODIFY
        | AddWatchFlags::IN_CLOSE_WRITE
        | AddWatchFlags::IN_ATTRIB
        | AddWatchFlags::IN_CREATE
        | AddWatchFlags::IN_DELETE
        | AddWatchFlags::IN_MOVED_FROM
        | AddWatchFlags::IN_MOVED_TO
        | AddWatchFlags::IN_DELETE_SELF
        | AddWatchFlags::IN_MOVE_SELF
}

/// Directories watched, and the files read since the last change among them.
#[derive(Debug, Default)]
pub(crate) struct FileChanges {
    /// Made at the first watch, with the process that made it; `Err` where inotify is not
    /// to be had.
    inotify: Option<Result<(Inotify, u32), Errno>>,
    dirs: HashSet<PathBuf>,
    unchanged: HashSet<PathBuf>,
}

impl FileChanges {
    /// Whether `file` reads as it did when [`FileChanges::read`] was last told of it: no
    /// event in the watched directories since (the events are taken, so a change forgets
    /// every file read before it).
    pub fn unchanged(&mut self, file: &Path) -> bool {
        let Some(Ok((inotify, pid))) = &self.inotify else {
            return false;
        };
        if *pid != std::process::id() {
            return false;
        }
        match inotify.read_events() {
            Err(Errno::EAGAIN) => {}
            // Events (an overflow is one), or a failure to tell: everything is read again.
            Ok(_) | Err(_) => {
                self.unchanged.clear();
                // A directory removed and made again needs a new watch.
                self.dirs.clear();
            }
        }
        self.unchanged.contains(file)
    }

    /// Watches `file`'s directory; call before reading the file, then [`FileChanges::read`]
    /// after, so that a write between the two shows as a change.
    pub fn watch(&mut self, file: &Path) {
        let inotify = self.inotify.get_or_insert_with(|| {
            Inotify::init(InitFlags::IN_NONBLOCK | InitFlags::IN_CLOEXEC)
                .map(|i| (i, std::process::id()))
        });
        let (Ok((inotify, _)), Some(dir)) = (inotify, file.parent()) else {
            return;
        };
        if !self.dirs.contains(dir) && inotify.add_watch(dir, changing()).is_ok() {
            self.dirs.insert(dir.to_path_buf());
        }
    }

    /// Notes that `file` was read after [`FileChanges::watch`]: it reads the same until an
    /// event in its directory.
    pub fn read(&mut self, file: &Path) {
        if file.parent().is_some_and(|d| self.dirs.contains(d)) {
            self.unchanged.insert(file.to_path_buf());
        }
    }
}
