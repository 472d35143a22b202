//! The generated shuffles (`generate::shuffle`): `G_SHUFFLE(op, control, T)`, results from
//! the spec text as `shuffle::source` reads it; out-of-range lanes are left unchecked.

use super::shuffle::{source, Op};
use super::{bytes, name, param_ty, subgroups, u32s, values};
use crate::case::{Arg, Case, Check};
use crate::corpus::Instance;
use crate::geometry::{Geometry, Item};
use crate::rng::Rng;

/// The controls one case gives, per work-item, named. Cases named `oob` also give some lanes
/// an index out of range (no defined result; those lanes are not checked): a conformant
/// device returns anything there but must still give every other lane its value.
fn controls(
    op: Op,
    control: &str,
    items: &[Item],
    max: u32,
    rng: &mut Rng,
) -> Vec<(String, Vec<u32>)> {
    let n = items.len();
    let m = max as u64;
    let uniform = |c: u32| (format!("c={c}"), vec![c; n]);
    // Below this, lane `it`'s control has a defined result: for down/up the second source
    // starts at max (down: lane + c < 2 max; up: lane - c >= -max).
    let defined = |it: &Item| match op {
        Op::Index => it.sg_size as u64,
        Op::Xor => m,
        Op::Down => 2 * m - it.lane as u64,
        Op::Up => m + it.lane as u64 + 1,
    };
    match control {
        "lane" => {
            // One dispatch, a pattern per subgroup in turn: in range of the current source;
            // anywhere the result is defined; one value for the whole subgroup.
            let same: Vec<u32> = (0..n).map(|_| rng.below(m) as u32).collect();
            let mixed = items
                .iter()
                .map(|it| match it.sg_index % 3 {
                    0 => rng.below(defined(it).min(m)) as u32,
                    1 => rng.below(defined(it)) as u32,
                    _ => same[it.sg_index],
                })
                .collect();
            let oob = (0..n).map(|_| rng.below(3 * m) as u32).collect();
            vec![("mixed".into(), mixed), ("oob".into(), oob)]
        }
        "arg" => {
            // In range; for down/up also max (every lane from the second source); then one
            // out of range for some lanes.
            let mut v = vec![uniform(rng.below(m) as u32)];
            let over = match op {
                Op::Down | Op::Up => {
                    v.push(uniform(max));
                    max + 1 + rng.below(m - 1) as u32
                }
                _ => max + rng.below(m) as u32,
            };
            v.push((format!("c={over} oob"), vec![over; n]));
            v
        }
        "one" => vec![uniform(1)],
        "last" => vec![uniform(max - 1)],
        "simd" => vec![uniform(max)],
        _ => Vec::new(),
    }
}

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let bad = || format!("{}: unknown op or control", inst.line);
    let op = inst
        .params
        .first()
        .and_then(|p| Op::named(p))
        .ok_or_else(bad)?;
    let control = inst.params.get(1).ok_or_else(bad)?.as_str();
    let ty = param_ty(inst, 2)?;
    let geometry = Geometry::standard(simd);
    let items = geometry.items();
    let n = items.len();
    let max = simd as usize;
    let sets = controls(op, control, &items, simd, rng);
    if sets.is_empty() {
        return Err(bad());
    }
    let mut out = Vec::new();
    for (variant, c) in sets {
        let a = values(ty, n, rng, false);
        let b = values(ty, n, rng, false);
        let mut want = vec![None; n * ty.width];
        for sg in subgroups(&items) {
            for it in &sg {
                let g = it.global_linear;
                if let Some((second, l)) = source(op, it.lane, c[g], sg.len(), max) {
                    let src = sg[l].global_linear;
                    let v = if second { &b[src] } else { &a[src] };
                    want[g * ty.width..(g + 1) * ty.width]
                        .copy_from_slice(&v.iter().map(|x| Some(*x)).collect::<Vec<_>>());
                }
            }
        }
        let control_arg = if control == "lane" {
            Arg::Buf(u32s(&c))
        } else {
            Arg::U32(c[0])
        };
        out.push(Case {
            relations: Vec::new(),
            name: name(inst, simd, &variant),
            kernel: inst.kernel(),
            geometry: geometry.clone(),
            args: vec![
                Arg::Buf(bytes(ty.scalar, &a)),
                Arg::Buf(bytes(ty.scalar, &b)),
                control_arg,
                Arg::Buf(vec![0; n * ty.size()]),
            ],
            checks: vec![Check {
                arg: 3,
                scalar: ty.scalar,
                want,
            }],
        });
    }
    Ok(out)
}
