//! Cutting a run into walkers and lining up the walkers of two runs.

use std::collections::HashMap;

use batchbuffer::PacketId;

use super::capture::{Cmd, Run};

/// One walker and what led to it.
#[derive(Debug, Clone)]
pub struct Segment {
    /// Indices (into `Run::cmds`) of the commands since the previous walker.
    pub before: Vec<usize>,
    /// The walker's index.
    pub walker: usize,
    /// The last instance of each state packet executed before the walker, anywhere in the run
    /// (state persists across batches in the context).
    pub in_effect: HashMap<PacketId, usize>,
}

pub fn is_walker(p: PacketId) -> bool {
    matches!(p, PacketId::GpgpuWalker | PacketId::ComputeWalker)
}

/// Pipeline state: what a walker inherits from earlier commands (not MI commands, flushes,
/// blits or walkers).
pub fn is_state(p: PacketId) -> bool {
    let n = p.name();
    !(n.starts_with("MI_")
        || n.starts_with("XY_")
        || is_walker(p)
        || matches!(p, PacketId::PipeControl | PacketId::MediaStateFlush))
}

/// The walkers of `run` with their preceding commands, and the commands after the last one.
pub fn segments(run: &Run) -> (Vec<Segment>, Vec<usize>) {
    let mut out = Vec::new();
    let mut before = Vec::new();
    let mut in_effect = HashMap::new();
    for (i, c) in run.cmds.iter().enumerate() {
        match c.packet {
            Some(p) if is_walker(p) => out.push(Segment {
                before: std::mem::take(&mut before),
                walker: i,
                in_effect: in_effect.clone(),
            }),
            Some(p) => {
                if is_state(p) {
                    in_effect.insert(p, i);
                }
                before.push(i);
            }
            None => before.push(i),
        }
    }
    (out, before)
}

/// What identifies a walker's work across runs: its kernel binary's hash from the dispatch
/// record.
pub fn kernel_key(run: &Run, c: &Cmd) -> Option<String> {
    run.record(c)
        .and_then(|r| r["kernel"]["fnv1a64"].as_str())
        .map(str::to_string)
}

/// Pairs the walkers of two runs: by position when both ran as many; otherwise along the
/// longest common subsequence of their kernels (a run with extra walkers, such as built-in copy
/// kernels, keeps its matching ones paired), the rest unpaired. Without any common kernel,
/// by position.
pub fn align(a: &[Option<String>], b: &[Option<String>]) -> Vec<(Option<usize>, Option<usize>)> {
    let by_position = || {
        (0..a.len().max(b.len()))
            .map(|i| ((i < a.len()).then_some(i), (i < b.len()).then_some(i)))
            .collect()
    };
    if a.len() == b.len() {
        return by_position();
    }
    let same = |i: usize, j: usize| a[i].is_some() && a[i] == b[j];
    // lcs[i][j]: the longest common run of a[i..] and b[j..].
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if same(i, j) {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    if lcs[0][0] == 0 {
        return by_position();
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && same(i, j) {
            out.push((Some(i), Some(j)));
            i += 1;
            j += 1;
        } else if j == b.len() || (i < a.len() && lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push((Some(i), None));
            i += 1;
        } else {
            out.push((None, Some(j)));
            j += 1;
        }
    }
    out
}

/// Within each run of consecutive pairs, re-pairs the walkers by the first thread group they
/// dispatch (`start`, per walker) when both sides cover the same set of starting groups: two
/// runtimes split an ND-range with partial groups into the same walkers in different orders.
pub fn by_region(
    pairs: &mut [(Option<usize>, Option<usize>)],
    start_a: &[Option<String>],
    start_b: &[Option<String>],
) {
    let mut i = 0;
    while i < pairs.len() {
        let mut j = i;
        while j < pairs.len() && pairs[j].0.is_some() && pairs[j].1.is_some() {
            j += 1;
        }
        let run = &mut pairs[i..j.max(i)];
        let key =
            |s: &[Option<String>], x: Option<usize>| x.and_then(|k| s.get(k).cloned().flatten());
        let mut ka: Vec<Option<String>> = run.iter().map(|p| key(start_a, p.0)).collect();
        let mut kb: Vec<(Option<String>, Option<usize>)> =
            run.iter().map(|p| (key(start_b, p.1), p.1)).collect();
        let distinct = {
            let mut k = ka.clone();
            k.sort();
            k.dedup();
            k.len() == ka.len()
        };
        let mut sorted_b: Vec<Option<String>> = kb.iter().map(|k| k.0.clone()).collect();
        sorted_b.sort();
        let mut sorted_a = ka.clone();
        sorted_a.sort();
        if distinct && sorted_a == sorted_b && ka.iter().all(Option::is_some) {
            for (p, k) in run.iter_mut().zip(ka.drain(..)) {
                if let Some(at) = kb.iter().position(|b| b.0 == k) {
                    p.1 = kb.remove(at).1;
                }
            }
        }
        i = j + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(s: &str) -> Vec<Option<String>> {
        s.chars().map(|c| Some(c.to_string())).collect()
    }

    #[test]
    fn walkers_of_the_same_regions_pair_by_region() {
        let mut pairs = align(&keys("kkk"), &keys("kkk"));
        let a = [
            Some("[0,0,0]".into()),
            Some("[2,0,0]".into()),
            Some("[0,1,0]".into()),
        ];
        let b = [
            Some("[0,0,0]".into()),
            Some("[0,1,0]".into()),
            Some("[2,0,0]".into()),
        ];
        by_region(&mut pairs, &a, &b);
        assert_eq!(
            pairs,
            [(Some(0), Some(0)), (Some(1), Some(2)), (Some(2), Some(1))]
        );
        // Different regions: left by position.
        let c = [
            Some("[0,0,0]".into()),
            Some("[1,0,0]".into()),
            Some("[0,1,0]".into()),
        ];
        let mut pairs = align(&keys("kkk"), &keys("kkk"));
        by_region(&mut pairs, &a, &c);
        assert_eq!(
            pairs,
            [(Some(0), Some(0)), (Some(1), Some(1)), (Some(2), Some(2))]
        );
    }

    #[test]
    fn equal_counts_pair_by_position() {
        assert_eq!(
            align(&keys("ab"), &keys("cd")),
            [(Some(0), Some(0)), (Some(1), Some(1))]
        );
    }

    #[test]
    fn extra_walkers_stay_unpaired_and_the_common_kernels_pair() {
        // A copies in (c), runs k twice and copies out (c); B runs k twice.
        assert_eq!(
            align(&keys("ckkc"), &keys("kk")),
            [
                (Some(0), None),
                (Some(1), Some(0)),
                (Some(2), Some(1)),
                (Some(3), None)
            ]
        );
    }

    #[test]
    fn no_common_kernel_pairs_by_position() {
        assert_eq!(
            align(&keys("abc"), &keys("de")),
            [(Some(0), Some(0)), (Some(1), Some(1)), (Some(2), None)]
        );
        // Unknown kernels (no record) never match each other.
        assert_eq!(
            align(&[None, None], &[None]),
            [(Some(0), Some(0)), (Some(1), None)]
        );
    }

    #[test]
    fn segments_keep_the_state_in_effect_across_requests() {
        let cmd = |file: &str, offset, p| Cmd {
            file: file.into(),
            offset,
            packet: Some(p),
            dwords: vec![],
        };
        let run = Run {
            cmds: vec![
                cmd("0000-rcs0", 0, PacketId::MediaVfeState),
                cmd("0000-rcs0", 8, PacketId::PipeControl),
                cmd("0000-rcs0", 32, PacketId::GpgpuWalker),
                cmd("0001-rcs0", 0, PacketId::PipeControl),
                cmd("0001-rcs0", 24, PacketId::GpgpuWalker),
                cmd("0001-rcs0", 84, PacketId::MiBatchBufferEnd),
            ],
            records: HashMap::new(),
        };
        let (segs, tail) = segments(&run);
        assert_eq!(segs.len(), 2);
        assert_eq!((segs[0].before.clone(), segs[0].walker), (vec![0, 1], 2));
        assert_eq!((segs[1].before.clone(), segs[1].walker), (vec![3], 4));
        assert_eq!(segs[1].in_effect.get(&PacketId::MediaVfeState), Some(&0));
        assert_eq!(segs[1].in_effect.get(&PacketId::PipeControl), None);
        assert_eq!(tail, [5]);
    }
}
