//! umd's integration tests as one binary: each module is one file of `tests/`
//! (one compile of the shared helpers and one link, instead of one per file). A new
//! file of tests is a `mod` line here (`scripts/check-test-files` finds one left out).
//! Files that run kernels on a simulated device are built with the `sim` feature only (a
//! default one), so `--no-default-features` runs the rest.

mod byte_addressed_support;
mod program_support;
mod sanitizer_support;

#[cfg(feature = "sim")]
mod blit_rect;
#[cfg(feature = "sim")]
mod blit_sim;
#[cfg(feature = "sim")]
mod bo_reuse_sim;
#[cfg(feature = "sim")]
mod broadcast_uniform_id_sim;
#[cfg(feature = "sim")]
mod byte_addressed_sim;
#[cfg(feature = "sim")]
mod device_sim;
#[cfg(feature = "sim")]
mod dispatch_sim;
#[cfg(feature = "sim")]
mod dpas_sim;
#[cfg(feature = "sim")]
mod fused_parts_sim;
#[cfg(feature = "sim")]
mod gpu_timestamps_sim;
#[cfg(feature = "sim")]
mod group_limits_sim;
#[cfg(feature = "sim")]
mod half_mad_chain_sim;
#[cfg(feature = "sim")]
mod hang_rules_sim;
#[cfg(feature = "sim")]
mod host_ptr;
#[cfg(feature = "sim")]
mod host_threads_sim;
#[cfg(feature = "sim")]
mod host_usm_sim;
#[cfg(feature = "sim")]
mod hostile_binaries;
#[cfg(feature = "sim")]
mod ieee_div_sqrt_sim;
#[cfg(feature = "sim")]
mod images_sampler_sim;
#[cfg(feature = "sim")]
mod images_typed_sim;
#[cfg(feature = "sim")]
mod int64_atomics_sim;
#[cfg(feature = "sim")]
mod large_grf;
#[cfg(feature = "sim")]
mod local_memory_sim;
mod printf_format;
#[cfg(feature = "sim")]
mod printf_sim;
mod program_malformed;
mod program_mutation;
mod program_oracle;
mod program_queries;
#[cfg(feature = "sim")]
mod queues_sim;
#[cfg(feature = "sim")]
mod sanitizer_checks_sim;
#[cfg(feature = "sim")]
mod sanitizer_images_sim;
#[cfg(feature = "sim")]
mod sanitizer_lines_sim;
#[cfg(feature = "sim")]
mod sanitizer_past_end_sim;
#[cfg(feature = "sim")]
mod sanitizer_sim;
#[cfg(feature = "sim")]
mod sanitizer_stats_sim;
#[cfg(feature = "sim")]
mod sanitizer_subgroup_sim;
#[cfg(feature = "sim")]
mod scratch_sim;
#[cfg(feature = "sim")]
mod shuffle_vectors_sim;
#[cfg(feature = "sim")]
mod slm_reduction_sim;
#[cfg(feature = "sim")]
mod uniform_access_sim;
mod unresolved_symbols;
#[cfg(feature = "sim")]
mod walk_order_sim;
#[cfg(feature = "sim")]
mod xe_pat_sim;
