//! The simulated device's sysfs tree: a real temporary directory laid out like the render
//! node's sysfs directory (`/sys/dev/char/226:128` → `/sys/class/drm/renderD128`), so code
//! that reads a real node's attributes (PCI ids, the kernel driver's GPU error capture, engine
//! scheduling properties) reads the simulator's the same way.
//!
//! Layout under the temporary root (the node directory is [`SysfsTree::node_dir`]):
//! ```text
//! devices/pci0000:00/0000:00:02.0/            the PCI device (vendor, device, class, uevent...)
//!     drm/card0/          dev 226:0, uevent, device -> ../../../0000:00:02.0
//!         error           i915 only: the GPU error state
//!         gt_max_freq_mhz, gt_RP0_freq_mhz, gt/gt0/rps_{max,RP0}_freq_mhz   i915 only
//!         engine/<name>/  i915 only: per-engine scheduling properties (+ .defaults/)
//!     drm/renderD128/     dev 226:128, uevent, device -> ../../../0000:00:02.0
//!     devcoredump/data    xe only, present after a GPU error
//!     tile0/gt0/engines/<class>/   xe only: per-engine-class timeouts (+ .defaults/)
//!     tile0/gt0/freq0/{max,rp0}_freq   xe only
//! class/drm/{card0,renderD128} -> the directories above (for discovery code)
//! dev/char/226:128 -> the render node's directory
//! ```
//!
//! Sources (Linux 6.12): the PCI attributes and uevent variables from
//! `drivers/pci/pci-sysfs.c` and `pci-driver.c` (`pci_uevent`); the DRM minor's `dev` and
//! uevent from `drm_sysfs.c`; i915's `error` file from `i915_sysfs.c` / `i915_gpu_error.c`
//! ("No error state collected" until an error; a write clears it); i915's engine properties
//! from `gt/sysfs_engines.c` with the defaults of `Kconfig.profile` as `intel_engine_cs.c`
//! applies them (Gen12 render/compute engines take `PREEMPT_TIMEOUT_COMPUTE`); xe's per-class
//! directories from `xe_hw_engine_class_sysfs.c` with the defaults of `xe_hw_engine.c` and
//! xe's `Kconfig.profile`; the frequency files from i915's `gt/intel_gt_sysfs_pm.c` and xe's
//! `xe_gt_freq.c`, the maximum as it reads before anyone lowers it (RP0, the device's
//! `max_freq_mhz`); xe's devcoredump from `drivers/base/devcoredump.c` (a write to
//! `data` deletes the dump).
//!
//! The directory is made on first use (a path asked for, a capture published), not when the
//! device opens: most devices are opened, used and dropped without anyone looking at their
//! sysfs, and writing ~100 files per open was most of the cost of opening one. A tree nobody
//! has looked at cannot have been written to, so its properties read as their defaults.
//!
//! What the simulator cannot do with plain files: react to a write when it happens. It applies
//! writes when it next looks ([`SysfsTree::sync`]): a capture file whose text is no longer the
//! one it published was written, and is cleared as the kernel would have; a property file is
//! read back at each job once it was written (inotify tells; without it, at every job), and a
//! value the kernel would have refused (not a number, out of its range) is put back to the
//! previous one, as the refused write would have left it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::device_info::{DeviceInfo, EngineClass};
use crate::file_changes::FileChanges;
use crate::Kmd;

/// The DRM character-device major number (`DRM_MAJOR`).
const DRM_MAJOR: u32 = 226;
/// The first render node's minor (`DRM_MINOR_RENDER` × 64 + 0, drm_drv.c).
const RENDER_MINOR: u32 = 128;
/// The integrated GPU's PCI address; the simulator puts every part there.
pub const PCI_SLOT: &str = "0000:00:02.0";
const INTEL_VENDOR: u16 = 0x8086;
/// PCI class 0x03 (display), subclass 0x00 (VGA compatible), interface 0x00.
const PCI_CLASS: u32 = 0x03_0000;

/// What i915's `error` file reads when nothing is captured (`i915_sysfs.c`).
pub const I915_NO_ERROR: &str = "No error state collected\n";

/// One scheduling property a kernel driver exposes as a sysfs file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Property {
    pub file: &'static str,
    pub default: u64,
    /// Inclusive range a write must fall in (the kernel refuses others with EINVAL).
    pub min: u64,
    pub max: u64,
}

/// i915 `Kconfig.profile` defaults (Linux 6.12).
pub mod i915_defaults {
    /// CONFIG_DRM_I915_HEARTBEAT_INTERVAL, ms.
    pub const HEARTBEAT_INTERVAL_MS: u64 = 2500;
    /// CONFIG_DRM_I915_PREEMPT_TIMEOUT, ms.
    pub const PREEMPT_TIMEOUT_MS: u64 = 640;
    /// CONFIG_DRM_I915_PREEMPT_TIMEOUT_COMPUTE, ms: Gen12 engines with render register state
    /// (rcs, ccs), which cannot preempt mid-thread.
    pub const PREEMPT_TIMEOUT_COMPUTE_MS: u64 = 7500;
    /// CONFIG_DRM_I915_MAX_REQUEST_BUSYWAIT, ns.
    pub const MAX_BUSYWAIT_NS: u64 = 8000;
    /// CONFIG_DRM_I915_STOP_TIMEOUT, ms.
    pub const STOP_TIMEOUT_MS: u64 = 100;
    /// CONFIG_DRM_I915_TIMESLICE_DURATION, ms.
    pub const TIMESLICE_MS: u64 = 1;
    /// CONFIG_DRM_I915_REQUEST_TIMEOUT, ms: the `request_timeout_ms` module parameter's
    /// default (a module parameter, outside the device's tree; not a knob here).
    pub const REQUEST_TIMEOUT_MS: u64 = 20_000;
}

/// xe defaults (Linux 6.12 `xe_hw_engine.c`, `Kconfig.profile`).
pub mod xe_defaults {
    /// `hw_engine_init_early`: 5 s.
    pub const JOB_TIMEOUT_MS: u64 = 5000;
    /// CONFIG_DRM_XE_JOB_TIMEOUT_MIN / _MAX, ms.
    pub const JOB_TIMEOUT_MIN: u64 = 1;
    pub const JOB_TIMEOUT_MAX: u64 = 10_000;
    /// `hw_engine_init_early`: 1 ms.
    pub const TIMESLICE_US: u64 = 1000;
    /// CONFIG_DRM_XE_TIMESLICE_MIN / _MAX, us.
    pub const TIMESLICE_MIN: u64 = 1;
    pub const TIMESLICE_MAX: u64 = 10_000_000;
    /// CONFIG_DRM_XE_PREEMPT_TIMEOUT, us.
    pub const PREEMPT_TIMEOUT_US: u64 = 640_000;
    /// CONFIG_DRM_XE_PREEMPT_TIMEOUT_MIN / _MAX, us.
    pub const PREEMPT_TIMEOUT_MIN: u64 = 1;
    pub const PREEMPT_TIMEOUT_MAX: u64 = 10_000_000;
}

/// `intel_clamp_*` upper bounds: what fits a jiffies timer (`MAX_SCHEDULE_TIMEOUT` in ms).
/// The simulator uses the 64-bit bound; the exact jiffies limit depends on HZ.
const I915_MAX_MS: u64 = (i64::MAX as u64) / 1000;

/// The engine properties i915 exposes for `engine` on `info` (sysfs_engines.c): every engine
/// here has timeslices and preempt-reset, so both optional files are present.
pub fn i915_engine_properties(info: &DeviceInfo, class: EngineClass) -> [Property; 5] {
    use i915_defaults::*;
    let gen12_rcs_state =
        info.ip_version.0 == 12 && matches!(class, EngineClass::Render | EngineClass::Compute);
    let p = |file, default| Property {
        file,
        default,
        min: 0,
        max: I915_MAX_MS,
    };
    [
        p("heartbeat_interval_ms", HEARTBEAT_INTERVAL_MS),
        p(
            "preempt_timeout_ms",
            if gen12_rcs_state {
                PREEMPT_TIMEOUT_COMPUTE_MS
            } else {
                PREEMPT_TIMEOUT_MS
            },
        ),
        p("max_busywait_duration_ns", MAX_BUSYWAIT_NS),
        p("stop_timeout_ms", STOP_TIMEOUT_MS),
        p("timeslice_duration_ms", TIMESLICE_MS),
    ]
}

/// The per-class properties xe exposes (xe_hw_engine_class_sysfs.c); the `_min`/`_max` files
/// bound the main one.
pub const XE_CLASS_PROPERTIES: [Property; 3] = [
    Property {
        file: "job_timeout_ms",
        default: xe_defaults::JOB_TIMEOUT_MS,
        min: xe_defaults::JOB_TIMEOUT_MIN,
        max: xe_defaults::JOB_TIMEOUT_MAX,
    },
    Property {
        file: "timeslice_duration_us",
        default: xe_defaults::TIMESLICE_US,
        min: xe_defaults::TIMESLICE_MIN,
        max: xe_defaults::TIMESLICE_MAX,
    },
    Property {
        file: "preempt_timeout_us",
        default: xe_defaults::PREEMPT_TIMEOUT_US,
        min: xe_defaults::PREEMPT_TIMEOUT_MIN,
        max: xe_defaults::PREEMPT_TIMEOUT_MAX,
    },
];

/// The `_min`/`_max` file names of an xe property (`job_timeout_ms` → `job_timeout_min`).
fn xe_bound_files(file: &str) -> (String, String) {
    let stem = file
        .strip_suffix("_ms")
        .or_else(|| file.strip_suffix("_us"))
        .unwrap_or(file);
    (format!("{stem}_min"), format!("{stem}_max"))
}

/// xe's sysfs name of an engine class.
pub fn xe_class_name(class: EngineClass) -> &'static str {
    match class {
        EngineClass::Render => "rcs",
        EngineClass::Compute => "ccs",
        EngineClass::Copy => "bcs",
    }
}

/// Why the tree could not be made.
pub type Result<T> = std::result::Result<T, io::Error>;

/// One simulated device's sysfs directory, made on first use and removed when dropped.
#[derive(Debug)]
pub struct SysfsTree {
    root: PathBuf,
    node: PathBuf,
    pci: PathBuf,
    kmd: Kmd,
    info: &'static DeviceInfo,
    /// Set once the directory was made (or making it failed, with the error's text).
    made: OnceLock<std::result::Result<(), String>>,
    /// The capture text last published, to tell a user's write (a clear) from it.
    published: Mutex<Option<String>>,
    /// The last accepted value of each property file read, what a refused write leaves, and
    /// which of those files were not written since.
    accepted: Mutex<(std::collections::HashMap<String, u64>, FileChanges)>,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// How every tree's directory name starts; the process id and a counter follow.
const TREE_PREFIX: &str = "intel-gpu-sim-";

/// Removes the trees under `dir` whose process has ended. A process whose devices live in
/// statics (an OpenCL ICD, the shim) or that was killed never drops them, so their trees stay;
/// each process making a tree clears those, so they never pile up. A process id that is
/// running again keeps its directory until that process ends too. Best effort: a tree another
/// process removes meanwhile is already gone.
fn remove_trees_of_ended_processes(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let me = std::process::id();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(tree_owner) else {
            continue;
        };
        if pid != me && !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// The process id in a tree's directory name `intel-gpu-sim-<pid>-<n>`, None for other names.
fn tree_owner(name: &str) -> Option<u32> {
    let (pid, n) = name.strip_prefix(TREE_PREFIX)?.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

fn write(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text)
}

impl SysfsTree {
    /// The tree of a `kmd` device `info`, named under the system's temporary directory; nothing
    /// is written until [`SysfsTree::materialize`] (or a path accessor) makes it.
    pub fn new(info: &'static DeviceInfo, kmd: Kmd) -> SysfsTree {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let name = format!("{TREE_PREFIX}{}-{n}", std::process::id());
        let root = std::env::temp_dir().join(name);
        let pci = root.join("devices/pci0000:00").join(PCI_SLOT);
        SysfsTree {
            node: pci.join("drm").join(format!("renderD{RENDER_MINOR}")),
            pci,
            root,
            kmd,
            info,
            made: OnceLock::new(),
            published: Mutex::new(None),
            accepted: Mutex::default(),
        }
    }

    /// Makes the directory if it is not made yet. The name holds this process's id and a
    /// counter, so a directory already there was left by an earlier process that had the same
    /// id; it is replaced. A failure is kept: later calls report it again.
    pub fn materialize(&self) -> Result<()> {
        let made = self.made.get_or_init(|| {
            if let Some(parent) = self.root.parent() {
                remove_trees_of_ended_processes(parent);
            }
            let _ = fs::remove_dir_all(&self.root);
            fs::create_dir(&self.root)
                .and_then(|()| self.populate(self.info))
                .map_err(|e| format!("{}: {e}", self.root.display()))
        });
        made.clone().map_err(io::Error::other)
    }

    /// Whether the directory was made.
    pub fn is_made(&self) -> bool {
        matches!(self.made.get(), Some(Ok(())))
    }

    fn populate(&self, info: &DeviceInfo) -> Result<()> {
        let pci = &self.pci;
        fs::create_dir_all(pci)?;
        let driver = match self.kmd {
            Kmd::I915 => "i915",
            Kmd::Xe => "xe",
        };
        // pci-sysfs.c: `0x%04x`, revision `0x%02x`, class `0x%06x`.
        write(&pci.join("vendor"), &format!("{INTEL_VENDOR:#06x}\n"))?;
        write(&pci.join("device"), &format!("{:#06x}\n", info.pci_id))?;
        // A reference board's subsystem ids: an OEM's are not a hardware fact.
        write(
            &pci.join("subsystem_vendor"),
            &format!("{INTEL_VENDOR:#06x}\n"),
        )?;
        write(
            &pci.join("subsystem_device"),
            &format!("{:#06x}\n", info.pci_id),
        )?;
        write(&pci.join("revision"), &format!("{:#04x}\n", info.revision))?;
        write(&pci.join("class"), &format!("{PCI_CLASS:#08x}\n"))?;
        // dev_uevent's DRIVER, then pci_uevent's variables.
        let id = info.pci_id;
        write(
            &pci.join("uevent"),
            &format!(
                "DRIVER={driver}\nPCI_CLASS={PCI_CLASS:04X}\nPCI_ID={INTEL_VENDOR:04X}:{id:04X}\n\
                 PCI_SUBSYS_ID={INTEL_VENDOR:04X}:{id:04X}\nPCI_SLOT_NAME={PCI_SLOT}\n\
                 MODALIAS=pci:v{:08X}d{:08X}sv{:08X}sd{:08X}bc{:02X}sc{:02X}i{:02X}\n",
                INTEL_VENDOR,
                id,
                INTEL_VENDOR,
                id,
                PCI_CLASS >> 16,
                (PCI_CLASS >> 8) & 0xff,
                PCI_CLASS & 0xff
            ),
        )?;
        let card = pci.join("drm/card0");
        for (dir, name, minor) in [
            (&card, "card0", 0),
            (&self.node, "renderD128", RENDER_MINOR),
        ] {
            fs::create_dir_all(dir)?;
            write(&dir.join("dev"), &format!("{DRM_MAJOR}:{minor}\n"))?;
            write(
                &dir.join("uevent"),
                &format!(
                    "MAJOR={DRM_MAJOR}\nMINOR={minor}\nDEVNAME=dri/{name}\nDEVTYPE=drm_minor\n"
                ),
            )?;
            symlink("../../../".to_string() + PCI_SLOT, &dir.join("device"))?;
        }
        let class_drm = self.root.join("class/drm");
        fs::create_dir_all(&class_drm)?;
        let up = format!("../../devices/pci0000:00/{PCI_SLOT}/drm");
        symlink(format!("{up}/card0"), &class_drm.join("card0"))?;
        symlink(format!("{up}/renderD128"), &class_drm.join("renderD128"))?;
        let dev_char = self.root.join("dev/char");
        fs::create_dir_all(&dev_char)?;
        symlink(
            format!("../../devices/pci0000:00/{PCI_SLOT}/drm/renderD128"),
            &dev_char.join(format!("{DRM_MAJOR}:{RENDER_MINOR}")),
        )?;
        // The frequency limits (`kmd_iface::gt_freq`): the maximum starts at RP0.
        let mhz = format!("{}\n", info.max_freq_mhz);
        use kmd_iface::gt_freq;
        match self.kmd {
            Kmd::I915 => {
                let gt0 = card.join(gt_freq::I915_GT0_DIR);
                fs::create_dir_all(&gt0)?;
                for f in gt_freq::I915_CARD_FILES {
                    write(&card.join(f), &mhz)?;
                }
                for f in gt_freq::I915_GT_FILES {
                    write(&gt0.join(f), &mhz)?;
                }
            }
            Kmd::Xe => {
                let freq = pci.join(gt_freq::XE_FREQ_DIR);
                fs::create_dir_all(&freq)?;
                for f in gt_freq::XE_FILES {
                    write(&freq.join(f), &mhz)?;
                }
            }
        }
        match self.kmd {
            Kmd::I915 => {
                write(&card.join("error"), I915_NO_ERROR)?;
                for e in info.engines {
                    let dir = card.join("engine").join(e.name);
                    let defaults = dir.join(".defaults");
                    fs::create_dir_all(&defaults)?;
                    write(&dir.join("name"), &format!("{}\n", e.name))?;
                    let class = match e.class {
                        EngineClass::Render => kmd_iface::i915::uapi::I915_ENGINE_CLASS_RENDER,
                        EngineClass::Compute => kmd_iface::i915::uapi::I915_ENGINE_CLASS_COMPUTE,
                        EngineClass::Copy => kmd_iface::i915::uapi::I915_ENGINE_CLASS_COPY,
                    };
                    write(&dir.join("class"), &format!("{class}\n"))?;
                    write(&dir.join("instance"), &format!("{}\n", e.instance))?;
                    write(&dir.join("mmio_base"), &format!("{:#x}\n", e.mmio_base))?;
                    // Render, compute and copy engines have no capability bits (vcs/vecs do).
                    write(&dir.join("capabilities"), "\n")?;
                    write(&dir.join("known_capabilities"), "\n")?;
                    for p in i915_engine_properties(info, e.class) {
                        write(&dir.join(p.file), &format!("{}\n", p.default))?;
                        write(&defaults.join(p.file), &format!("{}\n", p.default))?;
                    }
                }
            }
            Kmd::Xe => {
                let engines = pci.join("tile0/gt0/engines");
                let mut done: Vec<EngineClass> = Vec::new();
                for e in info.engines {
                    if done.contains(&e.class) {
                        continue;
                    }
                    done.push(e.class);
                    let dir = engines.join(xe_class_name(e.class));
                    let defaults = dir.join(".defaults");
                    fs::create_dir_all(&defaults)?;
                    for p in XE_CLASS_PROPERTIES {
                        let (min, max) = xe_bound_files(p.file);
                        for d in [&dir, &defaults] {
                            write(&d.join(p.file), &format!("{}\n", p.default))?;
                            write(&d.join(&min), &format!("{}\n", p.min))?;
                            write(&d.join(&max), &format!("{}\n", p.max))?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The kernel driver whose tree this is.
    pub fn kmd(&self) -> Kmd {
        self.kmd
    }

    /// The render node's directory (what `/sys/dev/char/226:128` resolves to), made first. If
    /// it cannot be made, reading files under the path fails as for a missing attribute; the
    /// reason is [`SysfsTree::materialize`]'s error.
    pub fn node_dir(&self) -> &Path {
        let _ = self.materialize();
        &self.node
    }

    /// The tree's root: `class/drm`, `dev/char` and `devices` are under it. Made first, as
    /// [`SysfsTree::node_dir`].
    pub fn root(&self) -> &Path {
        let _ = self.materialize();
        &self.root
    }

    /// The PCI device's directory (the node's `device`). Made first, as
    /// [`SysfsTree::node_dir`].
    pub fn pci_dir(&self) -> &Path {
        let _ = self.materialize();
        &self.pci
    }

    /// Where this driver's capture lives.
    pub fn capture_path(&self) -> PathBuf {
        match self.kmd {
            Kmd::I915 => self.pci.join("drm/card0/error"),
            Kmd::Xe => self.pci.join("devcoredump/data"),
        }
    }

    /// Applies writes made to the capture file since the simulator last looked: a capture the
    /// user wrote to is cleared (i915: back to "No error state collected"; xe: the devcoredump
    /// goes away).
    pub fn sync(&self) {
        let mut published = self.published.lock().unwrap_or_else(|e| e.into_inner());
        let Some(text) = published.as_ref() else {
            return;
        };
        let path = self.capture_path();
        if fs::read_to_string(&path).ok().as_ref() != Some(text) {
            self.clear_capture();
            *published = None;
        }
    }

    fn clear_capture(&self) {
        // Best effort: the tree is the simulator's own; a failure leaves the text stale, which
        // the reader sees (no silent success either way).
        let _ = match self.kmd {
            Kmd::I915 => write(&self.capture_path(), I915_NO_ERROR),
            Kmd::Xe => fs::remove_dir_all(self.pci.join("devcoredump")),
        };
    }

    /// Publishes a GPU error's capture text as the kernel driver does: only when no capture is
    /// held (i915 keeps the first error until it is cleared; devcoredump keeps one dump per
    /// device until it is read and cleared). Returns whether it was published.
    pub fn publish(&self, text: &str) -> Result<bool> {
        self.materialize()?;
        self.sync();
        let mut published = self.published.lock().unwrap_or_else(|e| e.into_inner());
        if published.is_some() {
            return Ok(false);
        }
        let path = self.capture_path();
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        // Written whole under a temporary name, then renamed: a reader never sees half a text.
        let tmp = path.with_extension("new");
        write(&tmp, text)?;
        fs::rename(&tmp, &path)?;
        *published = Some(text.to_owned());
        Ok(true)
    }

    /// The value of the property file `rel` (relative to the PCI device directory) as the
    /// kernel holds it after the writes so far: a value the kernel would have refused (not a
    /// number, outside `min..=max`) is put back to the last accepted one (first: `default`).
    fn property_in(&self, rel: &str, min: u64, max: u64, default: u64) -> u64 {
        let mut guard = self.accepted.lock().unwrap_or_else(|e| e.into_inner());
        let (accepted, changes) = &mut *guard;
        let previous = *accepted.get(rel).unwrap_or(&default);
        if !self.is_made() {
            // Nobody has had the path, so nobody has written the file.
            return previous;
        }
        let path = self.pci.join(rel);
        if changes.unchanged(&path) {
            // Read since, holding `previous` (accepted, or put back).
            return previous;
        }
        changes.watch(&path);
        let parsed = fs::read_to_string(&path)
            .ok()
            .and_then(|t| parse_kstrtoull(t.trim_end_matches('\n')));
        let v = match parsed {
            Some(v) if (min..=max).contains(&v) => {
                accepted.insert(rel.to_owned(), v);
                v
            }
            _ => {
                let _ = write(&path, &format!("{previous}\n"));
                previous
            }
        };
        changes.read(&path);
        v
    }

    /// The engine property `p` of i915 engine `name` (`card0/engine/<name>/<file>`).
    pub fn i915_engine_property(&self, name: &str, p: &Property) -> u64 {
        let rel = format!("drm/card0/engine/{name}/{}", p.file);
        self.property_in(&rel, p.min, p.max, p.default)
    }

    /// The xe class property `p` of `class` (`tile0/gt0/engines/<class>/<file>`), bounded by
    /// the class's `_min`/`_max` files as `xe_hw_engine_class_sysfs.c` bounds a write.
    pub fn xe_class_property(&self, class: EngineClass, p: &Property) -> u64 {
        let dir = format!("tile0/gt0/engines/{}", xe_class_name(class));
        let (min_f, max_f) = xe_bound_files(p.file);
        let min = self.property_in(&format!("{dir}/{min_f}"), p.min, p.max, p.min);
        let max = self.property_in(&format!("{dir}/{max_f}"), min, p.max, p.max);
        self.property_in(&format!("{dir}/{}", p.file), min, max, p.default)
    }
}

/// `kstrtoull(buf, 0, ..)`: decimal, `0x` hex or leading-`0` octal.
fn parse_kstrtoull(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse().ok()
    }
}

fn symlink(target: impl AsRef<Path>, link: &Path) -> Result<()> {
    std::os::unix::fs::symlink(target, link)
}

impl Drop for SysfsTree {
    fn drop(&mut self) {
        if self.made.get().is_none() {
            return;
        }
        // Best effort: a temporary directory someone else removed is already gone.
        let _ = fs::remove_dir_all(&self.root);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use platform::Platform;

    fn read(p: &Path) -> String {
        fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    #[test]
    fn made_on_first_use_only() {
        let info = DeviceInfo::get(Platform::Tgllp);
        let t = SysfsTree::new(info, Kmd::I915);
        let root = t.root.clone();
        // A directory of this name can only be an ended process's that had this id.
        let _ = fs::remove_dir_all(&root);
        // Properties of a tree nobody has looked at are the defaults, and reading them makes
        // nothing.
        let props = i915_engine_properties(info, EngineClass::Render);
        let want = props[0].default;
        assert_eq!(t.i915_engine_property("rcs0", &props[0]), want);
        assert!(!root.exists() && !t.is_made());
        drop(t);
        assert!(!root.exists());
        // Asking for a path makes it; dropping removes it.
        let t = SysfsTree::new(info, Kmd::I915);
        let node = t.node_dir().to_owned();
        assert_eq!(read(&node.join("dev")), "226:128\n");
        let root = t.root.clone();
        drop(t);
        assert!(!root.exists());
    }

    #[test]
    fn max_frequency_is_where_each_driver_publishes_it() {
        use kmd_iface::discovery::Driver;
        for p in Platform::ALL {
            let info = DeviceInfo::get(p);
            for (kmd, driver) in [(Kmd::I915, Driver::I915), (Kmd::Xe, Driver::Xe)] {
                if !info.supports(kmd) {
                    continue;
                }
                let t = SysfsTree::new(info, kmd);
                let got = kmd_iface::gt_freq::max_freq_mhz(t.node_dir(), driver);
                assert_eq!(got, Some(info.max_freq_mhz), "{p} {kmd:?}");
            }
        }
    }

    #[test]
    fn trees_of_ended_processes_are_cleared() {
        let dir = std::env::temp_dir().join(format!("sysfs-sweep-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let ended = child.id();
        child.wait().unwrap();
        let names = [
            format!("{TREE_PREFIX}{ended}-0"), // an ended process's: removed
            format!("{TREE_PREFIX}1-3"),       // init's, running: kept
            format!("{TREE_PREFIX}{}-0", std::process::id()), // ours: kept
            format!("{TREE_PREFIX}{ended}-x"), // not a tree's name: kept
            format!("{TREE_PREFIX}shim.{ended}.0"), // not a tree's name: kept
        ];
        for n in &names {
            fs::create_dir_all(Path::new(&dir).join(n).join("devices")).unwrap();
        }
        remove_trees_of_ended_processes(&dir);
        let left: Vec<bool> = names.iter().map(|n| dir.join(n).exists()).collect();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(left, [false, true, true, true, true]);
    }

    #[test]
    fn kstrtoull_bases() {
        assert_eq!(parse_kstrtoull("100"), Some(100));
        assert_eq!(parse_kstrtoull("0x10"), Some(16));
        assert_eq!(parse_kstrtoull("010"), Some(8));
        assert_eq!(parse_kstrtoull("0"), Some(0));
        assert_eq!(parse_kstrtoull("-1"), None);
        assert_eq!(parse_kstrtoull("1ms"), None);
    }

    /// A property is read again only after its file changed, and every write is seen at the
    /// next read: writes of the same length within one tick of the file clock (which stamps
    /// them alike), a file replaced by a rename, one removed.
    #[test]
    fn every_write_is_seen_at_the_next_read() {
        let info = DeviceInfo::get(Platform::Tgllp);
        let t = SysfsTree::new(info, Kmd::I915);
        let props = i915_engine_properties(info, EngineClass::Render);
        let p = &props[0];
        let file = t
            .pci_dir()
            .join(format!("drm/card0/engine/rcs0/{}", p.file));
        for k in 0..200u64 {
            let v = 1000 + k % 2 * 1000;
            fs::write(&file, format!("{v}\n")).unwrap();
            assert_eq!(t.i915_engine_property("rcs0", p), v, "write {k}");
            assert_eq!(
                t.i915_engine_property("rcs0", p),
                v,
                "read again after write {k}"
            );
        }
        // Renamed from another directory: only the property's directory hears of it.
        let tmp = t.pci_dir().join("property.new");
        fs::write(&tmp, "3000\n").unwrap();
        fs::rename(&tmp, &file).unwrap();
        assert_eq!(t.i915_engine_property("rcs0", p), 3000);
        // Gone: put back as the last accepted value.
        fs::remove_file(&file).unwrap();
        assert_eq!(t.i915_engine_property("rcs0", p), 3000);
        assert_eq!(read(&file), "3000\n");
        fs::write(&file, "4000").unwrap();
        assert_eq!(t.i915_engine_property("rcs0", p), 4000);
    }

    #[test]
    fn refused_writes_are_put_back() {
        let t = SysfsTree::new(DeviceInfo::get(Platform::Tgllp), Kmd::Xe);
        let p = &XE_CLASS_PROPERTIES[0];
        let file = t.pci_dir().join("tile0/gt0/engines/rcs/job_timeout_ms");
        fs::write(&file, "20000\n").unwrap(); // above job_timeout_max
        assert_eq!(t.xe_class_property(EngineClass::Render, p), 5000);
        assert_eq!(read(&file), "5000\n");
        fs::write(&file, "250").unwrap();
        assert_eq!(t.xe_class_property(EngineClass::Render, p), 250);
        fs::write(&file, "soon").unwrap();
        assert_eq!(t.xe_class_property(EngineClass::Render, p), 250);
        assert_eq!(read(&file), "250\n");
        let root = t.root().to_owned();
        drop(t);
        assert!(!root.exists());
    }
}
