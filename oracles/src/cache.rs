//! Where test runs keep what they make with the oracles between runs and checkouts: kernels
//! compiled by Intel's compiler, the OpenCL-CTS build. Making them is most of a cold test
//! run's time (thousands of compilations at a tenth of a second or more each), and their
//! inputs are the same from one checkout to the next, so they are kept as a compiler cache
//! (ccache, NEO's `cl_cache`) keeps its results: in the user's cache directory, keyed by
//! everything that goes into them, the tools' own files included, so that an upgraded
//! compiler or a changed input is a miss and never a stale answer.
//!
//! The root is `INTEL_GPU_TEST_CACHE_DIR` when set, else `$XDG_CACHE_HOME/intel-gpu-compute-tests`,
//! else `$HOME/.cache/intel-gpu-compute-tests`. Removing it costs the next run time, nothing else.

use std::fmt::Write as _;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The environment variable naming the root of every test cache.
pub const ENV_DIR: &str = "INTEL_GPU_TEST_CACHE_DIR";

/// The directory `name` under the tests' cache root, created.
pub fn dir(name: &str) -> PathBuf {
    let root = match std::env::var_os(ENV_DIR) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => user_cache().join("intel-gpu-compute-tests"),
    };
    let d = root.join(name);
    let _ = std::fs::create_dir_all(&d);
    d
}

fn user_cache() -> PathBuf {
    match (std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME")) {
        (Some(x), _) if !x.is_empty() => PathBuf::from(x),
        (_, Some(h)) if !h.is_empty() => Path::new(&h).join(".cache"),
        _ => std::env::temp_dir(),
    }
}

/// The libraries Intel's compiler runs in, by file-name prefix: `ocloc` loads `libocloc`,
/// which opens IGC's front end (`libigdfcl`, with Clang in `libopencl-clang`) and back end
/// (`libigc`).
const COMPILER_LIBRARIES: [&str; 4] = ["libocloc", "libigdfcl", "libopencl-clang", "libigc."];

/// Where the dynamic loader finds them on Debian, after `LD_LIBRARY_PATH`.
const LIBRARY_DIRS: [&str; 4] = [
    "/usr/local/lib",
    "/usr/lib/x86_64-linux-gnu",
    "/lib/x86_64-linux-gnu",
    "/usr/lib",
];

/// Text that changes whenever the compiler `ocloc` runs does: the path, size, modification
/// time and inode of `ocloc` and of each file of the libraries it loads (a package upgrade
/// replaces them).
pub fn ocloc_identity(ocloc: &Path) -> String {
    let mut files = vec![ocloc.to_path_buf()];
    let ld = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
    let dirs = ld.split(':').filter(|d| !d.is_empty()).chain(LIBRARY_DIRS);
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(d) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if COMPILER_LIBRARIES.iter().any(|p| name.starts_with(p)) {
                files.push(e.path());
            }
        }
    }
    files.sort();
    files.dedup();
    files_identity(&files)
}

/// The path, size, modification time and inode of each of `files` (the target's, for a
/// symbolic link), one line each; a missing file is a line of its own.
pub fn files_identity(files: &[PathBuf]) -> String {
    let mut id = String::new();
    for f in files {
        match std::fs::metadata(f) {
            Ok(m) => {
                let _ = writeln!(
                    id,
                    "{} {} {}.{} {}",
                    f.display(),
                    m.len(),
                    m.mtime(),
                    m.mtime_nsec(),
                    m.ino()
                );
            }
            Err(_) => {
                let _ = writeln!(id, "{} missing", f.display());
            }
        }
    }
    id
}

/// Marks `path` (a file or a directory) as just used, for [`keep_newest`] and [`sweep`].
pub fn touch(path: &Path) {
    set_modified(path, SystemTime::now());
}

fn set_modified(path: &Path, t: SystemTime) {
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.set_modified(t);
    }
}

/// Removes the files directly in `dir` used least recently (by modification time, which
/// [`touch`] renews) until what is left is at most `limit` bytes; directories are left.
pub fn sweep(dir: &Path, limit: u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(SystemTime, u64, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let m = e.metadata().ok().filter(|m| m.is_file())?;
            Some((m.modified().ok()?, m.len(), e.path()))
        })
        .collect();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    if total <= limit {
        return;
    }
    files.sort();
    for (_, len, path) in files {
        if total <= limit {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

/// Removes the subdirectories of `dir` but the `keep` most recently modified ones.
pub fn keep_newest(dir: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut dirs: Vec<(SystemTime, PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let m = e.metadata().ok().filter(|m| m.is_dir())?;
            Some((m.modified().ok()?, e.path()))
        })
        .collect();
    dirs.sort();
    dirs.reverse();
    for (_, d) in dirs.into_iter().skip(keep) {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `names` made in `dir` by `make`, last modified long ago a second apart, in order.
    fn made_in_order(dir: &Path, names: &[&str], make: impl Fn(&Path)) {
        let old = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        for (i, name) in names.iter().enumerate() {
            let p = dir.join(name);
            make(&p);
            set_modified(&p, old + std::time::Duration::from_secs(i as u64));
        }
    }

    fn present(dir: &Path, names: &[&str]) -> Vec<bool> {
        names.iter().map(|n| dir.join(n).exists()).collect()
    }

    #[test]
    fn sweep_removes_the_least_recently_used_files_first() {
        let d = tempfile::tempdir().unwrap();
        made_in_order(d.path(), &["a", "b", "c"], |p| {
            std::fs::write(p, [0u8; 100]).unwrap()
        });
        // "a" is the oldest but was just used.
        touch(&d.path().join("a"));
        sweep(d.path(), 250);
        assert_eq!(present(d.path(), &["a", "b", "c"]), [true, false, true]);
        sweep(d.path(), 1000);
        assert!(d.path().join("c").exists(), "under the limit nothing goes");
    }

    #[test]
    fn keep_newest_leaves_the_most_recent_directories() {
        let d = tempfile::tempdir().unwrap();
        made_in_order(d.path(), &["x", "y", "z"], |p| {
            std::fs::create_dir(p).unwrap()
        });
        std::fs::write(d.path().join("file"), b"kept").unwrap();
        keep_newest(d.path(), 2);
        assert_eq!(
            present(d.path(), &["x", "y", "z", "file"]),
            [false, true, true, true]
        );
    }

    #[test]
    fn the_identity_changes_with_a_file() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("ocloc");
        std::fs::write(&f, b"one").unwrap();
        let a = ocloc_identity(&f);
        std::fs::write(&f, b"three").unwrap();
        assert_ne!(a, ocloc_identity(&f));
        assert!(files_identity(&[d.path().join("gone")]).ends_with("missing\n"));
    }
}
