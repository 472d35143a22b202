//! Per-platform facts the OpenCL device queries report that no lower crate holds (fp64 is
//! `platform::Platform::has_fp64`).

use platform::Platform;

/// Whether kernels may write 3D images (`__opencl_c_3d_image_writes`, cl_khr_3d_image_writes):
/// `write_image*` to a 3D image is a typed surface write like any other (umd's
/// `images_typed_sim` writes 3D images; `tests/python/images.py` from OpenCL).
pub const IMAGE_3D_WRITES: bool = true;

/// What one platform's hardware has.
#[derive(Debug, Clone, Copy)]
pub struct Facts {
    /// Maximum GPU clock in MHz of the reference part (skl GT2, icl GT2, tgl GT2, dg2-g10).
    pub max_clock_mhz: u32,
    /// L3 cache bytes of the reference part.
    pub l3_bytes: u64,
    /// Whether sub-groups of a work-group make independent forward progress
    /// (`CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS`): a sub-group spinning on a value
    /// another sub-group of its work-group will store does not stop that one from running. The
    /// OpenCL 3.0 API specification requires it of every device reporting cl_khr_subgroups, so
    /// it also decides that extension (OpenCL 3.0 core sub-groups do not need it). Intel's
    /// runtime (NEO) takes it from each platform's capability table
    /// (`supportsIndependentForwardProgress`): true for Gen9 and Gen11, whose EUs each run their
    /// own threads; false for Gen12LP and Xe-HPG, which run EU threads in fused pairs sharing one
    /// instruction stream (NEO's `fusedEuEnabled`), where a spinning thread can hold its partner.
    /// `opencl/tests/neo_subgroup_facts.rs` checks the value against NEO's on skl and tgllp.
    pub independent_forward_progress: bool,
    /// Whether the device reports images (`CL_DEVICE_IMAGE_SUPPORT`): kernels' typed
    /// `read_image*`/`write_image*` and sampler reads run there (umd's `images_typed_sim` and
    /// `images_sampler_sim`, this crate's `tests/python/images.py`).
    pub images: bool,
}

pub fn facts(p: Platform) -> Facts {
    match p {
        Platform::Skl => Facts {
            max_clock_mhz: 1150,
            l3_bytes: 768 << 10,
            independent_forward_progress: true,
            images: true,
        },
        Platform::Icllp => Facts {
            max_clock_mhz: 1100,
            l3_bytes: 3 << 20,
            independent_forward_progress: true,
            images: true,
        },
        Platform::Tgllp => Facts {
            max_clock_mhz: 1350,
            l3_bytes: 3840 << 10,
            independent_forward_progress: false,
            images: true,
        },
        Platform::Dg2 => Facts {
            max_clock_mhz: 2100,
            l3_bytes: 16 << 20,
            independent_forward_progress: false,
            images: true,
        },
    }
}
