//! Uniform accesses (`generate::uniform`), from OpenCL C's semantics: `x = in[j] + v + (T)5`
//! with the usual arithmetic conversions and the conversion back to T (integers wrap in T's
//! width, vectors component-wise, floating `+` exact here: the values are small integers),
//! then for a `mem` index `x += in[j + 2 + t]` for `t < u[1]`; `out[j + 1] = x` and every
//! other element of `out` keeps its value; kernels reading local ids store
//! `x + (T)get_local_id(0)` to `lanes[get_global_id(0)]`. The padding component of a
//! 3-component element (OpenCL C: it takes the room of 4) is undefined where stored.

use super::{name, param_ty, values};
use crate::case::{Arg, Case, Check};
use crate::corpus::Instance;
use crate::generate::UNIFORM_ELEMENTS as ELEMENTS;
use crate::geometry::Geometry;
use crate::rng::Rng;
use crate::scalar::{pack, Ty};

/// Components per element as stored (3-component vectors take 4).
fn slots(ty: Ty) -> usize {
    if ty.width == 3 {
        4
    } else {
        ty.width
    }
}

/// Elements as bytes, the padding component of 3-vectors `pad`.
fn elements(ty: Ty, v: &[Vec<u64>], pad: u64) -> Vec<u8> {
    let mut flat = Vec::new();
    for e in v {
        flat.extend_from_slice(e);
        flat.extend(std::iter::repeat_n(pad, slots(ty) - ty.width));
    }
    pack(ty.scalar, &flat)
}

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let bad = || format!("{}: expected UNIFORM(space, index, lanes, type)", inst.line);
    let [_space, index, lanes, _] = inst.params.as_slice() else {
        return Err(bad());
    };
    let ty = param_ty(inst, 3)?;
    let s = ty.scalar;
    let geometry = Geometry::standard(simd);
    let items = geometry.items();
    let n = items.len();
    let input = values(ty, ELEMENTS, rng, true);
    let old = values(ty, ELEMENTS, rng, false);
    let v = values(ty, 1, rng, true).remove(0);
    // (j, loop count, the argument k, the words u).
    let (j, count, k) = match index.as_str() {
        "lit" => (1, 0, rng.below(1 << 16) as u32),
        "arg" => (rng.below(20) as u32, 0, 0),
        "mem" => (rng.below(20) as u32, 1 + rng.below(12) as u32, 0),
        _ => return Err(bad()),
    };
    let k = if index == "arg" { j } else { k };
    let u = [j, count];
    let j = j as usize;
    let five = s.from_f64(5.0);
    let x: Vec<u64> = (0..ty.width)
        .map(|c| {
            let mut x = s.add(s.add(input[j][c], v[c]), five);
            for t in 0..count as usize {
                x = s.add(x, input[j + 2 + t][c]);
            }
            x
        })
        .collect();
    let per = slots(ty);
    // `out` as components: every one keeps its value but element j + 1.
    let mut want: Vec<Option<u64>> = old
        .iter()
        .flat_map(|e| {
            let mut e: Vec<Option<u64>> = e.iter().map(|&c| Some(c)).collect();
            e.resize(per, Some(0));
            e
        })
        .collect();
    for c in 0..per {
        want[(j + 1) * per + c] = x.get(c).copied();
    }
    let mut checks = vec![Check {
        arg: 4,
        scalar: s,
        want,
    }];
    match lanes.as_str() {
        "none" => {}
        "lid" => {
            let mut w = vec![None; n * per];
            for it in &items {
                for (c, &xc) in x.iter().enumerate() {
                    let lid = s.from_f64(it.local_linear as f64);
                    w[it.global_linear * per + c] = Some(s.add(xc, lid));
                }
            }
            checks.push(Check {
                arg: 5,
                scalar: s,
                want: w,
            });
        }
        _ => return Err(bad()),
    }
    let variant = format!("j={j} count={count}");
    Ok(vec![Case {
        relations: Vec::new(),
        name: name(inst, simd, &variant),
        kernel: inst.kernel(),
        geometry,
        args: vec![
            Arg::Buf(elements(ty, &input, 0)),
            Arg::Buf(u.iter().flat_map(|w| w.to_le_bytes()).collect()),
            Arg::U32(k),
            Arg::Bytes(elements(ty, &[v], 0)),
            Arg::Buf(elements(ty, &old, 0)),
            Arg::Buf(vec![0; n * ty.size()]),
        ],
        checks,
    }])
}
