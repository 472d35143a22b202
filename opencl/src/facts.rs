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
}

pub fn facts(p: Platform) -> Facts {
    match p {
        Platform::Skl => Facts {
            max_clock_mhz: 1150,
            l3_bytes: 768 << 10,
        },
        Platform::Icllp => Facts {
            max_clock_mhz: 1100,
            l3_bytes: 3 << 20,
        },
        Platform::Tgllp => Facts {
            max_clock_mhz: 1350,
            l3_bytes: 3840 << 10,
        },
        Platform::Dg2 => Facts {
            max_clock_mhz: 2100,
            l3_bytes: 16 << 20,
        },
    }
}
