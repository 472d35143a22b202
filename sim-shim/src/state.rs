//! Process-wide state: the configuration, the host tree, and which fds are simulated render
//! nodes.
//!
//! Every `open` of the render node is a new simulated GPU with its own DRM file (the simulator
//! has one file per GPU), so two opens share no GEM handles, as two opens of a real node do
//! not; `dup` and `fcntl(F_DUPFD)` share the file. The GPU lives until its last fd closes.
//!
//! Locking: the fd table's lock is held only around the real `close`/`dup`/`eventfd` calls
//! and table updates, never while the simulator runs (its threads call back into the shim's
//! `close`/`fstat` hooks), and a device is dropped only after the lock is released.

use std::cell::RefCell;
use std::collections::HashMap;
use std::os::raw::c_int;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use sim::SimDevice;

use crate::config::{self, Config};
use crate::paths::Tree;

/// The configured shim, or `None` when the configuration is bad (the process then sees the
/// real machine; the reason is printed once on stderr).
pub struct Shim {
    pub config: Config,
    pub tree: Tree,
}

static SHIM: OnceLock<Option<Shim>> = OnceLock::new();

/// The shim, set up on first use of a faked path.
pub fn shim() -> Option<&'static Shim> {
    SHIM.get_or_init(|| {
        let value = std::env::var(config::VAR).ok();
        let built = config::parse(value.as_deref()).and_then(|config| {
            Tree::create(&std::env::temp_dir())
                .map(|tree| Shim { config, tree })
                .map_err(|e| format!("cannot build the /dev/dri and sysfs tree: {e}"))
        });
        match built {
            Ok(s) => {
                remove_at_exit(s.tree.root().to_owned());
                Some(s)
            }
            Err(e) => {
                eprintln!("intel-gpu-sim-shim: {e}; the simulated GPU is absent");
                None
            }
        }
    })
    .as_ref()
}

/// The shim if something already set it up (no fd or path can refer to its tree otherwise).
pub fn shim_if_set() -> Option<&'static Shim> {
    SHIM.get().and_then(Option::as_ref)
}

/// What a simulated render-node fd refers to.
#[derive(Clone)]
pub enum Node {
    Live(Arc<SimDevice>),
    /// Inherited across `fork`: the GPU's threads stayed in the parent.
    Forked,
}

#[derive(Default)]
pub struct Table {
    fds: HashMap<c_int, Node>,
    /// The newest device, kept alive for its sysfs tree (which the faked sysfs shows).
    pub newest: Option<Arc<SimDevice>>,
}

impl Table {
    pub fn get(&self, fd: c_int) -> Option<Node> {
        self.fds.get(&fd).cloned()
    }

    pub fn insert(&mut self, fd: c_int, node: Node) -> Option<Node> {
        self.fds.insert(fd, node)
    }

    pub fn remove(&mut self, fd: c_int) -> Option<Node> {
        self.fds.remove(&fd)
    }
}

static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();

fn table_mutex() -> &'static Mutex<Table> {
    TABLE.get_or_init(Mutex::default)
}

pub fn table() -> MutexGuard<'static, Table> {
    table_mutex().lock().unwrap_or_else(|e| e.into_inner())
}

/// The simulated node behind `fd`, if it is one.
pub fn node(fd: c_int) -> Option<Node> {
    if fd < 0 {
        return None;
    }
    table().get(fd)
}

thread_local! {
    static HELD: RefCell<Option<MutexGuard<'static, Table>>> = const { RefCell::new(None) };
}

/// `pthread_atfork` prepare: no other thread may hold the table while the process forks.
pub extern "C" fn before_fork() {
    let g = table();
    HELD.with(|h| *h.borrow_mut() = Some(g));
}

pub extern "C" fn after_fork_parent() {
    HELD.with(|h| drop(h.borrow_mut().take()));
}

/// In the child, the simulated GPUs' threads do not exist: inherited fds answer EIO, and
/// their devices are leaked rather than dropped (dropping would wait for those threads).
pub extern "C" fn after_fork_child() {
    HELD.with(|h| {
        if let Some(mut t) = h.borrow_mut().take() {
            for node in t.fds.values_mut() {
                if let Node::Live(dev) = std::mem::replace(node, Node::Forked) {
                    std::mem::forget(dev);
                }
            }
            if let Some(dev) = t.newest.take() {
                std::mem::forget(dev);
            }
        }
    });
}

/// The tree's directory and the process that made it (a forked child must not remove it).
static MADE: OnceLock<(PathBuf, u32)> = OnceLock::new();

extern "C" fn remove_tree() {
    if let Some((dir, pid)) = MADE.get() {
        if *pid == std::process::id() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn remove_at_exit(dir: PathBuf) {
    if MADE.set((dir, std::process::id())).is_ok() {
        // SAFETY: registers a plain `extern "C" fn()` that touches only a static; atexit has no
        // other precondition. (Failure only leaves the directory behind.)
        unsafe { nix::libc::atexit(remove_tree) };
    }
}
