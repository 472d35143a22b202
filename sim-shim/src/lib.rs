//! An `LD_PRELOAD` library that makes the simulator a render node.
//! Start reading: `hooks.rs` (the intercepted libc calls), then `state.rs`.
//!
//! Under `LD_PRELOAD=libintel_gpu_sim_shim.so` with `INTEL_GPU_SIM=<platform>[@i915|@xe]`
//! (unset: `tgllp@i915`), the process sees one Intel GPU at `/dev/dri/renderD128` and its
//! primary node `/dev/dri/card0` (and their `/dev/dri/by-path` links) and nothing else under
//! `/dev/dri`, plus the module's `/sys/module/<driver>/initstate` and debugfs `dri/0`. Opening it
//! gives a real fd (an eventfd: `poll`/`select`/`close` behave, it is never readable) whose
//! `fstat` is the character device 226:128; `ioctl`s on it go to [`sim::SimDevice`], and
//! `mmap` at a GEM mmap offset maps the simulator's own pages of that BO (see `hooks`), so
//! CPU writes are what the GPU reads. Sync-file fds the simulator returns are its own real
//! eventfds. See `firmware-notes/simulator.md` for what is and is not intercepted.

// Unit tests build without the hooks (a test binary must not redirect its own calls), which
// leaves the state they use unreferenced there.
#![cfg_attr(test, allow(dead_code, unused_imports, unused_macros))]

mod config;
mod drm_file;
mod fork;
#[cfg(not(test))]
mod hooks;
mod paths;
mod real;
mod state;
