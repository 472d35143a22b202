//! A simulated GPU ([`SimGpu`]) and its open DRM files ([`SimDevice`]): each `open` of the
//! node is a new file of the same GPU, as on the kernel. Which kernel driver the files speak
//! is a [`Personality`]; this file names none of them.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use kmd_iface::seam::{DeviceFile, Errno, Mapping, SharedHostMemory};
use platform::Platform;

use crate::device_info::DeviceInfo;
use crate::flink::Names;
use crate::gem::GemTable;
use crate::gpu::{Gpu, GpuErrorRecord, KernelDriver};
use crate::i915::state as i915;
use crate::sync::{Doorbell, Fence, SyncFiles, SyncobjTable};
use crate::sysfs::SysfsTree;
use crate::xe::state as xe;
use crate::Kmd;

/// A simulated GPU: what all its DRM files share (engines, memory of named objects, the error
/// log, the sysfs tree, the global GEM names). A clone is another handle to the same GPU.
#[derive(Clone)]
pub struct SimGpu {
    personality: &'static dyn Personality,
    info: &'static DeviceInfo,
    gpu: Gpu,
    doorbell: Arc<Doorbell>,
    wait_limit: Option<Duration>,
    sysfs: Arc<SysfsTree>,
    names: Names,
}

impl SimGpu {
    /// A GPU of `info` whose files speak `personality`, its model built already.
    pub(crate) fn from_parts(
        personality: &'static dyn Personality,
        info: &'static DeviceInfo,
        gpu: Gpu,
        wait_limit: Option<Duration>,
        sysfs: Arc<SysfsTree>,
    ) -> SimGpu {
        SimGpu {
            personality,
            info,
            doorbell: gpu.doorbell().clone(),
            gpu,
            wait_limit,
            sysfs,
            names: Names::default(),
        }
    }

    /// Opens a new DRM file of this GPU (as the kernel's `drm_open`): its own GEM handles,
    /// syncobjs, contexts or exec queues and VMs; objects pass between files by global name.
    pub fn open_file(&self) -> Arc<SimDevice> {
        let mut state = State {
            gpu: self.gpu.clone(),
            gem: GemTable::default(),
            syncobjs: SyncobjTable::default(),
            sync_files: SyncFiles::default(),
            i915: i915::State::default(),
            xe: xe::State::default(),
        };
        self.personality.open_file(&mut state, self.info);
        Arc::new(SimDevice {
            personality: self.personality,
            info: self.info,
            state: Mutex::new(state),
            doorbell: self.doorbell.clone(),
            wait_limit: self.wait_limit,
            sysfs: self.sysfs.clone(),
            names: self.names.clone(),
        })
    }

    pub fn platform(&self) -> Platform {
        self.info.platform
    }

    /// The whole simulated sysfs tree.
    pub fn sysfs(&self) -> &SysfsTree {
        &self.sysfs
    }

    /// The captured GPU error states, oldest first.
    pub fn error_states(&self) -> Vec<GpuErrorRecord> {
        self.gpu.errors().records().to_vec()
    }
}

/// A kernel driver the render node speaks for (i915, xe): its ioctls, what a new file of it
/// holds, and what the GPU model asks of it.
pub(crate) trait Personality: Send + Sync {
    fn kmd(&self) -> Kmd;
    /// Answers an ioctl on `dev`, core DRM ioctls included.
    fn ioctl(&self, dev: &SimDevice, request: u64, arg: &mut [u8]) -> Result<i32, Errno>;
    /// Sets up a new file's state (i915: the default context).
    fn open_file(&self, st: &mut State, info: &'static DeviceInfo);
    /// The GPU model's view of this driver (hang rules, where error records go).
    fn kernel_driver(
        &self,
        info: &'static DeviceInfo,
        sysfs: Arc<SysfsTree>,
    ) -> Arc<dyn KernelDriver>;
}

/// Everything one open file of the simulated device holds.
pub(crate) struct State {
    pub gpu: Gpu,
    pub gem: GemTable,
    pub syncobjs: SyncobjTable,
    pub sync_files: SyncFiles,
    pub i915: i915::State,
    pub xe: xe::State,
}

/// One open DRM file of a simulated GPU (see [`SimGpu::open_file`]).
pub struct SimDevice {
    personality: &'static dyn Personality,
    info: &'static DeviceInfo,
    state: Mutex<State>,
    /// Rung whenever a fence signals or a syncobj changes; every waiter sleeps on it.
    doorbell: Arc<Doorbell>,
    wait_limit: Option<Duration>,
    /// The node's sysfs directory (PCI ids, error capture, engine properties).
    sysfs: Arc<SysfsTree>,
    /// The GPU's global GEM names.
    names: Names,
}

impl fmt::Debug for SimDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SimDevice")
            .field("platform", &self.info.platform)
            .field("kmd", &self.kmd())
            .finish()
    }
}

/// When a wait gives up.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Deadline {
    Never,
    At(Instant),
}

impl Deadline {
    /// A relative timeout in ns; negative means forever (i915 GEM_WAIT, xe WAIT_USER_FENCE).
    pub fn relative_ns(ns: i64) -> Deadline {
        match u64::try_from(ns) {
            Err(_) => Deadline::Never,
            Ok(ns) => Instant::now()
                .checked_add(Duration::from_nanos(ns))
                .map_or(Deadline::Never, Deadline::At),
        }
    }

    /// An absolute CLOCK_MONOTONIC time in ns (syncobj waits, xe ABSTIME).
    pub fn monotonic_ns(ns: i64) -> Deadline {
        // The farthest time there is: never (what callers pass for an unbounded wait).
        if ns == i64::MAX {
            return Deadline::Never;
        }
        let now = nix::time::clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC)
            .map(|t| t.tv_sec() as i128 * 1_000_000_000 + t.tv_nsec() as i128)
            .unwrap_or(0);
        let left = (ns as i128 - now).clamp(0, i64::MAX as i128) as i64;
        Deadline::relative_ns(left)
    }

    /// Nanoseconds left (0 once passed, i64::MAX for never).
    pub fn remaining_ns(self) -> i64 {
        match self {
            Deadline::Never => i64::MAX,
            Deadline::At(t) => {
                i64::try_from(t.saturating_duration_since(Instant::now()).as_nanos())
                    .unwrap_or(i64::MAX)
            }
        }
    }
}

impl SimDevice {
    pub fn platform(&self) -> Platform {
        self.info.platform
    }

    /// The GPU's sanitizer, when it runs with one (`INTEL_GPU_SANITIZE` or
    /// [`crate::SimConfig::sanitize`]): a driver in the same process tells it its buffers'
    /// exact sizes and its dispatches' kernel names.
    pub fn sanitizer(&self) -> Option<Arc<crate::sanitize::Sanitizer>> {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .gpu
            .sanitizer()
            .cloned()
    }

    pub fn kmd(&self) -> Kmd {
        self.personality.kmd()
    }

    pub fn info(&self) -> &'static DeviceInfo {
        self.info
    }

    /// The GPU this file belongs to, for opening more files of it.
    pub fn gpu(&self) -> SimGpu {
        SimGpu {
            personality: self.personality,
            info: self.info,
            gpu: self.lock().gpu.clone(),
            doorbell: self.doorbell.clone(),
            wait_limit: self.wait_limit,
            sysfs: self.sysfs.clone(),
            names: self.names.clone(),
        }
    }

    pub(crate) fn names(&self) -> &Names {
        &self.names
    }

    /// The captured GPU error states, oldest first (what `/sys/class/drm/card*/error` shows on
    /// a real device). Each record's `Display` is a one-line report.
    pub fn error_states(&self) -> Vec<GpuErrorRecord> {
        self.lock().gpu.errors().records().to_vec()
    }

    /// The render node's sysfs directory, laid out as the kernel driver's (see
    /// [`crate::sysfs`]); removed when the device is dropped.
    pub fn sysfs_dir(&self) -> &std::path::Path {
        self.sysfs.node_dir()
    }

    /// The whole simulated sysfs tree.
    pub fn sysfs(&self) -> &SysfsTree {
        &self.sysfs
    }

    /// The pages an `mmap` at GEM mmap offset `offset` would map, for a forked child of this
    /// process to map too (see [`crate::share_bo_pages`]).
    pub fn shared_pages(&self, offset: u64, len: usize) -> Result<crate::SharedPages, Errno> {
        self.lock().gem.shared_pages(offset, len)
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock would be a simulator bug; the state stays usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes every waiter to re-check its condition.
    pub(crate) fn notify(&self) {
        self.doorbell.ring();
    }

    /// Sleeps until `check` yields a value or an error, or the deadline passes (ETIME).
    /// `poll` bounds each sleep for conditions on user memory, which no notification covers.
    /// `check` adds to its second argument the fences it waits for, where it knows them: a
    /// wait without a deadline runs their requests on this thread when their turn has come
    /// ([`Fence::help`]) before sleeping. (A wait with a deadline never does: a request may
    /// take longer than the time left.)
    pub(crate) fn wait_until<T>(
        &self,
        deadline: Deadline,
        poll: Option<Duration>,
        mut check: impl FnMut(&mut State, &mut Vec<Arc<Fence>>) -> Result<Option<T>, Errno>,
    ) -> Result<T, Errno> {
        let deadline = match (self.wait_limit, deadline) {
            (None, d) => d,
            (Some(l), Deadline::Never) => Deadline::At(Instant::now() + l),
            (Some(l), Deadline::At(t)) => Deadline::At(t.min(Instant::now() + l)),
        };
        let mut pending = Vec::new();
        loop {
            let seen = self.doorbell.count();
            pending.clear();
            if let Some(v) = check(&mut self.lock(), &mut pending)? {
                return Ok(v);
            }
            let left = match deadline {
                Deadline::Never => {
                    // A request run here rings the doorbell: the sleep below then returns at
                    // once and the condition is checked again.
                    pending.iter().for_each(|f| f.help());
                    Duration::from_secs(3600)
                }
                Deadline::At(t) => {
                    let left = t.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(Errno::ETIME);
                    }
                    left
                }
            };
            self.doorbell.wait(seen, poll.map_or(left, |p| p.min(left)));
        }
    }
}

impl DeviceFile for SimDevice {
    /// Pointers in `arg` are read and written with `process_vm_readv`/`process_vm_writev`
    /// (`crate::user`): unmapped ones answer `EFAULT`, mapped ones are the caller's
    /// responsibility, as the trait's contract says.
    unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        self.personality.ioctl(self, request, arg)
    }

    fn mmap(&self, offset: u64, len: usize) -> Result<Mapping, Errno> {
        self.lock().gem.mapping(offset, len)
    }

    unsafe fn mmap_at(&self, offset: u64, len: usize, at: *mut u8) -> Result<Mapping, Errno> {
        // SAFETY: forwarded from the trait's contract.
        unsafe { self.lock().gem.mapping_at(offset, len, at) }
    }

    /// Userptr pages are reached with a system call per access; BO pages directly.
    fn shared_host_memory(&self) -> SharedHostMemory {
        SharedHostMemory::MappedBo
    }

    /// The node's directory in the simulated sysfs tree, with the writes made to it so far
    /// applied (a cleared capture reads as cleared).
    fn sysfs_dir(&self) -> Option<std::path::PathBuf> {
        self.sysfs.sync();
        Some(self.sysfs.node_dir().to_owned())
    }
}
