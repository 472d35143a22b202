//! Global GEM names between two DRM files of one simulated GPU (`DRM_IOCTL_GEM_FLINK`,
//! `DRM_IOCTL_GEM_OPEN`, `drm_gem.c` in Linux 6.12), on every platform and kernel driver: a
//! name is given once per object, from 1; another file's GEM_OPEN gives a new handle of the
//! same memory and the object's size; the name lasts while any handle of the object does;
//! unknown handles and names answer ENOENT.

use crate::common;

use std::sync::Arc;

use common::*;
use kmd_iface::drm_core::uapi::*;
use kmd_iface::seam::{DeviceFile, Errno, Mapping};
use platform::Platform;
use sim::{Kmd, SimConfig, SimGpu};

/// A size every platform's memory takes (xe VRAM on DG2 wants 64 KiB pages).
const SIZE: u64 = 0x10000;

fn flink(f: &dyn DeviceFile, handle: u32) -> Result<u32, Errno> {
    let mut a = drm_gem_flink { handle, name: 0 };
    call(f, DRM_IOCTL_GEM_FLINK, &mut a).map(|_| a.name)
}

fn gem_open(f: &dyn DeviceFile, name: u32) -> Result<(u32, u64), Errno> {
    let mut a = drm_gem_open {
        name,
        handle: 0,
        size: 0,
    };
    call(f, DRM_IOCTL_GEM_OPEN, &mut a).map(|_| (a.handle, a.size))
}

fn close(f: &dyn DeviceFile, handle: u32) {
    let mut a = drm_gem_close { handle, pad: 0 };
    call(f, DRM_IOCTL_GEM_CLOSE, &mut a).unwrap();
}

/// An object made through `f`.
fn create(p: Platform, kmd: Kmd, f: &Arc<dyn DeviceFile>) -> u32 {
    match kmd {
        Kmd::I915 => i915_of(f.clone()).gem_create(SIZE).unwrap().handle,
        Kmd::Xe => xe_of(f.clone())
            .gem_create(&xe_local_bo(p, SIZE, 0))
            .unwrap(),
    }
}

fn map(p: Platform, kmd: Kmd, f: &Arc<dyn DeviceFile>, handle: u32) -> Mapping {
    match kmd {
        Kmd::I915 => i915_of(f.clone())
            .gem_mmap(handle, SIZE as usize, i915_mmap_mode(p))
            .unwrap(),
        Kmd::Xe => xe_of(f.clone()).gem_mmap(handle, SIZE as usize).unwrap(),
    }
}

#[test]
fn a_flinked_object_opens_in_another_file_of_the_same_gpu() {
    for (p, kmd) in combos() {
        let what = format!("{p:?} {kmd:?}");
        let gpu = SimGpu::new(p, kmd, SimConfig::default()).unwrap();
        let a: Arc<dyn DeviceFile> = gpu.open_file();
        let b: Arc<dyn DeviceFile> = gpu.open_file();

        assert_eq!(flink(&*a, 7), Err(Errno::ENOENT), "{what}: unknown handle");
        assert_eq!(gem_open(&*b, 1), Err(Errno::ENOENT), "{what}: no name yet");

        let h = create(p, kmd, &a);
        let name = flink(&*a, h).unwrap();
        assert_eq!(name, 1, "{what}: names start at 1");
        assert_eq!(flink(&*a, h), Ok(name), "{what}: an object keeps its name");
        // Handles are per file: the same number means nothing in the other file.
        assert_eq!(flink(&*b, h), Err(Errno::ENOENT), "{what}");

        map(p, kmd, &a, h).write(4096 + 12, b"named").unwrap();
        let (hb, size) = gem_open(&*b, name).unwrap();
        assert_eq!(size, SIZE, "{what}: GEM_OPEN reports the object's size");
        let mut seen = [0u8; 5];
        map(p, kmd, &b, hb).read(4096 + 12, &mut seen).unwrap();
        assert_eq!(
            &seen, b"named",
            "{what}: the same memory through the other file"
        );
        assert_eq!(
            flink(&*b, hb),
            Ok(name),
            "{what}: the opened handle has the name"
        );

        // A second GEM_OPEN gives another handle; the name lasts while any handle does.
        let (hb2, _) = gem_open(&*b, name).unwrap();
        assert_ne!(hb2, hb, "{what}");
        close(&*a, h);
        close(&*b, hb);
        let (ha, _) = gem_open(&*a, name).expect("b's last handle keeps the name");
        close(&*b, hb2);
        let (hb3, _) = gem_open(&*b, name).expect("a's new handle keeps the name");
        close(&*a, ha);
        // b's handle is the last one; closing it ends the name.
        close(&*b, hb3);
        assert_eq!(
            gem_open(&*a, name),
            Err(Errno::ENOENT),
            "{what}: no handle left"
        );
    }
}

#[test]
fn the_name_goes_with_the_last_handle_and_is_given_again() {
    for (p, kmd) in combos() {
        let what = format!("{p:?} {kmd:?}");
        let gpu = SimGpu::new(p, kmd, SimConfig::default()).unwrap();
        let a: Arc<dyn DeviceFile> = gpu.open_file();
        let b: Arc<dyn DeviceFile> = gpu.open_file();
        let h1 = create(p, kmd, &a);
        let h2 = create(p, kmd, &a);
        assert_eq!((flink(&*a, h1), flink(&*a, h2)), (Ok(1), Ok(2)), "{what}");
        let (hb, _) = gem_open(&*b, 1).unwrap();
        close(&*a, h1);
        close(&*b, hb);
        assert_eq!(
            gem_open(&*b, 1),
            Err(Errno::ENOENT),
            "{what}: name 1 is gone"
        );
        let h3 = create(p, kmd, &b);
        assert_eq!(flink(&*b, h3), Ok(1), "{what}: the lowest free name again");
        // Closing a file drops its handles, and with them the names only it held.
        drop(b);
        assert_eq!(gem_open(&*a, 1), Err(Errno::ENOENT), "{what}");
        assert!(gem_open(&*a, 2).is_ok(), "{what}");
    }
}
