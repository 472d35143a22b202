//! What this driver calls itself in the platform and device queries.

use opencl_sys::make_version;

/// The vendor, as Intel's own runtime (NEO) names it for platform and device alike: applications
/// take their Intel paths (cl_intel_subgroups kernels, Intel tuning tables) by this string.
pub const VENDOR: &str = "Intel(R) Corporation";
/// Whose driver this is, where OpenCL leaves the text to the implementation: the platform's
/// name and version and the device's version.
pub const DRIVER: &str = "intel-gpu-compute";

/// An OpenCL version number (major.minor.patch) as queries report it.
pub fn version(major: u32, minor: u32, patch: u32) -> u32 {
    make_version(major, minor, patch)
}
