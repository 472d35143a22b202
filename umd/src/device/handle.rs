//! The public [`Device`]: the device core ([`Inner`]) and the default queue of the synchronous
//! calls. It sits above the queue module (which is built on the core), so the core, buffers,
//! images and kernels never depend on queues.

use std::sync::Arc;

use batchbuffer::builder::ScratchSpace;
use kmd_iface::seam::Mapping;
use platform::Platform;

use super::{auto_node, DeviceInfo, DeviceSpec, GpuClock, Inner, KmdChoice, QueuePriority};
use crate::dispatch::DispatchReport;
use crate::error::Result;
use crate::image::{Image, ImageDesc, ImageFormat};
use crate::kernel::Kernel;
use crate::memory::Buffer;
use crate::ndrange::NdRange;
use crate::payload::ArgValue;
use crate::queue::{Event, Queue};

/// An open device. Cloning shares it.
///
/// `Send + Sync`: threads share a device and each may allocate, create queues and submit.
#[derive(Debug, Clone)]
pub struct Device {
    pub(crate) inner: Arc<Inner>,
    /// The queue of the synchronous calls ([`Device::dispatch`], [`Device::submit_raw`]).
    pub(crate) queue: Queue,
}

impl Device {
    /// Opens `spec`. `kmd` forces a uAPI; `kernel_platform` steers `auto` when no GPU is present.
    pub fn open(
        spec: &DeviceSpec,
        kmd: Option<KmdChoice>,
        kernel_platform: Option<Platform>,
    ) -> Result<Device> {
        match spec {
            DeviceSpec::Sim(p) => Self::open_sim(*p, kmd),
            DeviceSpec::SimPart { part, .. } => Self::open_sim_part(part, kmd),
            DeviceSpec::Node(path) => {
                let file = kmd_iface::render_node::RenderNode::open_shared(path)?;
                Self::open_file(path.display().to_string(), file, kmd)
            }
            DeviceSpec::Auto => match auto_node()? {
                Some(f) => Self::open_file(f.path.display().to_string(), f.file, kmd),
                None => Self::open_sim(kernel_platform.unwrap_or(Platform::Tgllp), kmd),
            },
        }
    }

    /// Opens a device through an already open device file: a render node, or a simulated one
    /// (`sim::open_device` with a configuration of the caller's). `name` is what the device is
    /// called in reports; a name starting with `sim:` marks it simulated. Faults and hangs are
    /// read from the file's sysfs directory, as on hardware.
    pub fn open_device_file(
        name: impl Into<String>,
        file: Arc<dyn kmd_iface::seam::DeviceFile>,
        kmd: Option<KmdChoice>,
    ) -> Result<Device> {
        Self::open_file(name.into(), file, kmd)
    }

    fn open_file(
        name: String,
        file: Arc<dyn kmd_iface::seam::DeviceFile>,
        want: Option<KmdChoice>,
    ) -> Result<Device> {
        let inner = Inner::open(name, file, want)?;
        let queue = Queue::new(&inner, QueuePriority::Normal)?;
        Ok(Device { inner, queue })
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.inner.info
    }

    pub fn platform(&self) -> Platform {
        self.inner.info.platform
    }

    /// Where the device sits on the PCI bus, as its kernel driver presents it in sysfs (the
    /// simulator: its sysfs tree); None where sysfs does not say. Read on each call.
    pub fn pci_address(&self) -> Option<kmd_iface::pci_address::PciAddress> {
        let dir = self.inner.backend().sysfs_dir()?;
        kmd_iface::pci_address::of_node(&dir)
    }

    /// The GPU's highest clock in MHz, as the kernel driver publishes it (i915
    /// `gt_max_freq_mhz`, xe `freq0/max_freq`: RP0 unless lowered); None where it publishes
    /// none. Read on each call.
    pub fn max_clock_mhz(&self) -> Option<u32> {
        self.inner.backend().max_freq_mhz()
    }

    /// The L3 cache's bytes from the GuC hardware-configuration table, counted as Intel's
    /// runtime counts them (`kmd_iface::hwconfig::l3_bytes`); None on parts without the table
    /// (before Xe-HPG), where only a device table knows the size.
    pub fn l3_bytes_from_hwconfig(&self) -> Option<u64> {
        kmd_iface::hwconfig::l3_bytes(&self.inner.backend().hwconfig()?)
    }

    /// Whether the kernel driver reports memory of the device's own (VRAM): a discrete GPU.
    pub fn has_local_memory(&self) -> bool {
        self.inner.backend().has_local_memory()
    }

    /// The GPU timestamp now and the host time it was read at, with its frequency: converts
    /// [`crate::queue::Event::gpu_ticks`] to host time.
    pub fn gpu_clock(&self) -> Result<GpuClock> {
        self.inner.backend().gpu_clock()
    }

    /// The short name of the engine kernels run on ("rcs" or "ccs"), the one engine every
    /// queue's kernels go to.
    pub fn kernel_engine_name(&self) -> &'static str {
        self.inner.backend().kernel_engine_name()
    }

    /// A zero-filled buffer of `size` bytes.
    pub fn create_buffer(&self, size: u64) -> Result<Buffer> {
        self.inner.create_buffer(size)
    }

    /// A buffer holding a copy of `bytes` (at least one): [`Device::create_buffer`] then
    /// [`Buffer::write`], without clearing bytes it writes over.
    pub fn create_buffer_with(&self, bytes: &[u8]) -> Result<Buffer> {
        self.inner.create_buffer_with(bytes)
    }

    /// Wraps host memory (a page-aligned mapping whose length is a multiple of the device's
    /// page granule) as a buffer the GPU accesses in place (userptr).
    pub fn create_buffer_from_host(&self, host: Mapping) -> Result<Buffer> {
        self.inner.create_buffer_from_host(host)
    }

    /// CL_MEM_USE_HOST_PTR: a buffer of `size` bytes whose storage is the host's own bytes at
    /// `host_ptr = host.as_ptr() + offset`. The whole of `host` (page aligned, as for
    /// [`Device::create_buffer_from_host`]) becomes a userptr BO and the buffer is its range
    /// at `offset`, so `host_ptr` itself may have any alignment; the block IO rules on it are
    /// checked where the buffer is used for block IO ([`Buffer::block_pointer`],
    /// [`Buffer::sub_buffer`], images from it).
    pub fn create_buffer_use_host_ptr(
        &self,
        host: Mapping,
        offset: u64,
        size: u64,
    ) -> Result<Buffer> {
        self.inner.create_buffer_use_host_ptr(host, offset, size)
    }

    /// A zero-filled `width` × `height` 2D image.
    pub fn create_image(&self, width: u32, height: u32, format: ImageFormat) -> Result<Image> {
        self.create_image_desc(&ImageDesc::d2(width, height), format)
    }

    /// A zero-filled image of any type. Rows are `PITCH_ALIGN`-byte aligned; layers and 3D
    /// slices are the height rounded up to a multiple of 4 rows apart (Surface QPitch's unit),
    /// 1D array layers one pitch apart.
    pub fn create_image_desc(&self, desc: &ImageDesc, format: ImageFormat) -> Result<Image> {
        self.inner.create_image_desc(desc, format)
    }

    /// A new queue with its own context (i915) or exec queue (xe).
    pub fn create_queue(&self) -> Result<Queue> {
        Queue::new(&self.inner, QueuePriority::Normal)
    }

    /// A new queue whose work the kernel driver schedules at `priority`.
    pub fn create_queue_with_priority(&self, priority: QueuePriority) -> Result<Queue> {
        Queue::new(&self.inner, priority)
    }

    /// A host event: dependants wait until [`Event::signal`].
    pub fn host_event(&self) -> Event {
        Event::host(self.inner.clone())
    }

    /// Runs `kernel` over `range` with `args` on the device's default queue and waits for it.
    pub fn dispatch(
        &self,
        kernel: &Kernel,
        range: &NdRange,
        args: &[ArgValue],
    ) -> Result<DispatchReport> {
        self.queue.dispatch_and_wait(kernel, range, args)
    }

    /// [`Queue::submit_raw`] on the default queue, waited for. Returns the batch's address.
    pub fn submit_raw(
        &self,
        commands: impl FnOnce(u64) -> Vec<u8>,
        fence_offset: usize,
        fence_value: u64,
    ) -> Result<u64> {
        let (event, address) = self
            .queue
            .submit_raw(commands, fence_offset, fence_value, &[])?;
        event.wait(None)?;
        Ok(address)
    }

    /// The queue [`Device::dispatch`] and [`Device::submit_raw`] use.
    pub fn default_queue(&self) -> &Queue {
        &self.queue
    }

    /// The scratch space the default queue's dispatches use now: None before the first
    /// kernel that spills.
    pub fn scratch_space(&self) -> Option<ScratchSpace> {
        self.queue.inner.lock().scratch.space()
    }
}
