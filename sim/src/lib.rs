//! The simulated GPU behind the i915/xe uAPI: DRM core, the two kernel-driver personalities,
//! command streamer, dispatch, memory.
//! Start reading: `device.rs` (a GPU, its files, the `Personality` trait), then `cs/`, `dispatch/`.
//!
//! A functional simulator of Intel GPUs (Gen9 skl, Gen11 icllp, Gen12LP tgllp, Xe-HPG dg2)
//! behind the i915 and xe kernel uAPI.
//!
//! [`open`] returns a [`kmd_iface::seam::DeviceFile`]: the same i915 and xe code that drives a
//! real render node drives the simulator. Each personality checks ioctl arguments the way its
//! kernel driver does (unknown handles, flags, non-zero padding, misaligned or overlapping
//! addresses, bad user pointers) and never panics on any input.
//!
//! Layout:
//! - [`mem`]: buffer objects and 48-bit per-VM GPU address spaces; every GPU access goes
//!   through them, so a stray address reaches what the driver's page tables put there (a
//!   recorded GPU page fault, zeros, or i915's per-VM scratch page), never a host access.
//! - [`cs`]: the command streamer, from the engine's ring into user batches, executing MI
//!   commands and PIPE_CONTROL, recording compute state and handing walkers to a
//!   [`cs::WalkerExecutor`] (the EU interpreter plugs in there).
//! - [`gpu`]: engines, hardware contexts, the watchdog's hang reports, reset accounting.
//! - [`sync`]: fences and DRM syncobjs.
//! - the render node: `device` (a GPU and its open files: GEM, syncobj and fence tables, the
//!   `Personality` trait), `drm` (the core DRM ioctls), `i915` and `xe` (the two personalities;
//!   `open` picks one). [`device_info`]: the simulated parts.
//!
//! The GPU runs beside the CPU: EXECBUFFER2/EXEC return once the request is queued, and each
//! hardware context runs its requests in order on its own host thread ([`gpu`]); GEM_BUSY,
//! GEM_WAIT, syncobj waits (with WAIT_FOR_SUBMIT), in/out fences and user fences see requests
//! pending until they finish, and a context blocked on MI_SEMAPHORE_WAIT is released by
//! another context's batch.
//!
//! Where the simulator knowingly differs from the kernel drivers:
//! - i915 GET_RESET_STATS shows the reset count to every caller, not only CAP_SYS_ADMIN.
//! - The first GPU error bans the context (i915 does so for non-recoverable contexts, which is
//!   what compute drivers create; xe always).
//! - i915 out-fences are pollable eventfds standing in for sync_files, known by the fd number
//!   handed out (a dup of one is refused as an in-fence).
//! - xe VM_BIND runs at once, without waiting for its in-syncs; an exec's job sees the VM as
//!   it was at EXEC (binds after it are not visible to it, unbinds do not affect it).
//! - Userptr (i915 GEM_USERPTR, xe MAP_USERPTR) BOs are the host process's own pages, reached
//!   with fault-checked copies; there is no MMU notifier, so pages unmapped after pinning make
//!   the next GPU access a page fault instead of failing the next submission.
//! - i915 relocations are applied as the kernel does up to TGL-LP and refused (EINVAL) on DG2
//!   (`i915::reloc`).
//! - Not simulated, and refused with an error: timeline-fence execbuf extensions, engine load balancing; xe NULL (sparse) binds
//!   (EOPNOTSUPP), bind exec queues, parallel (width > 1) queues, fault-mode VMs.
//! - PRIME dma-bufs and syncobj fds are real files recognised by inode ([`prime`]); a dma-buf
//!   of a BO made before [`share_bo_pages`] is not mappable by the process's own `mmap`.

mod activity;
pub mod clock;
pub mod cs;
mod device;
pub mod device_info;
pub mod dispatch;
mod drm;
mod file_changes;
pub mod flink;
pub mod fuzz;
mod gem;
pub mod gpu;
pub mod gpu_error;
mod i915;
mod ioctl;
pub mod mem;
mod open;
pub mod prime;
pub mod regs;
pub mod sanitize;
pub mod sync;
pub mod sysfs;
mod user;
mod xe;

pub use device::{SimDevice, SimGpu};
pub use i915::LegacyMmap;
pub use mem::{share_bo_pages, SharedPages};
pub use open::{open, open_device, OpenError, SimConfig};
pub use user::on_behalf_of;

/// The kernel driver a simulated device file speaks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kmd {
    I915,
    Xe,
}
