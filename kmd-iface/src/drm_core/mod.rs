//! Core DRM ioctls shared by i915 and xe.

pub mod uapi;
