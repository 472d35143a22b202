//! The i915 kernel driver's uAPI.

pub mod uapi;
