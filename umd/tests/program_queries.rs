//! The kernel queries that depend only on the binary, against the specs' definitions
//! (cl_intel_required_subgroup_size, cl_khr_subgroups), on ocloc-compiled kernels.

use crate::program_support;

use program_support::*;
use umd::program::{self, QueryError};

/// Local sizes of 1-3 dimensions, many not multiples of 8, 16 or 32.
const LOCAL_SIZES: &[&[usize]] = &[
    &[1],
    &[5],
    &[8],
    &[15],
    &[16],
    &[17],
    &[31],
    &[32],
    &[33],
    &[64],
    &[100],
    &[3, 3],
    &[16, 2],
    &[7, 5],
    &[7, 5, 3],
    &[4, 4, 4],
    &[2, 1, 9],
];

/// cl_khr_subgroups: a work-group is divided into subgroups; all have the maximum size except
/// possibly the last, which holds the remainder. So for W work-items and subgroup size S the
/// count is the smallest n with n*S >= W, and the last subgroup is non-empty.
#[test]
fn ndrange_queries_follow_the_subgroup_definitions() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let mut checked = 0;
    for c in corpus(&ocloc) {
        for bin in [&c.patch_tokens, &c.zebin] {
            for k in program::parse(bin).unwrap().kernels {
                for &local in LOCAL_SIZES {
                    let w: usize = local.iter().product();
                    let max = k.max_sub_group_size_for_ndrange(local).unwrap();
                    let count = k.sub_group_count_for_ndrange(local).unwrap();
                    let ctx = format!("{} on {} local {local:?}", k.name, c.platform);
                    // The subgroup size is the SIMD width the kernel was compiled for, and the
                    // required size when the source gives one.
                    assert_eq!(max, k.simd_size as usize, "{ctx}");
                    if let Some(n) = reqd_sub_group_size_in_source(&c.source, &k.name) {
                        assert_eq!(max, n as usize, "{ctx}");
                    }
                    assert!(
                        count * max >= w,
                        "{ctx}: {count} subgroups of {max} hold {w}"
                    );
                    assert!(
                        (count - 1) * max < w,
                        "{ctx}: the last of {count} subgroups is empty"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 0);
}

#[test]
fn ndrange_queries_reject_impossible_local_sizes() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let k = &program::parse(&corpus(&ocloc)[0].zebin).unwrap().kernels[0];
    assert_eq!(
        k.sub_group_count_for_ndrange(&[]),
        Err(QueryError::Dimensions(0))
    );
    assert_eq!(
        k.max_sub_group_size_for_ndrange(&[1, 1, 1, 1]),
        Err(QueryError::Dimensions(4))
    );
    assert_eq!(
        k.sub_group_count_for_ndrange(&[4, 0]),
        Err(QueryError::ZeroDimension(vec![4, 0]))
    );
    assert!(matches!(
        k.sub_group_count_for_ndrange(&[usize::MAX, 2]),
        Err(QueryError::Overflow(_))
    ));
}

/// CL_KERNEL_SPILL_MEM_SIZE_INTEL is the per-thread scratch the compiler asked for: the
/// PerThreadScratchSpace of PATCH_TOKEN_MEDIA_VFE_STATE (token 18) as ocloc's PTM.txt prints
/// it, and the scratch buffer of .ze_info; 0 exactly when the kernel fits in registers.
#[test]
fn spill_mem_size_is_the_scratch_ocloc_reports() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let mut spilled = Vec::new();
    for c in corpus(&ocloc) {
        let (text, _dir) = ocloc_dump(&ocloc, &c.patch_tokens, c.platform);
        let ptm = parse_ptm(&text);
        let pt = program::parse(&c.patch_tokens).unwrap();
        let zb = program::parse(&c.zebin).unwrap();
        for pk in &ptm.kernels {
            let scratch = pk
                .tokens
                .iter()
                .find(|t| t.id == 18)
                .map_or(0, |t| u32::from_le_bytes(t.bytes[4..8].try_into().unwrap()));
            let k = pt.kernel(&pk.name).unwrap();
            assert_eq!(
                k.spill_mem_size(),
                scratch as u64,
                "{} on {}",
                pk.name,
                c.platform
            );
            assert_eq!(
                zb.kernel(&pk.name).unwrap().spill_mem_size(),
                scratch as u64,
                "{}",
                pk.name
            );
            if scratch > 0 {
                spilled.push((pk.name.clone(), c.platform));
            }
        }
    }
    // spill32 cannot fit in registers anywhere; its spill size must say so on every platform.
    for p in platform::Platform::ALL {
        assert!(
            spilled.contains(&("spill32".to_string(), p)),
            "spill32 on {p}: {spilled:?}"
        );
    }
}
