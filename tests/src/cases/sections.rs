//! What the references of the big (`big`) and mixed (`mixed`) kernels share: the kernel number
//! of an instance, the masks a case enables sections with, and `out` under a mask — region 2j
//! holds enabled section j's result, region 2j + 1 its first source, everything else keeps its
//! zero.

use crate::corpus::Instance;

/// One section's expected bytes of its two regions of `out` (None: undefined).
pub struct Regions {
    pub result: Vec<Option<u64>>,
    pub copy: Vec<Option<u64>>,
}

/// The kernel number `k` of a `BIG(k)` or `MIXED(k)` instance.
pub fn kernel_number(inst: &Instance) -> Result<usize, String> {
    inst.params
        .first()
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| format!("{}: no kernel number", inst.line))
}

/// The mask enabling all `count` (at most 32) sections.
pub fn all(count: usize) -> u32 {
    if count >= 32 {
        u32::MAX
    } else {
        (1u32 << count) - 1
    }
}

/// The expected bytes of `out` (2 regions of `stride` bytes per section) when `mask` enables
/// the sections whose bit it has.
pub fn want(sections: &[Regions], stride: usize, mask: u32) -> Vec<Option<u64>> {
    let mut w = vec![Some(0); 2 * sections.len() * stride];
    for (j, e) in sections.iter().enumerate() {
        if mask & (1 << j) == 0 {
            continue;
        }
        for (r, bytes) in [(2 * j, &e.result), (2 * j + 1, &e.copy)] {
            for (to, b) in w[r * stride..(r + 1) * stride].iter_mut().zip(bytes) {
                *to = *b;
            }
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disabled_sections_keep_zero_and_enabled_ones_their_regions() {
        let sec = |x| Regions {
            result: vec![Some(x), None],
            copy: vec![Some(x + 1)],
        };
        let w = want(&[sec(1), sec(5)], 2, 0b10);
        assert_eq!(
            w,
            [
                Some(0),
                Some(0),
                Some(0),
                Some(0),
                Some(5),
                None,
                Some(6),
                Some(0)
            ]
        );
        assert_eq!(all(3), 0b111);
        assert_eq!(all(32), u32::MAX);
    }
}
