//! Intel's compiler in process: `oclocInvoke` of libocloc.so (`ocloc_api.h`), opened with
//! dlopen; every output it returns is given back with `oclocFreeOutput`. Beside it, what
//! compilation reads and writes: SPIR-V modules ([`spirv`]), the containers of compiled objects
//! and libraries ([`binary`]) and their IR ([`link`]). Nothing here knows the OpenCL objects.

pub mod binary;
pub mod cache;
pub mod link;
mod quiet_stdout;
pub mod spirv;

use std::ffi::{c_char, c_int, CString};
use std::sync::OnceLock;

use libloading::{Library, Symbol};

/// `oclocInvoke` (ocloc_api.h).
type Invoke = unsafe extern "C" fn(
    num_args: u32,
    argv: *const *const c_char,
    num_sources: u32,
    data_sources: *const *const u8,
    len_sources: *const u64,
    name_sources: *const *const c_char,
    num_headers: u32,
    data_headers: *const *const u8,
    len_headers: *const u64,
    name_headers: *const *const c_char,
    num_outputs: *mut u32,
    data_outputs: *mut *mut *mut u8,
    len_outputs: *mut *mut u64,
    name_outputs: *mut *mut *mut c_char,
) -> c_int;

/// `oclocFreeOutput` (ocloc_api.h).
type FreeOutput = unsafe extern "C" fn(
    num_outputs: *mut u32,
    data_outputs: *mut *mut *mut u8,
    len_outputs: *mut *mut u64,
    name_outputs: *mut *mut *mut c_char,
) -> c_int;

const LIBRARY: &str = "libocloc.so";

static LIB: OnceLock<Result<Library, String>> = OnceLock::new();
/// Held while ocloc runs (see `run`).
static OCLOC_RUNS: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn library() -> Result<&'static Library, String> {
    LIB.get_or_init(|| {
        // SAFETY: libocloc's initialisers only set up its own state.
        unsafe { Library::new(LIBRARY) }.map_err(|e| format!("cannot load {LIBRARY}: {e}"))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// Whether the compiler library can be loaded.
pub fn available() -> bool {
    library().is_ok()
}

/// What one compilation returned.
#[derive(Debug, Default)]
pub struct Outcome {
    /// ocloc's exit code (0: success).
    pub status: i32,
    /// ocloc's messages (its `stdout.log` output).
    pub log: String,
    /// Every other output file, by name.
    pub files: Vec<(String, Vec<u8>)>,
}

/// Runs ocloc with `args` (after the program name) over the in-memory `source` named `name`.
pub fn invoke(args: &[&str], name: &str, source: &[u8]) -> Result<Outcome, String> {
    invoke_files(args, &[(name, source)])
}

/// Runs ocloc with `args` over in-memory input files, each (name, contents); `ocloc link`
/// takes several.
/// A successful run's result is kept in the compiler cache ([`cache`]) and later runs with
/// the same arguments and inputs read it from there.
/// Every run is traced (`INTEL_GPU_OPENCL_TRACE`): its options, then its status and log.
pub fn invoke_files(args: &[&str], inputs: &[(&str, &[u8])]) -> Result<Outcome, String> {
    invoke_keyed(args, inputs, args, &[])
}

/// [`invoke_files`] with the cache keyed by `key_args` in place of `args` and by `key_inputs`
/// besides `inputs`: for a run whose arguments name a private temporary directory (the input
/// headers of clCompileProgram), keyed by what the directory holds instead of where it is.
pub fn invoke_keyed(
    args: &[&str],
    inputs: &[(&str, &[u8])],
    key_args: &[&str],
    key_inputs: &[(&str, &[u8])],
) -> Result<Outcome, String> {
    let all: Vec<(&str, &[u8])> = inputs.iter().chain(key_inputs).copied().collect();
    let cache = cache::get().map(|c| (c, c.key(key_args, &all)));
    through_cache(cache, args, || run(args, inputs))
}

/// `compile`'s result through the cache: read when stored, else compiled once while holding
/// the key's claim (so another process or thread compiling the same waits and reads it), and
/// stored. `args` are for the trace.
fn through_cache(
    cache: Option<(&cache::DiskCache, cache::Key)>,
    args: &[&str],
    compile: impl FnOnce() -> Result<Outcome, String>,
) -> Result<Outcome, String> {
    let cached = || {
        let hit = cache.as_ref().and_then(|(c, key)| c.load(key))?;
        tracing::debug!(options = ?args, log = %hit.log, "ocloc result from the compiler cache");
        Some(hit)
    };
    if let Some(hit) = cached() {
        return Ok(hit);
    }
    // Taken before `OCLOC_RUNS` (in `run`), never while holding it: a thread holding that lock
    // then never waits for another claim, so claims and the lock cannot wait on each other.
    let _claim = cache.as_ref().and_then(|(c, key)| c.claim(key));
    if let Some(hit) = cached() {
        return Ok(hit);
    }
    tracing::debug!(options = ?args, "ocloc");
    let result = compile();
    match &result {
        Ok(outcome) => tracing::debug!(status = outcome.status, log = %outcome.log, "ocloc done"),
        Err(e) => tracing::debug!(error = %e, "ocloc not run"),
    }
    if let (Some((c, key)), Ok(outcome)) = (&cache, &result) {
        c.store(key, outcome);
    }
    result
}

/// [`invoke_files`] untraced.
fn run(args: &[&str], inputs: &[(&str, &[u8])]) -> Result<Outcome, String> {
    let lib = library()?;
    // SAFETY: the symbol types are ocloc_api.h's declarations.
    let (invoke, free): (Symbol<Invoke>, Symbol<FreeOutput>) = unsafe {
        (
            lib.get(b"oclocInvoke\0").map_err(|e| e.to_string())?,
            lib.get(b"oclocFreeOutput\0").map_err(|e| e.to_string())?,
        )
    };
    let c_args: Vec<CString> = std::iter::once("ocloc")
        .chain(args.iter().copied())
        .map(|a| CString::new(a).map_err(|_| format!("option `{a}` contains a NUL byte")))
        .collect::<Result<_, _>>()?;
    let argv: Vec<*const c_char> = c_args.iter().map(|a| a.as_ptr()).collect();
    let c_names: Vec<CString> = inputs
        .iter()
        .map(|(n, _)| CString::new(*n).map_err(|_| "input name contains a NUL byte".to_string()))
        .collect::<Result<_, _>>()?;
    let data: Vec<*const u8> = inputs.iter().map(|(_, d)| d.as_ptr()).collect();
    let lens: Vec<u64> = inputs.iter().map(|(_, d)| d.len() as u64).collect();
    let names: Vec<*const c_char> = c_names.iter().map(|n| n.as_ptr()).collect();
    let mut n: u32 = 0;
    let mut outs: *mut *mut u8 = std::ptr::null_mut();
    let mut out_lens: *mut u64 = std::ptr::null_mut();
    let mut out_names: *mut *mut c_char = std::ptr::null_mut();
    // One ocloc run at a time in the process: ocloc guards each build with process-wide state
    // (SafetyGuardLinux: a SIGSEGV/SIGILL handler and one jump buffer) and aborts the process
    // when a guarded build faults, so builds from several application threads at once (OpenVINO
    // compiles its kernels in parallel) ended in `NEO::abortExecution` from inside
    // `oclocInvoke`.
    let _one_at_a_time = OCLOC_RUNS.lock().unwrap_or_else(|e| e.into_inner());
    let _quiet = quiet_stdout::Capture::begin();
    // SAFETY: every array has the length passed with it and outlives the call; the output
    // pointers are ocloc's to fill.
    let status = unsafe {
        invoke(
            argv.len() as u32,
            argv.as_ptr(),
            inputs.len() as u32,
            data.as_ptr(),
            lens.as_ptr(),
            names.as_ptr(),
            0,
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null(),
            &mut n,
            &mut outs,
            &mut out_lens,
            &mut out_names,
        )
    };
    let mut outcome = Outcome {
        status,
        ..Default::default()
    };
    if !outs.is_null() && !out_lens.is_null() && !out_names.is_null() {
        for k in 0..n as usize {
            // SAFETY: ocloc returned n outputs in three parallel arrays; names are C strings.
            let (name, bytes) = unsafe {
                let name = std::ffi::CStr::from_ptr(*out_names.add(k))
                    .to_string_lossy()
                    .into_owned();
                let p = *outs.add(k);
                let len = *out_lens.add(k) as usize;
                let bytes = if p.is_null() {
                    Vec::new()
                } else {
                    std::slice::from_raw_parts(p, len).to_vec()
                };
                (name, bytes)
            };
            if name == "stdout.log" {
                outcome.log = String::from_utf8_lossy(&bytes)
                    .trim_end_matches('\0')
                    .to_string();
            } else {
                outcome.files.push((name, bytes));
            }
        }
    }
    // SAFETY: exactly what oclocInvoke returned, freed once.
    unsafe { free(&mut n, &mut outs, &mut out_lens, &mut out_names) };
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    fn compiled(binary: &[u8]) -> Result<Outcome, String> {
        Ok(Outcome {
            status: 0,
            log: String::new(),
            files: vec![("program".into(), binary.to_vec())],
        })
    }

    /// Whether thread `tid` of this process is blocked in `flock` (its claim's wait).
    fn in_flock(tid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/self/task/{tid}/syscall"))
            .is_ok_and(|s| s.split_whitespace().next() == Some(&nix::libc::SYS_flock.to_string()))
    }

    /// Two threads compiling the same inputs at once: the second waits for the first's claim
    /// and reads its result; it never compiles.
    #[test]
    fn a_second_compile_of_the_same_inputs_waits_for_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let cache = cache::DiskCache::at(dir.path().into(), "compiler A".into(), 1 << 20);
        let key = || {
            cache.key(
                &["-device", "tgllp"],
                &[("program.cl", b"kernel void k(){}")],
            )
        };
        let (started_tx, started) = mpsc::channel();
        let (finish, finish_rx) = mpsc::channel::<()>();
        let (tid_tx, tid) = mpsc::channel();
        let second_compiles = AtomicUsize::new(0);
        let second_done = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|s| {
            let first = s.spawn(|| {
                through_cache(Some((&cache, key())), &[], move || {
                    started_tx.send(()).unwrap();
                    finish_rx.recv().unwrap();
                    compiled(b"first")
                })
            });
            // The first holds the claim from here until it is told to finish.
            started.recv().unwrap();
            let second = s.spawn(|| {
                tid_tx.send(nix::unistd::gettid().as_raw()).unwrap();
                let r = through_cache(Some((&cache, key())), &[], || {
                    second_compiles.fetch_add(1, Ordering::SeqCst);
                    compiled(b"second")
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
            let (a, b) = (first.join().unwrap(), second.join().unwrap());
            assert_eq!(a.unwrap().files, b.unwrap().files);
        });
        assert_eq!(second_compiles.load(Ordering::SeqCst), 0);
        // The claim's lock file is gone with it.
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().ends_with(".lock"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
