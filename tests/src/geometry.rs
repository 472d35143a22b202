//! Where each work-item sits: its work-group, its subgroup and its lane.
//!
//! Work-items are numbered by linear local id (x fastest, with the group's actual size in each
//! dimension: OpenCL 2.0 non-uniform groups) and cut into subgroups of `simd` consecutive
//! work-items; the last subgroup of a group may be partial. This is the mapping the queries
//! report (`get_sub_group_id`, `get_sub_group_local_id`) and that the corpus checks.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    pub global: Vec<u32>,
    pub local: Vec<u32>,
    pub simd: u32,
}

/// One work-item.
#[derive(Debug, Clone, Copy)]
pub struct Item {
    pub global_linear: usize,
    pub local_linear: usize,
    /// `get_sub_group_id()`.
    pub sg: usize,
    /// `get_sub_group_local_id()`.
    pub lane: usize,
    /// `get_sub_group_size()`.
    pub sg_size: usize,
    /// `get_num_sub_groups()`.
    pub num_sgs: usize,
    /// `get_enqueued_num_sub_groups()`.
    pub enqueued_num_sgs: usize,
    /// Subgroups numbered across the dispatch: group linear id * enqueued count + sg.
    pub sg_index: usize,
}

impl Geometry {
    /// The corpus's standard 1D dispatch for `simd`: groups of 2*simd+5 work-items (two full
    /// subgroups and a partial one of 5) and a global size that leaves the last group partial
    /// (2*simd-2 work-items: a full subgroup and a partial one of simd-2).
    pub fn standard(simd: u32) -> Geometry {
        let l = 2 * simd + 5;
        Geometry {
            global: vec![3 * l - 7],
            local: vec![l],
            simd,
        }
    }

    fn dim(v: &[u32], d: usize) -> usize {
        v.get(d).copied().unwrap_or(1) as usize
    }

    pub fn total(&self) -> usize {
        (0..3).map(|d| Self::dim(&self.global, d)).product()
    }

    /// Every work-item, indexed by global linear id.
    pub fn items(&self) -> Vec<Item> {
        let g = [0, 1, 2].map(|d| Self::dim(&self.global, d));
        let l = [0, 1, 2].map(|d| Self::dim(&self.local, d));
        let groups = [0, 1, 2].map(|d| g[d].div_ceil(l[d]));
        let simd = self.simd as usize;
        let enqueued = (l[0] * l[1] * l[2]).div_ceil(simd);
        let mut items = Vec::with_capacity(self.total());
        for gz in 0..g[2] {
            for gy in 0..g[1] {
                for gx in 0..g[0] {
                    let id = [gx, gy, gz];
                    let w = [0, 1, 2].map(|d| id[d] / l[d]);
                    let size = [0, 1, 2].map(|d| l[d].min(g[d] - w[d] * l[d]));
                    let lid = [0, 1, 2].map(|d| id[d] % l[d]);
                    let local_linear = lid[0] + size[0] * (lid[1] + size[1] * lid[2]);
                    let total = size[0] * size[1] * size[2];
                    let sg = local_linear / simd;
                    let group_linear = w[0] + groups[0] * (w[1] + groups[1] * w[2]);
                    items.push(Item {
                        global_linear: gx + g[0] * (gy + g[1] * gz),
                        local_linear,
                        sg,
                        lane: local_linear % simd,
                        sg_size: simd.min(total - sg * simd),
                        num_sgs: total.div_ceil(simd),
                        enqueued_num_sgs: enqueued,
                        sg_index: group_linear * enqueued + sg,
                    });
                }
            }
        }
        items
    }

    /// Subgroups across the dispatch (the highest `sg_index` + 1).
    pub fn subgroup_count(&self) -> usize {
        self.items()
            .iter()
            .map(|i| i.sg_index + 1)
            .max()
            .unwrap_or(0)
    }
}

/// The work-items of each subgroup, by `sg_index`, in lane order.
pub fn subgroups(items: &[Item]) -> Vec<Vec<Item>> {
    let n = items.iter().map(|i| i.sg_index + 1).max().unwrap_or(0);
    let mut out = vec![Vec::new(); n];
    for it in items {
        out[it.sg_index].push(*it);
    }
    for sg in &mut out {
        sg.sort_by_key(|i| i.lane);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_geometry_has_partial_subgroups_and_a_partial_group() {
        let g = Geometry::standard(8);
        let items = g.items();
        assert_eq!(items.len(), 56);
        let sgs = subgroups(&items);
        let sizes: Vec<usize> = sgs.iter().map(|s| s.len()).collect();
        // The last group enqueues three subgroups but has two.
        assert_eq!(sizes, [8, 8, 5, 8, 8, 5, 8, 6]);
        assert!(sgs[7].iter().all(|i| i.sg_size == 6 && i.num_sgs == 2));
    }

    #[test]
    fn two_dimensional_groups_linearise_x_first_with_actual_sizes() {
        let g = Geometry {
            global: vec![7, 3],
            local: vec![5, 3],
            simd: 8,
        };
        let items = g.items();
        // Work-item (6, 1) is in the partial group x in 5..7 (2 wide): local (1, 1) -> 3.
        let it = items[6 + 7];
        assert_eq!((it.local_linear, it.sg, it.lane, it.sg_size), (3, 0, 3, 6));
    }
}
