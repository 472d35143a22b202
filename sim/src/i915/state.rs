//! What one i915 file holds besides the DRM core's tables: its VMs and GEM contexts.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use crate::device_info::DeviceInfo;
use crate::gpu::HwContext;
use crate::mem::AddressSpace;

/// A GPU address space shared by VM ids and the contexts running in it.
pub(crate) type Vm = Arc<RwLock<AddressSpace>>;

/// A new PPGTT, its unused PTEs on the part's scratch page.
pub(crate) fn new_vm(info: &DeviceInfo) -> Vm {
    Arc::new(RwLock::new(AddressSpace::with_page_tables(
        info.i915_ppgtt(),
    )))
}

/// One i915 GEM context.
pub(crate) struct Context {
    pub hw: HwContext,
    pub vm: Vm,
    /// The user engine map (I915_CONTEXT_PARAM_ENGINES): execbuf's ring index selects an entry;
    /// `None` entries are holes. Without a map the legacy ring selectors apply.
    pub engines: Option<Vec<Option<usize>>>,
    pub recoverable: bool,
    pub bannable: bool,
    pub priority: i64,
    /// I915_CONTEXT_PARAM_PERSISTENCE: contexts are persistent unless the user clears it.
    pub persistent: bool,
}

impl Context {
    pub(super) fn new(id: u32, vm: Vm) -> Self {
        Context {
            hw: HwContext::new(id),
            vm,
            engines: None,
            recoverable: true,
            bannable: true,
            priority: 0,
            persistent: true,
        }
    }
}

/// The i915 file's VMs and contexts.
#[derive(Default)]
pub(crate) struct State {
    pub(super) vms: HashMap<u32, Vm>,
    pub(super) next_vm: u32,
    pub(super) contexts: HashMap<u32, Context>,
    pub(super) next_ctx: u32,
}

impl State {
    /// A new file has the default context 0 with its own address space.
    pub fn open(&mut self, info: &DeviceInfo) {
        self.contexts.insert(0, Context::new(0, new_vm(info)));
    }

    pub(super) fn new_vm(&mut self, vm: Vm) -> u32 {
        // VM ids start at 1; 0 means "no VM" in the uAPI.
        loop {
            self.next_vm = self.next_vm.wrapping_add(1).max(1);
            if !self.vms.contains_key(&self.next_vm) {
                self.vms.insert(self.next_vm, vm);
                return self.next_vm;
            }
        }
    }

    pub(super) fn new_context_id(&mut self) -> u32 {
        loop {
            self.next_ctx = self.next_ctx.wrapping_add(1).max(1);
            if !self.contexts.contains_key(&self.next_ctx) {
                return self.next_ctx;
            }
        }
    }

    /// Every address space the file can reach.
    pub(super) fn all_vms(&self) -> impl Iterator<Item = &Vm> {
        self.vms
            .values()
            .chain(self.contexts.values().map(|c| &c.vm))
    }
}

pub(crate) fn write_vm(vm: &Vm) -> std::sync::RwLockWriteGuard<'_, AddressSpace> {
    vm.write().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn read_vm(vm: &Vm) -> std::sync::RwLockReadGuard<'_, AddressSpace> {
    vm.read().unwrap_or_else(|e| e.into_inner())
}
