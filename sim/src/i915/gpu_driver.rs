//! What the GPU model asks of i915 ([`KernelDriver`]): the engine heartbeat, preemption
//! timeout and request watchdog as the sysfs tree holds them now, and the error state
//! published at the node's `error` file.

use std::sync::Arc;

use crate::cs::HangRule;
use crate::device_info::{DeviceInfo, EngineDesc};
use crate::gpu::capture::i915_error_state;
use crate::gpu::KernelDriver;
use crate::gpu_error::GpuErrorRecord;
use crate::sysfs::{i915_defaults, i915_engine_properties, SysfsTree};

const MS: u64 = 1_000_000;

/// i915 driving one simulated GPU.
pub(crate) struct I915Gpu {
    pub info: &'static DeviceInfo,
    pub sysfs: Arc<SysfsTree>,
}

impl KernelDriver for I915Gpu {
    /// i915 contexts have no job timeout of their own.
    fn hang_rule(&self, engine: &EngineDesc, _: Option<u64>) -> HangRule {
        let props = i915_engine_properties(self.info, engine.class);
        HangRule::I915 {
            heartbeat_ns: self
                .sysfs
                .i915_engine_property(engine.name, &props[0])
                .saturating_mul(MS),
            preempt_timeout_ns: self
                .sysfs
                .i915_engine_property(engine.name, &props[1])
                .saturating_mul(MS),
            request_timeout_ns: i915_defaults::REQUEST_TIMEOUT_MS * MS,
        }
    }

    fn publish_error(&self, rec: &GpuErrorRecord) {
        let _ = self.sysfs.publish(&i915_error_state(self.info, rec));
    }
}
