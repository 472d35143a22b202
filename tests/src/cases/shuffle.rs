//! intel_sub_group_shuffle, _xor, _down and _up (cl_intel_subgroups 6.13.X "Sub Group Shuffle
//! Functions"; the char forms from cl_intel_subgroups_char).

use super::{bytes, name, param_ty, subgroups, u32s, values};
use crate::case::{Arg, Case, Check};
use crate::corpus::Instance;
use crate::geometry::Geometry;
use crate::rng::Rng;

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Op {
    Index,
    Xor,
    Down,
    Up,
}

impl Op {
    /// The op of a generated kernel's name for it (`generate::shuffle::OPS`).
    pub(super) fn named(name: &str) -> Option<Op> {
        Some(match name {
            "index" => Op::Index,
            "xor" => Op::Xor,
            "down" => Op::Down,
            "up" => Op::Up,
            _ => return None,
        })
    }
}

/// Where lane `lane`'s result comes from: (from the second source, lane), or `None` where
/// the spec gives no defined result. `n` is the subgroup's size, `max` the maximum size.
pub(super) fn source(op: Op, lane: usize, c: u32, n: usize, max: usize) -> Option<(bool, usize)> {
    let c = c as usize;
    let (second, l) = match op {
        // "the value of data for the work item identified by sub_group_local_id"
        Op::Index => (false, c),
        // "sub_group_local_id equal to this work item's sub_group_local_id XOR'd with value"
        Op::Xor => (false, lane ^ c),
        // index = id + delta: current below max_sub_group_size, next (index - max) below 2*max
        Op::Down => {
            let i = lane + c;
            if i < max {
                (false, i)
            } else if i < 2 * max {
                (true, i - max)
            } else {
                return None;
            }
        }
        // index = id - delta: current when >= 0, previous (index + max) when >= -max
        Op::Up => {
            let i = lane as i64 - c as i64;
            if i >= 0 {
                (true, i as usize)
            } else if i >= -(max as i64) {
                (false, (i + max as i64) as usize)
            } else {
                return None;
            }
        }
    };
    // Work-items outside the subgroup do not encounter the call: undefined.
    (l < n).then_some((second, l))
}

pub fn cases(inst: &Instance, simd: u32, rng: &mut Rng) -> Result<Vec<Case>, String> {
    let ty = param_ty(inst, 0)?;
    let kind = inst.kind.as_str();
    let uniform = kind.ends_with("_UNIFORM");
    let op = match kind.trim_end_matches("_UNIFORM") {
        "SHUFFLE" => Op::Index,
        "SHUFFLE_XOR" => Op::Xor,
        "SHUFFLE_DOWN" => Op::Down,
        "SHUFFLE_UP" => Op::Up,
        _ => return Err(format!("{}: unknown shuffle", inst.line)),
    };
    let two_sources = matches!(op, Op::Down | Op::Up);
    let geometry = Geometry::standard(simd);
    let items = geometry.items();
    let n = items.len();
    let max = simd as usize;
    let controls: Vec<Vec<u32>> = if uniform {
        [1, rng.below(max as u64) as u32, max as u32 - 1]
            .iter()
            .map(|&c| vec![c; n])
            .collect()
    } else {
        // Varying per work-item; shuffle indices stay inside the work-item's subgroup.
        vec![items
            .iter()
            .map(|it| match op {
                Op::Index => rng.below(it.sg_size as u64) as u32,
                _ => rng.below(max as u64) as u32,
            })
            .collect()]
    };
    let mut out = Vec::new();
    for (ci, c) in controls.iter().enumerate() {
        let a = values(ty, n, rng, false);
        let b = values(ty, n, rng, false);
        let mut want = vec![None; n * ty.width];
        for sg in subgroups(&items) {
            for it in &sg {
                let g = it.global_linear;
                if let Some((second, l)) = source(op, it.lane, c[g], sg.len(), max) {
                    let src = sg[l].global_linear;
                    let v = if second { &b[src] } else { &a[src] };
                    for k in 0..ty.width {
                        want[g * ty.width + k] = Some(v[k]);
                    }
                }
            }
        }
        let mut args = vec![Arg::Buf(bytes(ty.scalar, &a))];
        if two_sources {
            args.push(Arg::Buf(bytes(ty.scalar, &b)));
        }
        args.push(if uniform {
            Arg::U32(c[0])
        } else {
            Arg::Buf(u32s(c))
        });
        args.push(Arg::Buf(vec![0; n * ty.size()]));
        let variant = if uniform {
            format!("c={}", c[0])
        } else {
            format!("varying#{ci}")
        };
        out.push(Case {
            relations: Vec::new(),
            name: name(inst, simd, &variant),
            kernel: inst.kernel(),
            geometry: geometry.clone(),
            checks: vec![Check {
                arg: args.len() - 1,
                scalar: ty.scalar,
                want,
            }],
            args,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_sources_follow_the_spec_text() {
        // down: id 6 + delta 3 in SIMD8 -> next[1]; id 2 + 3 -> current[5].
        assert_eq!(source(Op::Down, 6, 3, 8, 8), Some((true, 1)));
        assert_eq!(source(Op::Down, 2, 3, 8, 8), Some((false, 5)));
        // up: id 1 - delta 3 -> previous[1 - 3 + 8 = 6]; id 5 - 3 -> current[2].
        assert_eq!(source(Op::Up, 1, 3, 8, 8), Some((false, 6)));
        assert_eq!(source(Op::Up, 5, 3, 8, 8), Some((true, 2)));
        // A partial subgroup of 5: lanes 5..8 do not exist.
        assert_eq!(source(Op::Xor, 1, 4, 5, 8), None);
        assert_eq!(source(Op::Xor, 1, 3, 5, 8), Some((false, 2)));
    }
}
