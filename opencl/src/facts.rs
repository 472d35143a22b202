//! Per-platform facts the OpenCL device queries report that no lower crate holds (fp64 is
//! `platform::Platform::has_fp64`).

use platform::Platform;

/// What one platform's hardware has.
#[derive(Debug, Clone, Copy)]
pub struct Facts {
    /// Maximum GPU clock in MHz of the reference part (skl GT2, icl GT2, tgl GT2, dg2-g10).
    pub max_clock_mhz: u32,
    /// L3 cache bytes of the reference part.
    pub l3_bytes: u64,
    /// Whether this runtime reports independent forward progress of sub-groups
    /// (`CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS`). The OpenCL 3.0 API specification
    /// requires it of every device that reports cl_khr_subgroups, so it also decides that
    /// extension (OpenCL 3.0 core sub-groups do not need it). Gen12LP and Xe-HPG run EU threads
    /// in fused pairs and do not give it (Intel's runtime, NEO, reports it only where EUs are not
    /// fused). Gen9 and Gen11 hardware would, but it is not reported yet: the CTS `ifp` kernel,
    /// whose sub-groups spin on each other, is stopped by the simulator's EU watchdog on skl.
    /// Reported only where shown to work.
    pub independent_forward_progress: bool,
}

pub fn facts(p: Platform) -> Facts {
    match p {
        Platform::Skl => Facts {
            max_clock_mhz: 1150,
            l3_bytes: 768 << 10,
            independent_forward_progress: false,
        },
        Platform::Icllp => Facts {
            max_clock_mhz: 1100,
            l3_bytes: 3 << 20,
            independent_forward_progress: false,
        },
        Platform::Tgllp => Facts {
            max_clock_mhz: 1350,
            l3_bytes: 3840 << 10,
            independent_forward_progress: false,
        },
        Platform::Dg2 => Facts {
            max_clock_mhz: 2100,
            l3_bytes: 16 << 20,
            independent_forward_progress: false,
        },
    }
}
