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

impl Compiler {
    pub fn new(ocloc: PathBuf, cache: &Path) -> Compiler {
        let mut h = DefaultHasher::new();
        if let Ok(m) = std::fs::metadata(&ocloc) {
            m.len().hash(&mut h);
            m.modified().ok().hash(&mut h);
        }
        ocloc.hash(&mut h);
        let _ = std::fs::create_dir_all(cache);
        Compiler {
            ocloc,
            cache: cache.to_path_buf(),
            stamp: h.finish(),
            route: Route::Direct,
        }
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
