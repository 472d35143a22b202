//! What the simulator's sanitizer learns from this driver when the device is the simulator
//! in this process: each buffer's exact size (a GEM object is page-rounded), buffers kernels
//! only read, which bytes the host or a copy or fill wrote, and each dispatch's kernel name,
//! shared local memory and private memory. Without the `sim`
//! feature, or on any other device, every call does nothing.

use std::ops::Range;

/// The sanitizer of the device, if it is the in-process simulator running one.
#[derive(Default)]
pub(crate) struct Sanitize {
    #[cfg(feature = "sim")]
    hook: std::sync::OnceLock<std::sync::Arc<sim::sanitize::Sanitizer>>,
}

impl Sanitize {
    /// The simulator's sanitizer (set once, when the device opens).
    #[cfg(feature = "sim")]
    pub fn attach(&self, s: std::sync::Arc<sim::sanitize::Sanitizer>) {
        let _ = self.hook.set(s);
    }

    /// A buffer of exactly `size` bytes at `start`.
    pub fn buffer(&self, _start: u64, _size: u64, _read_only: bool) {
        #[cfg(feature = "sim")]
        if let Some(s) = self.hook.get() {
            s.register_buffer(_start, _size, _read_only);
        }
    }

    /// A USM allocation of exactly `size` bytes at `start`, of kind `label` ("device USM
    /// allocation", ...): once freed, an access to it is a use after free.
    pub fn usm(&self, _start: u64, _size: u64, _label: &str) {
        #[cfg(feature = "sim")]
        if let Some(s) = self.hook.get() {
            s.register_usm(_start, _size, _label);
        }
    }

    /// The host or a command (copy, fill) wrote the bytes at GPU addresses `range`.
    pub fn wrote(&self, _range: Range<u64>) {
        #[cfg(feature = "sim")]
        if let Some(s) = self.hook.get() {
            s.host_wrote(_range);
        }
    }

    /// The buffers in `range` (a GEM object's addresses) are gone.
    pub fn release(&self, _range: Range<u64>) {
        #[cfg(feature = "sim")]
        if let Some(s) = self.hook.get() {
            s.release_buffers(_range);
        }
    }

    /// The walkers whose indirect data lies in `indirect` run `kernel` from byte `entry` of
    /// its binary with `slm` bytes of shared local memory; `per_thread`: the GPU address ranges
    /// of its private memory and scratch, each thread's own; `lines`: its binary's source
    /// lines (empty without debug info).
    pub fn dispatch(
        &self,
        _indirect: Range<u64>,
        _kernel: &str,
        _entry: u32,
        _slm: u32,
        _per_thread: Vec<Range<u64>>,
        _lines: Option<&crate::program::SourceLines>,
    ) {
        #[cfg(feature = "sim")]
        if let Some(s) = self.hook.get() {
            let lines = _lines.map_or_else(Default::default, |l| {
                sim::sanitize::SourceLines::new(
                    l.files.clone(),
                    l.rows.iter().map(|r| (r.offset, r.file, r.line)),
                )
            });
            s.register_dispatch(
                _indirect,
                _kernel,
                _entry,
                _slm,
                _per_thread,
                std::sync::Arc::new(lines),
            );
        }
    }

    /// What the dispatch registered at `indirect` names (memcheck): the GPU ranges of its
    /// buffer arguments (`arguments`, asked only when the sanitizer is on: a sub-buffer
    /// bounds the accesses of a dispatch that names it and not its parent), its scratch
    /// space and its private buffer with the bytes of each hardware thread's slot.
    pub fn dispatch_bounds(
        &self,
        _indirect: u64,
        _arguments: impl FnOnce() -> Vec<Range<u64>>,
        _scratch: Option<Range<u64>>,
        _private: Option<(Range<u64>, u64)>,
    ) {
        #[cfg(feature = "sim")]
        if let Some(s) = self.hook.get() {
            let slots = sim::sanitize::Slots {
                scratch: _scratch,
                private: _private,
            };
            s.register_dispatch_bounds(_indirect, _arguments(), slots);
        }
    }
}
