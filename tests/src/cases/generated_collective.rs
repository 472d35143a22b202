//! The generated collectives (`generate::collective`): broadcast, reduce, scans, any and all,
//! from the specs' text (cl_khr_subgroups 6.13.15 additions, as copied into
//! cl_intel_subgroups; the exclusive scans' first value is the operation's identity, OpenCL C
//! 2.0 6.13.15: 0 for add, the type's largest value (+INFINITY) for min, its smallest
//! (-INFINITY) for max). Every case has partial subgroups; the `single` geometry adds
//! subgroups of one work-item, whose exclusive scan is the identity alone.

use super::collective::{parse_fn, Shape};
use super::{bytes, name, param_ty, subgroups, u32s, values};
use crate::case::{Arg, Case, Check};
use crate::corpus::Instance;
use crate::geometry::{Geometry, Item};
use crate::rng::Rng;
use crate::scalar::{pack, Scalar};

/// Groups of SIMD + 1 work-items: a full subgroup and one of a single work-item each.
fn single(simd: u32) -> Geometry {
    Geometry {
        global: vec![3 * (simd + 1)],
        local: vec![simd + 1],
        simd,
    }
}

fn geometries(simd: u32) -> [(&'static str, Geometry); 2] {
    [
        ("standard", Geometry::standard(simd)),
        ("single", single(simd)),
    ]
}

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    match inst.kind.as_str() {
        "G_COLLECTIVE" => collective(inst, simd, rng),
        "G_BROADCAST_ARG" | "G_BROADCAST_LANE" | "G_BROADCAST_LIT" => broadcast(inst, simd, rng),
        "G_VOTE" => vote(inst, simd, rng),
        k => Err(format!("{}: no reference for {k}", inst.line)),
    }
}

/// Values for the `single` geometry's min/max cases: the identity for a whole subgroup (so
/// every result is the identity), or the type's extremes mixed with ordinary values; for add,
/// integers near the wrap-around (floating point keeps small integers, sums exact).
fn extreme(s: Scalar, add: bool, rng: &mut Rng) -> u64 {
    match (add, rng.below(4)) {
        (true, _) if s.is_float() => s.random_arith(rng),
        (true, 0) => s.highest(),
        (true, 1) => s.lowest(),
        (true, 2) => s.from_f64(-1.0),
        (false, 0) => s.highest(),
        (false, 1) => s.lowest(),
        _ => s.random_arith(rng),
    }
}

fn collective(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let ty = param_ty(inst, 0)?;
    let f = inst.params.get(1).map(String::as_str).unwrap_or("");
    let (shape, op, identity) =
        parse_fn(f).ok_or_else(|| format!("{}: unknown function", inst.line))?;
    let add = f.ends_with("_add");
    let s = ty.scalar;
    let mut out = Vec::new();
    for (variant, geometry) in geometries(simd) {
        let items = geometry.items();
        let n = items.len();
        let sgs = subgroups(&items);
        let mut x = vec![0u64; n];
        for (k, sg) in sgs.iter().enumerate() {
            for it in sg {
                x[it.global_linear] = match (variant, k % 3) {
                    ("standard", _) => s.random_arith(rng),
                    (_, 0) if !add => identity(s),
                    _ => extreme(s, add, rng),
                };
            }
        }
        let mut want = vec![None; n];
        for sg in &sgs {
            // In increasing sub_group_local_id order.
            let total = sg
                .iter()
                .fold(identity(s), |a, it| op(s, a, x[it.global_linear]));
            let mut acc = identity(s);
            for it in sg {
                let v = x[it.global_linear];
                let r = match shape {
                    Shape::Reduce => total,
                    Shape::Exclusive => acc,
                    Shape::Inclusive => op(s, acc, v),
                };
                acc = op(s, acc, v);
                want[it.global_linear] = Some(r);
            }
        }
        out.push(Case {
            relations: Vec::new(),
            name: name(inst, simd, variant),
            kernel: inst.kernel(),
            geometry,
            args: vec![Arg::Buf(pack(s, &x)), Arg::Buf(vec![0; n * ty.size()])],
            checks: vec![Check {
                arg: 1,
                scalar: s,
                want,
            }],
        });
    }
    Ok(out)
}

/// "the value of x for work item identified by sub_group_local_id": undefined where no work
/// item has that id (an id at or past a partial subgroup's size).
fn from_lane(sg: &[Item], x: &[Vec<u64>], id: usize) -> Option<u64> {
    sg.get(id).map(|it| x[it.global_linear][0])
}

fn broadcast(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let ty = param_ty(inst, 0)?;
    let s = ty.scalar;
    let max = simd as usize;
    let mut out = Vec::new();
    let case = |variant: String, geometry: Geometry, args: Vec<Arg>, arg, want| Case {
        relations: Vec::new(),
        name: name(inst, simd, &variant),
        kernel: inst.kernel(),
        geometry,
        args,
        checks: vec![Check {
            arg,
            scalar: s,
            want,
        }],
    };
    match inst.kind.as_str() {
        "G_BROADCAST_LIT" => {
            // Work-item i holds the broadcasts from every lane k at i * SIMD + k.
            for (variant, geometry) in geometries(simd) {
                let items = geometry.items();
                let n = items.len();
                let x = values(ty, n, rng, false);
                let mut want = vec![None; n * max];
                for sg in subgroups(&items) {
                    for it in &sg {
                        for k in 0..max {
                            want[it.global_linear * max + k] = from_lane(&sg, &x, k);
                        }
                    }
                }
                let args = vec![
                    Arg::Buf(bytes(s, &x)),
                    Arg::Buf(vec![0; n * max * s.size()]),
                ];
                out.push(case(variant.into(), geometry, args, 1, want));
            }
        }
        "G_BROADCAST_ARG" => {
            let geometry = Geometry::standard(simd);
            let items = geometry.items();
            let n = items.len();
            for id in [0, rng.below(simd as u64) as usize, max - 1] {
                let x = values(ty, n, rng, false);
                let mut want = vec![None; n];
                for sg in subgroups(&items) {
                    for it in &sg {
                        want[it.global_linear] = from_lane(&sg, &x, id);
                    }
                }
                let args = vec![
                    Arg::Buf(bytes(s, &x)),
                    Arg::U32(id as u32),
                    Arg::Buf(vec![0; n * s.size()]),
                ];
                out.push(case(format!("id={id}"), geometry.clone(), args, 2, want));
            }
        }
        _ => {
            // Per lane from a buffer, the same within each subgroup: over the dispatches the
            // full subgroups take every id in turn; partial ones an id they have.
            let geometry = Geometry::standard(simd);
            let items = geometry.items();
            let n = items.len();
            let sgs = subgroups(&items);
            let full = sgs.iter().filter(|sg| sg.len() == max).count().max(1);
            for d in 0..max.div_ceil(full) {
                let x = values(ty, n, rng, false);
                let mut ids = vec![0u32; n];
                let mut want = vec![None; n];
                let mut next = d * full;
                for sg in &sgs {
                    let id = if sg.len() == max && next < max {
                        next += 1;
                        next - 1
                    } else {
                        rng.below(sg.len() as u64) as usize
                    };
                    for it in sg {
                        ids[it.global_linear] = id as u32;
                        want[it.global_linear] = from_lane(sg, &x, id);
                    }
                }
                let args = vec![
                    Arg::Buf(bytes(s, &x)),
                    Arg::Buf(u32s(&ids)),
                    Arg::Buf(vec![0; n * s.size()]),
                ];
                out.push(case(format!("ids{d}"), geometry.clone(), args, 2, want));
            }
        }
    }
    Ok(out)
}

fn vote(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let all = match inst.params.first().map(String::as_str) {
        Some("sub_group_all") => true,
        Some("sub_group_any") => false,
        _ => return Err(format!("{}: unknown function", inst.line)),
    };
    let mut out = Vec::new();
    // Two dispatches on each geometry, the patterns turned by one subgroup between them.
    for (variant, geometry) in geometries(simd) {
        let items = geometry.items();
        let n = items.len();
        let sgs = subgroups(&items);
        for d in 0..2 {
            // Per subgroup: every predicate non-zero (any value), none, exactly one set,
            // exactly one clear, or random.
            let mut p = vec![0u32; n];
            for (k, sg) in sgs.iter().enumerate() {
                let one = rng.below(sg.len() as u64) as usize;
                for it in sg {
                    let nonzero = (rng.next_u64() as u32).max(1);
                    p[it.global_linear] = match (k + d) % 5 {
                        0 => nonzero,
                        1 => 0,
                        2 => (it.lane == one) as u32 * nonzero,
                        3 => (it.lane != one) as u32 * nonzero,
                        _ => rng.below(2) as u32,
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
            out.push(Case {
                relations: Vec::new(),
                name: name(inst, simd, &format!("{variant}{d}")),
                kernel: inst.kernel(),
                geometry: geometry.clone(),
                args: vec![Arg::Buf(u32s(&p)), Arg::Buf(vec![0; 4 * n])],
                checks: vec![Check {
                    arg: 1,
                    scalar: Scalar::Int,
                    want,
                }],
            });
        }
    }
    Ok(out)
}
