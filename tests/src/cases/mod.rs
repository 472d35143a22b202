//! The CPU references: for each corpus macro, the cases it makes and the results the specs'
//! text defines for them (cl_intel_subgroups, cl_intel_subgroups_char, cl_khr_subgroups; the
//! identities of exclusive scans are OpenCL C 2.0's, section 6.13.15).

mod big;
mod block;
mod collective;
mod generated_collective;
mod generated_image;
mod generated_queries;
mod generated_shuffle;
mod mixed;
mod queries;
mod sections;
mod shuffle;
mod uniform;
mod vload;

use crate::case::Case;
use crate::corpus::Instance;
use crate::geometry::Item;
use crate::rng::Rng;
use crate::scalar::{pack, Scalar, Ty};

/// The cases for one instance at one SIMD width.
pub fn build(inst: &Instance, simd: u32) -> Result<Vec<Case>, String> {
    let k = inst.kind.as_str();
    let mut rng = Rng::for_name(&format!("{} {simd}", inst.kernel()));
    let cases = match k {
        _ if k.starts_with("SHUFFLE") => shuffle::cases(inst, simd, &mut rng),
        "COLLECTIVE" | "BROADCAST" | "VOTE" => collective::cases(inst, simd, &mut rng),
        "BLOCK_READ" | "BLOCK_WRITE" => block::buffer_cases(inst, simd, &mut rng),
        "G_BLOCK_READ" | "G_BLOCK_WRITE" => block::buffer_cases(inst, simd, &mut rng),
        "G_SHUFFLE" => generated_shuffle::cases(inst, simd, &mut rng),
        _ if k.starts_with("G_BROADCAST") || k == "G_COLLECTIVE" || k == "G_VOTE" => {
            generated_collective::cases(inst, simd, &mut rng)
        }
        "G_IMAGE_READ" | "G_IMAGE_WRITE" => generated_image::cases(inst, simd, &mut rng),
        "G_QUERY" => generated_queries::cases(inst, simd, &mut rng),
        "VLOAD" | "VSTORE" => vload::cases(inst, simd, &mut rng),
        "BIG" => big::cases(inst, simd, &mut rng),
        "UNIFORM" => uniform::cases(inst, simd, &mut rng),
        "MIXED" => mixed::cases(inst, simd, &mut rng),
        "IMAGE_READ" | "IMAGE_WRITE" => block::image_cases(inst, simd, &mut rng),
        "QUERIES" | "BARRIER_LOCAL" | "BARRIER_GLOBAL" | "BARRIER_SCOPED" => {
            queries::cases(inst, simd, &mut rng)
        }
        _ => return Err(format!("{}: no reference for {k}", inst.line)),
    }?;
    Ok(cases)
}

fn param_ty(inst: &Instance, i: usize) -> Result<Ty, String> {
    inst.params
        .get(i)
        .and_then(|s| Ty::parse(s))
        .ok_or_else(|| format!("{}: parameter {i} is not a type", inst.line))
}

fn name(inst: &Instance, simd: u32, variant: &str) -> String {
    if variant.is_empty() {
        format!("{} simd{simd}", inst.kernel())
    } else {
        format!("{} simd{simd} {variant}", inst.kernel())
    }
}

/// Per work-item values of `ty` (width components each).
fn values(ty: Ty, n: usize, rng: &mut Rng, arith: bool) -> Vec<Vec<u64>> {
    (0..n)
        .map(|_| {
            (0..ty.width)
                .map(|_| {
                    if arith {
                        ty.scalar.random_arith(rng)
                    } else {
                        ty.scalar.random_bits(rng)
                    }
                })
                .collect()
        })
        .collect()
}

fn flat(v: &[Vec<u64>]) -> Vec<u64> {
    v.iter().flatten().copied().collect()
}

fn bytes(s: Scalar, v: &[Vec<u64>]) -> Vec<u8> {
    pack(s, &flat(v))
}

fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The items of each subgroup in lane order (empty slots dropped).
/// Each work-group's work-items, by global linear id.
fn work_groups(items: &[Item]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for it in items {
        let w = it.sg_index / it.enqueued_num_sgs;
        if groups.len() <= w {
            groups.resize(w + 1, Vec::new());
        }
        groups[w].push(it.global_linear);
    }
    groups
}

fn subgroups(items: &[Item]) -> Vec<Vec<Item>> {
    crate::geometry::subgroups(items)
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect()
}

/// Byte offsets of every alignment from `align` up to `span` (a power of two): 0 (aligned to
/// `span`), then `align`, `2 * align`, ... below `span`, each aligned to itself and no more.
fn alignment_offsets(align: usize, span: usize) -> Vec<usize> {
    let mut v = vec![0];
    let mut a = align.max(1);
    while a < span {
        v.push(a);
        a *= 2;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::alignment_offsets;

    #[test]
    fn one_offset_of_every_alignment() {
        // vloadn of char: 16-, 1-, 2-, 4- and 8-byte aligned; block writes: 64, 16, 32.
        assert_eq!(alignment_offsets(1, 16), [0, 1, 2, 4, 8]);
        assert_eq!(alignment_offsets(8, 16), [0, 8]);
        assert_eq!(alignment_offsets(16, 64), [0, 16, 32]);
    }
}
