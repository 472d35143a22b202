//! EXEC_QUEUE_CREATE, DESTROY and GET_PROPERTY.

use kmd_iface::seam::Errno;
use kmd_iface::xe::uapi::*;

use super::{next_id, uapi_class, Queue};
use crate::device::SimDevice;
use crate::gpu::HwContext;
use crate::user;

/// Highest priority an unprivileged process may ask for (DRM_SCHED_PRIORITY_NORMAL).
const MAX_USER_PRIORITY: u64 = 1;
const MAX_EXTENSIONS: usize = 64;

pub(crate) fn create(dev: &SimDevice, a: &mut drm_xe_exec_queue_create) -> Result<i32, Errno> {
    if a.flags != 0 || a.reserved.iter().any(|&r| r != 0) {
        return Err(Errno::EINVAL);
    }
    let n = usize::from(a.width) * usize::from(a.num_placements);
    if n == 0 || n > 64 {
        return Err(Errno::EINVAL);
    }
    let instances: Vec<drm_xe_engine_class_instance> = user::read_array(a.instances, n)?;
    check_extensions(a.extensions)?;
    let info = dev.info();
    let mut engines = Vec::with_capacity(n);
    for i in &instances {
        let e = info
            .engines
            .iter()
            .position(|e| uapi_class(e.class) == i.engine_class && e.instance == i.engine_instance)
            .filter(|_| i.gt_id == 0 && i.pad == 0)
            .ok_or(Errno::EINVAL)?;
        engines.push(e);
    }
    let class = info.engines[engines[0]].class;
    // One engine per class here, so parallel (width > 1) submission has nothing to span, and
    // all placements must be of one class.
    if a.width != 1 || engines.iter().any(|&e| info.engines[e].class != class) {
        return Err(Errno::EINVAL);
    }
    // xe_exec_queue_create: the queue takes its class's job timeout as it is now; long-running
    // queues have none.
    let class_timeout = dev
        .sysfs()
        .xe_class_property(class, &crate::sysfs::XE_CLASS_PROPERTIES[0]);
    let mut st = dev.lock();
    let vm = st.xe.vms.get(&a.vm_id).ok_or(Errno::ENOENT)?;
    let (space, lr) = (vm.space.clone(), vm.lr);
    let xe = &mut st.xe;
    let id = next_id(&mut xe.next_queue, &xe.queues);
    let mut hw = HwContext::new(id);
    hw.set_job_timeout_ms((!lr).then_some(class_timeout));
    xe.queues.insert(
        id,
        Queue {
            hw,
            vm_id: a.vm_id,
            vm: space,
            lr,
            engine: engines[0],
        },
    );
    a.exec_queue_id = id;
    Ok(0)
}

/// DRM_XE_EXEC_QUEUE_EXTENSION_SET_PROPERTY chains: priority and timeslice.
fn check_extensions(mut next: u64) -> Result<(), Errno> {
    let mut seen = 0;
    while next != 0 {
        seen += 1;
        if seen > MAX_EXTENSIONS {
            return Err(Errno::E2BIG);
        }
        let ext: drm_xe_ext_set_property = user::read_val(next)?;
        if ext.base.name != DRM_XE_EXEC_QUEUE_EXTENSION_SET_PROPERTY
            || ext.base.pad != 0
            || ext.pad != 0
            || ext.reserved.iter().any(|&r| r != 0)
        {
            return Err(Errno::EINVAL);
        }
        match ext.property {
            DRM_XE_EXEC_QUEUE_SET_PROPERTY_PRIORITY if ext.value > MAX_USER_PRIORITY => {
                return Err(Errno::EPERM)
            }
            DRM_XE_EXEC_QUEUE_SET_PROPERTY_PRIORITY | DRM_XE_EXEC_QUEUE_SET_PROPERTY_TIMESLICE => {}
            _ => return Err(Errno::EINVAL),
        }
        next = ext.base.next_extension;
    }
    Ok(())
}

pub(crate) fn destroy(dev: &SimDevice, a: &mut drm_xe_exec_queue_destroy) -> Result<i32, Errno> {
    if a.pad != 0 || a.reserved.iter().any(|&r| r != 0) {
        return Err(Errno::EINVAL);
    }
    dev.lock()
        .xe
        .queues
        .remove(&a.exec_queue_id)
        .map(|_| 0)
        .ok_or(Errno::ENOENT)
}

pub(crate) fn get_property(
    dev: &SimDevice,
    a: &mut drm_xe_exec_queue_get_property,
) -> Result<i32, Errno> {
    if a.extensions != 0 || a.reserved.iter().any(|&r| r != 0) {
        return Err(Errno::EINVAL);
    }
    let st = dev.lock();
    let q = st.xe.queues.get(&a.exec_queue_id).ok_or(Errno::ENOENT)?;
    match a.property {
        DRM_XE_EXEC_QUEUE_GET_PROPERTY_BAN => a.value = q.hw.banned().into(),
        _ => return Err(Errno::EINVAL),
    }
    Ok(0)
}
