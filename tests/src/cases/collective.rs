//! sub_group_broadcast, reduce, scans, any and all (cl_khr_subgroups 6.13.15 additions, as
//! copied into cl_intel_subgroups; 8-bit forms from cl_intel_subgroups_char).

use super::{bytes, name, param_ty, subgroups, values};
use crate::case::{Arg, Case, Check};
use crate::corpus::Instance;
use crate::geometry::Geometry;
use crate::rng::Rng;
use crate::scalar::{pack, Scalar};

#[derive(Clone, Copy)]
pub(super) enum Shape {
    Reduce,
    Inclusive,
    Exclusive,
}

/// A binary operation on values of a scalar type, and its identity.
pub(super) type Op = fn(Scalar, u64, u64) -> u64;
pub(super) type Identity = fn(Scalar) -> u64;

pub(super) fn parse_fn(f: &str) -> Option<(Shape, Op, Identity)> {
    let f = f.strip_prefix("intel_").unwrap_or(f);
    let rest = f.strip_prefix("sub_group_")?;
    let (shape, op) = rest.rsplit_once('_')?;
    let shape = match shape {
        "reduce" => Shape::Reduce,
        "scan_inclusive" => Shape::Inclusive,
        "scan_exclusive" => Shape::Exclusive,
        _ => return None,
    };
    // Each operation with its identity (the first value of an exclusive scan).
    let (op, id): (Op, Identity) = match op {
        "add" => (Scalar::add, |_| 0),
        "min" => (Scalar::min, Scalar::highest),
        "max" => (Scalar::max, Scalar::lowest),
        _ => return None,
    };
    Some((shape, op, id))
}

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let geometry = Geometry::standard(simd);
    let items = geometry.items();
    let n = items.len();
    let sgs = subgroups(&items);
    let bad = || format!("{}: unknown function", inst.line);
    match inst.kind.as_str() {
        "VOTE" => {
            let all = match inst.params.first().map(String::as_str) {
                Some("sub_group_all") => true,
                Some("sub_group_any") => false,
                _ => return Err(bad()),
            };
            // Per subgroup: all set, none set, exactly one set, or random.
            let mut p = vec![0i32; n];
            for (s, sg) in sgs.iter().enumerate() {
                let one = rng.below(sg.len() as u64) as usize;
                for it in sg {
                    p[it.global_linear] = match s % 4 {
                        0 => 1 + rng.below(1000) as i32,
                        1 => 0,
                        2 => (it.lane == one) as i32 * -7,
                        _ => rng.below(2) as i32,
                    };
                }
            }
            let mut want = vec![None; n];
            for sg in &sgs {
                let set = sg.iter().filter(|it| p[it.global_linear] != 0).count();
                let r = if all { set == sg.len() } else { set > 0 };
                for it in sg {
                    want[it.global_linear] = Some(r as u64);
                }
            }
            let p: Vec<u64> = p.iter().map(|&v| v as u32 as u64).collect();
            Ok(vec![Case {
                relations: Vec::new(),
                name: name(inst, simd, ""),
                kernel: inst.kernel(),
                geometry,
                args: vec![Arg::Buf(pack(Scalar::Int, &p)), Arg::Buf(vec![0; 4 * n])],
                checks: vec![Check {
                    arg: 1,
                    scalar: Scalar::Int,
                    want,
                }],
            }])
        }
        "BROADCAST" => {
            let ty = param_ty(inst, 0)?;
            let mut out = Vec::new();
            for which in [0, rng.below(1 << 20) as u32, simd - 1] {
                let x = values(ty, n, rng, false);
                let mut want = vec![None; n];
                for sg in &sgs {
                    // "the value of x for work item identified by sub_group_local_id"
                    let src = &x[sg[which as usize % sg.len()].global_linear];
                    for it in sg {
                        want[it.global_linear] = Some(src[0]);
                    }
                }
                out.push(Case {
                    relations: Vec::new(),
                    name: name(inst, simd, &format!("which={which}")),
                    kernel: inst.kernel(),
                    geometry: geometry.clone(),
                    args: vec![
                        Arg::Buf(bytes(ty.scalar, &x)),
                        Arg::U32(which),
                        Arg::Buf(vec![0; n * ty.size()]),
                    ],
                    checks: vec![Check {
                        arg: 2,
                        scalar: ty.scalar,
                        want,
                    }],
                });
            }
            Ok(out)
        }
        "COLLECTIVE" => {
            let ty = param_ty(inst, 0)?;
            let (shape, op, identity) = inst
                .params
                .get(1)
                .and_then(|f| parse_fn(f))
                .ok_or_else(bad)?;
            let s = ty.scalar;
            let x = values(ty, n, rng, true);
            let mut want = vec![None; n];
            for sg in &sgs {
                // In increasing sub_group_local_id order.
                let mut acc = identity(s);
                let total = sg
                    .iter()
                    .fold(identity(s), |a, it| op(s, a, x[it.global_linear][0]));
                for it in sg {
                    let v = x[it.global_linear][0];
                    let r = match shape {
                        Shape::Reduce => total,
                        Shape::Exclusive => acc,
                        Shape::Inclusive => op(s, acc, v),
                    };
                    acc = op(s, acc, v);
                    want[it.global_linear] = Some(r);
                }
            }
            Ok(vec![Case {
                relations: Vec::new(),
                name: name(inst, simd, ""),
                kernel: inst.kernel(),
                geometry,
                args: vec![Arg::Buf(bytes(s, &x)), Arg::Buf(vec![0; n * ty.size()])],
                checks: vec![Check {
                    arg: 1,
                    scalar: s,
                    want,
                }],
            }])
        }
        _ => Err(bad()),
    }
}
