//! Freed buffer objects kept for the next allocation of about their size, as Mesa's and Intel's
//! drivers keep theirs. A new BO costs two ioctls (three on xe, which binds it) and, on first
//! touch, a page fault and a page the kernel clears for each 4 KiB; a program that makes and
//! frees a buffer per step (a test harness, a PyOpenCL loop) pays that each time. A kept BO is
//! still mapped, bound at its GPU address and backed: taking it costs a clear of its bytes, or
//! nothing where the caller writes them all.
//!
//! Only BOs that retired: a BO is freed when its last reference goes, and a submission holds
//! references to every BO it names until it retires (`crate::queue`), so nothing the GPU still
//! uses is handed out again. At most [`KEEP_BYTES`] and [`KEEP_COUNT`] are kept, the oldest
//! freed first out; all of them go back to the kernel driver when it has no memory for a new
//! BO (and the allocation is tried again), and when the device closes.

use std::collections::VecDeque;
use std::sync::Mutex;

use kmd_iface::seam::Mapping;

use super::backend::Caching;

/// Bytes of freed BOs a device keeps at most. Room for two freed buffers of a quarter of the
/// simulated device's largest allocation each and more: test harnesses free a pair of about
/// that size and ask for the next pair of a size of their own (the CTS' strided copies: 13 GB
/// of new BOs in 16 GB asked for at 256 MiB, 1 GB at 512 MiB).
pub(crate) const KEEP_BYTES: u64 = 512 << 20;
/// Freed BOs a device keeps at most.
pub(crate) const KEEP_COUNT: usize = 32;

/// A freed BO as it was: handle, GPU address, size (a VA granule multiple) and CPU mapping.
#[derive(Debug)]
pub(crate) struct Freed {
    pub handle: u32,
    pub gpu_address: u64,
    pub size: u64,
    pub map: Mapping,
    pub caching: Caching,
}

/// A device's freed BOs, oldest first.
#[derive(Debug, Default)]
pub(crate) struct Kept {
    list: Mutex<VecDeque<Freed>>,
}

impl Kept {
    fn list(&self) -> std::sync::MutexGuard<'_, VecDeque<Freed>> {
        // Every update is one push or remove: a panic elsewhere leaves the list whole.
        self.list.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The smallest kept BO of `size` bytes (a granule multiple) to twice that, removed.
    /// Clearing the bytes past the caller's in a larger one costs a fraction of the page faults
    /// and page clearing of a new BO (its pages are there already); a harness's sizes change
    /// from one step to the next (by a quarter to a half in the CTS' copy tests).
    pub fn take(&self, size: u64) -> Option<Freed> {
        let mut list = self.list();
        let most = size.saturating_mul(2);
        let (i, _) = list
            .iter()
            .enumerate()
            .filter(|(_, f)| f.size >= size && f.size <= most)
            .min_by_key(|(_, f)| f.size)?;
        list.remove(i)
    }

    /// Keeps `freed`, or gives it back when it alone is more than the device keeps; returns
    /// what no longer fits (the oldest first), for the caller to release.
    pub fn keep(&self, freed: Freed) -> Vec<Freed> {
        if freed.size > KEEP_BYTES {
            return vec![freed];
        }
        let mut list = self.list();
        list.push_back(freed);
        let mut out = Vec::new();
        while list.len() > KEEP_COUNT || list.iter().map(|f| f.size).sum::<u64>() > KEEP_BYTES {
            out.extend(list.pop_front());
        }
        out
    }

    /// Everything kept, for the device to release as it closes.
    pub fn drain(&self) -> Vec<Freed> {
        self.list().drain(..).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use kmd_iface::seam::HeapBacking;

    use super::*;

    fn freed(handle: u32, size: u64) -> Freed {
        Freed {
            handle,
            gpu_address: u64::from(handle) << 32,
            size,
            map: Mapping::new(Arc::new(HeapBacking::zeroed(16).unwrap())),
            caching: Caching::Wb,
        }
    }

    #[test]
    fn takes_the_smallest_that_fits_within_twice_the_size() {
        let k = Kept::default();
        for (h, size) in [(1, 150 << 10), (2, 80 << 10), (3, 64 << 10), (4, 256 << 10)] {
            assert!(k.keep(freed(h, size)).is_empty());
        }
        // 64 KiB asked: 64 fits exactly, before 80.
        assert_eq!(k.take(64 << 10).map(|f| f.handle), Some(3));
        // 70 KiB: 80 fits (at most 140), 150 would too but is larger.
        assert_eq!(k.take(70 << 10).map(|f| f.handle), Some(2));
        assert!(k.take(70 << 10).is_none(), "150 KiB is past twice 70");
        assert!(k.take(300 << 10).is_none(), "none is large enough");
        assert_eq!(k.take(128 << 10).map(|f| f.handle), Some(1));
        assert_eq!(k.take(128 << 10).map(|f| f.handle), Some(4));
        assert!(k.drain().is_empty());
    }

    #[test]
    fn keeps_at_most_its_bytes_and_count_and_gives_back_the_oldest() {
        let k = Kept::default();
        assert_eq!(
            k.keep(freed(1, KEEP_BYTES + 1)).len(),
            1,
            "a BO larger than the whole allowance is not kept"
        );
        let big = KEEP_BYTES / 2;
        assert!(k.keep(freed(1, big)).is_empty());
        assert!(k.keep(freed(2, big)).is_empty());
        let out = k.keep(freed(3, 1 << 16));
        assert_eq!(out.iter().map(|f| f.handle).collect::<Vec<_>>(), [1]);
        for h in 10..10 + KEEP_COUNT as u32 {
            k.keep(freed(h, 1 << 16));
        }
        let left = k.drain();
        assert_eq!(left.len(), KEEP_COUNT);
        assert_eq!(left.last().map(|f| f.handle), Some(9 + KEEP_COUNT as u32));
        assert!(k.drain().is_empty());
    }
}
