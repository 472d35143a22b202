//! The few hardware sizes the binary formats leave implicit (the same on Gen9 to Xe-HPG).

/// Bytes of one general register.
pub(crate) const GRF_BYTES: u32 = 32;

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
