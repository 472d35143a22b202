//! xe's PAT (page attribute table) per platform: what each `pat_index` of
//! `DRM_XE_VM_BIND` names, and the entry a compute driver picks for a buffer's CPU caching.
//!
//! Facts from the kernel's `drivers/gpu/drm/xe/xe_pat.c` (Linux 6.12): Gen12LP and Xe-HPG
//! (DG2) program the same four entries (`xelp_pat_table`): 0 write-back and at least 1-way
//! coherent with the CPU, 1 write-combining, 2 write-through, 3 uncached, the last three not
//! coherent. The kernel's VM_BIND checks (`xe_vm.c`) refuse a non-coherent entry for a
//! userptr range and for a BO created with `DRM_XE_GEM_CPU_CACHING_WB`. The entry for a
//! write-combined BO follows Mesa (`intel_device_info.c`: `writecombining` is entry 1 on
//! these platforms). xe does not drive Gen9 or Gen11: no table.

use platform::Platform;

/// How the GPU caches memory mapped with a PAT entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatMemType {
    WriteBack,
    WriteCombining,
    WriteThrough,
    Uncached,
}

/// One PAT entry: its memory type and whether GPU accesses are coherent with the CPU's
/// caches (`XE_COH_AT_LEAST_1WAY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PatEntry {
    pub mem: PatMemType,
    pub coherent: bool,
}

const fn entry(mem: PatMemType, coherent: bool) -> PatEntry {
    PatEntry { mem, coherent }
}

/// `xelp_pat_table`, indexed by `pat_index`.
const XELP: &[PatEntry] = &[
    entry(PatMemType::WriteBack, true),
    entry(PatMemType::WriteCombining, false),
    entry(PatMemType::WriteThrough, false),
    entry(PatMemType::Uncached, false),
];

/// The PAT table xe programs on `p`, indexed by `pat_index`; empty where xe does not run.
pub fn table(p: Platform) -> &'static [PatEntry] {
    match p {
        Platform::Tgllp | Platform::Dg2 => XELP,
        Platform::Skl | Platform::Icllp => &[],
    }
}

/// The `pat_index` for memory the CPU maps with `cpu_caching` (`DRM_XE_GEM_CPU_CACHING_WB`
/// or `_WC`; userptr ranges are CPU write-back): a coherent write-back entry for WB, the
/// write-combining one for WC. `None` when `p` has no such entry or `cpu_caching` is neither.
pub fn index_for(p: Platform, cpu_caching: u16) -> Option<u16> {
    let want = match cpu_caching {
        super::uapi::DRM_XE_GEM_CPU_CACHING_WB => entry(PatMemType::WriteBack, true),
        super::uapi::DRM_XE_GEM_CPU_CACHING_WC => entry(PatMemType::WriteCombining, false),
        _ => return None,
    };
    let i = table(p).iter().position(|e| *e == want)?;
    u16::try_from(i).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xe::uapi::{DRM_XE_GEM_CPU_CACHING_WB, DRM_XE_GEM_CPU_CACHING_WC};

    /// The kernel's table order (WB 0, WC 1, WT 2, UC 3) and its `pat.idx[XE_CACHE_WB] = 0`
    /// on Gen12LP and DG2; Mesa's write-combining entry 1.
    #[test]
    fn indexes_follow_the_kernels_table() {
        for p in [Platform::Tgllp, Platform::Dg2] {
            assert_eq!(index_for(p, DRM_XE_GEM_CPU_CACHING_WB), Some(0), "{p}");
            assert_eq!(index_for(p, DRM_XE_GEM_CPU_CACHING_WC), Some(1), "{p}");
            assert_eq!(index_for(p, 0), None, "{p}");
            assert_eq!(table(p)[3], entry(PatMemType::Uncached, false), "{p}");
            assert_eq!(table(p).iter().filter(|e| e.coherent).count(), 1, "{p}");
        }
        assert_eq!(index_for(Platform::Skl, DRM_XE_GEM_CPU_CACHING_WB), None);
    }
}
