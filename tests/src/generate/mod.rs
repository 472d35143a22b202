//! The generated corpus: the cross product of the specs' built-ins, types, controls and
//! alignments, written as corpus files (`corpus::File`) that the hand-listed corpus's harness
//! compiles and runs. Deterministic: the same files, kernels and cases on every run.
//!
//! - `shuffle`: intel_sub_group_shuffle, _xor, _down, _up on every gentype of
//!   cl_intel_subgroups and cl_intel_subgroups_char, with the control per lane (from a buffer),
//!   uniform (a kernel argument) and constant (a literal), in range and out of range.
//! - `vload`: vloadn / vstoren (OpenCL C 6.13.7) on char .. double, n = 2, 3, 4, 8, 16, at a
//!   byte offset of every alignment the scalar allows (1, 2, 4, 8 and 16 bytes for char).
//! - `block_forms`: the block read and write forms, one table for buffers and images.
//! - `block`: the buffer block reads and writes, every form (plain, _ui, _us, _uc), at an
//!   offset of every alignment from 4 bytes (reads) or 16 bytes (writes) to 64.
//! - `big`: kernels of many shuffle sections under uniform branches, with every section's
//!   inputs live across all of them, so IGC spills and addresses registers indirectly.
//! - `collective`: broadcast (id as argument, per lane, literal), reduce and scans on every
//!   scalar type of the specs (`intel_` forms for char, uchar, short, ushort), any and all.
//! - `block_image`: the image block reads and writes, every form (plain, _ui, _us, _uc).
//! - `queries`: each subgroup query in its own kernel (the ranges are the references').
//! - `uniform`: loads and stores at an index uniform across the dispatch (a literal, an
//!   argument, loaded from memory) on every scalar and vector type, `global` and `constant`,
//!   in kernels that read no local ids and ones that do.
//! - `mixed`: big kernels whose sections, each under its own bit of a uniform `mask`, mix
//!   shuffles, broadcast/reduce/scan, block reads and writes, vloadn/vstoren at odd offsets
//!   and uniform loads.
//!
//! Every file is compiled once per platform and SIMD width, so the cost is in dispatches; the
//! slice (`slice`) is what the CLI and SPIR-V routes run.

mod big;
mod block;
mod block_forms;
mod block_image;
mod collective;
mod mixed;
mod queries;
mod sections;
mod shuffle;
mod uniform;
mod vload;

pub use big::{plan as big_plan, Section, BIG_KERNELS, REGION_ITEM_BYTES as BIG_REGION_ITEM_BYTES};
pub use block::OFFSET_SPAN as BLOCK_OFFSET_SPAN;
pub use mixed::{
    plan as mixed_plan, present as mixed_present, Kind as MixedKind, ITEM_BYTES as MIXED_ITEM_BYTES,
};
pub use uniform::ELEMENTS as UNIFORM_ELEMENTS;
pub use vload::OFFSET_SPAN as VLOAD_OFFSET_SPAN;

use crate::corpus::{self, File};

/// The generated files, each with its instances.
pub fn files() -> Result<Vec<File>, String> {
    [
        ("gen_shuffle.cl", shuffle::text()),
        ("gen_vload.cl", vload::text()),
        ("gen_block.cl", block::text()),
        ("gen_big.cl", big::text()),
        ("gen_collective.cl", collective::text()),
        ("gen_block_image.cl", block_image::text()),
        ("gen_queries.cl", queries::text()),
        ("gen_uniform.cl", uniform::text()),
        ("gen_mixed.cl", mixed::text()),
    ]
    .into_iter()
    .map(|(name, text)| corpus::parse(name, &text))
    .collect()
}

/// A representative part of the generated corpus for the slower routes (a process per case
/// through the CLI; a second ocloc step through SPIR-V): every big and mixed kernel, and every
/// `every`-th instance of the other files, so each built-in family appears. gen_uniform.cl
/// is left out: its by-value vector arguments have no `intel-gpu-run --arg` kind (the mixed
/// big kernels' uniform sections carry the class onto these routes).
pub fn slice(every: usize) -> Result<Vec<File>, String> {
    let mut files = files()?;
    files.retain(|f| f.name != "gen_uniform.cl");
    for f in &mut files {
        if !matches!(f.name, "gen_big.cl" | "gen_mixed.cl") {
            let keep = f.instances.iter().enumerate();
            let keep = keep.filter(|(i, _)| i % every == 0).map(|(_, x)| x.clone());
            f.instances = keep.collect();
        }
    }
    Ok(files)
}

/// The scalar types, by name, of the shuffles' gentype lists (cl_intel_subgroups: float, int,
/// uint with widths 1, 2, 4, 8, 16; long, ulong; half with cl_khr_fp16; double with
/// cl_khr_fp64. cl_intel_subgroups_char adds char and uchar with widths 1, 2, 4, 8, 16).
pub const SHUFFLE_TYPES: [&str; 28] = [
    "char", "char2", "char4", "char8", "char16", "uchar", "uchar2", "uchar4", "uchar8", "uchar16",
    "int", "int2", "int4", "int8", "int16", "uint", "uint2", "uint4", "uint8", "uint16", "float",
    "float2", "float4", "float8", "float16", "long", "ulong", "half",
];

/// Kernels with this type are wrapped in `FP64(...)`: present only where cl_khr_fp64 is.
pub const FP64_TYPE: &str = "double";

/// An instance line, wrapped in `FP64(...)` when a parameter is a double type.
fn line(kind: &str, params: &[&str]) -> String {
    let call = format!("{kind}({})", params.join(", "));
    if params.iter().any(|p| p.starts_with(FP64_TYPE)) {
        format!("FP64({call})")
    } else {
        call
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_kernel_names_are_unique_and_files_deterministic() {
        let a = files().unwrap();
        let mut names = std::collections::HashSet::new();
        for f in &a {
            assert!(!f.instances.is_empty(), "{}", f.name);
            for i in &f.instances {
                assert!(names.insert(i.kernel()), "duplicate {}", i.kernel());
            }
        }
        let b = files().unwrap();
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.prelude, y.prelude);
            assert_eq!(x.instances, y.instances);
        }
    }

    #[test]
    fn every_generated_instance_has_a_reference() {
        for f in files().unwrap() {
            for i in &f.instances {
                for simd in crate::suite::SIMD_WIDTHS {
                    let cases = crate::cases::build(i, simd).unwrap();
                    assert!(!cases.is_empty(), "{}", i.line);
                }
            }
        }
    }
}
