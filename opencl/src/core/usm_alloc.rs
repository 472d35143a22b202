//! Unified shared memory allocations as a context holds them: each allocation, the table that
//! finds the allocation any address falls in, and a kernel's indirect-access settings. Below
//! contexts, kernels and queues (a queue that used an allocation is only a [`Waits`]); the
//! entry points' rules and commands are [`crate::core::usm`].

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use opencl_sys::*;

use crate::core::device::Device;
use crate::core::handle::Handle;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Host,
    Device,
    Shared,
}

impl Kind {
    pub fn cl(self) -> cl_unified_shared_memory_type_intel {
        match self {
            Kind::Host => CL_MEM_TYPE_HOST_INTEL,
            Kind::Device => CL_MEM_TYPE_DEVICE_INTEL,
            Kind::Shared => CL_MEM_TYPE_SHARED_INTEL,
        }
    }
}

/// Something that was given commands using an allocation and can wait for all of them (a
/// queue).
pub trait Waits: Send + Sync {
    fn wait_idle(&self);
}

/// A user of an allocation, held weakly.
pub type User = Weak<dyn Waits>;

/// One allocation.
pub struct Alloc {
    pub kind: Kind,
    /// Its storage; `buffer.gpu_address()` is the pointer the application holds.
    pub buffer: umd::memory::Buffer,
    /// The size asked for.
    pub size: usize,
    /// The device named at allocation (CL_MEM_ALLOC_DEVICE_INTEL); None for host allocations
    /// and shared ones made without a device.
    pub device: Option<Arc<Handle<Device>>>,
    /// The device whose VM holds it.
    pub home: Arc<Handle<Device>>,
    /// CL_MEM_ALLOC_FLAGS_INTEL as given (0 for none).
    pub flags: cl_mem_alloc_flags_intel,
    /// Who was given commands using it (clMemBlockingFreeINTEL waits for them).
    users: Mutex<Vec<User>>,
}

impl Alloc {
    pub fn new(
        (kind, buffer, size): (Kind, umd::memory::Buffer, usize),
        device: Option<Arc<Handle<Device>>>,
        home: Arc<Handle<Device>>,
        flags: cl_mem_alloc_flags_intel,
    ) -> Alloc {
        Alloc {
            kind,
            buffer,
            size,
            device,
            home,
            flags,
            users: Mutex::default(),
        }
    }

    pub fn base(&self) -> usize {
        self.buffer.gpu_address() as usize
    }

    /// Notes that `user` was given a command using it.
    pub fn used_by(&self, user: &User) {
        let mut u = self.users.lock().unwrap_or_else(|e| e.into_inner());
        u.retain(|w| w.strong_count() > 0);
        if !u.iter().any(|w| w.ptr_eq(user)) {
            u.push(user.clone());
        }
    }

    /// Waits until every command given to a user of it completed.
    pub fn wait_unused(&self) {
        let users = std::mem::take(&mut *self.users.lock().unwrap_or_else(|e| e.into_inner()));
        for u in users.iter().filter_map(Weak::upgrade) {
            u.wait_idle();
        }
    }
}

/// A context's allocations by base address.
#[derive(Default)]
pub struct Table {
    allocs: Mutex<BTreeMap<usize, Arc<Alloc>>>,
}

impl Table {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<usize, Arc<Alloc>>> {
        self.allocs.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn insert(&self, a: Arc<Alloc>) {
        self.lock().insert(a.base(), a);
    }

    /// Takes out the allocation whose base is `base`.
    pub fn remove(&self, base: usize) -> Option<Arc<Alloc>> {
        self.lock().remove(&base)
    }

    /// The allocation `ptr` falls in, and its offset there.
    pub fn find(&self, ptr: usize) -> Option<(Arc<Alloc>, usize)> {
        let t = self.lock();
        let (base, a) = t.range(..=ptr).next_back()?;
        (ptr - base < a.size).then(|| (a.clone(), ptr - base))
    }

    /// Every allocation of the kinds `wanted` says.
    pub fn of_kinds(&self, wanted: impl Fn(Kind) -> bool) -> Vec<Arc<Alloc>> {
        self.lock()
            .values()
            .filter(|a| wanted(a.kind))
            .cloned()
            .collect()
    }
}

/// A kernel's clSetKernelExecInfo settings for allocations it reaches through pointers it
/// loads from memory: every allocation of a kind, or the listed ones.
#[derive(Clone, Default)]
pub struct ExecInfo {
    pub indirect_host: bool,
    pub indirect_device: bool,
    pub indirect_shared: bool,
    /// CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL: pointers into allocations.
    pub ptrs: Vec<usize>,
}

impl ExecInfo {
    /// The storage of the allocations of `table` on `device` a dispatch must have resident
    /// besides its arguments, each noted as used by `user`.
    pub fn resident(
        &self,
        table: &Table,
        device: &Arc<Handle<Device>>,
        user: &User,
    ) -> Vec<umd::memory::Buffer> {
        let mut allocs = if self.indirect_host || self.indirect_device || self.indirect_shared {
            table.of_kinds(|k| match k {
                Kind::Host => self.indirect_host,
                Kind::Device => self.indirect_device,
                Kind::Shared => self.indirect_shared,
            })
        } else {
            Vec::new()
        };
        allocs.extend(
            self.ptrs
                .iter()
                .filter_map(|p| table.find(*p).map(|(a, _)| a)),
        );
        allocs
            .into_iter()
            .filter(|a| Arc::ptr_eq(&a.home, device))
            .map(|a| {
                a.used_by(user);
                a.buffer.clone()
            })
            .collect()
    }
}
