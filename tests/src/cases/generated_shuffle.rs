//! The generated shuffles (`generate::shuffle`): `G_SHUFFLE(op, control, T)`, results from
//! the spec text as `shuffle::source` reads it; out-of-range lanes are left unchecked.

use super::shuffle::{source, Op};
use super::{bytes, name, param_ty, subgroups, u32s, values};
use crate::case::{Arg, Case, Check};
use crate::corpus::Instance;
use crate::geometry::{Geometry, Item};
use crate::rng::Rng;

/// The controls one case gives, per work-item, named.
fn controls(
    op: Op,
    control: &str,
    items: &[Item],
    max: u32,
    rng: &mut Rng,
) -> Vec<(String, Vec<u32>)> {
    let n = items.len();
    let two = matches!(op, Op::Down | Op::Up);
    let uniform = |c: u32| (format!("c={c}"), vec![c; n]);
    match control {
        "lane" => {
            // One dispatch, a pattern per subgroup in turn: in range for the op; below
            // 2 * max (out of range for index and xor, the second source for down/up); and
            // one value for the whole subgroup.
            let same: Vec<u32> = (0..n).map(|_| rng.below(max as u64) as u32).collect();
            let c = items
                .iter()
                .map(|it| match (it.sg_index % 3, op) {
                    (0, Op::Index) => rng.below(it.sg_size as u64) as u32,
                    (0, _) => rng.below(max as u64) as u32,
                    (1, _) => rng.below(2 * max as u64) as u32,
                    _ => same[it.sg_index],
                })
                .collect();
            vec![("mixed".into(), c)]
        }
        "arg" => {
            // In range; for down/up also from the second source only (max <= c < 2 * max).
            let mut v = vec![rng.below(max as u64) as u32];
            if two {
                v.push(max + rng.below(max as u64) as u32);
            }
            v.into_iter().map(uniform).collect()
        }
        "one" => vec![uniform(1)],
        "last" => vec![uniform(max - 1)],
        "simd" => vec![uniform(max)],
        _ => Vec::new(),
    }
}

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let bad = || format!("{}: unknown op or control", inst.line);
    let op = match inst.params.first().map(String::as_str) {
        Some("index") => Op::Index,
        Some("xor") => Op::Xor,
        Some("down") => Op::Down,
        Some("up") => Op::Up,
        _ => return Err(bad()),
    };
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
