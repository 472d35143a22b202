//! What the GPU model asks of xe ([`KernelDriver`]): the exec queue's job timeout (the
//! engine class's `job_timeout_ms` in sysfs unless the queue set one), and the devcoredump.

use std::sync::Arc;

use crate::cs::HangRule;
use crate::device_info::{DeviceInfo, EngineDesc};
use crate::gpu::capture::xe_devcoredump;
use crate::gpu::KernelDriver;
use crate::gpu_error::GpuErrorRecord;
use crate::sysfs::{SysfsTree, XE_CLASS_PROPERTIES};

const MS: u64 = 1_000_000;

/// xe driving one simulated GPU.
pub(crate) struct XeGpu {
    pub info: &'static DeviceInfo,
    pub sysfs: Arc<SysfsTree>,
}

impl KernelDriver for XeGpu {
    fn hang_rule(&self, engine: &EngineDesc, job_timeout_ms: Option<u64>) -> HangRule {
        match job_timeout_ms {
            None => HangRule::None,
            Some(0) => HangRule::Xe {
                job_timeout_ns: self
                    .sysfs
                    .xe_class_property(engine.class, &XE_CLASS_PROPERTIES[0])
                    .saturating_mul(MS),
            },
            Some(ms) => HangRule::Xe {
                job_timeout_ns: ms.saturating_mul(MS),
            },
        }
    }

    fn publish_error(&self, rec: &GpuErrorRecord) {
        let _ = self.sysfs.publish(&xe_devcoredump(self.info, rec));
    }
}
