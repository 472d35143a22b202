//! Freed buffers' BOs handed out again (as Mesa's and Intel's drivers reuse theirs): a buffer
//! made after another of about its size was freed takes its BO, and still reads as zeros (the
//! contract of `create_buffer` and images) or as the bytes it was made with; a BO a queued
//! kernel still names is not handed out. On every simulated platform and uAPI.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use batchbuffer::PacketId;
use kmd_iface::drm_core::uapi::DRM_IOCTL_GEM_CLOSE;
use kmd_iface::i915::uapi::DRM_IOCTL_I915_GEM_CREATE;
use kmd_iface::seam::{DeviceFile, Errno, Mapping};
use kmd_iface::xe::uapi::DRM_IOCTL_XE_GEM_CREATE;
use platform::Platform;
use umd::device::{Device, KmdChoice};
use umd::image::ImageFormat;

fn combos() -> Vec<(Platform, KmdChoice)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| umd::device::sim_kmds(p).into_iter().map(move |k| (p, k)))
        .collect()
}

#[test]
fn a_freed_buffers_bo_comes_back_cleared() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let a = d.create_buffer(256 << 10).unwrap();
        a.write(0, &vec![0xa5; 256 << 10]).unwrap();
        let at = a.gpu_address();
        drop(a);
        // A little smaller: the same BO, its bytes cleared.
        let b = d.create_buffer(240 << 10).unwrap();
        assert_eq!(b.gpu_address(), at, "{p:?} {k:?}: the freed BO is reused");
        assert!(b.to_vec().unwrap().iter().all(|&x| x == 0), "{p:?} {k:?}");
        b.write(0, &vec![0x5a; 240 << 10]).unwrap();
        drop(b);
        // A quarter of the size: a new BO (a kept one is taken for at most twice the size).
        let c = d.create_buffer_with(&[7u8; 64 << 10]).unwrap();
        assert_ne!(c.gpu_address(), at, "{p:?} {k:?}");
        assert!(c.to_vec().unwrap().iter().all(|&x| x == 7), "{p:?} {k:?}");
        // Made with bytes on the kept BO: those bytes.
        let e = d.create_buffer_with(&[9u8; 224 << 10]).unwrap();
        assert_eq!(e.gpu_address(), at, "{p:?} {k:?}");
        assert!(e.to_vec().unwrap().iter().all(|&x| x == 9), "{p:?} {k:?}");
        drop(e);
        // An image on the kept BO is zero-filled as every new image is.
        let img = d.create_image(256, 224, ImageFormat::Rgba8).unwrap();
        assert_eq!(img.buffer().gpu_address(), at, "{p:?} {k:?}");
        assert!(
            img.read_packed().unwrap().iter().all(|&x| x == 0),
            "{p:?} {k:?}: a new image reads as zeros"
        );
    }
}

/// A copy held behind a host event names both its buffers: dropping them does not free their
/// BOs, so a new buffer of their size gets another, and the copy, once let go, moves the
/// source's bytes (neither BO was cleared or reused under it). Platforms with a copy engine.
#[test]
fn a_bo_a_queued_copy_names_is_not_handed_out() {
    let blitter =
        |p: Platform| PacketId::XyBlockCopyBlt.exists_on(p) || PacketId::XySrcCopyBlt.exists_on(p);
    for (p, k) in combos().into_iter().filter(|&(p, _)| blitter(p)) {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        let a = d.create_buffer(256 << 10).unwrap();
        let b = d.create_buffer(256 << 10).unwrap();
        a.write(0, &[0x3c; 64]).unwrap();
        let held = [a.gpu_address(), b.gpu_address()];
        let gate = d.host_event();
        let copy = q
            .copy_buffer(&a, 0, &b, 0, 64, std::slice::from_ref(&gate))
            .unwrap()
            .expect("the copy is queued behind its host event");
        let b_view = b.sub_buffer(0, 64, None).unwrap();
        drop(a);
        drop(b);
        let c = d.create_buffer(256 << 10).unwrap();
        assert!(
            !held.contains(&c.gpu_address()),
            "{p:?} {k:?}: a BO the queued copy names was handed out"
        );
        gate.signal().unwrap();
        copy.wait(None).unwrap();
        assert_eq!(b_view.to_vec().unwrap(), [0x3c; 64], "{p:?} {k:?}");
    }
}

/// A simulated device file whose kernel driver refuses a BO (ENOMEM) while `cap` of them are
/// open: a machine short of memory.
#[derive(Debug)]
struct Capped {
    sim: Arc<dyn DeviceFile>,
    open: AtomicUsize,
    cap: AtomicUsize,
}

impl DeviceFile for Capped {
    unsafe fn ioctl(&self, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        let create = request == DRM_IOCTL_I915_GEM_CREATE || request == DRM_IOCTL_XE_GEM_CREATE;
        if create && self.open.load(Ordering::SeqCst) >= self.cap.load(Ordering::SeqCst) {
            return Err(Errno::ENOMEM);
        }
        // SAFETY: forwarded unchanged from this call's own contract.
        let r = unsafe { self.sim.ioctl(request, arg) }?;
        if create {
            self.open.fetch_add(1, Ordering::SeqCst);
        } else if request == DRM_IOCTL_GEM_CLOSE {
            self.open.fetch_sub(1, Ordering::SeqCst);
        }
        Ok(r)
    }

    fn mmap(&self, offset: u64, len: usize) -> Result<Mapping, Errno> {
        self.sim.mmap(offset, len)
    }

    unsafe fn mmap_at(&self, offset: u64, len: usize, at: *mut u8) -> Result<Mapping, Errno> {
        // SAFETY: forwarded unchanged from this call's own contract.
        unsafe { self.sim.mmap_at(offset, len, at) }
    }

    fn shared_host_memory(&self) -> kmd_iface::seam::SharedHostMemory {
        self.sim.shared_host_memory()
    }
}

/// When the kernel driver has no memory for a new BO, the BOs the device keeps are released
/// and the allocation tried again: keeping freed BOs never makes an allocation fail.
#[test]
fn kept_bos_give_way_when_the_kernel_driver_is_short_of_memory() {
    for (p, k) in combos() {
        let kmd = match k {
            KmdChoice::I915 => sim::Kmd::I915,
            KmdChoice::Xe => sim::Kmd::Xe,
        };
        let file = Arc::new(Capped {
            sim: sim::open_device(p, kmd, sim::SimConfig::default()).unwrap(),
            open: AtomicUsize::new(0),
            cap: AtomicUsize::new(usize::MAX),
        });
        let d =
            Device::open_device_file(format!("sim:{}", p.name()), file.clone(), Some(k)).unwrap();
        let a = d.create_buffer(256 << 10).unwrap();
        let at = a.gpu_address();
        drop(a);
        // Every BO the driver may have is open now, the kept one among them.
        file.cap
            .store(file.open.load(Ordering::SeqCst), Ordering::SeqCst);
        let b = d.create_buffer(4 << 20).expect("the kept BO gives way");
        assert!(b.to_vec().unwrap().iter().all(|&x| x == 0), "{p:?} {k:?}");
        // The kept BO went back to the driver: a buffer of its size is a new BO, and the
        // driver has no room for it.
        assert!(
            d.create_buffer(256 << 10).is_err(),
            "{p:?} {k:?}: {at:#x} was still kept"
        );
    }
}
