//! The big mixed kernels (`generate::mixed`): each enabled section's region holds what its
//! built-in's spec text gives (shuffles as `shuffle::source` reads cl_intel_subgroups; broadcast,
//! reductions and scans as `collective` reads cl_khr_subgroups; block reads and writes as
//! `block` reads cl_intel_subgroups; vloadn/vstoren as OpenCL C 6.13.7; a uniform load as
//! OpenCL C's `+`, wrapping in the type), and its copy region its first source; a disabled
//! section writes nothing, and nothing writes outside what the enabled sections name.

use super::collective::{parse_fn, Shape};
use super::sections::{self, Regions};
use super::shuffle::{source, Op};
use super::{name, subgroups, u32s};
use crate::case::{Arg, Case, Check};
use crate::corpus::Instance;
use crate::generate::{mixed_plan, mixed_present, MixedKind as Kind, MIXED_ITEM_BYTES};
use crate::geometry::Geometry;
use crate::rng::Rng;
use crate::scalar::{Scalar, Ty};

/// Scalars of `s` (None: undefined) as their little-endian bytes.
fn scalar_bytes(s: Scalar, v: &[Option<u64>]) -> Vec<Option<u64>> {
    v.iter()
        .flat_map(|x| (0..s.size()).map(move |b| x.map(|x| x.to_le_bytes()[b] as u64)))
        .collect()
}

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let k = sections::kernel_number(inst)?;
    let plan = mixed_plan(k);
    if plan.is_empty() {
        return Err(format!("{}: no such mixed kernel", inst.line));
    }
    let geometry = Geometry::standard(simd);
    let items = geometry.items();
    let sgs = subgroups(&items);
    let n = items.len();
    let max = simd as usize;
    let sg_count = geometry.subgroup_count();
    // Room for a value per work-item, a block of 32 bytes a lane per subgroup past an offset below
    // 64 bytes, and a uniform section's 48 elements.
    let stride = (n * MIXED_ITEM_BYTES)
        .max(sg_count * max * 32 + 64)
        .max(48 * MIXED_ITEM_BYTES)
        .next_multiple_of(256)
        + 256;
    let regions = 2 * plan.len();
    let c: Vec<u32> = items
        .iter()
        .map(|it| rng.below(it.sg_size as u64) as u32)
        .collect();
    let mut input = vec![0u8; regions * stride];
    let mut u = vec![0u32; plan.len()];
    let mut expect = Vec::new();
    for (j, sec) in plan.iter().enumerate() {
        let bad = || format!("mixed {k}: section {j} ({:?} {})", sec.kind, sec.ty);
        let ty = Ty::parse(sec.ty).ok_or_else(bad)?;
        let s = ty.scalar;
        let (w, slots) = (ty.width, ty.size() / s.size());
        let per_region = stride / s.size();
        // Regions 2j (data, b) and 2j+1 (a) as scalars of the section's type.
        let d: Vec<u64> = (0..per_region).map(|_| s.random_arith(rng)).collect();
        let a_flat: Vec<u64> = (0..per_region).map(|_| s.random_arith(rng)).collect();
        for (r, v) in [(2 * j, &d), (2 * j + 1, &a_flat)] {
            let mut bytes = Vec::with_capacity(stride);
            for x in v.iter() {
                s.write(*x, &mut bytes);
            }
            input[r * stride..r * stride + bytes.len()].copy_from_slice(&bytes);
        }
        let a = |g: usize, comp: usize| a_flat[g * slots + comp];
        let mut data: Vec<Option<u64>> = vec![Some(0); per_region];
        // Per-lane results go to element g (components g * slots ..), padding undefined.
        let lane_value = |data: &mut Vec<Option<u64>>, g: usize, v: &dyn Fn(usize) -> u64| {
            for comp in 0..slots {
                data[g * slots + comp] = (comp < w).then(|| v(comp));
            }
        };
        match sec.kind {
            Kind::Shuffle(o) => {
                let o = Op::named(o).ok_or_else(bad)?;
                for sg in &sgs {
                    for it in sg {
                        let g = it.global_linear;
                        match source(o, it.lane, c[g], sg.len(), max) {
                            Some((second, l)) => {
                                let from = sg[l].global_linear;
                                lane_value(&mut data, g, &|comp| {
                                    if second {
                                        d[from * slots + comp]
                                    } else {
                                        a(from, comp)
                                    }
                                });
                            }
                            None => {
                                for comp in 0..slots {
                                    data[g * slots + comp] = None;
                                }
                            }
                        }
                    }
                }
            }
            Kind::Broadcast => {
                u[j] = rng.next_u64() as u32;
                for sg in &sgs {
                    // "the value of x for work item identified by sub_group_local_id"
                    let from = sg[u[j] as usize % sg.len()].global_linear;
                    for it in sg {
                        lane_value(&mut data, it.global_linear, &|_| a(from, 0));
                    }
                }
            }
            Kind::Collective(f) => {
                let (shape, f, identity) = parse_fn(&format!("sub_group_{f}")).ok_or_else(bad)?;
                for sg in &sgs {
                    // In increasing sub_group_local_id order.
                    let total = sg
                        .iter()
                        .fold(identity(s), |x, it| f(s, x, a(it.global_linear, 0)));
                    let mut acc = identity(s);
                    for it in sg {
                        let v = a(it.global_linear, 0);
                        let r = match shape {
                            Shape::Reduce => total,
                            Shape::Exclusive => acc,
                            Shape::Inclusive => f(s, acc, v),
                        };
                        acc = f(s, acc, v);
                        lane_value(&mut data, it.global_linear, &|_| r);
                    }
                }
            }
            Kind::BlockRead | Kind::BlockWrite => {
                // Reads: 4-byte aligned; writes: 16-byte aligned, below 64 bytes.
                let align = if sec.kind == Kind::BlockRead { 4 } else { 16 };
                let off = align / s.size() * rng.below(64 / align as u64) as usize;
                u[j] = off as u32;
                let block = max * w;
                let at = |it: &crate::geometry::Item, comp: usize| {
                    off + it.sg_index * block + it.lane + comp * max
                };
                if !mixed_present(sec, simd) {
                    // Not compiled at this width (`generate::mixed`): writes nothing.
                } else if sec.kind == Kind::BlockRead {
                    for it in &items {
                        lane_value(&mut data, it.global_linear, &|comp| d[at(it, comp)]);
                    }
                } else {
                    // The slots of lanes a partial subgroup lacks are undefined.
                    for it in &items {
                        for lane in it.sg_size..max {
                            for comp in 0..w {
                                data[off + it.sg_index * block + lane + comp * max] = None;
                            }
                        }
                    }
                    for it in &items {
                        for comp in 0..w {
                            data[at(it, comp)] = Some(a(it.global_linear, comp));
                        }
                    }
                }
            }
            Kind::Vload | Kind::Vstore => {
                // A byte offset aligned to the scalar and no more where it can be (odd for
                // char), below 16 bytes.
                let e = 1 + rng.below((16 / s.size() - 1) as u64) as usize;
                u[j] = (e * s.size()) as u32;
                for it in &items {
                    let g = it.global_linear;
                    if sec.kind == Kind::Vload {
                        // "sizeof (gentypen) bytes of data read from address (p + (offset * n))"
                        lane_value(&mut data, g, &|comp| d[e + g * w + comp]);
                    } else {
                        for comp in 0..w {
                            data[e + g * w + comp] = Some(a(g, comp));
                        }
                    }
                }
            }
            Kind::Uniform => {
                let (at, count) = (rng.below(32) as usize, rng.below(8) as usize);
                u[j] = at as u32 | (count as u32) << 16;
                let five = s.from_f64(5.0);
                let x: Vec<u64> = (0..w)
                    .map(|comp| {
                        let mut x = d[at * slots + comp];
                        for t in 0..count {
                            x = s.add(x, d[(at + 1 + t) * slots + comp]);
                        }
                        s.add(x, five)
                    })
                    .collect();
                lane_value(&mut data, at + 1, &|comp| x[comp]);
            }
        }
        let mut copy = vec![Some(0); per_region];
        for g in 0..n {
            lane_value(&mut copy, g, &|comp| a(g, comp));
        }
        expect.push(Regions {
            result: scalar_bytes(s, &data),
            copy: scalar_bytes(s, &copy),
        });
    }
    let all = sections::all(plan.len());
    let mut masks = vec![
        ("all".to_string(), all),
        ("alternate".into(), all & 0x5555_5555),
    ];
    for r in 0..3 {
        let m = rng.next_u64() as u32 & all;
        masks.push((format!("random{r}={m:#x}"), m));
    }
    let mut out = Vec::new();
    for (variant, mask) in masks {
        out.push(Case {
            relations: Vec::new(),
            name: name(inst, simd, &variant),
            kernel: inst.kernel(),
            geometry: geometry.clone(),
            args: vec![
                Arg::Buf(input.clone()),
                Arg::Buf(u32s(&c)),
                Arg::Buf(u32s(&u)),
                Arg::U32(mask),
                Arg::U32(stride as u32),
                Arg::Buf(vec![0; regions * stride]),
            ],
            checks: vec![Check {
                arg: 5,
                scalar: Scalar::Uchar,
                want: sections::want(&expect, stride, mask),
            }],
        });
    }
    Ok(out)
}
