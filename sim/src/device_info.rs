//! The simulated devices: one row per platform, every device fact the simulator reports.
//!
//! Sources: topology and threads per EU from Mesa's `intel_device_info.c` (skl GT2, icl GT2,
//! tgl GT2, dg2 G10 with 32 Xe-cores as the kernel's topology query reports them); the command
//! streamer timestamp frequency from Mesa (Gen9: 12 MHz) and the kernel, which on Gen11+ derives
//! it from the 19.2 MHz reference crystal; engine MMIO bases from the kernel's `intel_engine_cs.c`.
//! The PCI ids come from `kmd_iface::pci` so they live in one place.

use platform::Platform;

use crate::mem::{PageTables, Unbound};
use crate::Kmd;

mod parts;
pub use parts::{FusedPart, FUSED_PARTS};

/// An engine class the simulator models. Its uAPI number is a personality's business.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineClass {
    Render,
    Compute,
    /// The blitter (BCS).
    Copy,
}

/// One hardware engine (a command streamer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineDesc {
    pub class: EngineClass,
    pub instance: u16,
    /// Base of the engine's MMIO registers (RING_TIMESTAMP is at base + 0x358).
    pub mmio_base: u32,
    /// Short name used in error states (rcs0, ccs0).
    pub name: &'static str,
}

const RCS0: EngineDesc = EngineDesc {
    class: EngineClass::Render,
    instance: 0,
    mmio_base: kmd_iface::i915::reg::RENDER_RING_BASE,
    name: "rcs0",
};
const CCS0: EngineDesc = EngineDesc {
    class: EngineClass::Compute,
    instance: 0,
    mmio_base: 0x1a000,
    name: "ccs0",
};
/// The copy engine (`BLT_RING_BASE`), on every platform here.
const BCS0: EngineDesc = EngineDesc {
    class: EngineClass::Copy,
    instance: 0,
    mmio_base: 0x22000,
    name: "bcs0",
};

/// Slices, subslices and EUs as the kernel's topology query reports them: the largest
/// topology (the index space fused-off parts keep their numbers in) and what is enabled in it.
/// From Gen12 on the kernel's "subslice" is a dual-subslice (Xe-core on Xe-HPG).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Topology {
    pub slices: u32,
    pub subslices_per_slice: u32,
    pub eus_per_subslice: u32,
    pub threads_per_eu: u32,
    /// Enabled subslices, bit `slice * subslices_per_slice + subslice`.
    pub subslice_mask: u64,
    /// Enabled EUs, the same in every enabled subslice (i915 reads one EU fuse register for
    /// all subslices from Gen11 on; xe reports one EU mask per DSS).
    pub eu_mask: u16,
}

/// `n` low bits set.
const fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

impl Topology {
    /// A part with nothing fused off.
    pub const fn full(
        slices: u32,
        subslices_per_slice: u32,
        eus: u32,
        threads_per_eu: u32,
    ) -> Self {
        Topology {
            slices,
            subslices_per_slice,
            eus_per_subslice: eus,
            threads_per_eu,
            subslice_mask: low_bits(slices * subslices_per_slice),
            eu_mask: low_bits(eus) as u16,
        }
    }

    /// The same shape with only the `subslices` and `eus` masks enabled.
    pub const fn fused(self, subslices: u64, eus: u16) -> Self {
        Topology {
            subslice_mask: subslices,
            eu_mask: eus,
            ..self
        }
    }

    /// Enabled EUs of one enabled subslice.
    pub fn eus_per_enabled_subslice(&self) -> u32 {
        self.eu_mask.count_ones()
    }

    pub fn eu_total(&self) -> u32 {
        self.subslice_total() * self.eus_per_enabled_subslice()
    }

    pub fn subslice_total(&self) -> u32 {
        self.subslice_mask.count_ones()
    }

    /// Subslice places of the largest topology.
    pub fn max_subslices(&self) -> u32 {
        self.slices * self.subslices_per_slice
    }

    /// Enabled subslices of `slice`, bit per subslice.
    pub fn subslices_of(&self, slice: u32) -> u64 {
        let per = self.subslices_per_slice;
        (self.subslice_mask >> (slice * per).min(63)) & low_bits(per)
    }

    /// Slices with an enabled subslice.
    pub fn slice_mask(&self) -> u64 {
        (0..self.slices)
            .filter(|&s| self.subslices_of(s) != 0)
            .fold(0, |m, s| m | 1 << s)
    }

    /// Hardware threads the enabled EUs hold.
    pub fn thread_slots(&self) -> u64 {
        u64::from(self.eu_total()) * u64::from(self.threads_per_eu)
    }
}

/// Keys of the GuC hardware-configuration table (`kmd_iface::hwconfig::key`).
pub use kmd_iface::hwconfig::key as hwconfig_key;

/// Everything the simulator reports about one device.
#[derive(Debug, Clone)]
pub struct DeviceInfo {
    pub platform: Platform,
    /// The PCI device id reported (one of `kmd_iface::pci::PCI_IDS` for this platform).
    pub pci_id: u16,
    /// PCI revision id: the part's stepping. Each row's is the first one the kernel does not
    /// call pre-production (Linux 6.12 `i915_driver.c`, `intel_detect_preproduction_hw`: SKL
    /// below 0x6, ICL below 0x7, TGL below 0x1, DG2-G10 below 0x8 are), so clients apply the
    /// workarounds of retail parts: NEO limits work-groups to 64 threads on DG2-G10 A0
    /// (revision 0, `isMaxThreadsForWorkgroupWARequired`), which no sold card is.
    pub revision: u8,
    /// Graphics IP version (major, minor) as xe reports it.
    pub ip_version: (u16, u16),
    /// The GuC hardware-configuration table as (key, value) pairs; empty without a GuC table.
    pub hwconfig: &'static [(u32, u32)],
    /// i915: highest PAT index `I915_GEM_CREATE_EXT_SET_PAT` accepts.
    pub i915_max_pat_index: u32,
    /// i915: the PPGTT can mark pages read-only (I915_USERPTR_READ_ONLY). The kernel disables
    /// it on Gen11 and Gen12 (incl. Xe-HPG) for an unresolved hardware issue. It also decides
    /// what unbound addresses reach ([`DeviceInfo::i915_ppgtt`]).
    pub ppgtt_read_only: bool,
    /// An LLC or snooping keeps GPU accesses coherent with the CPU cache, which i915 needs for
    /// userptr objects (every platform here: LLC on skl/icllp/tgllp, snooping on dg2).
    pub llc_or_snoop: bool,
    /// i915 answers GEM_PREAD/GEM_PWRITE (`i915_gem.c`: refused with EOPNOTSUPP on every
    /// platform after TGL-LP, i.e. Gen12 other than Tiger Lake).
    pub i915_pread_pwrite: bool,
    /// i915 applies execbuf relocations (`eb_validate_vma`: refused with EINVAL on every
    /// platform after TGL-LP, i.e. Gen12 other than Tiger Lake).
    pub i915_relocations: bool,
    /// The kernel drivers that support this platform.
    pub kmds: &'static [Kmd],
    pub topology: Topology,
    /// Command streamer timestamp (RING_TIMESTAMP) frequency.
    pub timestamp_hz: u64,
    /// The GPU's highest frequency (RP0), in MHz: what the kernel publishes as the maximum
    /// (i915 `gt_max_freq_mhz`, xe `freq0/max_freq`; both start at RP0) and Intel's runtime
    /// reports as CL_DEVICE_MAX_CLOCK_FREQUENCY. The parts' maximum dynamic graphics
    /// frequency: HD 530 of the i7-6700K 1150, Iris Plus G7 of the i7-1065G7 1100, Iris Xe
    /// of the i7-1185G7 1350, Arc A770 2400 (its stock ceiling; the 2100 marketed is the
    /// typical "graphics clock").
    pub max_freq_mhz: u32,
    pub engines: &'static [EngineDesc],
    /// Discrete parts have device-local memory besides system memory.
    pub has_local_memory: bool,
    /// Compression through flat CCS (Linux 6.12 i915 and xe `has_flat_ccs`: DG2): a
    /// compressed surface keeps its layout in memory and its compression state lives in memory
    /// no client addresses, so every GPU access (EU surface, blitter) sees the data as written.
    /// The simulator keeps it uncompressed; on hardware only a CPU read of a compressed
    /// surface shows otherwise, and no driver reads one so. Without flat CCS, compression
    /// needs an auxiliary surface, which the simulator lacks.
    pub flat_ccs: bool,
    /// Bytes of memory each region advertises (the simulator allocates from host memory).
    pub region_size: u64,
}

const GIB: u64 = 1 << 30;

/// ACM-G10 (Arc A770): 8 slices of 4 Xe-cores with 16 vector engines each, 8 threads per
/// engine; one render and four compute command streamers; 16 MiB of L3 (Intel's "L2"), which
/// Intel's runtime counts as the bank size times the Xe-cores (22.43 `Drm::setupHardwareInfo`
/// with no bank count of its own for DG2: `L3BankSizeInKb * MaxDualSubSlicesSupported`), and
/// NEO on a real A770 reports 16 MiB so.
const DG2_G10_HWCONFIG: &[(u32, u32)] = &[
    (hwconfig_key::MAX_SLICES_SUPPORTED, 8),
    (hwconfig_key::MAX_DUAL_SUBSLICES_SUPPORTED, 32),
    (hwconfig_key::MAX_NUM_EU_PER_DSS, 16),
    (hwconfig_key::NUM_THREADS_PER_EU, 8),
    (hwconfig_key::MAX_RCS, 1),
    (hwconfig_key::MAX_CCS, 4),
    (hwconfig_key::L3_BANK_SIZE_IN_KB, 512),
];

static DEVICES: [DeviceInfo; 4] = [
    DeviceInfo {
        platform: Platform::Skl,
        pci_id: 0x1912,
        revision: 0x06,
        ip_version: (9, 0),
        hwconfig: &[],
        i915_max_pat_index: 3,
        ppgtt_read_only: true,
        llc_or_snoop: true,
        i915_pread_pwrite: true,
        i915_relocations: true,
        kmds: &[Kmd::I915],
        topology: Topology::full(1, 3, 8, 7),
        timestamp_hz: 12_000_000,
        max_freq_mhz: 1150,
        engines: &[RCS0, BCS0],
        has_local_memory: false,
        flat_ccs: false,
        region_size: 4 * GIB,
    },
    DeviceInfo {
        platform: Platform::Icllp,
        pci_id: 0x8a52,
        revision: 0x07,
        ip_version: (11, 0),
        hwconfig: &[],
        i915_max_pat_index: 3,
        ppgtt_read_only: false,
        llc_or_snoop: true,
        i915_pread_pwrite: true,
        i915_relocations: true,
        kmds: &[Kmd::I915],
        topology: Topology::full(1, 8, 8, 7),
        timestamp_hz: 19_200_000,
        max_freq_mhz: 1100,
        engines: &[RCS0, BCS0],
        has_local_memory: false,
        flat_ccs: false,
        region_size: 4 * GIB,
    },
    DeviceInfo {
        platform: Platform::Tgllp,
        pci_id: 0x9a49,
        revision: 0x01,
        ip_version: (12, 0),
        hwconfig: &[],
        i915_max_pat_index: 3,
        ppgtt_read_only: false,
        llc_or_snoop: true,
        i915_pread_pwrite: true,
        i915_relocations: true,
        kmds: &[Kmd::I915, Kmd::Xe],
        topology: Topology::full(1, 6, 16, 7),
        timestamp_hz: 19_200_000,
        max_freq_mhz: 1350,
        engines: &[RCS0, BCS0],
        has_local_memory: false,
        flat_ccs: false,
        region_size: 4 * GIB,
    },
    DeviceInfo {
        platform: Platform::Dg2,
        pci_id: 0x56a0,
        revision: 0x08,
        ip_version: (12, 55),
        hwconfig: DG2_G10_HWCONFIG,
        i915_max_pat_index: 3,
        ppgtt_read_only: false,
        llc_or_snoop: true,
        i915_pread_pwrite: false,
        i915_relocations: false,
        kmds: &[Kmd::I915, Kmd::Xe],
        topology: Topology::full(1, 32, 16, 8),
        timestamp_hz: 19_200_000,
        max_freq_mhz: 2400,
        engines: &[RCS0, CCS0, BCS0],
        has_local_memory: true,
        flat_ccs: true,
        region_size: 4 * GIB,
    },
];

impl DeviceInfo {
    /// The simulated device for `platform`.
    pub fn get(platform: Platform) -> &'static DeviceInfo {
        // DEVICES is ordered like Platform's discriminants (checked by a test).
        &DEVICES[platform as usize]
    }

    /// What an i915 PPGTT's unused PTEs and read-only PTEs do on this part (Linux 6.12
    /// `gt/gen8_ppgtt.c`). `gen8_init_scratch` points every unused PTE at a scratch page,
    /// mapped read-only exactly when the PPGTT has read-only PTEs (`pte_flags =
    /// vm->has_read_only`); such a page is never written, so it reads as the zeros it was
    /// filled with (`poison_scratch_page`, without CONFIG_DRM_I915_DEBUG_GEM), and all VMs may
    /// share it. Without read-only PTEs each VM gets its own writable page (the selftest
    /// `igt_vm_isolation` checks a write into one VM's scratch is not seen from another). The
    /// GPU drops writes through a read-only PTE without a hang: IGT `gem_userptr_blits`
    /// `readonly` and the selftest `igt_ctx_readonly` expect the backing store unchanged.
    pub fn i915_ppgtt(&self) -> PageTables {
        PageTables {
            unbound: if self.ppgtt_read_only {
                Unbound::Zero
            } else {
                Unbound::Page
            },
            drop_read_only_writes: self.ppgtt_read_only,
        }
    }

    pub fn supports(&self, kmd: Kmd) -> bool {
        self.kmds.contains(&kmd)
    }

    /// The GuC hardware-configuration table as the kernel returns it: `key, 1, value` dwords.
    pub fn hwconfig_blob(&self) -> Vec<u8> {
        self.hwconfig
            .iter()
            .flat_map(|&(k, v)| [k, 1, v])
            .flat_map(u32::to_le_bytes)
            .collect()
    }

    pub fn engine(&self, class: EngineClass, instance: u16) -> Option<&'static EngineDesc> {
        self.engines
            .iter()
            .find(|e| e.class == class && e.instance == instance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_order_matches_platform() {
        for p in Platform::ALL {
            assert_eq!(DeviceInfo::get(p).platform, p);
        }
    }

    #[test]
    fn pci_ids_are_the_platforms_own() {
        for p in Platform::ALL {
            let d = DeviceInfo::get(p);
            let id = kmd_iface::pci::platform_for(d.pci_id).expect("known PCI id");
            assert_eq!(id.platform, p);
        }
    }

    #[test]
    fn hwconfig_agrees_with_the_topology() {
        let d = DeviceInfo::get(Platform::Dg2);
        let attrs = kmd_iface::hwconfig::parse_hwconfig(&d.hwconfig_blob()).unwrap();
        let get = |k| attrs.iter().find(|a| a.key == k).map(|a| a.values.clone());
        assert_eq!(
            get(hwconfig_key::MAX_DUAL_SUBSLICES_SUPPORTED),
            Some(vec![d.topology.max_subslices()])
        );
        assert_eq!(
            get(hwconfig_key::NUM_THREADS_PER_EU),
            Some(vec![d.topology.threads_per_eu])
        );
        assert!(DeviceInfo::get(Platform::Tgllp).hwconfig_blob().is_empty());
    }

    #[test]
    fn dg2_l3_is_the_a770s_16_mib() {
        // Intel's Arc A770 has 16 MiB of L3 ("L2" in its marketing); NEO on a real A770
        // reports it as CL_DEVICE_GLOBAL_MEM_CACHE_SIZE from the table.
        let attrs =
            kmd_iface::hwconfig::parse_hwconfig(&DeviceInfo::get(Platform::Dg2).hwconfig_blob());
        assert_eq!(
            kmd_iface::hwconfig::l3_bytes(&attrs.unwrap()),
            Some(16 << 20)
        );
    }

    #[test]
    fn revisions_are_production_steppings() {
        // i915_driver.c intel_detect_preproduction_hw: SKL < 0x6, ICL < 0x7, TGL < 0x1 and
        // DG2-G10 < 0x8 are pre-production.
        let first = [0x6, 0x7, 0x1, 0x8];
        for (p, min) in Platform::ALL.iter().zip(first) {
            assert!(DeviceInfo::get(*p).revision >= min, "{p}");
        }
    }

    #[test]
    fn xe_only_from_gen12() {
        for p in Platform::ALL {
            let d = DeviceInfo::get(p);
            assert!(d.supports(Kmd::I915));
            assert_eq!(d.supports(Kmd::Xe), p >= Platform::Tgllp, "{p}");
        }
    }

    #[test]
    fn eu_counts_match_the_marketed_parts() {
        // HD 530 (skl GT2): 24 EUs; Iris Plus G7 (icl GT2): 64; Iris Xe (tgl GT2): 96;
        // Arc A770 (ACM-G10): 512.
        let eus: Vec<u32> = Platform::ALL
            .iter()
            .map(|&p| DeviceInfo::get(p).topology.eu_total())
            .collect();
        assert_eq!(eus, [24, 64, 96, 512]);
    }

    #[test]
    fn every_platform_has_a_copy_engine() {
        for p in Platform::ALL {
            let e = DeviceInfo::get(p).engine(EngineClass::Copy, 0);
            assert_eq!(e.map(|e| (e.name, e.mmio_base)), Some(("bcs0", 0x22000)));
        }
    }

    #[test]
    fn i915_scratch_is_read_only_only_before_gen11() {
        // gen8_ppgtt_create: has_read_only = !IS_GRAPHICS_VER(gt->i915, 11, 12), and
        // gen8_init_scratch maps the scratch page read-only exactly when has_read_only.
        for p in Platform::ALL {
            let gen = DeviceInfo::get(p).ip_version.0;
            let read_only = !(11..=12).contains(&gen);
            let t = DeviceInfo::get(p).i915_ppgtt();
            assert_eq!(t.drop_read_only_writes, read_only, "{p}");
            let unbound = if read_only {
                Unbound::Zero
            } else {
                Unbound::Page
            };
            assert_eq!(t.unbound, unbound, "{p}");
        }
    }

    #[test]
    fn only_dg2_has_a_compute_engine() {
        for p in Platform::ALL {
            let d = DeviceInfo::get(p);
            assert!(d.engine(EngineClass::Render, 0).is_some());
            assert_eq!(
                d.engine(EngineClass::Compute, 0).is_some(),
                p == Platform::Dg2
            );
        }
    }
}
