//! umd's integration tests as one binary: each module is one file of `tests/`
//! (one compile of the shared helpers and one link, instead of one per file). A new
//! file of tests is a `mod` line here (`scripts/check-test-files` finds one left out).

mod byte_addressed_support;
mod program_support;
mod sanitizer_support;

mod blit_rect;
mod blit_sim;
#[cfg(feature = "sim")]
mod bo_reuse_sim;
mod broadcast_uniform_id_sim;
#[cfg(feature = "sim")]
mod byte_addressed_sim;
#[cfg(feature = "sim")]
mod device_sim;
#[cfg(feature = "sim")]
mod dispatch_sim;
#[cfg(feature = "sim")]
mod dpas_sim;
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
mod host_usm_sim;
mod hostile_binaries;
mod ieee_div_sqrt_sim;
mod images_sampler_sim;
mod images_typed_sim;
#[cfg(feature = "sim")]
mod int64_atomics_sim;
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
mod sanitizer_checks_sim;
mod sanitizer_images_sim;
#[cfg(feature = "sim")]
mod sanitizer_lines_sim;
mod sanitizer_past_end_sim;
#[cfg(feature = "sim")]
mod sanitizer_sim;
#[cfg(feature = "sim")]
mod sanitizer_stats_sim;
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
mod walk_order_sim;
mod xe_pat_sim;
