//! The big kernels (`generate::big`): each enabled section's result is its shuffle of its two
//! sources with the per-lane control (the spec text as `shuffle::source` reads it), and its
//! copy region holds its first source; disabled sections write nothing.

use super::shuffle::{source, Op};
use super::{name, subgroups, u32s, values};
use crate::case::{Arg, Case, Check};
use crate::corpus::Instance;
use crate::generate::{big_plan, BIG_REGION_ITEM_BYTES};
use crate::geometry::Geometry;
use crate::rng::Rng;
use crate::scalar::{Scalar, Ty};

fn op(name: &str) -> Option<Op> {
    Some(match name {
        "index" => Op::Index,
        "xor" => Op::Xor,
        "down" => Op::Down,
        "up" => Op::Up,
        _ => return None,
    })
}

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let k: usize = inst
        .params
        .first()
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| format!("{}: no kernel number", inst.line))?;
    let plan = big_plan(k);
    if plan.is_empty() {
        return Err(format!("{}: no such big kernel", inst.line));
    }
    let geometry = Geometry::standard(simd);
    let items = geometry.items();
    let n = items.len();
    let max = simd as usize;
    let stride = (n * BIG_REGION_ITEM_BYTES).next_multiple_of(256);
    let regions = 2 * plan.len();
    // Per lane, an index inside its subgroup: in range for every op.
    let c: Vec<u32> = items
        .iter()
        .map(|it| rng.below(it.sg_size as u64) as u32)
        .collect();
    let mut input = vec![0u8; regions * stride];
    let mut result = vec![0u8; regions * stride];
    // Per section: the bytes of its result and copy regions, None where undefined.
    let mut want: Vec<Option<u64>> = vec![Some(0); regions * stride];
    let mut enabled_by_section = Vec::new();
    for (j, sec) in plan.iter().enumerate() {
        let ty = Ty::parse(sec.ty).ok_or_else(|| format!("big {k}: type {}", sec.ty))?;
        let op = op(sec.op).ok_or_else(|| format!("big {k}: op {}", sec.op))?;
        let size = ty.size();
        let (a, b) = (values(ty, n, rng, false), values(ty, n, rng, false));
        let put = |buf: &mut [u8], region: usize, g: usize, v: &[u64]| {
            let mut bytes = Vec::with_capacity(size);
            for x in v {
                ty.scalar.write(*x, &mut bytes);
            }
            let at = region * stride + g * size;
            buf[at..at + size].copy_from_slice(&bytes);
        };
        for g in 0..n {
            put(&mut input, 2 * j, g, &a[g]);
            put(&mut input, 2 * j + 1, g, &b[g]);
        }
        let mut res = vec![None; regions * stride];
        for sg in subgroups(&items) {
            for it in &sg {
                let g = it.global_linear;
                let src = source(op, it.lane, c[g], sg.len(), max);
                if let Some((second, l)) = src {
                    let s = sg[l].global_linear;
                    put(&mut result, 2 * j, g, if second { &b[s] } else { &a[s] });
                    for x in 0..size {
                        res[2 * j * stride + g * size + x] = Some(());
                    }
                }
                put(&mut result, 2 * j + 1, g, &a[g]);
            }
        }
        enabled_by_section.push((j, size, res));
    }
    let all = if plan.len() == 32 {
        u32::MAX
    } else {
        (1u32 << plan.len()) - 1
    };
    let mut out = Vec::new();
    for (variant, mask) in [("all", all), ("alternate", all & 0x5555_5555)] {
        let mut w = want.clone();
        for (j, size, res) in &enabled_by_section {
            if mask & (1 << j) == 0 {
                continue;
            }
            for g in 0..n {
                for x in 0..*size {
                    let r = 2 * j * stride + g * size + x;
                    w[r] = res[r].map(|()| result[r] as u64);
                    let copy = (2 * j + 1) * stride + g * size + x;
                    w[copy] = Some(result[copy] as u64);
                }
            }
        }
        out.push(Case {
            name: name(inst, simd, variant),
            kernel: inst.kernel(),
            geometry: geometry.clone(),
            args: vec![
                Arg::Buf(input.clone()),
                Arg::Buf(u32s(&c)),
                Arg::U32(mask),
                Arg::U32(stride as u32),
                Arg::Buf(vec![0; regions * stride]),
            ],
            checks: vec![Check {
                arg: 4,
                scalar: Scalar::Uchar,
                want: w,
            }],
        });
    }
    want.clear();
    Ok(out)
}
