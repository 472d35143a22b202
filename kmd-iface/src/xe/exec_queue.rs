//! xe exec queues: creation with set-property extensions, destruction, property queries.

use super::device::Xe;
use super::uapi::*;
use crate::call::{addr_of, ioctl};
use crate::error::Result;

impl Xe {
    /// `DRM_IOCTL_XE_EXEC_QUEUE_CREATE` on `vm_id` with `placements` (width 1: one engine each,
    /// any of which may run it) and `properties` as `(DRM_XE_EXEC_QUEUE_SET_PROPERTY_*, value)`
    /// set-property extensions.
    pub fn exec_queue_create(
        &self,
        vm_id: u32,
        placements: &[drm_xe_engine_class_instance],
        properties: &[(u32, u64)],
    ) -> Result<u32> {
        let mut exts: Vec<drm_xe_ext_set_property> = properties
            .iter()
            .map(|&(property, value)| drm_xe_ext_set_property {
                base: drm_xe_user_extension {
                    name: DRM_XE_EXEC_QUEUE_EXTENSION_SET_PROPERTY,
                    ..Default::default()
                },
                property,
                value,
                ..Default::default()
            })
            .collect();
        // Chain them; the Vec is not resized after this, so the addresses stay valid.
        for i in 1..exts.len() {
            exts[i - 1].base.next_extension = &exts[i] as *const _ as u64;
        }
        let mut arg = drm_xe_exec_queue_create {
            extensions: exts.first().map_or(0, |e| e as *const _ as u64),
            width: 1,
            num_placements: u16::try_from(placements.len()).map_err(|_| {
                crate::Error::TooLarge {
                    what: "exec queue placements",
                    len: placements.len(),
                }
            })?,
            vm_id,
            instances: addr_of(placements),
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_XE_EXEC_QUEUE_CREATE, &mut arg)
            .map_err(|e| e.context(|| format!("vm {vm_id}, placements {placements:?}")))?;
        Ok(arg.exec_queue_id)
    }

    /// `DRM_IOCTL_XE_EXEC_QUEUE_DESTROY`.
    pub fn exec_queue_destroy(&self, exec_queue_id: u32) -> Result<()> {
        let mut arg = drm_xe_exec_queue_destroy {
            exec_queue_id,
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_XE_EXEC_QUEUE_DESTROY, &mut arg)
            .map_err(|e| e.context(|| format!("exec queue {exec_queue_id}")))?;
        Ok(())
    }

    /// `DRM_IOCTL_XE_EXEC_QUEUE_GET_PROPERTY` (`DRM_XE_EXEC_QUEUE_GET_PROPERTY_BAN`).
    pub fn exec_queue_get_property(&self, exec_queue_id: u32, property: u32) -> Result<u64> {
        let mut arg = drm_xe_exec_queue_get_property {
            exec_queue_id,
            property,
            ..Default::default()
        };
        ioctl(self.file(), DRM_IOCTL_XE_EXEC_QUEUE_GET_PROPERTY, &mut arg).map_err(|e| {
            e.context(|| format!("exec queue {exec_queue_id}, property {property}"))
        })?;
        Ok(arg.value)
    }
}
