//! The subgroup queries and sub_group_barrier (cl_khr_subgroups, cl_intel_subgroups 6.13.1 and
//! 6.13.8 additions), over 1D, 2D and 3D ranges with partial subgroups and partial groups.

use super::{name, subgroups, u32s, work_groups};
use crate::case::{Arg, Case, Check, Relation};
use crate::corpus::Instance;
use crate::geometry::Geometry;
use crate::rng::Rng;
use crate::scalar::Scalar;

fn geometries(simd: u32) -> Vec<(&'static str, Geometry)> {
    let g = |global: &[u32], local: &[u32]| Geometry {
        global: global.to_vec(),
        local: local.to_vec(),
        simd,
    };
    vec![
        ("1d", Geometry::standard(simd)),
        // Groups of 6x4 (24 work-items), partial in both dimensions.
        ("2d", g(&[13, 5], &[6, 4])),
        ("3d", g(&[5, 4, 3], &[3, 3, 2])),
        // A group smaller than any subgroup size.
        ("small", g(&[12], &[5])),
    ]
}

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for (variant, geometry) in geometries(simd) {
        // The kernel finds a neighbour's slot from global linear ids: 1D only.
        if inst.kind == "BARRIER_GLOBAL" && geometry.global.len() > 1 {
            continue;
        }
        let items = geometry.items();
        let n = items.len();
        let case = |args, checks| Case {
            relations: Vec::new(),
            name: name(inst, simd, variant),
            kernel: inst.kernel(),
            geometry: geometry.clone(),
            args,
            checks,
        };
        if inst.kind == "QUERIES" {
            // Values that do not depend on how work-items map to sub-groups; the rest (size,
            // id, local id, broadcast) by the execution model's rules over each group.
            let mut want = vec![None; 8 * n];
            for it in &items {
                let fixed = [
                    // The maximum for the dispatch: the kernel's required size.
                    (1, simd as usize),
                    (2, it.num_sgs),
                    (3, it.enqueued_num_sgs),
                    (6, it.local_linear),
                ];
                for (k, v) in fixed {
                    want[8 * it.global_linear + k] = Some(v as u64);
                }
            }
            out.push(Case {
                relations: vec![Relation::SubgroupMapping {
                    output: 0,
                    groups: work_groups(&items),
                }],
                ..case(
                    vec![Arg::Buf(vec![0; 32 * n])],
                    vec![Check {
                        arg: 0,
                        scalar: Scalar::Uint,
                        want,
                    }],
                )
            });
            continue;
        }
        let input: Vec<u32> = (0..n).map(|_| rng.next_u64() as u32).collect();
        let turns = if inst.kind == "BARRIER_SCOPED" { 3 } else { 1 };
        let check = |arg, want| Check {
            arg,
            scalar: Scalar::Uint,
            want,
        };
        out.push(if inst.kind == "BARRIER_GLOBAL" {
            // 1D: the kernel finds its neighbour's slot by local linear id.
            let mut want = vec![None; n];
            for sg in subgroups(&items) {
                for it in &sg {
                    let from = sg[(it.lane + turns) % sg.len()].global_linear;
                    want[it.global_linear] = Some(input[from] as u64);
                }
            }
            let copy = input.iter().map(|&v| Some(v as u64)).collect();
            case(
                vec![
                    Arg::Buf(u32s(&input)),
                    Arg::Buf(vec![0; 4 * n]),
                    Arg::Buf(vec![0; 4 * n]),
                ],
                vec![check(1, copy), check(2, want)],
            )
        } else {
            // Local memory kernels: values by the sub-groups the kernel reports (2D and 3D
            // groups need not map linearly), checked by relation.
            Case {
                relations: vec![Relation::SubgroupNeighbour {
                    output: 0,
                    map: 1,
                    input: input.iter().map(|&v| v as u64).collect(),
                    turns,
                    groups: work_groups(&items),
                }],
                ..case(
                    vec![
                        Arg::Buf(u32s(&input)),
                        Arg::Buf(vec![0; 4 * n]),
                        Arg::Buf(vec![0; 4 * n]),
                    ],
                    vec![check(1, vec![None; n]), check(2, vec![None; n])],
                )
            }
        });
    }
    Ok(out)
}
