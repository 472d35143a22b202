//! A case: one dispatch of one corpus kernel, its inputs, and the outputs the spec demands.

use crate::geometry::Geometry;
use crate::scalar::Scalar;

/// A kernel argument, in the form both runners can make (the `intel-gpu-run --arg` kinds).
#[derive(Debug, Clone)]
pub enum Arg {
    /// A buffer holding these bytes.
    Buf(Vec<u8>),
    U32(u32),
    I32(i32),
    /// A by-value argument of any type, as its little-endian bytes (OpenCL C's size; a
    /// runner zero-fills the rest of a larger slot the compiler gave it, as clSetKernelArg
    /// does for promoted `char`/`short` arguments).
    Bytes(Vec<u8>),
    /// A linear 2D image; `format` is an `intel-gpu-run` format name; rows packed.
    Image {
        width: u32,
        height: u32,
        format: &'static str,
        bytes: Vec<u8>,
    },
}

/// The image formats the corpus uses: (name, bytes per element).
pub const IMAGE_FORMATS: [(&str, u32); 4] =
    [("r8ui", 1), ("r16ui", 2), ("r32ui", 4), ("rgba8ui", 4)];

pub fn image_bpp(format: &str) -> u32 {
    IMAGE_FORMATS
        .iter()
        .find(|(n, _)| *n == format)
        .map(|(_, b)| *b)
        .unwrap_or(0)
}

/// What one argument must hold after the run: a value per element, `None` where the spec
/// leaves the result undefined.
#[derive(Debug, Clone)]
pub struct Check {
    pub arg: usize,
    pub scalar: Scalar,
    pub want: Vec<Option<u64>>,
}

#[derive(Debug, Clone)]
pub struct Case {
    /// Unique, e.g. `shuffle_int4 simd16 skl`.
    pub name: String,
    pub kernel: String,
    pub geometry: Geometry,
    pub args: Vec<Arg>,
    pub checks: Vec<Check>,
    /// Rules over whole outputs, for what the spec states as relations rather than values.
    pub relations: Vec<Relation>,
}

/// A rule the spec states between a run's output elements rather than as their values.
#[derive(Debug, Clone)]
pub enum Relation {
    /// The `queries` kernel's records in the `output`th checked output: 8 uints per work-item
    /// at 8 × its global linear id (sub-group size, maximum size, count, enqueued count,
    /// sub-group id, sub-group local id, local linear id, lane 0's local linear id); `groups`
    /// holds each work-group's work-items by global linear id. The mapping of work-items to
    /// sub-groups is the implementation's (cl_intel_subgroups, "Additions to Section 3.2");
    /// what the text fixes is checked: see [`subgroup_mapping`].
    SubgroupMapping {
        output: usize,
        groups: Vec<Vec<usize>>,
    },
    /// A barrier kernel's result: each work-item's value in the `output`th checked output is
    /// `input` of the work-item `turns` lanes to its right (cyclically) in its own sub-group.
    /// Which work-items share a sub-group is the implementation's: the `map`th checked output
    /// holds each work-item's `sub-group id << 16 | sub-group local id` (at its global linear
    /// id), `groups` each work-group's work-items by global linear id. See
    /// [`subgroup_neighbours`].
    SubgroupNeighbour {
        output: usize,
        map: usize,
        input: Vec<u64>,
        turns: usize,
        groups: Vec<Vec<usize>>,
    },
    /// Per work-group, the `output`th checked output's values at the group's work-items
    /// (`groups`, by global linear id) are, in some order, `want`'s for that group: what a
    /// sub-group query returns across a group does not depend on which work-items share a
    /// sub-group, which is the implementation's.
    PerGroupValues {
        output: usize,
        groups: Vec<Vec<usize>>,
        want: Vec<Vec<u64>>,
    },
}

impl Case {
    /// Compares a run's outputs (one byte vector per check, in order) with the checks.
    pub fn verify(&self, outputs: &[Vec<u8>]) -> Result<(), String> {
        if outputs.len() != self.checks.len() {
            return Err(format!(
                "{} outputs, {} checked",
                outputs.len(),
                self.checks.len()
            ));
        }
        let mut bad = Vec::new();
        let mut count = 0;
        for (c, out) in self.checks.iter().zip(outputs) {
            let got = crate::scalar::unpack(c.scalar, out);
            if got.len() < c.want.len() {
                return Err(format!(
                    "argument {} has {} elements, expected {}",
                    c.arg,
                    got.len(),
                    c.want.len()
                ));
            }
            for (i, (w, g)) in c.want.iter().zip(&got).enumerate() {
                if let Some(w) = w {
                    if !c.scalar.same(*w, *g) {
                        count += 1;
                        if bad.len() < 6 {
                            bad.push(format!(
                                "arg {}[{i}] = {} want {}",
                                c.arg,
                                c.scalar.show(*g),
                                c.scalar.show(*w)
                            ));
                        }
                    }
                }
            }
        }
        if count != 0 {
            return Err(format!("{count} wrong: {}", bad.join(", ")));
        }
        for r in &self.relations {
            match r {
                Relation::SubgroupMapping { output, groups } => {
                    let got = outputs
                        .get(*output)
                        .map(|o| crate::scalar::unpack(Scalar::Uint, o))
                        .ok_or_else(|| format!("no output {output} for the sub-group mapping"))?;
                    subgroup_mapping(&got, groups)?;
                }
                Relation::SubgroupNeighbour {
                    output,
                    map,
                    input,
                    turns,
                    groups,
                } => {
                    let uints = |k: usize| {
                        outputs
                            .get(k)
                            .map(|o| crate::scalar::unpack(Scalar::Uint, o))
                            .ok_or_else(|| format!("no output {k} for the sub-group neighbours"))
                    };
                    subgroup_neighbours(&uints(*output)?, &uints(*map)?, input, *turns, groups)?;
                }
                Relation::PerGroupValues {
                    output,
                    groups,
                    want,
                } => {
                    let got = outputs
                        .get(*output)
                        .map(|o| crate::scalar::unpack(Scalar::Uint, o))
                        .ok_or_else(|| format!("no output {output} for the group values"))?;
                    for (w, (items, want)) in groups.iter().zip(want).enumerate() {
                        let mut values: Vec<u64> = items
                            .iter()
                            .map(|&g| got.get(g).copied().unwrap_or(u64::MAX))
                            .collect();
                        values.sort_unstable();
                        let mut want = want.clone();
                        want.sort_unstable();
                        if values != want {
                            return Err(format!(
                                "group {w}: values {values:?}, want {want:?} in any order"
                            ));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// One work-item's `queries` record: (size, max, count, id, local id, local linear id, lane 0's
/// local linear id).
type Record = [u64; 7];

/// Checks `queries` records against cl_intel_subgroups' execution model (the same text as
/// cl_khr_subgroups'): within a work-group, every work-item has one (sub-group id, local id)
/// pair of its own, with the id below the group's count and the local id below its sub-group's
/// size; each sub-group's members all report its size and are that many; "all subgroups
/// within a work group will be the same size, apart from the subgroup with the maximum index,
/// which may be smaller"; `sub_group_broadcast(x, 0)` gives lane 0's value; and the mapping
/// "is invariant ... from one work group to another within the dispatch (excluding the
/// trailing edge work groups ...)".
pub fn subgroup_mapping(out: &[u64], groups: &[Vec<usize>]) -> Result<(), String> {
    use std::collections::BTreeMap;
    let record = |g: usize| -> Result<Record, String> {
        let r = out
            .get(8 * g..8 * g + 8)
            .ok_or_else(|| format!("no record for work-item {g}"))?;
        Ok([r[0], r[1], r[2], r[4], r[5], r[6], r[7]])
    };
    let full = groups.iter().map(Vec::len).max().unwrap_or(0);
    let mut first_full: Option<BTreeMap<u64, (u64, u64)>> = None;
    for (w, items) in groups.iter().enumerate() {
        let recs = items
            .iter()
            .map(|&g| record(g))
            .collect::<Result<Vec<_>, _>>()?;
        let mut members: BTreeMap<u64, Vec<Record>> = BTreeMap::new();
        for r in &recs {
            let [size, _, count, id, lane, _, _] = *r;
            if id >= count || lane >= size {
                return Err(format!(
                    "group {w}: sub-group {id} lane {lane} outside count {count} / size {size}"
                ));
            }
            members.entry(id).or_default().push(*r);
        }
        for (&id, m) in &members {
            let [size, max, count, ..] = m[0];
            let mut lanes: Vec<u64> = m.iter().map(|r| r[4]).collect();
            lanes.sort_unstable();
            if m.iter().any(|r| r[0] != size) || lanes != (0..size).collect::<Vec<_>>() {
                return Err(format!(
                    "group {w}: sub-group {id} reports size {size} but holds lanes {lanes:?}"
                ));
            }
            if (id + 1 < count && size != max) || size > max {
                return Err(format!(
                    "group {w}: sub-group {id} of {count} has {size} work-items (maximum {max}); only the last may be smaller"
                ));
            }
            let lane0 = m.iter().find(|r| r[4] == 0).map(|r| r[5]);
            if let Some(bad) = m.iter().find(|r| Some(r[6]) != lane0) {
                return Err(format!(
                    "group {w}: sub-group {id}: broadcast of lane 0's local linear id gave {} (lane 0 is {lane0:?})",
                    bad[6]
                ));
            }
        }
        if members.len() as u64 != recs.first().map_or(0, |r| r[2]) {
            return Err(format!(
                "group {w}: {} sub-groups used, {} reported",
                members.len(),
                recs.first().map_or(0, |r| r[2])
            ));
        }
        if items.len() == full {
            let map: BTreeMap<u64, (u64, u64)> =
                recs.iter().map(|r| (r[5], (r[3], r[4]))).collect();
            match &first_full {
                None => first_full = Some(map),
                Some(f) if *f != map => {
                    return Err(format!(
                    "group {w}: work-items map to sub-groups differently from the first full group"
                ))
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// Checks [`Relation::SubgroupNeighbour`]: within each work-group, the (sub-group id, local id)
/// pairs `map` reports are distinct and each sub-group's local ids are 0..its size; then every
/// work-item's `out` is `input` of the member `turns` lanes to its right in its sub-group.
pub fn subgroup_neighbours(
    out: &[u64],
    map: &[u64],
    input: &[u64],
    turns: usize,
    groups: &[Vec<usize>],
) -> Result<(), String> {
    use std::collections::BTreeMap;
    let at = |v: &[u64], g: usize, what: &str| {
        v.get(g)
            .copied()
            .ok_or_else(|| format!("no {what} for work-item {g}"))
    };
    let mut bad = Vec::new();
    for (w, items) in groups.iter().enumerate() {
        // sub-group id -> local id -> global linear id
        let mut members: BTreeMap<u64, BTreeMap<u64, usize>> = BTreeMap::new();
        for &g in items {
            let m = at(map, g, "sub-group record")?;
            if members
                .entry(m >> 16)
                .or_default()
                .insert(m & 0xffff, g)
                .is_some()
            {
                return Err(format!(
                    "group {w}: two work-items report sub-group {} local id {}",
                    m >> 16,
                    m & 0xffff
                ));
            }
        }
        for (id, lanes) in &members {
            let size = lanes.len() as u64;
            if lanes.keys().copied().ne(0..size) {
                return Err(format!(
                    "group {w}: sub-group {id} holds local ids {:?}",
                    lanes.keys().collect::<Vec<_>>()
                ));
            }
            for (&lane, &g) in lanes {
                let from = lanes[&((lane + turns as u64) % size)];
                let (got, want) = (at(out, g, "result")?, at(input, from, "input")?);
                if got != want {
                    bad.push(format!(
                        "work-item {g} (sub-group {id} lane {lane}) = {got:#x}, want {want:#x} (work-item {from}'s)"
                    ));
                }
            }
        }
    }
    match bad.len() {
        0 => Ok(()),
        n => Err(format!(
            "{n} wrong: {}",
            bad.iter().take(6).cloned().collect::<Vec<_>>().join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `queries` records for work-groups of `sizes` work-items (global ids consecutive) whose
    /// sub-groups of `simd` take the work-items in the order `order(group size)` gives
    /// (positions in local linear order).
    fn records(
        sizes: &[usize],
        simd: usize,
        order: impl Fn(usize) -> Vec<usize>,
    ) -> (Vec<u64>, Vec<Vec<usize>>) {
        let mut out = Vec::new();
        let mut groups = Vec::new();
        let mut g = 0;
        for &n in sizes {
            let count = n.div_ceil(simd);
            let ord = order(n);
            let mut rec = vec![[0u64; 8]; n];
            for (k, &llid) in ord.iter().enumerate() {
                let (id, lane) = (k / simd, k % simd);
                let size = simd.min(n - id * simd);
                let lane0 = ord[id * simd];
                rec[llid] = [size, simd, count, count, id, lane, llid, lane0].map(|v| v as u64);
            }
            groups.push((g..g + n).collect());
            g += n;
            out.extend(rec.into_iter().flatten());
        }
        (out, groups)
    }

    fn linear(n: usize) -> Vec<usize> {
        (0..n).collect()
    }

    /// A 6x4 group walked y fastest (as NEO's Walk Order 201 dispatches it on dg2).
    fn y_fastest(n: usize) -> Vec<usize> {
        assert_eq!(n, 24);
        (0..6)
            .flat_map(|x| (0..4).map(move |y| x + 6 * y))
            .collect()
    }

    #[test]
    fn linear_and_other_walks_follow_the_execution_model() {
        let (out, groups) = records(&[24, 24, 10], 16, linear);
        assert_eq!(subgroup_mapping(&out, &groups), Ok(()));
        let (out, groups) = records(&[24, 24], 16, y_fastest);
        assert_eq!(subgroup_mapping(&out, &groups), Ok(()));
    }

    #[test]
    fn broken_mappings_are_named() {
        let (good, groups) = records(&[24, 24], 8, linear);
        let field = |item: usize, k: usize| 8 * item + k;
        let broken = |item: usize, k: usize, v: u64| {
            let mut o = good.clone();
            o[field(item, k)] = v;
            subgroup_mapping(&o, &groups).unwrap_err()
        };
        // Two work-items with one (id, lane): item 1 claims lane 0.
        assert!(
            broken(1, 5, 0).contains("holds lanes"),
            "{}",
            broken(1, 5, 0)
        );
        // A sub-group id beyond the count.
        assert!(broken(3, 4, 3).contains("outside count"));
        // A wrong broadcast.
        assert!(broken(2, 7, 5).contains("broadcast"));
        // The second full group mapped differently from the first.
        let (a, _) = records(&[24], 8, linear);
        let (b, _) = records(&[24], 8, |n| (0..n).rev().collect());
        let both: Vec<u64> = a.into_iter().chain(b).collect();
        assert!(subgroup_mapping(&both, &groups)
            .unwrap_err()
            .contains("differently from the first full group"));
        // A short sub-group that is not the last: groups of 20 at SIMD 8 with the partial one
        // first.
        let (mut o, g) = records(&[20], 8, linear);
        for r in o.chunks_mut(8) {
            // Renumber: sub-group 2 (4 items) becomes 0, the others move up.
            r[4] = (r[4] + 1) % 3;
        }
        for r in o.chunks_mut(8) {
            r[0] = if r[4] == 0 { 4 } else { 8 };
        }
        assert!(subgroup_mapping(&o, &g)
            .unwrap_err()
            .contains("only the last may be smaller"));
    }

    /// One group of 6 work-items in sub-groups of 4 and 2, mapped as NEO's Y-major walk
    /// maps a 2×3 group (not linearly).
    #[test]
    fn neighbours_follow_the_reported_mapping() {
        // work-item g -> (sub-group, lane)
        let pairs = [(0, 0), (0, 2), (1, 0), (0, 1), (0, 3), (1, 1)];
        let map: Vec<u64> = pairs.iter().map(|&(s, l)| (s << 16) | l).collect();
        let input: Vec<u64> = (0..6).map(|g| 100 + g).collect();
        let groups = vec![(0..6).collect::<Vec<usize>>()];
        // One turn right: (0,0)->(0,1)=g3, (0,2)->(0,3)=g4, (1,0)->(1,1)=g5, (0,1)->(0,2)=g1,
        // (0,3)->(0,0)=g0, (1,1)->(1,0)=g2.
        let out = vec![103, 104, 105, 101, 100, 102];
        subgroup_neighbours(&out, &map, &input, 1, &groups).unwrap();
        // The linear expectation is wrong here.
        let linear = vec![101, 102, 103, 100, 105, 104];
        assert!(subgroup_neighbours(&linear, &map, &input, 1, &groups)
            .unwrap_err()
            .contains("wrong"));
        // Three turns: three to the right in the sub-group of 4, one in the sub-group of 2.
        let out3 = vec![104, 103, 105, 100, 101, 102];
        assert!(subgroup_neighbours(&out3, &map, &input, 3, &groups).is_ok());
        // Two work-items claiming one lane.
        let mut dup = map.clone();
        dup[1] = 0;
        assert!(subgroup_neighbours(&out, &dup, &input, 1, &groups)
            .unwrap_err()
            .contains("two work-items"));
        // A missing lane.
        let mut gap = map.clone();
        gap[5] = (1 << 16) | 2;
        assert!(subgroup_neighbours(&out, &gap, &input, 1, &groups)
            .unwrap_err()
            .contains("holds local ids"));
    }
}
