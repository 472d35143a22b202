//! The few hardware sizes the binary formats leave implicit (the same on Gen9 to Xe-HPG).

pub(crate) use platform::GRF_BYTES;

/// Bytes of one RENDER_SURFACE_STATE: surface states sit in the heap at this stride, so a
/// binding-table index maps to `index * SURFACE_STATE_SIZE` when the driver lays them out.
pub(crate) const SURFACE_STATE_SIZE: u32 = 64;

/// Bytes of one SAMPLER_STATE: a sampler's index is its offset from the sampler state array
/// divided by this.
pub(crate) const SAMPLER_STATE_SIZE: u32 = 16;

/// `bytes` rounded up to whole GRFs (saturating, for hostile sizes).
pub(crate) fn grf_padded(bytes: u32) -> u32 {
    bytes.div_ceil(GRF_BYTES).saturating_mul(GRF_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchbuffer::{Packet, RenderSurfaceState};
    use platform::Platform;

    /// The stride must be the packet's size as batchbuffer defines it, on every generation.
    #[test]
    fn surface_state_size_is_the_packet_size() {
        for p in Platform::ALL {
            let dwords = RenderSurfaceState::LAYOUT
                .len_on(p)
                .expect("RENDER_SURFACE_STATE exists");
            assert_eq!(SURFACE_STATE_SIZE as usize, dwords * 4, "{p}");
        }
    }
}
