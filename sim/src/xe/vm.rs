//! VM_CREATE, VM_DESTROY and VM_BIND.

use std::sync::{Arc, RwLock};

use kmd_iface::flags::xe::{VmBindFlags, VmCreateFlags};
use kmd_iface::seam::Errno;
use kmd_iface::xe::pat;
use kmd_iface::xe::uapi::*;

use super::sync::{self, Sync};
use super::{next_id, vm_write, XeVm};
use crate::device::SimDevice;
use crate::mem::{AddressSpace, Bo, HostRange, PageTables, Unbound, PAGE_SIZE, VA_BITS};
use crate::sync::Fence;
use crate::user;

const VM_SIZE: u64 = 1 << VA_BITS;

pub(crate) fn create(dev: &SimDevice, a: &mut drm_xe_vm_create) -> Result<i32, Errno> {
    let Some(flags) = VmCreateFlags::from_bits(a.flags) else {
        return Err(Errno::EINVAL);
    };
    if a.extensions != 0 || a.reserved.iter().any(|&r| r != 0) {
        return Err(Errno::EINVAL);
    }
    // Recoverable page faults need unified shared memory, which Gen12LP and DG2 lack.
    if flags.contains(VmCreateFlags::FAULT_MODE) {
        return Err(Errno::EINVAL);
    }
    // xe 6.12 points a scratch VM's unused PTEs at no page but sets XE_PTE_NULL in them
    // (`__xe_pt_empty_pte`), the bit that makes reads return zero and drops writes (xe_drm.h,
    // DRM_XE_VM_BIND_FLAG_NULL). A write through a READONLY binding stays a page fault (the
    // simulator's choice: i915 reports a read-only fault issue on Gen12, `gen8_ppgtt_create`).
    let unbound = if flags.contains(VmCreateFlags::SCRATCH_PAGE) {
        Unbound::Zero
    } else {
        Unbound::Fault
    };
    let space = AddressSpace::with_page_tables(PageTables {
        unbound,
        drop_read_only_writes: false,
    });
    let mut st = dev.lock();
    let xe = &mut st.xe;
    let id = next_id(&mut xe.next_vm, &xe.vms);
    xe.vms.insert(
        id,
        XeVm {
            space: Arc::new(RwLock::new(space)),
            lr: flags.contains(VmCreateFlags::LR_MODE),
        },
    );
    a.vm_id = id;
    Ok(0)
}

pub(crate) fn destroy(dev: &SimDevice, a: &mut drm_xe_vm_destroy) -> Result<i32, Errno> {
    if a.pad != 0 || a.reserved.iter().any(|&r| r != 0) {
        return Err(Errno::EINVAL);
    }
    let mut st = dev.lock();
    let vm = st.xe.vms.get(&a.vm_id).ok_or(Errno::ENOENT)?;
    // Long-running exec queues pin their VM.
    if vm.lr && st.xe.queues.values().any(|q| q.vm_id == a.vm_id) {
        return Err(Errno::EBUSY);
    }
    st.xe.vms.remove(&a.vm_id);
    Ok(0)
}

/// A checked bind operation, ready to apply.
enum Op {
    Map {
        addr: u64,
        range: u64,
        bo: Arc<Bo>,
        offset: u64,
        read_only: bool,
    },
    Unmap {
        addr: u64,
        range: u64,
    },
    UnmapAll {
        bo: Arc<Bo>,
    },
    Prefetch,
}

pub(crate) fn bind(dev: &SimDevice, a: &mut drm_xe_vm_bind) -> Result<i32, Errno> {
    if a.extensions != 0
        || a.pad != 0
        || a.pad2 != 0
        || a.reserved.iter().any(|&r| r != 0)
        || a.num_binds == 0
    {
        return Err(Errno::EINVAL);
    }
    let ops: Vec<drm_xe_vm_bind_op> = if a.num_binds == 1 {
        vec![a.bind]
    } else {
        user::read_array(a.vector_of_binds(), a.num_binds as usize)?
    };
    let info = dev.info();
    let mut st = dev.lock();
    // Bind queues (exec queues of the VM_BIND class) are not simulated: binds run at once.
    if a.exec_queue_id != 0 {
        return Err(Errno::ENOENT);
    }
    let vm = st.xe.vms.get(&a.vm_id).ok_or(Errno::EINVAL)?;
    let space = vm.space.clone();
    let syncs = sync::parse(&st, a.syncs, a.num_syncs, false)?;
    let mut checked = Vec::with_capacity(ops.len());
    for op in &ops {
        checked.push(check_op(&st, pat::table(info.platform), a.vm_id, op)?);
    }
    {
        let mut vm = vm_write(&space);
        for op in checked {
            match op {
                Op::Map {
                    addr,
                    range,
                    bo,
                    offset,
                    read_only,
                } => {
                    // A map over existing mappings replaces them (GPUVA remap).
                    vm.unbind(addr, range).map_err(|_| Errno::EINVAL)?;
                    vm.bind(addr, range, bo, offset, read_only)
                        .map_err(|_| Errno::EINVAL)?;
                }
                Op::Unmap { addr, range } => {
                    vm.unbind(addr, range).map_err(|_| Errno::EINVAL)?;
                }
                Op::UnmapAll { bo } => vm.unbind_bo(&bo),
                Op::Prefetch => {}
            }
        }
    }
    // Binds complete immediately: signal syncobjs and write user fences (CPU addresses here).
    let fence = Fence::signaled();
    sync::signal(&mut st, &syncs, &fence);
    drop(st);
    for s in &syncs {
        if let Sync::UserFence { addr, value } = *s {
            user::write_val(addr, &value)?;
        }
    }
    dev.notify();
    Ok(0)
}

fn check_op(
    st: &crate::device::State,
    pat: &[pat::PatEntry],
    vm_id: u32,
    op: &drm_xe_vm_bind_op,
) -> Result<Op, Errno> {
    let coherent = pat
        .get(usize::from(op.pat_index))
        .ok_or(Errno::EINVAL)?
        .coherent;
    let Some(flags) = VmBindFlags::from_bits(op.flags) else {
        return Err(Errno::EINVAL);
    };
    if op.extensions != 0
        || op.pad != 0
        || op.pad2 != 0
        || op.reserved.iter().any(|&r| r != 0)
        || op.op > DRM_XE_VM_BIND_OP_PREFETCH
    {
        return Err(Errno::EINVAL);
    }
    let null = flags.contains(VmBindFlags::NULL);
    if op.op != DRM_XE_VM_BIND_OP_UNMAP_ALL
        && (op.range == 0
            || !(op.addr | op.range | op.obj_offset).is_multiple_of(PAGE_SIZE)
            || op.range > VM_SIZE
            || op.addr > VM_SIZE - op.range)
    {
        return Err(Errno::EINVAL);
    }
    match op.op {
        DRM_XE_VM_BIND_OP_MAP => {
            // Sparse (NULL) bindings are not simulated.
            if null {
                return Err(Errno::EOPNOTSUPP);
            }
            let obj = st.gem.get(op.obj)?;
            // xe_vm.c: a write-back (CPU cached) object, or an imported one whose CPU caching
            // is unknown, needs a PAT entry coherent with the CPU's caches.
            let cpu_cached = obj
                .xe_cpu_caching
                .is_none_or(|c| c == DRM_XE_GEM_CPU_CACHING_WB);
            if cpu_cached && !coherent {
                return Err(Errno::EINVAL);
            }
            if obj.private_vm.is_some_and(|v| v != vm_id)
                || !(op.addr | op.range | op.obj_offset).is_multiple_of(obj.min_page)
                || op
                    .obj_offset
                    .checked_add(op.range)
                    .is_none_or(|e| e > obj.bo.size())
            {
                return Err(Errno::EINVAL);
            }
            Ok(Op::Map {
                addr: op.addr,
                range: op.range,
                bo: obj.bo.clone(),
                offset: op.obj_offset,
                read_only: flags.contains(VmBindFlags::READONLY),
            })
        }
        DRM_XE_VM_BIND_OP_UNMAP | DRM_XE_VM_BIND_OP_PREFETCH => {
            if op.obj != 0 || null || (op.op == DRM_XE_VM_BIND_OP_UNMAP && op.obj_offset != 0) {
                return Err(Errno::EINVAL);
            }
            Ok(if op.op == DRM_XE_VM_BIND_OP_UNMAP {
                Op::Unmap {
                    addr: op.addr,
                    range: op.range,
                }
            } else {
                Op::Prefetch
            })
        }
        DRM_XE_VM_BIND_OP_UNMAP_ALL => {
            if op.obj == 0 || null || op.addr != 0 || op.range != 0 || op.obj_offset != 0 {
                return Err(Errno::EINVAL);
            }
            Ok(Op::UnmapAll {
                bo: st.gem.get(op.obj)?.bo.clone(),
            })
        }
        // Process memory: no object, a CPU-coherent PAT entry, and pages that can be pinned
        // now (readable, and writable unless READONLY), else EFAULT.
        _ => {
            if op.obj != 0 || null || !coherent {
                return Err(Errno::EINVAL);
            }
            let read_only = flags.contains(VmBindFlags::READONLY);
            let need = if read_only {
                user::Need::Read
            } else {
                user::Need::ReadWrite
            };
            user::probe(op.obj_offset, op.range, need)?;
            let bo = Bo::host(HostRange {
                addr: op.obj_offset,
                len: op.range,
                read_only: false,
            })
            .map_err(|_| Errno::EINVAL)?;
            Ok(Op::Map {
                addr: op.addr,
                range: op.range,
                bo,
                offset: 0,
                read_only,
            })
        }
    }
}
