//! The paths the shim fakes and the host tree that serves them.
//!
//! Everything at or below one of [`ROOTS`] is looked up in the shim's own directory tree (a
//! temporary directory per process): `/dev/dri` holds only the simulated render node and its
//! `by-path` link, and the sysfs entries are the kernel's symlinks (`/sys/dev/char/226:128` →
//! `../../devices/pci0000:00/0000:00:02.0/drm/renderD128`, …), so `readlink` and `realpath`
//! give the paths a real machine gives. The PCI device directory itself is the simulated
//! device's own sysfs tree.

use std::io;
use std::os::unix::fs::{symlink, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The DRM character devices' major number.
pub const DRM_MAJOR: u32 = 226;

/// The two DRM minors the kernel registers for a GPU with a render engine: the primary node
/// (`cardN`, minors 0..63) and the render node (`renderD128 + N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Minor {
    Primary,
    Render,
}

impl Minor {
    /// The device file.
    pub fn node(self) -> &'static str {
        match self {
            Minor::Primary => CARD_NODE,
            Minor::Render => RENDER_NODE,
        }
    }

    /// Its `/dev/dri/by-path` link (udev's `pci-<slot>-card` / `-render`).
    pub fn by_path(self) -> &'static str {
        match self {
            Minor::Primary => CARD_BY_PATH,
            Minor::Render => BY_PATH,
        }
    }

    /// The minor number (`drm_minor_alloc`: primary 0, render 128 for the first GPU).
    pub fn number(self) -> u32 {
        match self {
            Minor::Primary => 0,
            Minor::Render => RENDER_MINOR,
        }
    }

    /// The minor a normalized faked path opens, if it is a node (`follow`: through the
    /// `by-path` links too).
    pub fn of_path(norm: &str, follow: bool) -> Option<Minor> {
        [Minor::Primary, Minor::Render]
            .into_iter()
            .find(|m| norm == m.node() || (follow && norm == m.by_path()))
    }
}

pub const RENDER_MINOR: u32 = 128;

pub const RENDER_NODE: &str = "/dev/dri/renderD128";
pub const BY_PATH: &str = "/dev/dri/by-path/pci-0000:00:02.0-render";
pub const CARD_NODE: &str = "/dev/dri/card0";
pub const CARD_BY_PATH: &str = "/dev/dri/by-path/pci-0000:00:02.0-card";
/// The DRM core's debugfs directory (debugfs mounted where systemd mounts it).
pub const DEBUGFS_DRI: &str = "/sys/kernel/debug/dri";
/// i915's debugfs file that drops its caches (and waits for idle) on a write of `DROP_*`
/// flags (`i915_debugfs.c`, `i915_drop_caches_set`).
pub const DROP_CACHES: &str = "/sys/kernel/debug/dri/0/i915_gem_drop_caches";

/// Where the kernel puts the PCI device's sysfs directory.
pub const PCI_DEVICE_DIR: &str = "/sys/devices/pci0000:00/0000:00:02.0";

/// Roots of the faked trees.
pub const ROOTS: &[&str] = &[
    "/dev/dri",
    "/sys/dev/char/226:0",
    "/sys/dev/char/226:128",
    "/sys/module/i915",
    "/sys/module/xe",
    DEBUGFS_DRI,
    "/sys/class/drm",
    "/sys/bus/pci/devices/0000:00:02.0",
    PCI_DEVICE_DIR,
];

/// The kernel's symlinks, relative as the kernel writes them: (link, target).
const LINKS: &[(&str, &str)] = &[
    (BY_PATH, "../renderD128"),
    (CARD_BY_PATH, "../card0"),
    (
        "/sys/dev/char/226:0",
        "../../devices/pci0000:00/0000:00:02.0/drm/card0",
    ),
    (
        "/sys/dev/char/226:128",
        "../../devices/pci0000:00/0000:00:02.0/drm/renderD128",
    ),
    (
        "/sys/class/drm/renderD128",
        "../../devices/pci0000:00/0000:00:02.0/drm/renderD128",
    ),
    (
        "/sys/class/drm/card0",
        "../../devices/pci0000:00/0000:00:02.0/drm/card0",
    ),
    (
        "/sys/bus/pci/devices/0000:00:02.0",
        "../../../devices/pci0000:00/0000:00:02.0",
    ),
];

/// `path` made absolute-canonical lexically (no `.`, `..`, repeated or trailing `/`); `None`
/// for a relative path.
pub fn normalize(path: &str) -> Option<String> {
    if !path.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

/// Whether a normalized path is one the shim serves.
pub fn is_faked(norm: &str) -> bool {
    ROOTS.iter().any(|r| {
        norm.strip_prefix(r)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// The per-process host tree.
#[derive(Debug)]
pub struct Tree {
    root: PathBuf,
}

impl Tree {
    /// Builds the tree in a new directory under `parent`, with `/sys/module/<module>` for the
    /// kernel driver (`i915` or `xe`) that is loaded.
    pub fn create(parent: &Path, module: &str) -> io::Result<Tree> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let root = parent.join(format!("intel-gpu-sim-shim.{}.{stamp}", std::process::id()));
        std::fs::create_dir(&root)?;
        // Canonical, so that `realpath` results inside it can be mapped back.
        let tree = Tree {
            root: std::fs::canonicalize(&root)?,
        };
        std::fs::create_dir_all(tree.host("/dev/dri/by-path"))?;
        // The nodes' stand-ins: regular files whose stat the shim turns into character devices.
        for node in [CARD_NODE, RENDER_NODE] {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o666)
                .open(tree.host(node))?;
        }
        // A loaded module's directory; `initstate` is what kmod reads to tell it is live
        // (`kernel/module/sysfs.c`).
        let module_dir = tree.host(&format!("/sys/module/{module}"));
        std::fs::create_dir_all(&module_dir)?;
        std::fs::write(module_dir.join("initstate"), "live\n")?;
        // The primary minor's debugfs directory: `name` as `drm_name_info` prints it for a
        // PCI device (no master has set a unique name), and i915's drop-caches knob, which
        // reads back every flag it takes (`DROP_ALL`, 0x1ff in Linux 6.12).
        let debugfs = tree.host(&format!("{DEBUGFS_DRI}/0"));
        std::fs::create_dir_all(&debugfs)?;
        std::fs::write(
            debugfs.join("name"),
            format!("{module} dev=0000:00:02.0 unique=0000:00:02.0\n"),
        )?;
        if module == "i915" {
            std::fs::write(tree.host(DROP_CACHES), "0x000001ff\n")?;
        }
        for dir in ["/sys/dev/char", "/sys/class/drm", "/sys/bus/pci/devices"] {
            std::fs::create_dir_all(tree.host(dir))?;
        }
        std::fs::create_dir_all(tree.host("/sys/devices/pci0000:00"))?;
        for (link, target) in LINKS {
            symlink(target, tree.host(link))?;
        }
        Ok(tree)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The host path serving a normalized faked path.
    pub fn host(&self, norm: &str) -> PathBuf {
        self.root.join(norm.trim_start_matches('/'))
    }

    /// A node's stand-in file.
    pub fn node(&self, minor: Minor) -> PathBuf {
        self.host(minor.node())
    }

    /// Points the PCI device directory at `dir` (the simulated device's own sysfs tree),
    /// replacing the previous device's atomically.
    pub fn set_device_dir(&self, dir: &Path) -> io::Result<()> {
        let link = self.host(PCI_DEVICE_DIR);
        let tmp = link.with_extension("new");
        let _ = std::fs::remove_file(&tmp);
        symlink(dir, &tmp)?;
        std::fs::rename(&tmp, &link)
    }

    /// The faked path a host path inside the tree (or inside the device's sysfs tree `device`)
    /// stands for.
    pub fn to_virtual(&self, host: &Path, device: Option<&Path>) -> Option<String> {
        if let Ok(rest) = host.strip_prefix(&self.root) {
            return Some(format!("/{}", rest.to_str()?));
        }
        let rest = host.strip_prefix(device?).ok()?.to_str()?;
        Some(if rest.is_empty() {
            PCI_DEVICE_DIR.to_owned()
        } else {
            format!("{PCI_DEVICE_DIR}/{rest}")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalized_paths() {
        assert_eq!(normalize("/dev//dri/./renderD128/").unwrap(), RENDER_NODE);
        assert_eq!(
            normalize("/dev/dri/by-path/../renderD128").unwrap(),
            RENDER_NODE
        );
        assert_eq!(normalize("/").unwrap(), "/");
        assert!(normalize("dev/dri").is_none());
    }

    #[test]
    fn faked_roots_only() {
        assert!(is_faked("/dev/dri"));
        assert!(is_faked(RENDER_NODE));
        assert!(is_faked("/sys/class/drm/card0/error"));
        assert!(!is_faked("/dev/drix"));
        assert!(!is_faked("/dev/null"));
        assert!(!is_faked("/sys/dev/char/226:1280"));
        assert!(!is_faked("/sys/devices/pci0000:00/0000:00:02.1"));
    }

    #[test]
    fn tree_has_the_kernels_links() {
        let dir = tempfile::tempdir().unwrap();
        let t = Tree::create(dir.path(), "i915").unwrap();
        assert_eq!(
            std::fs::read_link(t.host(BY_PATH)).unwrap(),
            Path::new("../renderD128")
        );
        assert_eq!(
            std::fs::canonicalize(t.host(BY_PATH)).unwrap(),
            std::fs::canonicalize(t.node(Minor::Render)).unwrap()
        );
        assert_eq!(
            std::fs::canonicalize(t.host(CARD_BY_PATH)).unwrap(),
            std::fs::canonicalize(t.node(Minor::Primary)).unwrap()
        );
        assert_eq!(
            std::fs::read_to_string(t.host("/sys/module/i915/initstate")).unwrap(),
            "live\n"
        );
        assert!(!t.host("/sys/module/xe").exists());
        let names: Vec<String> = std::fs::read_dir(t.host("/dev/dri"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 3, "{names:?}");
        let dev = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dev.path().join("drm/renderD128")).unwrap();
        t.set_device_dir(dev.path()).unwrap();
        let real = std::fs::canonicalize(t.host("/sys/dev/char/226:128")).unwrap();
        let devdir = std::fs::canonicalize(dev.path()).unwrap();
        assert_eq!(
            t.to_virtual(&real, Some(&devdir)).unwrap(),
            "/sys/devices/pci0000:00/0000:00:02.0/drm/renderD128"
        );
        assert_eq!(
            t.to_virtual(&t.host("/sys/class/drm"), None).unwrap(),
            "/sys/class/drm"
        );
    }
}
