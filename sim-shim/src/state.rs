//! Process-wide state: the configuration, the host tree, and which fds are simulated render
//! nodes.
//!
//! The process has one simulated GPU (made on first use, kept until exit). Every `open` of a
//! node is a new DRM file of it, so two opens share no GEM handles but the same GPU, as two
//! opens of a real node; `dup` and `fcntl(F_DUPFD)` share the file.
//!
//! Locking: the fd table's lock is held only around the real `close`/`dup`/`eventfd` calls
//! and table updates, never while the simulator runs (its threads call back into the shim's
//! `close`/`fstat` hooks), and a device is dropped only after the lock is released.

use std::cell::RefCell;
use std::collections::HashMap;
use std::os::raw::c_int;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use kmd_iface::seam::Errno;
use sim::{SimConfig, SimDevice, SimGpu};

use crate::config::{self, Config};
use crate::fork::{self, Channel, Pending};
use crate::paths::{Minor, Tree};

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
            let module = match config.kmd {
                sim::Kmd::I915 => "i915",
                sim::Kmd::Xe => "xe",
            };
            Tree::create(&std::env::temp_dir(), module)
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

/// What a simulated node fd refers to.
#[derive(Clone)]
pub enum Node {
    Live(Arc<SimDevice>, Arc<DrmFile>),
    /// Inherited across `fork`: the GPU's threads stayed in the parent, which serves this
    /// process's requests on the channel (see `fork`); `None` where there is none (an fd
    /// inherited from a process that itself inherited it).
    Forked(Minor, Option<Arc<Channel>>),
}

impl Node {
    pub fn minor(&self) -> Minor {
        match self {
            Node::Live(_, f) => f.minor,
            Node::Forked(m, _) => *m,
        }
    }
}

pub use crate::drm_file::DrmFile;
use crate::drm_file::MasterSlot;

/// The process's simulated GPU, which the faked sysfs shows and every `open` of a node opens
/// a file of. Made by the first `open` or sysfs read, so that discovery reads the ids of the
/// GPU it then opens; it lives as long as the process (a forked child makes its own).
pub struct Shown {
    pub gpu: SimGpu,
    /// Which of its files is DRM master.
    pub master: Arc<MasterSlot>,
    /// Its PCI directory, canonical (to map `realpath` results back).
    pub pci_dir: PathBuf,
}

#[derive(Default)]
pub struct Table {
    fds: HashMap<c_int, Node>,
    /// The newest device, kept alive for its sysfs tree.
    pub shown: Option<Shown>,
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

/// The shown device's canonical PCI directory.
pub fn device_dir() -> Option<PathBuf> {
    table().shown.as_ref().map(|s| s.pci_dir.clone())
}

/// A new simulated GPU of the configured kind.
fn new_gpu(shim: &Shim) -> Result<SimGpu, Errno> {
    let config = SimConfig {
        command_log: std::env::var_os(config::COMMAND_LOG_VAR).map(PathBuf::from),
        part: shim.config.part,
        ..SimConfig::default()
    };
    let gpu = SimGpu::new(shim.config.platform, shim.config.kmd, config).map_err(|e| match e {
        sim::OpenError::NoMemory => Errno::ENOMEM,
        sim::OpenError::Unsupported { .. } | sim::OpenError::NotAPart { .. } => Errno::ENODEV,
        sim::OpenError::Sanitize(e) => {
            // The render node cannot be opened: say why, once per attempt.
            eprintln!("sim-shim: INTEL_GPU_SANITIZE: {e}");
            Errno::EINVAL
        }
        sim::OpenError::Jit(e) => {
            eprintln!("sim-shim: {e}");
            Errno::EINVAL
        }
    })?;
    // `api` is the OpenCL ICD's check; the program under the shim uses its own runtime.
    if sim::sanitize::Settings::from_env().is_ok_and(|s| s.checks.has(sim::sanitize::Check::Api)) {
        eprintln!(
            "sim-shim: INTEL_GPU_SANITIZE: {}",
            sim::sanitize::API_ELSEWHERE
        );
    }
    // The shim shows the GPU's sysfs tree. The simulator makes a tree on first use, and
    // making it calls the shim's own hooks (open, close), which take the table's lock: make
    // it here, before any caller holds that lock.
    gpu.sysfs().materialize().map_err(|_| Errno::ENODEV)?;
    Ok(gpu)
}

/// The shown GPU, made (outside the table's lock: building one calls the shim's own hooks)
/// and shown if there is none yet.
fn shown_gpu(shim: &Shim) -> Result<(SimGpu, Arc<MasterSlot>), Errno> {
    if let Some(s) = table().shown.as_ref() {
        return Ok((s.gpu.clone(), s.master.clone()));
    }
    let gpu = new_gpu(shim)?;
    let pci = gpu.sysfs().pci_dir();
    let pci_dir = std::fs::canonicalize(pci).unwrap_or_else(|_| pci.to_owned());
    let mut t = table();
    if let Some(s) = t.shown.as_ref() {
        // Another thread showed one meanwhile; this one goes (after the lock is released).
        let found = (s.gpu.clone(), s.master.clone());
        drop(t);
        drop(gpu);
        return Ok(found);
    }
    // A failure leaves the link dangling: sysfs reads then fail with ENOENT, as for a device
    // without those files.
    let _ = shim.tree.set_device_dir(&pci_dir);
    let master = Arc::<MasterSlot>::default();
    t.shown = Some(Shown {
        gpu: gpu.clone(),
        master: master.clone(),
        pci_dir,
    });
    Ok((gpu, master))
}

/// A new DRM file of the process's GPU for an `open` of the node `minor`.
pub fn file_for_open(shim: &Shim, minor: Minor) -> Result<(Arc<SimDevice>, DrmFile), Errno> {
    let admin = crate::drm_file::cap_sys_admin();
    let (gpu, master) = shown_gpu(shim)?;
    Ok((gpu.open_file(), DrmFile::new(minor, master, admin)))
}

/// Before a sysfs path is used: some device must be shown.
pub fn ensure_shown(shim: &Shim) {
    let _ = shown_gpu(shim);
}

/// What the fork handlers hold from prepare to parent/child: the table (no other thread may
/// change it while the process forks), the list of served channels, and the channels made
/// for this fork.
struct Held {
    table: MutexGuard<'static, Table>,
    served: MutexGuard<'static, Vec<c_int>>,
    pending: Vec<Pending>,
}

thread_local! {
    static HELD: RefCell<Option<Held>> = const { RefCell::new(None) };
}

/// `pthread_atfork` prepare: a channel (and a thread serving it) for every open DRM file, so
/// the child can keep using it; then the table is held while the process forks. The channels
/// are made before the lock is taken: starting a thread may call the shim's hooks.
pub extern "C" fn before_fork() {
    let mut files: Vec<(Arc<SimDevice>, Arc<DrmFile>)> = Vec::new();
    for node in table().fds.values() {
        if let Node::Live(dev, file) = node {
            if !files.iter().any(|(_, f)| Arc::ptr_eq(f, file)) {
                files.push((dev.clone(), file.clone()));
            }
        }
    }
    let mut pending = Vec::new();
    if !files.is_empty() {
        let serial = sim::share_bo_pages();
        for (dev, file) in files {
            // Without a channel, the child's fds of that file answer EIO.
            if let Ok(p) = fork::open_channel(dev, file, serial) {
                pending.push(p);
            }
        }
    }
    let table = table();
    let served = fork::hold_served();
    HELD.with(|h| {
        *h.borrow_mut() = Some(Held {
            table,
            served,
            pending,
        })
    });
}

pub extern "C" fn after_fork_parent() {
    if let Some(held) = HELD.with(|h| h.borrow_mut().take()) {
        for p in held.pending {
            p.close();
        }
    }
}

/// In the child, the simulated GPUs' threads do not exist: inherited fds forward to the
/// parent through the channels made for this fork, and the devices are leaked rather than
/// dropped (dropping would wait for those threads; their BO mappings stay, being what the
/// parent's BOs older than the fork are mapped at here).
pub extern "C" fn after_fork_child() {
    let Some(mut held) = HELD.with(|h| h.borrow_mut().take()) else {
        return;
    };
    fork::close_inherited_served(&mut held.served);
    let mut channels: Vec<(Arc<DrmFile>, Arc<Channel>)> = held
        .pending
        .drain(..)
        .map(|p| (p.file.clone(), p.into_channel()))
        .collect();
    let t = &mut held.table;
    for node in t.fds.values_mut() {
        let channel = match &*node {
            Node::Live(_, file) => channels
                .iter()
                .find(|(f, _)| Arc::ptr_eq(f, file))
                .map(|(_, c)| c.clone()),
            Node::Forked(..) => None,
        };
        let forked = Node::Forked(node.minor(), channel);
        if let Node::Live(dev, _) = std::mem::replace(node, forked) {
            std::mem::forget(dev);
        }
    }
    channels.clear();
    if let Some(shown) = t.shown.take() {
        std::mem::forget(shown.gpu);
    }
}

/// The tree's directory and the process that made it (a forked child must not remove it).
static MADE: OnceLock<(PathBuf, u32)> = OnceLock::new();

extern "C" fn remove_tree() {
    // Devices still open at exit are never dropped (statics are not): their sysfs trees go
    // here, first (a path inside one maps back through the shim's tree while that exists). A
    // forked child's inherited devices are the parent's and stay.
    if let Some(m) = TABLE.get() {
        // Collected under the lock, removed after it: removing calls the shim's own hooks.
        let roots: Vec<PathBuf> = match m.try_lock() {
            Ok(t) => {
                let live = t.fds.values().filter_map(|n| match n {
                    Node::Live(d, _) => Some(d),
                    Node::Forked(..) => None,
                });
                live.map(|d| d.sysfs().root().to_owned())
                    .chain(t.shown.as_ref().map(|s| s.gpu.sysfs().root().to_owned()))
                    .collect()
            }
            Err(_) => Vec::new(),
        };
        for root in roots {
            let _ = std::fs::remove_dir_all(root);
        }
    }
    if let Some((dir, pid)) = MADE.get() {
        if *pid == std::process::id() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn remove_at_exit(dir: PathBuf) {
    let _ = MADE.set((dir, std::process::id()));
}

/// The removal runs as the library's ELF destructor: those run from `_dl_fini`, which the
/// dynamic loader registered before anything else, so after every exit handler of the program
/// and its libraries, which may still use the tree (IGT's writes debugfs's
/// `i915_gem_drop_caches` and reopens the node).
#[used]
#[link_section = ".fini_array"]
static REMOVE_AT_EXIT: extern "C" fn() = remove_tree;
