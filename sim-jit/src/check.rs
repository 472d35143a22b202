//! Checking translations against the interpreter, a debugging aid for the translator.

/// The environment variable that makes every translated run be checked against the
/// interpreter (`1`): a debugging aid for the translator, many times slower. Kernels are
/// then translated without interpreted instructions inside their runs (those may reach
/// memory, which the check could not run twice).
pub const ENV_CHECK: &str = "INTEL_GPU_SIM_JIT_CHECK";

/// Whether [`ENV_CHECK`] is `1` (read once per process).
pub fn checking() -> bool {
    static CHECK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CHECK.get_or_init(|| std::env::var(ENV_CHECK).is_ok_and(|v| v == "1"))
}
