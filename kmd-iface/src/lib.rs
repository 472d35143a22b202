//! The i915 and xe kernel-driver uAPI a compute user-mode driver needs.
//!
//! Every ioctl and mmap goes through [`seam::DeviceFile`]: the real DRM file is one implementation,
//! the simulator (crate `sim`) the other, so the same i915/xe code paths run against both.

pub mod seam;
