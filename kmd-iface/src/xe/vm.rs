//! xe VMs: creation (LR mode, scratch page...), destruction and VM_BIND.

use super::device::Xe;
use super::uapi::*;
use crate::call::{addr_of, ioctl, to_u32};
use crate::error::{Error, Result};

/// Constructors for the bind operations a compute driver issues.
pub mod bind_op {
    use super::super::uapi::*;

    /// Maps `range` bytes of BO `handle` from `bo_offset` at GPU address `addr`.
    pub fn map(
        handle: u32,
        bo_offset: u64,
        addr: u64,
        range: u64,
        pat_index: u16,
    ) -> drm_xe_vm_bind_op {
        drm_xe_vm_bind_op {
            obj: handle,
            obj_offset: bo_offset,
            addr,
            range,
            pat_index,
            op: DRM_XE_VM_BIND_OP_MAP,
            ..Default::default()
        }
    }

    /// Maps `range` bytes of process memory at `userptr` at GPU address `addr`.
    pub fn map_userptr(userptr: u64, addr: u64, range: u64, pat_index: u16) -> drm_xe_vm_bind_op {
        drm_xe_vm_bind_op {
            obj_offset: userptr,
            addr,
            range,
            pat_index,
            op: DRM_XE_VM_BIND_OP_MAP_USERPTR,
            ..Default::default()
        }
    }

    /// Unmaps `range` bytes at GPU address `addr`.
    pub fn unmap(addr: u64, range: u64) -> drm_xe_vm_bind_op {
        drm_xe_vm_bind_op {
            addr,
            range,
            op: DRM_XE_VM_BIND_OP_UNMAP,
            ..Default::default()
        }
    }
}

impl Xe {
    /// `DRM_IOCTL_XE_VM_CREATE` with `flags`.
    pub fn vm_create(&self, flags: crate::flags::xe::VmCreateFlags) -> Result<u32> {
        let mut arg = drm_xe_vm_create {
            flags: flags.bits(),
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_XE_VM_CREATE, &mut arg)
            .map_err(|e| e.context(|| format!("flags {flags:?}")))?;
        Ok(arg.vm_id)
    }

    /// `DRM_IOCTL_XE_VM_DESTROY`.
    pub fn vm_destroy(&self, vm_id: u32) -> Result<()> {
        let mut arg = drm_xe_vm_destroy {
            vm_id,
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_XE_VM_DESTROY, &mut arg)
            .map_err(|e| e.context(|| format!("vm {vm_id}")))?;
        Ok(())
    }

    /// `DRM_IOCTL_XE_VM_BIND`: one op inline, several through `vector_of_binds`. Completion is
    /// reported through `syncs` (or is synchronous when there are none).
    pub fn vm_bind(
        &self,
        vm_id: u32,
        exec_queue_id: u32,
        ops: &[drm_xe_vm_bind_op],
        syncs: &[drm_xe_sync],
    ) -> Result<()> {
        let mut arg = drm_xe_vm_bind {
            vm_id,
            exec_queue_id,
            num_binds: to_u32("bind ops", ops.len())?,
            num_syncs: to_u32("syncs", syncs.len())?,
            syncs: addr_of(syncs),
            ..Default::default()
        };
        match ops {
            [] => return Err(Error::Empty { what: "bind ops" }),
            [one] => arg.bind = *one,
            many => arg.set_vector_of_binds(addr_of(many)),
        }
        ioctl(self.file(), DRM_IOCTL_XE_VM_BIND, &mut arg)
            .map_err(|e| e.context(|| format!("vm {vm_id}, {} ops", ops.len())))?;
        Ok(())
    }
}
