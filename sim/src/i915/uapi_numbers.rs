//! How i915's uAPI numbers the simulated engines and memory regions.

use kmd_iface::i915::uapi::*;

use crate::device_info::EngineClass;

/// Key of a memory region in the file's usage accounting.
pub(crate) fn region_key(class: u16, instance: u16) -> u16 {
    class << 8 | instance
}

/// The i915 uAPI engine class of a simulated engine.
pub(crate) fn uapi_class(c: EngineClass) -> u16 {
    match c {
        EngineClass::Render => I915_ENGINE_CLASS_RENDER,
        EngineClass::Compute => I915_ENGINE_CLASS_COMPUTE,
        EngineClass::Copy => I915_ENGINE_CLASS_COPY,
    }
}
