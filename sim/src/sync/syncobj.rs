//! DRM sync objects, binary and timeline, as the kernel's `drm_syncobj` keeps them.
//!
//! A binary syncobj holds at most one fence. A timeline syncobj holds a fence per point; point P
//! counts as submitted once a point >= P exists, and as signalled once every point up to the
//! first point >= P has signalled (the kernel's dma-fence-chain rule).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use super::{Fence, FenceStatus};

#[derive(Debug, Default)]
pub struct Syncobj {
    /// The binary fence, or the newest timeline point's fence.
    fence: Option<Arc<Fence>>,
    points: BTreeMap<u64, Arc<Fence>>,
}

impl Syncobj {
    pub fn fence(&self) -> Option<&Arc<Fence>> {
        self.fence.as_ref()
    }

    pub fn replace(&mut self, fence: Option<Arc<Fence>>) {
        self.points.clear();
        self.fence = fence;
    }

    /// Adds timeline point `point` backed by `fence`.
    pub fn add_point(&mut self, point: u64, fence: Arc<Fence>) {
        self.points.insert(point, fence.clone());
        self.fence = Some(fence);
    }

    /// The fence deciding point `point`: `None` while the point is not yet submitted. Point 0 is
    /// the binary fence.
    pub fn point_status(&self, point: u64) -> Option<FenceStatus> {
        if point == 0 {
            return self.fence.as_ref().map(|f| f.status());
        }
        let (&first, _) = self.points.range(point..).next()?;
        let mut status = FenceStatus::Signaled;
        for f in self.points.range(..=first).map(|(_, f)| f) {
            match f.status() {
                FenceStatus::Pending => return Some(FenceStatus::Pending),
                e @ FenceStatus::Error { .. } => status = e,
                FenceStatus::Signaled => {}
            }
        }
        Some(status)
    }

    /// The fences point `point` waits for (the chain up to the first point >= it; point 0: the
    /// binary fence), `None` while the point is not yet submitted.
    pub fn point_fences(&self, point: u64) -> Option<Vec<Arc<Fence>>> {
        if point == 0 {
            return self.fence.clone().map(|f| vec![f]);
        }
        let (&first, _) = self.points.range(point..).next()?;
        Some(
            self.points
                .range(..=first)
                .map(|(_, f)| f.clone())
                .collect(),
        )
    }

    /// The highest point submitted so far (SYNCOBJ_QUERY with LAST_SUBMITTED).
    pub fn last_point(&self) -> u64 {
        self.points.keys().next_back().copied().unwrap_or(0)
    }

    /// The highest signalled point with every earlier point signalled (SYNCOBJ_QUERY).
    pub fn signaled_point(&self) -> u64 {
        let mut last = 0;
        for (&p, f) in &self.points {
            if !f.is_signaled() {
                break;
            }
            last = p;
        }
        last
    }
}

/// A syncobj as handles hold it: several handles, in several files, may name one syncobj
/// (an opaque syncobj fd imported, `drm_syncobj_fd_to_handle`).
#[derive(Debug, Default)]
pub struct SharedSyncobj(Mutex<Syncobj>);

impl SharedSyncobj {
    pub fn lock(&self) -> MutexGuard<'_, Syncobj> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A file's syncobj handles.
#[derive(Debug, Default)]
pub struct SyncobjTable {
    next: u32,
    objs: HashMap<u32, Arc<SharedSyncobj>>,
}

impl SyncobjTable {
    /// Creates a syncobj, signalled if asked (DRM_SYNCOBJ_CREATE_SIGNALED). Handles start at 1.
    pub fn create(&mut self, signaled: bool) -> u32 {
        let mut s = Syncobj::default();
        if signaled {
            s.replace(Some(Fence::signaled()));
        }
        self.insert(Arc::new(SharedSyncobj(Mutex::new(s))))
    }

    /// A new handle of `obj` (the lowest free from the last one given, as `idr_alloc` from 1).
    pub fn insert(&mut self, obj: Arc<SharedSyncobj>) -> u32 {
        self.next = self.next.wrapping_add(1).max(1);
        while self.objs.contains_key(&self.next) {
            self.next = self.next.wrapping_add(1).max(1);
        }
        self.objs.insert(self.next, obj);
        self.next
    }

    pub fn destroy(&mut self, handle: u32) -> bool {
        self.objs.remove(&handle).is_some()
    }

    /// The syncobj a handle names, locked (held briefly: never while taking a file's lock).
    pub fn get(&self, handle: u32) -> Option<MutexGuard<'_, Syncobj>> {
        self.objs.get(&handle).map(|s| s.lock())
    }

    pub fn get_mut(&mut self, handle: u32) -> Option<MutexGuard<'_, Syncobj>> {
        self.get(handle)
    }

    /// The shared syncobj behind a handle (for an fd export).
    pub fn shared(&self, handle: u32) -> Option<Arc<SharedSyncobj>> {
        self.objs.get(&handle).cloned()
    }

    pub fn contains(&self, handle: u32) -> bool {
        self.objs.contains_key(&handle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_lifecycle() {
        let mut t = SyncobjTable::default();
        let h = t.create(false);
        assert_eq!(t.get(h).unwrap().point_status(0), None);
        let f = Fence::new();
        t.get_mut(h).unwrap().replace(Some(f.clone()));
        assert_eq!(
            t.get(h).unwrap().point_status(0),
            Some(FenceStatus::Pending)
        );
        f.signal(None);
        assert_eq!(
            t.get(h).unwrap().point_status(0),
            Some(FenceStatus::Signaled)
        );
        let s = t.create(true);
        assert!(s != h && t.get(s).unwrap().fence().unwrap().is_signaled());
        assert!(t.destroy(h) && !t.destroy(h));
    }

    #[test]
    fn timeline_points_follow_the_chain_rule() {
        let mut s = Syncobj::default();
        let (a, b) = (Fence::new(), Fence::new());
        s.add_point(2, a.clone());
        s.add_point(5, b.clone());
        assert_eq!(s.point_status(6), None);
        b.signal(None);
        // Point 3 is decided by point 5, which waits for point 2 too.
        assert_eq!(s.point_status(3), Some(FenceStatus::Pending));
        assert_eq!(s.point_fences(3).map(|f| f.len()), Some(2));
        assert!(s.point_fences(6).is_none());
        assert_eq!(s.signaled_point(), 0);
        a.signal(None);
        assert_eq!(s.point_status(3), Some(FenceStatus::Signaled));
        assert_eq!(s.signaled_point(), 5);
    }
}
