//! The subgroup conformance corpus and its harness, and the hardware-in-loop suite.
//! Start reading: `tests/README.md`.
//!
//! `tests/conformance/*.cl` hold OpenCL C kernels for every built-in of the extension specs
//! (cl_intel_subgroups, cl_intel_subgroups_char, cl_khr_subgroups,
//! cl_intel_required_subgroup_size; cl_intel_spirv_subgroups exposes the same operations to
//! SPIR-V). They are compiled with ocloc at test time for each platform at SIMD 8, 16 and 32,
//! run on the simulator, and their outputs compared with CPU references written from the
//! specs' text (`cases`). `tests/umd_path.rs` runs them through umd in process;
//! intel-gpu-run's `conformance_cli` test runs the same cases through the CLI binary;
//! `tests/spirv_path.rs` takes cl_intel_spirv_subgroups' route, through SPIR-V (`spirv`).

pub mod case;
pub mod cases;
pub mod compile;
pub mod corpus;
pub mod generate;
pub mod geometry;
pub mod rng;
pub mod runner;
pub mod scalar;
pub mod spirv;
pub mod suite;

pub use platform::Platform;
pub use umd::device::KmdChoice;

/// Defines one `#[test]` per simulated device the corpus runs on, each calling
/// `$run(platform, kmd)`: sim:skl and sim:icllp through i915, sim:tgllp and sim:dg2 through
/// i915 and xe.
#[macro_export]
macro_rules! device_tests {
    ($run:ident) => {
        $crate::device_tests!($run: skl_i915 Skl I915, icllp_i915 Icllp I915,
            tgllp_i915 Tgllp I915, tgllp_xe Tgllp Xe, dg2_i915 Dg2 I915, dg2_xe Dg2 Xe);
    };
    ($run:ident: $($name:ident $p:ident $k:ident),*) => {
        $(
            #[test]
            fn $name() {
                $run($crate::Platform::$p, $crate::KmdChoice::$k);
            }
        )*
    };
}
