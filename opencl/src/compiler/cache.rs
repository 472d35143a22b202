//! Compiler results kept on disk between processes, as Intel's runtime keeps its `cl_cache`:
//! a build of the same inputs with the same options by the same compiler libraries reads the
//! result instead of running ocloc again (an OpenVINO network compiles hundreds of kernels
//! each time it is loaded; a test suite builds the same programs in many processes).
//!
//! An entry holds its whole key (the compiler's identity, every option, every input byte), so
//! two keys sharing a file name never answer for each other, and a checksum over the file, so
//! a damaged entry is a miss. Only successful runs are kept. Entries are written to a
//! temporary name and renamed into place, so processes sharing the directory see whole entries
//! only. A compile holds a lock on its key while it runs, so processes and threads compiling
//! the same inputs at the same time compile them once: the others wait and read the entry.
//! The directory is kept under a size limit, least recently used entries removed first.
//!
//! Settings (read once per process): `INTEL_GPU_CACHE=0` turns the cache off;
//! `INTEL_GPU_CACHE_DIR` is its directory (default `$XDG_CACHE_HOME/intel-gpu-compute`, else
//! `$HOME/.cache/intel-gpu-compute`); `INTEL_GPU_CACHE_MAX_SIZE` its limit in bytes (default
//! 1 GiB).

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use super::binary::fnv as checksum;
use super::Outcome;

/// The first bytes of every entry; the number changes with the layout.
const MAGIC: &[u8] = b"intel-gpu-ocloc-cache 1\0";
/// Entries' file-name suffix: what a sweep may count and remove.
const SUFFIX: &str = ".ocloc";
const DEFAULT_LIMIT: u64 = 1 << 30;
/// Lock files of claims ([`DiskCache::claim`]): `.<entry name>.lock`.
const CLAIM_SUFFIX: &str = ".lock";
/// A temporary or lock file this old was left by a process that died while writing it.
const STALE_TEMPORARY: Duration = Duration::from_secs(3600);
/// The libraries that compile (ocloc and what it loads), by file-name prefix: their files
/// identify the compiler.
const COMPILER_LIBRARIES: [&str; 3] = ["libocloc", "libigc.so", "libigdfcl.so"];

/// A cache directory and the compiler its entries are for.
pub struct DiskCache {
    dir: PathBuf,
    /// The compiler's identity: each library's path, size, modification time and inode.
    compiler: String,
    limit: u64,
    /// Bytes stored by this process since the last sweep.
    stored: AtomicU64,
    /// Makes this process's temporary file names unique.
    next_temporary: AtomicU64,
}

/// The process's cache, when it is on and the compiler can be identified.
pub fn get() -> Option<&'static DiskCache> {
    static CACHE: OnceLock<Option<DiskCache>> = OnceLock::new();
    CACHE.get_or_init(from_environment).as_ref()
}

fn from_environment() -> Option<DiskCache> {
    if std::env::var("INTEL_GPU_CACHE").is_ok_and(|v| v == "0") {
        return None;
    }
    let dir = match std::env::var_os("INTEL_GPU_CACHE_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => default_dir()?,
    };
    let limit = std::env::var("INTEL_GPU_CACHE_MAX_SIZE")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(DEFAULT_LIMIT);
    let compiler = compiler_identity()?;
    let cache = DiskCache::at(dir, compiler, limit);
    if let Err(e) = fs::create_dir_all(&cache.dir) {
        tracing::debug!(dir = %cache.dir.display(), error = %e, "compiler cache off");
        return None;
    }
    Some(cache)
}

fn default_dir() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_CACHE_HOME") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".cache"),
    };
    Some(base.join("intel-gpu-compute"))
}

/// The compiler's libraries as loaded in this process: ocloc's, and IGC's and its front end's,
/// which ocloc opens by these names (loading them first puts them in the process map).
fn compiler_identity() -> Option<String> {
    super::library().ok()?;
    for name in ["libigc.so.1", "libigdfcl.so.1"] {
        // SAFETY: IGC's libraries' initialisers only set up their own state; ocloc opens the
        // same files by the same names.
        let lib = unsafe { libloading::Library::new(name) }.ok()?;
        // Kept loaded for the process, as ocloc keeps them.
        std::mem::forget(lib);
    }
    let maps = fs::read_to_string("/proc/self/maps").ok()?;
    let mut paths: Vec<&str> = maps
        .lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .filter(|p| {
            let file = p.rsplit('/').next().unwrap_or(p);
            COMPILER_LIBRARIES.iter().any(|c| file.starts_with(c))
        })
        .collect();
    paths.sort_unstable();
    paths.dedup();
    let found = |c: &str| {
        paths
            .iter()
            .any(|p| p.rsplit('/').next().unwrap_or(p).starts_with(c))
    };
    if !COMPILER_LIBRARIES.iter().all(|c| found(c)) {
        return None;
    }
    let mut id = String::new();
    for p in paths {
        let m = fs::metadata(p).ok()?;
        id.push_str(&format!(
            "{p} {} {}.{} {}\n",
            m.len(),
            m.mtime(),
            m.mtime_nsec(),
            m.ino()
        ));
    }
    Some(id)
}

impl DiskCache {
    /// A cache in `dir` for the compiler `compiler` (any text that changes when it does).
    pub fn at(dir: PathBuf, compiler: String, limit: u64) -> DiskCache {
        DiskCache {
            dir,
            compiler,
            limit,
            stored: AtomicU64::new(0),
            next_temporary: AtomicU64::new(0),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of one run: everything its result depends on.
    pub fn key(&self, args: &[&str], inputs: &[(&str, &[u8])]) -> Key {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        put_bytes(&mut b, self.compiler.as_bytes());
        put_u64(&mut b, args.len() as u64);
        for a in args {
            put_bytes(&mut b, a.as_bytes());
        }
        put_u64(&mut b, inputs.len() as u64);
        for (name, data) in inputs {
            put_bytes(&mut b, name.as_bytes());
            put_bytes(&mut b, data);
        }
        let name = format!("{:016x}{SUFFIX}", checksum(&b));
        Key { bytes: b, name }
    }

    /// The stored result for `key`, if there is a whole one.
    pub fn load(&self, key: &Key) -> Option<Outcome> {
        let path = self.dir.join(&key.name);
        let data = fs::read(&path).ok()?;
        let Some(outcome) = decode(&data, key) else {
            // Damaged, or another key's: it is replaced when this result is stored.
            tracing::debug!(entry = %path.display(), "compiler cache entry not usable");
            return None;
        };
        // Used: the last entry a sweep removes. A failure only makes it older.
        if let Ok(f) = fs::File::options().append(true).open(&path) {
            let _ = f.set_modified(SystemTime::now());
        }
        Some(outcome)
    }

    /// Keeps a successful `outcome` for `key`. Failures to write leave the cache as it was.
    pub fn store(&self, key: &Key, outcome: &Outcome) {
        if outcome.status != 0 {
            return;
        }
        let mut data = key.bytes.clone();
        put_u64(&mut data, u64::from(outcome.status as u32));
        put_bytes(&mut data, outcome.log.as_bytes());
        put_u64(&mut data, outcome.files.len() as u64);
        for (name, bytes) in &outcome.files {
            put_bytes(&mut data, name.as_bytes());
            put_bytes(&mut data, bytes);
        }
        let sum = checksum(&data);
        put_u64(&mut data, sum);
        let temporary = self.dir.join(format!(
            ".{}.{}.{}.tmp",
            key.name,
            std::process::id(),
            self.next_temporary.fetch_add(1, Ordering::Relaxed)
        ));
        let written = fs::write(&temporary, &data)
            .and_then(|()| fs::rename(&temporary, self.dir.join(&key.name)));
        if let Err(e) = written {
            let _ = fs::remove_file(&temporary);
            tracing::debug!(dir = %self.dir.display(), error = %e, "compiler cache not written");
            return;
        }
        // A sweep at the first store of a process and after each eighth of the limit stored.
        let (len, step) = (data.len() as u64, (self.limit / 8).max(1));
        let before = self.stored.fetch_add(len, Ordering::Relaxed);
        if before == 0 || before / step != (before + len) / step {
            self.sweep();
        }
    }

    /// Claims `key`'s compile for this thread, waiting while another process or thread holds
    /// it: whoever compiles the same inputs at the same time (test processes running the same
    /// suite, an application's threads) waits for the first one's result instead of compiling
    /// them again. Nothing when the lock cannot be made (then everyone compiles).
    pub fn claim(&self, key: &Key) -> Option<Claim> {
        let path = self.dir.join(format!(".{}{CLAIM_SUFFIX}", key.name));
        let file = fs::File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .ok()?;
        file.lock().ok()?;
        Some(Claim { path, _file: file })
    }

    /// Removes the least recently used entries while the directory holds more than the limit
    /// (down to three quarters of it), and temporary and lock files left by processes that died.
    pub fn sweep(&self) {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        let now = SystemTime::now();
        let mut kept = Vec::new();
        let mut total = 0u64;
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let Ok(m) = e.metadata() else { continue };
            let modified = m.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            if name.starts_with('.') && (name.ends_with(".tmp") || name.ends_with(CLAIM_SUFFIX)) {
                if now.duration_since(modified).unwrap_or_default() > STALE_TEMPORARY {
                    let _ = fs::remove_file(e.path());
                }
            } else if name.ends_with(SUFFIX) {
                total += m.len();
                kept.push((modified, m.len(), e.path()));
            }
        }
        if total <= self.limit {
            return;
        }
        kept.sort_by_key(|(modified, _, _)| *modified);
        let goal = self.limit / 4 * 3;
        for (_, len, path) in kept {
            if total <= goal {
                break;
            }
            if fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
    }
}

/// A held claim on one key's compile ([`DiskCache::claim`]); released when dropped. Its lock
/// file is removed first: a process already waiting on it then finds the stored result, one
/// arriving later makes a new file and finds it too.
pub struct Claim {
    path: PathBuf,
    _file: fs::File,
}

impl Drop for Claim {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// One run's key: its bytes (stored at the head of its entry) and its entry's file name.
pub struct Key {
    bytes: Vec<u8>,
    name: String,
}

/// The outcome stored in `data` for `key`: the entry must begin with the key and end with the
/// checksum of everything before it.
fn decode(data: &[u8], key: &Key) -> Option<Outcome> {
    let (body, sum) = data.split_at_checked(data.len().checked_sub(8)?)?;
    if u64::from_le_bytes(sum.try_into().ok()?) != checksum(body) {
        return None;
    }
    let mut r = Reader(body.strip_prefix(key.bytes.as_slice())?);
    let status = r.u64()? as u32 as i32;
    let log = String::from_utf8(r.bytes()?.to_vec()).ok()?;
    let count = r.u64()?;
    let mut files = Vec::new();
    for _ in 0..count {
        let name = String::from_utf8(r.bytes()?.to_vec()).ok()?;
        files.push((name, r.bytes()?.to_vec()));
    }
    r.0.is_empty().then_some(Outcome { status, log, files })
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn u64(&mut self) -> Option<u64> {
        let (head, rest) = self.0.split_at_checked(8)?;
        self.0 = rest;
        Some(u64::from_le_bytes(head.try_into().ok()?))
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.u64()?).ok()?;
        let (head, rest) = self.0.split_at_checked(len)?;
        self.0 = rest;
        Some(head)
    }
}

fn put_u64(b: &mut Vec<u8>, v: u64) {
    b.extend_from_slice(&v.to_le_bytes());
}

fn put_bytes(b: &mut Vec<u8>, v: &[u8]) {
    put_u64(b, v.len() as u64);
    b.extend_from_slice(v);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(log: &str, binary: &[u8]) -> Outcome {
        Outcome {
            status: 0,
            log: log.into(),
            files: vec![("program".into(), binary.to_vec())],
        }
    }

    fn cache(dir: &Path, limit: u64) -> DiskCache {
        DiskCache::at(dir.to_path_buf(), "compiler A".into(), limit)
    }

    #[test]
    fn a_stored_result_is_found_by_an_equal_key_only() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 1 << 20);
        let key = c.key(
            &["-device", "tgllp"],
            &[("program.cl", b"kernel void k(){}")],
        );
        assert!(c.load(&key).is_none());
        c.store(&key, &outcome("warning: x", b"\x7fELF binary"));
        let got = c.load(&key).expect("stored");
        assert_eq!(got.status, 0);
        assert_eq!(got.log, "warning: x");
        assert_eq!(
            got.files,
            vec![("program".to_string(), b"\x7fELF binary".to_vec())]
        );
        // Any part of the key changed: another option, device, input byte, input name, compiler.
        for other in [
            c.key(&["-device", "dg2"], &[("program.cl", b"kernel void k(){}")]),
            c.key(
                &["-device", "tgllp", "-O0"],
                &[("program.cl", b"kernel void k(){}")],
            ),
            c.key(
                &["-device", "tgllp"],
                &[("program.cl", b"kernel void k(){ }")],
            ),
            c.key(
                &["-device", "tgllp"],
                &[("program.spv", b"kernel void k(){}")],
            ),
            DiskCache::at(dir.path().into(), "compiler B".into(), 1 << 20).key(
                &["-device", "tgllp"],
                &[("program.cl", b"kernel void k(){}")],
            ),
            // Lengths are part of the key: moving a byte between fields is another key.
            c.key(
                &["-device", "tgll", "p"],
                &[("program.cl", b"kernel void k(){}")],
            ),
        ] {
            assert_ne!(other.bytes, key.bytes);
            assert!(c.load(&other).is_none());
        }
    }

    #[test]
    fn a_key_sharing_the_file_name_is_not_answered() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 1 << 20);
        let key = c.key(&["a"], &[("p", b"1")]);
        c.store(&key, &outcome("", b"one"));
        // Another key given this entry's name: the whole key is compared, not the name.
        let impostor = Key {
            name: key.name.clone(),
            ..c.key(&["b"], &[("p", b"1")])
        };
        assert!(c.load(&impostor).is_none());
    }

    #[test]
    fn failed_runs_are_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 1 << 20);
        let key = c.key(&["a"], &[("p", b"error")]);
        c.store(
            &key,
            &Outcome {
                status: -11,
                log: "error: x".into(),
                files: vec![],
            },
        );
        assert!(c.load(&key).is_none());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_damaged_entry_is_a_miss_and_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 1 << 20);
        let key = c.key(&["a"], &[("p", b"src")]);
        c.store(&key, &outcome("log", b"binary bytes"));
        let path = dir.path().join(&key.name);
        let whole = fs::read(&path).unwrap();
        // Every single-byte change and every truncation is found.
        for i in 0..whole.len() {
            let mut bad = whole.clone();
            bad[i] ^= 0x20;
            fs::write(&path, &bad).unwrap();
            assert!(c.load(&key).is_none(), "byte {i} changed");
        }
        for len in 0..whole.len() {
            fs::write(&path, &whole[..len]).unwrap();
            assert!(c.load(&key).is_none(), "cut to {len} bytes");
        }
        c.store(&key, &outcome("log", b"binary bytes"));
        assert_eq!(c.load(&key).unwrap().files[0].1, b"binary bytes");
    }

    #[test]
    fn the_directory_stays_under_its_limit_keeping_recently_used_entries() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path(), 64 * 1024);
        let keys: Vec<Key> = (0..40)
            .map(|i| c.key(&["k"], &[("p", format!("{i}").as_bytes())]))
            .collect();
        let old = SystemTime::now() - Duration::from_secs(1000);
        for (i, key) in keys.iter().enumerate() {
            c.store(key, &outcome("", &vec![i as u8; 4000]));
            // Older the earlier stored, but the first one used since.
            let p = dir.path().join(&key.name);
            let t = old + Duration::from_secs(i as u64);
            fs::File::options()
                .append(true)
                .open(&p)
                .unwrap()
                .set_modified(t)
                .unwrap();
            if i > 0 {
                assert!(
                    c.load(&keys[0]).is_some(),
                    "the entry in use was removed at {i}"
                );
            }
        }
        c.sweep();
        let total: u64 = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().metadata().unwrap().len())
            .sum();
        assert!(total <= 64 * 1024, "{total} bytes kept");
        assert!(c.load(&keys[0]).is_some());
        assert!(c.load(&keys[39]).is_some());
        assert!(
            c.load(&keys[1]).is_none(),
            "the least recently used entry was kept"
        );
    }
}
