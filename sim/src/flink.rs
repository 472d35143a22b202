//! Global GEM names (`DRM_IOCTL_GEM_FLINK` / `DRM_IOCTL_GEM_OPEN`, `drm_gem.c`): a device-wide
//! table from a name to an object, which any DRM file of the same GPU can open as a new handle
//! of the same memory.
//!
//! As in the DRM core, a name is the lowest free integer from 1, an object keeps the name it
//! was first given, and the name goes away with the object's last handle in any file
//! (`drm_gem_object_handle_free`): every handle of a named object holds the [`Named`] entry,
//! and dropping the last one removes it from the table.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use kmd_iface::seam::Errno;

use crate::activity::Activity;
use crate::mem::Bo;

/// What a GEM_OPEN of the name gives a file: the object's memory and the properties a handle
/// of it carries in the simulator's tables.
#[derive(Debug)]
pub struct Named {
    pub name: u32,
    pub bo: Arc<Bo>,
    pub(crate) activity: Arc<Activity>,
    pub min_page: u64,
    pub region: u16,
    pub private_vm: Option<u32>,
    table: Weak<Mutex<NameTable>>,
}

impl Drop for Named {
    fn drop(&mut self) {
        if let Some(table) = self.table.upgrade() {
            let mut t = lock(&table);
            // Only this entry's own slot: a dead Weak there is this one.
            if t.names
                .get(&self.name)
                .is_some_and(|w| w.strong_count() == 0)
            {
                t.names.remove(&self.name);
            }
        }
    }
}

/// The device's name table.
#[derive(Debug, Default)]
pub struct NameTable {
    names: BTreeMap<u32, Weak<Named>>,
}

/// A GPU's name table, shared by its files.
pub type Names = Arc<Mutex<NameTable>>;

fn lock(t: &Mutex<NameTable>) -> MutexGuard<'_, NameTable> {
    t.lock().unwrap_or_else(|e| e.into_inner())
}

/// Names `bo` (a handle's object that has none yet): the lowest free name from 1 (`idr_alloc`
/// with start 1); `ENOSPC` when every u31 name is taken.
pub(crate) fn name(
    table: &Names,
    bo: Arc<Bo>,
    activity: Arc<Activity>,
    min_page: u64,
    region: u16,
    private_vm: Option<u32>,
) -> Result<Arc<Named>, Errno> {
    let mut t = lock(table);
    let mut name = 1u32;
    // An entry whose object is gone but whose drop has not run yet still holds its name.
    for &taken in t.names.keys() {
        if taken != name {
            break;
        }
        name = name.checked_add(1).ok_or(Errno::ENOSPC)?;
    }
    if name > i32::MAX as u32 {
        return Err(Errno::ENOSPC);
    }
    let named = Arc::new(Named {
        name,
        bo,
        activity,
        min_page,
        region,
        private_vm,
        table: Arc::downgrade(table),
    });
    t.names.insert(name, Arc::downgrade(&named));
    Ok(named)
}

/// The object `name` names; `ENOENT` when none does (or its last handle is closing).
pub fn open(table: &Names, name: u32) -> Result<Arc<Named>, Errno> {
    let found = lock(table).names.get(&name).and_then(Weak::upgrade);
    found.ok_or(Errno::ENOENT)
}

/// The name `bo` already has, if any (an object reached another way, e.g. by PRIME import,
/// keeps its name).
pub fn name_of(table: &Names, bo: &Arc<Bo>) -> Option<Arc<Named>> {
    // Upgraded under the lock, dropped after it: dropping the last holder of an entry takes
    // the lock.
    let all: Vec<Arc<Named>> = lock(table)
        .names
        .values()
        .filter_map(Weak::upgrade)
        .collect();
    all.into_iter().find(|n| Arc::ptr_eq(&n.bo, bo))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bo() -> Arc<Bo> {
        Bo::new(4096).unwrap()
    }

    #[test]
    fn names_are_the_lowest_free_from_one_and_go_with_the_last_holder() {
        let t = Names::default();
        let a = name(&t, bo(), Arc::default(), 4096, 0, None).unwrap();
        let b = name(&t, bo(), Arc::default(), 4096, 0, None).unwrap();
        assert_eq!((a.name, b.name), (1, 2));
        let again = open(&t, 1).unwrap();
        assert!(Arc::ptr_eq(&again.bo, &a.bo));
        drop(a);
        // Still held by the handle GEM_OPEN made.
        assert!(open(&t, 1).is_ok());
        drop(again);
        assert_eq!(open(&t, 1).unwrap_err(), Errno::ENOENT);
        let c = name(&t, bo(), Arc::default(), 4096, 0, None).unwrap();
        assert_eq!(c.name, 1);
        assert_eq!(open(&t, 7).unwrap_err(), Errno::ENOENT);
        drop((b, c));
    }
}
