//! The host clock: CLOCK_MONOTONIC in nanoseconds, which every profiling time and the host
//! timer are on.

/// Nanoseconds on the host's CLOCK_MONOTONIC: the clock every profiling time is on (GPU
/// timestamps are converted to it).
pub fn now_ns() -> u64 {
    u64::try_from(kmd_iface::drm_core::monotonic_now_ns()).unwrap_or(0)
}

/// CL_PLATFORM_HOST_TIMER_RESOLUTION: CLOCK_MONOTONIC's resolution in nanoseconds (at least 1).
pub fn host_resolution_ns() -> u64 {
    nix::time::clock_getres(nix::time::ClockId::CLOCK_MONOTONIC).map_or(1, |r| {
        (r.tv_sec() as u64 * 1_000_000_000 + r.tv_nsec() as u64).max(1)
    })
}
