//! ND-ranges: 1 to 3 dimensions, the local size picked when none is given, and the split into
//! uniform and partial work-groups that OpenCL 2.0 non-uniform work-groups need.
//!
//! OpenCL 2.0: when a global size is not a multiple of the local size, the last work-group of
//! that dimension holds the remainder. The hardware walker has one group shape per command, so
//! a range is run as up to 2^dims walkers ("regions"), each with its own local size; the
//! partial ones end in a partial right execution mask (batchbuffer's walker math).

use crate::device::DeviceInfo;
use crate::error::{Error, Result};
use batchbuffer::builder::{max_local_total, max_threads_per_group, Simd};
use platform::Platform;

/// Work-items the driver puts in one work-group when it picks the size.
pub const AUTO_GROUP_LIMIT: u32 = 256;

/// A validated ND-range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NdRange {
    /// 1 to 3.
    pub dims: u32,
    /// Global size per dimension (1 for unused dimensions).
    pub global: [u32; 3],
    /// The enqueued (uniform) local size.
    pub local: [u32; 3],
    /// The global work offset (clEnqueueNDRangeKernel's `global_work_offset`; 0 by default).
    pub offset: [u32; 3],
}

/// One walker's share of a range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// The group shape every group of the region has.
    pub local: [u32; 3],
    /// First group ID per dimension.
    pub group_start: [u32; 3],
    /// Groups per dimension.
    pub group_count: [u32; 3],
}

/// The walkers of a range: at most a full and a partial part per dimension, so at most eight,
/// held without a heap allocation.
#[derive(Debug, Clone, Copy)]
pub struct Regions {
    items: [Region; 8],
    len: usize,
}

impl std::ops::Deref for Regions {
    type Target = [Region];
    fn deref(&self) -> &[Region] {
        &self.items[..self.len]
    }
}

impl<'a> IntoIterator for &'a Regions {
    type Item = &'a Region;
    type IntoIter = std::slice::Iter<'a, Region>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

fn pad(v: &[u32]) -> Result<[u32; 3]> {
    if v.is_empty() || v.len() > 3 {
        return Err(Error::NdRange(format!(
            "an ND-range has 1 to 3 dimensions, not {}",
            v.len()
        )));
    }
    if v.contains(&0) {
        return Err(Error::NdRange(format!("size {v:?} has a zero dimension")));
    }
    let mut out = [1; 3];
    out[..v.len()].copy_from_slice(v);
    Ok(out)
}

/// The largest divisor of `n` that is at most `limit`.
fn largest_divisor(n: u32, limit: u32) -> u32 {
    (1..=limit.min(n))
        .rev()
        .find(|d| n.is_multiple_of(*d))
        .unwrap_or(1)
}

impl NdRange {
    /// A range of `global`, with `local` or (when `None`) a local size picked for `simd`:
    /// `required` (reqd_work_group_size) if the kernel has one, else per dimension the largest
    /// divisor of the global size within [`AUTO_GROUP_LIMIT`] work-items, widened to a
    /// multiple of the SIMD width (last group partial) when the divisor would leave lanes idle.
    pub fn new(
        global: &[u32],
        local: Option<&[u32]>,
        simd: u32,
        required: Option<[u32; 3]>,
    ) -> Result<NdRange> {
        Self::new_within(global, local, simd, required, AUTO_GROUP_LIMIT)
    }

    /// [`NdRange::new`], a picked local size having at most `auto_limit` work-items (and at
    /// most [`AUTO_GROUP_LIMIT`]): the kernel's own maximum, where it is smaller.
    pub fn new_within(
        global: &[u32],
        local: Option<&[u32]>,
        simd: u32,
        required: Option<[u32; 3]>,
        auto_limit: u32,
    ) -> Result<NdRange> {
        let dims = global.len() as u32;
        let global = pad(global)?;
        let local = match (local, required) {
            (Some(l), req) => {
                if l.len() as u32 != dims {
                    return Err(Error::NdRange(format!(
                        "local size has {} dimensions, global size {dims}",
                        l.len()
                    )));
                }
                let l = pad(l)?;
                if let Some(r) = req.filter(|r| *r != l) {
                    return Err(Error::NdRange(format!(
                        "the kernel requires work-group size {r:?}, not {l:?}"
                    )));
                }
                l
            }
            (None, Some(r)) => r,
            (None, None) => Self::pick(global, simd, auto_limit.clamp(1, AUTO_GROUP_LIMIT)),
        };
        let range = NdRange {
            dims,
            global,
            local,
            offset: [0; 3],
        };
        range.validate()?;
        Ok(range)
    }

    /// Checks the fields (also of a range built without [`NdRange::new`]): 1 to 3 dimensions,
    /// no zero size (a kernel's required work-group size included) and a work-group within
    /// the hardware's limit.
    pub fn validate(&self) -> Result<()> {
        if !(1..=3).contains(&self.dims) {
            return Err(Error::NdRange(format!(
                "an ND-range has 1 to 3 dimensions, not {}",
                self.dims
            )));
        }
        if self.global.contains(&0) || self.local.contains(&0) {
            return Err(Error::NdRange(format!(
                "global size {:?} or work-group size {:?} has a zero dimension",
                self.global, self.local
            )));
        }
        let total: u64 = self.local.iter().map(|&l| l as u64).product();
        if total > batchbuffer::builder::MAX_LOCAL_TOTAL as u64 {
            return Err(Error::NdRange(format!(
                "work-group {:?} has {total} work-items, more than {}",
                self.local,
                batchbuffer::builder::MAX_LOCAL_TOTAL
            )));
        }
        Ok(())
    }

    /// The same range shifted by a global work offset (one value per dimension; IDs then run
    /// from the offset to offset + global size - 1, which must fit in 32 bits).
    pub fn with_offset(self, offset: &[u32]) -> Result<NdRange> {
        if offset.len() as u32 != self.dims {
            return Err(Error::NdRange(format!(
                "offset has {} dimensions, the range {}",
                offset.len(),
                self.dims
            )));
        }
        let mut o = [0; 3];
        o[..offset.len()].copy_from_slice(offset);
        if (0..3).any(|d| o[d].checked_add(self.global[d]).is_none()) {
            return Err(Error::NdRange(format!(
                "offset {offset:?} + global size {:?} exceeds 32 bits",
                self.global
            )));
        }
        Ok(NdRange { offset: o, ..self })
    }

    fn pick(global: [u32; 3], simd: u32, limit: u32) -> [u32; 3] {
        let mut budget = limit;
        let mut local = [1; 3];
        for d in 0..3 {
            let mut l = largest_divisor(global[d], budget);
            if d == 0 && l < simd && global[d] > l {
                // A divisor this small would waste most lanes: take whole SIMD multiples and
                // let the last group be partial.
                l = (global[d].min(budget) / simd).max(1) * simd;
                l = l.min(budget);
            }
            local[d] = l;
            budget /= l;
        }
        local
    }

    /// Work-groups per dimension, counting partial ones.
    pub fn groups(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.global[d].div_ceil(self.local[d]))
    }

    /// The walkers that cover the range: the uniform groups first, then the partial ones.
    pub fn regions(&self) -> Regions {
        // Per dimension: (start, count, local) of the full groups and of the partial group.
        let mut parts = [[(0u32, 0u32, 0u32); 2]; 3];
        let mut lens = [0usize; 3];
        for d in 0..3 {
            let (g, l) = (self.global[d], self.local[d]);
            let (full, rem) = (g / l, g % l);
            if full > 0 {
                parts[d][lens[d]] = (0, full, l);
                lens[d] += 1;
            }
            if rem > 0 {
                parts[d][lens[d]] = (full, 1, rem);
                lens[d] += 1;
            }
        }
        let mut out = Regions {
            items: [Region {
                local: [0; 3],
                group_start: [0; 3],
                group_count: [0; 3],
            }; 8],
            len: 0,
        };
        for x in &parts[0][..lens[0]] {
            for y in &parts[1][..lens[1]] {
                for z in &parts[2][..lens[2]] {
                    out.items[out.len] = Region {
                        local: [x.2, y.2, z.2],
                        group_start: [x.0, y.0, z.0],
                        group_count: [x.1, y.1, z.1],
                    };
                    out.len += 1;
                }
            }
        }
        out
    }
}

/// Work-items one work-group of a `simd`-lane kernel can have on `p`: batchbuffer's limit from
/// the walker's thread-count fields, the one source umd and the OpenCL ICD use.
pub fn max_work_group(p: Platform, simd: u32) -> Result<u32> {
    Ok(max_local_total(p, Simd::from_lanes(simd)?))
}

impl NdRange {
    /// Refuses a range whose work-groups need more hardware threads than `dev` gives one
    /// group at `simd` lanes: the walker's limit and one subslice's threads
    /// ([`DeviceInfo::max_group_items`]); the walker would otherwise be refused while the
    /// batch is built, or a group be dispatched across more threads than a subslice has.
    pub fn check_fits(&self, dev: &DeviceInfo, simd: u32) -> Result<()> {
        let max = dev.max_group_items(simd)?;
        let total: u64 = self.local.iter().map(|&l| l as u64).product();
        if total > max as u64 {
            let p = dev.platform;
            return Err(Error::NdRange(format!(
                "work-group {:?} has {total} work-items; a SIMD{simd} kernel on {} can have \
                 at most {max} ({} threads per group: the walker's {}, a subslice's {})",
                self.local,
                dev.name,
                max / simd,
                max_threads_per_group(p),
                dev.threads_per_subslice(),
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every work-item of the range belongs to exactly one group of exactly one region, and
    /// only the last group of a dimension is smaller (OpenCL 2.0 non-uniform work-groups).
    fn check_cover(r: &NdRange) {
        let mut hits = vec![0u8; (r.global[0] * r.global[1] * r.global[2]) as usize];
        for reg in r.regions().iter() {
            for d in 0..3 {
                if reg.local[d] != r.local[d] {
                    assert_eq!(reg.group_start[d], r.global[d] / r.local[d]);
                    assert_eq!(reg.group_count[d], 1);
                    assert_eq!(reg.local[d], r.global[d] % r.local[d]);
                }
            }
            for gz in reg.group_start[2]..reg.group_start[2] + reg.group_count[2] {
                for gy in reg.group_start[1]..reg.group_start[1] + reg.group_count[1] {
                    for gx in reg.group_start[0]..reg.group_start[0] + reg.group_count[0] {
                        for lz in 0..reg.local[2] {
                            for ly in 0..reg.local[1] {
                                for lx in 0..reg.local[0] {
                                    // Global ID = group ID × enqueued local size + local ID.
                                    let x = gx * r.local[0] + lx;
                                    let y = gy * r.local[1] + ly;
                                    let z = gz * r.local[2] + lz;
                                    let i = x + r.global[0] * (y + r.global[1] * z);
                                    hits[i as usize] += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(hits.iter().all(|&h| h == 1), "{r:?}");
    }

    #[test]
    fn non_uniform_ranges_are_covered_once() {
        for (g, l) in [
            (&[100u32][..], &[16u32][..]),
            (&[64], &[16]),
            (&[10, 7], &[4, 3]),
            (&[5, 6, 7], &[2, 4, 3]),
            (&[3], &[8]),
        ] {
            let r = NdRange::new(g, Some(l), 16, None).unwrap();
            check_cover(&r);
        }
        let r = NdRange::new(&[10, 7], Some(&[4, 3]), 8, None).unwrap();
        assert_eq!(r.regions().len(), 4);
        assert_eq!(r.groups(), [3, 3, 1]);
    }

    /// A kernel whose own maximum is below the driver's limit gets picked groups within it.
    #[test]
    fn picked_sizes_stay_within_the_kernels_limit() {
        for (g, limit) in [(&[1024u32][..], 32), (&[1000, 3][..], 64), (&[17][..], 8)] {
            let r = NdRange::new_within(g, None, 16, None, limit).unwrap();
            let total: u32 = r.local.iter().product();
            assert!(total <= limit, "{r:?} over {limit}");
            check_cover(&r);
        }
        // The limit does not touch a given or a required size.
        let r = NdRange::new_within(&[64], Some(&[64]), 16, None, 8).unwrap();
        assert_eq!(r.local, [64, 1, 1]);
    }

    #[test]
    fn picked_sizes_fit_and_cover() {
        for g in [
            &[1u32][..],
            &[17],
            &[1024],
            &[1000, 3],
            &[7, 11, 13],
            &[4096, 4096],
        ] {
            let r = NdRange::new(g, None, 16, None).unwrap();
            let total: u32 = r.local.iter().product();
            assert!(total <= AUTO_GROUP_LIMIT, "{r:?}");
            check_cover(&r);
        }
        assert_eq!(
            NdRange::new(&[1024], None, 16, None).unwrap().local,
            [256, 1, 1]
        );
        // A small prime fits one group; a prime above the limit gets SIMD-multiple groups with
        // a partial last one rather than groups of 1.
        assert_eq!(
            NdRange::new(&[17], None, 16, None).unwrap().local,
            [17, 1, 1]
        );
        assert_eq!(
            NdRange::new(&[257], None, 16, None).unwrap().local,
            [256, 1, 1]
        );
        assert_eq!(
            NdRange::new(&[8], None, 16, Some([4, 2, 1])).unwrap().local,
            [4, 2, 1]
        );
    }

    #[test]
    fn bad_ranges_are_errors() {
        assert!(NdRange::new(&[], None, 8, None).is_err());
        assert!(NdRange::new(&[1, 2, 3, 4], None, 8, None).is_err());
        assert!(NdRange::new(&[0], None, 8, None).is_err());
        assert!(NdRange::new(&[8, 8], Some(&[8]), 8, None).is_err());
        assert!(NdRange::new(&[64], Some(&[2048]), 8, None).is_err());
        assert!(NdRange::new(&[8], Some(&[8]), 8, Some([4, 1, 1])).is_err());
        // A binary's required size of zero (issue 13: divided by zero in `regions`).
        assert!(NdRange::new(&[64], None, 16, Some([0, 1, 1])).is_err());
        let hand_built = NdRange {
            dims: 1,
            global: [64, 1, 1],
            local: [0, 1, 1],
            offset: [0; 3],
        };
        assert!(hand_built.validate().is_err());
    }
}
