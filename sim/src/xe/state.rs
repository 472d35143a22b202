//! What one xe file holds besides the DRM core's tables: its VMs and exec queues.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use crate::gpu::HwContext;
use crate::mem::AddressSpace;

pub(crate) type Vm = Arc<RwLock<AddressSpace>>;

pub(crate) struct XeVm {
    pub space: Vm,
    /// Long-running mode: exec queues signal only user fences.
    pub lr: bool,
}

pub(crate) struct Queue {
    pub hw: HwContext,
    pub vm_id: u32,
    pub vm: Vm,
    pub lr: bool,
    /// Index of the engine the queue runs on.
    pub engine: usize,
}

/// The xe file's VMs and exec queues.
#[derive(Default)]
pub(crate) struct State {
    pub(super) vms: HashMap<u32, XeVm>,
    pub(super) next_vm: u32,
    pub(super) queues: HashMap<u32, Queue>,
    pub(super) next_queue: u32,
}

pub(super) fn next_id<T>(next: &mut u32, map: &HashMap<u32, T>) -> u32 {
    loop {
        *next = next.wrapping_add(1).max(1);
        if !map.contains_key(next) {
            return *next;
        }
    }
}
