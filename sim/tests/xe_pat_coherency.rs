//! xe VM_BIND's PAT coherency rule (Linux 6.12 `xe_vm.c`, `vm_bind_ioctl_validate_bo`): an
//! object created with `DRM_XE_GEM_CPU_CACHING_WB` may only be bound through a PAT index whose
//! coherency mode is not `XE_COH_NONE` (EINVAL otherwise); a write-combined object may use any
//! entry. Which entries are coherent is the kernel's `xe_pat.c` table (`kmd_iface::xe::pat`).

use crate::common;

use common::*;
use kmd_iface::flags::xe::{GemCreateFlags, VmCreateFlags};
use kmd_iface::seam::Errno;
use kmd_iface::xe::uapi::*;
use kmd_iface::xe::{bind_op, GemCreate};
use sim::Kmd;

const SIZE: u64 = 64 << 10;

#[test]
fn write_back_objects_need_a_coherent_pat_entry() {
    for p in platforms(Kmd::Xe) {
        let (_, file) = open(p, Kmd::Xe);
        let x = xe_of(file);
        let vm = x.vm_create(VmCreateFlags::empty()).unwrap();
        let table = kmd_iface::xe::pat::table(p);
        let coherent = table.iter().position(|e| e.coherent).unwrap() as u16;
        let not_coherent = table.iter().position(|e| !e.coherent).unwrap() as u16;
        // System memory (instance 0): the only placement a WB object may have.
        let create = |cpu_caching| {
            x.gem_create(&GemCreate {
                size: SIZE,
                placement: 0b01,
                flags: GemCreateFlags::empty(),
                vm_id: 0,
                cpu_caching,
            })
            .unwrap()
        };
        let mut addr = 0x10_0000;
        let mut bind = |handle, pat| {
            addr += SIZE;
            x.vm_bind(vm, 0, &[bind_op::map(handle, 0, addr, SIZE, pat)], &[])
                .map_err(|e| e.errno())
        };
        let wb = create(DRM_XE_GEM_CPU_CACHING_WB);
        let wc = create(DRM_XE_GEM_CPU_CACHING_WC);
        assert_eq!(bind(wb, not_coherent), Err(Some(Errno::EINVAL)), "{p}");
        assert_eq!(bind(wb, coherent), Ok(()), "{p}");
        assert_eq!(bind(wc, not_coherent), Ok(()), "{p}");
        assert_eq!(bind(wc, coherent), Ok(()), "{p}");
    }
}
