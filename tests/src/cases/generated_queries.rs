//! The generated queries (`generate::queries`): each query over 1D, 2D and 3D ranges, with
//! only full subgroups, with partial ones, with groups smaller than a subgroup and with
//! single-work-item subgroups, the last groups partial in every dimension where the range
//! allows (OpenCL 2.0 non-uniform work-groups). Values from cl_khr_subgroups' definitions as
//! `geometry` lays the work-items out.

use super::{name, work_groups};
use crate::case::{Arg, Case, Check, Relation};
use crate::corpus::Instance;
use crate::geometry::{Geometry, Item};
use crate::rng::Rng;
use crate::scalar::Scalar;

/// The ranges: (name, global, local) for subgroup size `s`.
pub fn geometries(s: u32) -> Vec<(&'static str, Geometry)> {
    let g = |global: &[u32], local: &[u32]| Geometry {
        global: global.to_vec(),
        local: local.to_vec(),
        simd: s,
    };
    vec![
        ("1d_full", g(&[4 * s], &[2 * s])),
        ("1d_partial", Geometry::standard(s)),
        ("1d_small", g(&[12], &[5])),
        ("1d_single", g(&[2 * s + 1], &[s + 1])),
        ("2d_full", g(&[2 * s, 4], &[s, 2])),
        ("2d_partial", g(&[13, 7], &[5, 3])),
        ("2d_single", g(&[7, 2 * s + 3], &[3, s + 1])),
        ("3d_full", g(&[4, 4, s], &[2, 2, s / 2])),
        ("3d_partial", g(&[5, 4, 3], &[3, 3, 2])),
        ("3d_wide", g(&[9, 5, 7], &[4, 3, 3])),
    ]
}

/// The queries whose answer to a work-item depends on which sub-group it is in.
const MAPPED: [&str; 3] = [
    "get_sub_group_size",
    "get_sub_group_id",
    "get_sub_group_local_id",
];

/// What `query` returns to work-item `it` of a dispatch at subgroup size `simd`.
fn value(query: &str, it: &Item, simd: u32) -> Option<usize> {
    Some(match query {
        "get_sub_group_size" => it.sg_size,
        // The kernel requires its subgroup size: that is the dispatch's maximum.
        "get_max_sub_group_size" => simd as usize,
        "get_num_sub_groups" => it.num_sgs,
        "get_enqueued_num_sub_groups" => it.enqueued_num_sgs,
        "get_sub_group_id" => it.sg,
        "get_sub_group_local_id" => it.lane,
        _ => return None,
    })
}

pub fn cases(inst: &Instance, simd: u32, _rng: &mut Rng) -> Result<Vec<Case>, String> {
    let query = inst.params.first().map(String::as_str).unwrap_or("");
    let mut out = Vec::new();
    for (variant, geometry) in geometries(simd) {
        let items = geometry.items();
        let n = items.len();
        let mut want = vec![None; n];
        for it in &items {
            let v =
                value(query, it, simd).ok_or_else(|| format!("{}: unknown query", inst.line))?;
            want[it.global_linear] = Some(v as u64);
        }
        // In 2D and 3D groups which work-items share a sub-group is the implementation's
        // (NEO has the hardware walk y or z first): a sub-group's size, id and local id are
        // checked per group, in any order.
        let mut relations = Vec::new();
        if geometry.global.len() > 1 && MAPPED.contains(&query) {
            let groups = work_groups(&items);
            let per_group = groups
                .iter()
                .map(|g| g.iter().map(|&i| want[i].unwrap_or(u64::MAX)).collect())
                .collect();
            relations.push(Relation::PerGroupValues {
                output: 0,
                groups,
                want: per_group,
            });
            want = vec![None; n];
        }
        out.push(Case {
            relations,
            name: name(inst, simd, variant),
            kernel: inst.kernel(),
            geometry,
            args: vec![Arg::Buf(vec![0xff; 4 * n])],
            checks: vec![Check {
                arg: 0,
                scalar: Scalar::Uint,
                want,
            }],
        });
    }
    Ok(out)
}
