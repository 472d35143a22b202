//! The big kernels (`generate::big`): each enabled section's result is its shuffle of its two
//! sources with the per-lane control (the spec text as `shuffle::source` reads it), and its
//! copy region holds its first source; disabled sections write nothing.

use super::sections::{self, Regions};
use super::shuffle::{source, Op};
use super::{name, subgroups, u32s, values};
use crate::case::{Arg, Case, Check};
use crate::corpus::Instance;
use crate::generate::{big_plan, BIG_REGION_ITEM_BYTES};
use crate::geometry::Geometry;
use crate::rng::Rng;
use crate::scalar::{Scalar, Ty};

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let k = sections::kernel_number(inst)?;
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
    let mut expect = Vec::new();
    for (j, sec) in plan.iter().enumerate() {
        let ty = Ty::parse(sec.ty).ok_or_else(|| format!("big {k}: type {}", sec.ty))?;
        let op = Op::named(sec.op).ok_or_else(|| format!("big {k}: op {}", sec.op))?;
        let size = ty.size();
        let (a, b) = (values(ty, n, rng, false), values(ty, n, rng, false));
        // Element g of a region (as bytes), `to` of length `stride`.
        let put = |to: &mut [u8], g: usize, v: &[u64]| {
            let mut bytes = Vec::with_capacity(size);
            for x in v {
                ty.scalar.write(*x, &mut bytes);
            }
            to[g * size..(g + 1) * size].copy_from_slice(&bytes);
        };
        for g in 0..n {
            put(&mut input[2 * j * stride..], g, &a[g]);
            put(&mut input[(2 * j + 1) * stride..], g, &b[g]);
        }
        let mut result = vec![0u8; stride];
        let mut copy = vec![0u8; stride];
        let mut defined = vec![true; stride];
        for sg in subgroups(&items) {
            for it in &sg {
                let g = it.global_linear;
                match source(op, it.lane, c[g], sg.len(), max) {
                    Some((second, l)) => {
                        let s = sg[l].global_linear;
                        put(&mut result, g, if second { &b[s] } else { &a[s] });
                    }
                    None => defined[g * size..(g + 1) * size].fill(false),
                }
                put(&mut copy, g, &a[g]);
            }
        }
        let bytes = |v: &[u8]| v.iter().map(|&x| Some(x as u64)).collect::<Vec<_>>();
        let mut result = bytes(&result);
        for (r, d) in result.iter_mut().zip(&defined) {
            if !d {
                *r = None;
            }
        }
        expect.push(Regions {
            result,
            copy: bytes(&copy),
        });
    }
    let all = sections::all(plan.len());
    let mut out = Vec::new();
    for (variant, mask) in [("all", all), ("alternate", all & 0x5555_5555)] {
        out.push(Case {
            relations: Vec::new(),
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
                want: sections::want(&expect, stride, mask),
            }],
        });
    }
    Ok(out)
}
