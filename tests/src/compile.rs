//! Compiling the corpus with ocloc: a file at a time per platform, SIMD width and format, with
//! the instances the compiler rejects found by compiling halves. Results (binaries and
//! rejections) are cached on disk by a hash of everything that goes into them.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use oracles::ocloc::{self, Format};
use platform::Platform;

use crate::corpus::{File, Instance};

/// The outcome for one file.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// Binaries, each holding the kernels of some of the instances.
    pub binaries: Vec<(Vec<Instance>, Vec<u8>)>,
    /// Instances ocloc rejects on their own, with its last line of output.
    pub rejected: Vec<(Instance, String)>,
}

/// How ocloc turns OpenCL C into a device binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// In one step (the default).
    Direct,
    /// Through SPIR-V, cl_intel_spirv_subgroups' path: `-spv_only` makes the module, then
    /// `-spirv_input` compiles it.
    SpirV,
}

pub struct Compiler {
    pub ocloc: PathBuf,
    cache: PathBuf,
    stamp: u64,
    route: Route,
}

pub fn options(simd: u32) -> String {
    format!("-DSIMD={simd} -cl-std=CL2.0")
}

/// The most bytes the shared corpus cache ([`Compiler::shared`]) keeps; past it the entries
/// used least recently go (a whole cold run's corpus is about a tenth of it).
const SHARED_LIMIT: u64 = 1 << 30;

impl Compiler {
    /// A compiler whose results are kept in `cache`, under a key naming the compiler's files
    /// ([`oracles::cache::ocloc_identity`]): an upgraded compiler never answers from an older
    /// one's entries.
    pub fn new(ocloc: PathBuf, cache: &Path) -> Compiler {
        let mut h = DefaultHasher::new();
        oracles::cache::ocloc_identity(&ocloc).hash(&mut h);
        let _ = std::fs::create_dir_all(cache);
        Compiler {
            ocloc,
            cache: cache.to_path_buf(),
            stamp: h.finish(),
            route: Route::Direct,
        }
    }

    /// A compiler whose cache is the tests' shared one ([`oracles::cache::dir`]), kept between
    /// runs and checkouts and kept under a size limit.
    pub fn shared(ocloc: PathBuf) -> Compiler {
        static SWEPT: std::sync::Once = std::sync::Once::new();
        let dir = oracles::cache::dir("ocloc-corpus");
        SWEPT.call_once(|| oracles::cache::sweep(&dir, SHARED_LIMIT));
        Compiler::new(ocloc, &dir)
    }

    /// The same compiler, compiling by `route`.
    pub fn with_route(self, route: Route) -> Compiler {
        Compiler { route, ..self }
    }

    /// One compilation by the route, through the cache: the binary, or ocloc's complaint.
    fn run(&self, p: Platform, src: &str, opts: &str, f: Format) -> Result<Vec<u8>, String> {
        let (dev, zebin) = (p.ocloc_device(), f == Format::Zebin);
        match self.route {
            Route::Direct => self.cached((dev, src, opts, zebin), ("bin", "err"), || {
                ocloc::compile(&self.ocloc, p, src, opts, f)
            }),
            Route::SpirV => {
                let spv = self.spirv(p, src, opts)?;
                let key = ("spirv_input", dev, &spv, opts, zebin);
                self.cached(key, ("bin", "err"), || {
                    let mut args = vec!["-spirv_input"];
                    if zebin {
                        args.extend(["--format", "zebin"]);
                    }
                    ocloc::build(&self.ocloc, p, ("in.spv", &spv), opts, &args, "out")
                })
            }
        }
    }

    /// The SPIR-V module ocloc makes of `src` for `p` (`-spv_only`), through the cache.
    pub fn spirv(&self, p: Platform, src: &str, opts: &str) -> Result<Vec<u8>, String> {
        let key = ("spv_only", p.ocloc_device(), src, opts);
        self.cached(key, ("spv", "spverr"), || {
            let input = ("kernel.cl", src.as_bytes());
            ocloc::build(&self.ocloc, p, input, opts, &["-spv_only"], "out.spv")
        })
    }

    /// The cache entry of (ocloc, `what`), without its extension.
    fn entry(&self, what: impl Hash) -> PathBuf {
        let mut h = DefaultHasher::new();
        (self.stamp, what).hash(&mut h);
        self.cache.join(format!("{:016x}", h.finish()))
    }

    /// Whether ocloc rejected `instance` on its own for `p` at `simd` in a direct compile of
    /// either format (a cached failure: an earlier run's, or another test's).
    fn rejected_before(&self, p: Platform, file: &File, simd: u32, instance: &Instance) -> bool {
        let (src, opts) = (file.source(&[instance]), options(simd));
        [false, true].into_iter().any(|zebin| {
            let what = (p.ocloc_device(), src.as_str(), opts.as_str(), zebin);
            self.entry(what).with_extension("err").is_file()
        })
    }

    /// `make`'s result, from the cache when an entry for (ocloc, `what`) is there.
    fn cached(
        &self,
        what: impl Hash,
        (ok, err): (&str, &str),
        make: impl FnOnce() -> Result<Vec<u8>, String>,
    ) -> Result<Vec<u8>, String> {
        let key = self.entry(what);
        let (ok, err) = (key.with_extension(ok), key.with_extension(err));
        if let Ok(b) = std::fs::read(&ok) {
            oracles::cache::touch(&ok);
            return Ok(b);
        }
        if let Ok(e) = std::fs::read_to_string(&err) {
            oracles::cache::touch(&err);
            return Err(e);
        }
        // Tests running at the same time compile the same files: whoever comes second waits
        // for the first's result instead of running ocloc again.
        let _claim = Claim::take(&key.with_extension("lock"));
        if let Ok(b) = std::fs::read(&ok) {
            return Ok(b);
        }
        if let Ok(e) = std::fs::read_to_string(&err) {
            return Err(e);
        }
        let r = make();
        // Tests running at the same time may want the same entry: write aside, then rename
        // (atomic), so nobody reads half a file.
        let (path, bytes) = match &r {
            Ok(b) => (&ok, b.as_slice()),
            Err(e) => (&err, e.as_bytes()),
        };
        let aside = path.with_extension(format!(
            "tmp{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        if std::fs::write(&aside, bytes).is_ok() {
            let _ = std::fs::rename(&aside, path);
        }
        r
    }

    pub fn compile(&self, p: Platform, file: &File, simd: u32, f: Format) -> Compiled {
        let mut out = Compiled {
            binaries: Vec::new(),
            rejected: Vec::new(),
        };
        // Instances ocloc rejected alone before (in the other format, say) are compiled alone,
        // after the rest in one piece: finding them again by halving costs a failing ocloc
        // run per step, each as dear as a successful one. A rejection not known before is
        // still found by halving.
        let (known, rest): (Vec<&Instance>, Vec<&Instance>) = file
            .instances
            .iter()
            .partition(|i| self.rejected_before(p, file, simd, i));
        if !rest.is_empty() {
            self.split(p, file, simd, f, &rest, &mut out);
        }
        for i in known {
            self.split(p, file, simd, f, &[i], &mut out);
        }
        out
    }

    fn split(
        &self,
        p: Platform,
        file: &File,
        simd: u32,
        f: Format,
        part: &[&Instance],
        out: &mut Compiled,
    ) {
        match self.run(p, &file.source(part), &options(simd), f) {
            Ok(bin) => out
                .binaries
                .push((part.iter().map(|i| (*i).clone()).collect(), bin)),
            Err(e) if part.len() == 1 => {
                // With -q ocloc prints no diagnostics; what is left is its exit status
                // (245 is IGC's "error code -11": the compiler crashed).
                let why = e
                    .lines()
                    .find(|l| l.contains("error:"))
                    .map(str::trim)
                    .or_else(|| {
                        e.find("exit status")
                            .map(|i| e[i..].lines().next().unwrap_or(""))
                    })
                    .unwrap_or("ocloc failed")
                    .trim_end_matches(':')
                    .to_string();
                out.rejected.push((part[0].clone(), why));
            }
            Err(_) => {
                let (a, b) = part.split_at(part.len() / 2);
                self.split(p, file, simd, f, a, out);
                self.split(p, file, simd, f, b, out);
            }
        }
    }
}

/// An exclusive lock on a cache entry being made, held until dropped; its file is removed
/// first, so a waiter then finds the entry. Nothing when the lock cannot be made (then both
/// compile, as without it).
struct Claim {
    path: PathBuf,
    _file: std::fs::File,
}

impl Claim {
    fn take(path: &Path) -> Option<Claim> {
        let file = std::fs::File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .ok()?;
        file.lock().ok()?;
        Some(Claim {
            path: path.to_path_buf(),
            _file: file,
        })
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::mpsc;

    /// Whether thread `tid` of this process is blocked in `flock` (a claim's wait).
    fn in_flock(tid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/self/task/{tid}/syscall"))
            .is_ok_and(|s| s.split_whitespace().next() == Some(&nix::libc::SYS_flock.to_string()))
    }

    /// Two threads wanting the same entry at once: the second waits for the first's claim and
    /// reads its result; it never compiles.
    #[test]
    fn a_second_compile_of_the_same_entry_waits_for_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let c = Compiler::new(dir.path().join("no-ocloc"), &dir.path().join("cache"));
        let what = ("tgllp", "kernel void k(){}", "-DSIMD=16", true);
        let (started_tx, started) = mpsc::channel();
        let (finish, finish_rx) = mpsc::channel::<()>();
        let (tid_tx, tid) = mpsc::channel();
        let second_compiles = AtomicUsize::new(0);
        let second_done = AtomicBool::new(false);
        std::thread::scope(|s| {
            let first = s.spawn(|| {
                c.cached(what, ("bin", "err"), move || {
                    started_tx.send(()).unwrap();
                    finish_rx.recv().unwrap();
                    Ok(b"first".to_vec())
                })
            });
            // The first holds the claim from here until it is told to finish.
            started.recv().unwrap();
            let second = s.spawn(|| {
                tid_tx.send(nix::unistd::gettid().as_raw()).unwrap();
                let r = c.cached(what, ("bin", "err"), || {
                    second_compiles.fetch_add(1, Ordering::SeqCst);
                    Ok(b"second".to_vec())
                });
                second_done.store(true, Ordering::SeqCst);
                r
            });
            // The first finishes once the second waits for the claim (or, were there no claim,
            // has compiled or returned by itself).
            let tid = tid.recv().unwrap();
            while !in_flock(tid)
                && second_compiles.load(Ordering::SeqCst) == 0
                && !second_done.load(Ordering::SeqCst)
            {
                std::thread::yield_now();
            }
            finish.send(()).unwrap();
            assert_eq!(first.join().unwrap(), Ok(b"first".to_vec()));
            assert_eq!(second.join().unwrap(), Ok(b"first".to_vec()));
        });
        assert_eq!(second_compiles.load(Ordering::SeqCst), 0);
    }
}
