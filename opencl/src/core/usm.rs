//! cl_intel_unified_shared_memory: allocations a kernel reaches through plain pointers, the
//! table that finds the allocation any address falls in, a kernel's indirect-access settings,
//! and the commands that copy, fill, migrate and advise on them.
//!
//! Host and shared allocations are umd host allocations (`umd::usm`): host pages at an address
//! the GPU reaches unchanged, so the host reads and writes what kernels do (on these
//! integrated and simulated parts a shared allocation is a host allocation, as NEO makes it
//! there). Device allocations are BOs whose pointer is their GPU address. Every allocation
//! lives on one device's VM: a device allocation on its device, host and shared ones on the
//! context's first device (as memory objects do).

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;

use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::handle::Handle;
use crate::core::memory::EXEC_FAILED;
use crate::core::queue::{Command, Queue, Work};
pub use crate::core::usm_alloc::{Alloc, ExecInfo, Kind, Table, User, Waits};

impl Waits for Handle<Queue> {
    fn wait_idle(&self) {
        self.obj.finish();
    }
}

/// `q` as a user of the allocations its commands take.
pub fn user(q: &Arc<Handle<Queue>>) -> User {
    let q: Arc<dyn Waits> = q.clone();
    Arc::downgrade(&q)
}

/// Largest alignment an allocation may ask for (CL_INVALID_VALUE above it): the size of the
/// largest data type (long16, double16), the extension's limit. Every allocation starts on a
/// page, so each smaller alignment, and the default (this one), holds.
pub const MAX_ALIGNMENT: usize = 128;

/// The allocation properties of an allocation of `kind` (CL_MEM_ALLOC_FLAGS_INTEL only):
/// CL_INVALID_PROPERTY for an unknown name, a flag outside the three, a name given twice, both
/// placements, or a placement for a host or device allocation (the placements are hints for
/// shared ones only).
///
/// # Safety
/// `props` NULL or a 0-terminated list of name, value pairs.
pub unsafe fn alloc_flags(
    props: *const cl_mem_properties_intel,
    kind: Kind,
) -> Result<cl_bitfield, cl_int> {
    let mut flags = None;
    if props.is_null() {
        return Ok(0);
    }
    let mut i = 0;
    loop {
        // SAFETY: the application's 0-terminated list.
        let name = unsafe { *props.add(i) };
        if name == 0 {
            break;
        }
        // SAFETY: as above: a value follows each name.
        let value = unsafe { *props.add(i + 1) };
        let known = CL_MEM_ALLOC_WRITE_COMBINED_INTEL
            | CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL
            | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;
        let both =
            CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;
        let placement_ok = match kind {
            Kind::Shared => value & both != both,
            Kind::Host | Kind::Device => value & both == 0,
        };
        if name != CL_MEM_ALLOC_FLAGS_INTEL
            || flags.is_some()
            || value & !known != 0
            || !placement_ok
        {
            return Err(CL_INVALID_PROPERTY);
        }
        flags = Some(value);
        i += 2;
    }
    Ok(flags.unwrap_or(0))
}

/// clHostMemAllocINTEL, clDeviceMemAllocINTEL and clSharedMemAllocINTEL once their C arguments
/// are read: the new allocation's pointer.
pub fn alloc(
    c: &Arc<Handle<Context>>,
    kind: Kind,
    device: Option<Arc<Handle<Device>>>,
    (size, alignment, flags): (usize, cl_uint, cl_mem_alloc_flags_intel),
) -> Result<*mut c_void, cl_int> {
    if let Some(d) = &device {
        if !c.obj.has(d) {
            return Err(CL_INVALID_DEVICE);
        }
    }
    let home = match (&device, kind) {
        (Some(d), Kind::Device | Kind::Shared) => d.clone(),
        _ => c.obj.devices.first().cloned().ok_or(CL_INVALID_CONTEXT)?,
    };
    let align = alignment as usize;
    if align != 0 && (!align.is_power_of_two() || align > MAX_ALIGNMENT) {
        return Err(CL_INVALID_VALUE);
    }
    if size == 0 || size as u64 > home.obj.max_alloc() {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    let umd = &home.obj.umd;
    let buffer = match kind {
        Kind::Device => umd.alloc_device_usm(size as u64, align as u64),
        Kind::Host | Kind::Shared => umd.alloc_host_usm(size as u64, align as u64),
    }
    .map_err(|_| CL_OUT_OF_RESOURCES)?;
    if kind != Kind::Device {
        // The host writes host and shared allocations through their pointers, unseen by any
        // call: for the sanitizer's initcheck their bytes are defined from the start.
        buffer.mark_written(0, size as u64);
    }
    let a = Arc::new(Alloc::new(
        (kind, buffer, size),
        device.filter(|_| kind != Kind::Host),
        home,
        flags,
    ));
    let ptr = a.base();
    c.obj.usm.insert(a);
    Ok(ptr as *mut c_void)
}

/// clMemFreeINTEL (`blocking`: clMemBlockingFreeINTEL). NULL is no action; a pointer that is
/// not an allocation's base is CL_INVALID_VALUE. Commands already given keep the storage alive
/// until they complete (a freed host allocation's pages stay mapped until then).
pub fn free(c: &Context, ptr: *mut c_void, blocking: bool) -> Result<(), cl_int> {
    if ptr.is_null() {
        return Ok(());
    }
    let a = c.usm.remove(ptr as usize).ok_or(CL_INVALID_VALUE)?;
    if blocking {
        a.wait_unused();
    }
    Ok(())
}

/// Where a command's pointer points: into an allocation, or at the application's own memory.
enum Place {
    Usm(Arc<Alloc>, usize),
    Host(usize),
}

impl Place {
    /// `ptr` (not NULL) for `len` bytes, on `q`'s device: CL_INVALID_VALUE when the bytes leave
    /// the allocation, CL_INVALID_OPERATION when it lives on another device's VM.
    fn of(q: &Arc<Handle<Queue>>, ptr: *const c_void, len: usize) -> Result<Place, cl_int> {
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        match q.obj.context.obj.usm.find(ptr as usize) {
            Some((a, at)) => {
                if at.checked_add(len).is_none_or(|end| end > a.size) {
                    return Err(CL_INVALID_VALUE);
                }
                if !Arc::ptr_eq(&a.home, &q.obj.device) {
                    return Err(CL_INVALID_OPERATION);
                }
                a.used_by(&user(q));
                Ok(Place::Usm(a, at))
            }
            None => Ok(Place::Host(ptr as usize)),
        }
    }

    fn address(&self) -> usize {
        match self {
            Place::Usm(a, at) => a.base() + at,
            Place::Host(p) => *p,
        }
    }

    /// Reads `out.len()` bytes.
    fn read(&self, out: &mut [u8]) -> Result<(), cl_int> {
        match self {
            Place::Usm(a, at) => a.buffer.read(*at as u64, out).map_err(|_| EXEC_FAILED),
            Place::Host(p) => {
                // SAFETY: the application's memory, readable for the command's size until it
                // completes (the extension's rule for the pointers it is given).
                let src = unsafe { std::slice::from_raw_parts(*p as *const u8, out.len()) };
                out.copy_from_slice(src);
                Ok(())
            }
        }
    }

    /// Writes `bytes`.
    fn write(&self, bytes: &[u8]) -> Result<(), cl_int> {
        match self {
            Place::Usm(a, at) => a.buffer.write(*at as u64, bytes).map_err(|_| EXEC_FAILED),
            Place::Host(p) => {
                // SAFETY: as for `read`, writable.
                let dst = unsafe { std::slice::from_raw_parts_mut(*p as *mut u8, bytes.len()) };
                dst.copy_from_slice(bytes);
                Ok(())
            }
        }
    }
}

/// clEnqueueMemcpyINTEL: `size` bytes from `src` to `dst`, either an allocation or the
/// application's memory, on the queue's thread in the queue's order.
pub fn memcpy(
    q: &Arc<Handle<Queue>>,
    blocking: bool,
    dst: *mut c_void,
    src: *const c_void,
    size: usize,
) -> Result<Command, cl_int> {
    if dst.is_null() || src.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    if size == 0 {
        return Ok(Command::new(
            q,
            CL_COMMAND_MEMCPY_INTEL,
            blocking,
            Work::Nothing,
        ));
    }
    let (d, s) = (Place::of(q, dst, size)?, Place::of(q, src, size)?);
    let (da, sa) = (d.address(), s.address());
    if da < sa + size && sa < da + size {
        return Err(CL_MEM_COPY_OVERLAP);
    }
    let run = move || {
        let mut bytes = vec![0u8; size];
        s.read(&mut bytes)?;
        d.write(&bytes)
    };
    Ok(Command::new(
        q,
        CL_COMMAND_MEMCPY_INTEL,
        blocking,
        Work::Host(Box::new(run)),
    ))
}

/// clEnqueueMemFillINTEL (and clEnqueueMemsetINTEL, a one-byte pattern): `pattern` repeated
/// over `size` bytes at `dst`.
pub fn fill(
    q: &Arc<Handle<Queue>>,
    dst: *mut c_void,
    pattern: &[u8],
    size: usize,
) -> Result<Command, cl_int> {
    let n = pattern.len();
    if dst.is_null()
        || !matches!(n, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128)
        || !size.is_multiple_of(n)
        || !(dst as usize).is_multiple_of(n)
    {
        return Err(CL_INVALID_VALUE);
    }
    if size == 0 {
        return Ok(Command::new(
            q,
            CL_COMMAND_MEMFILL_INTEL,
            false,
            Work::Nothing,
        ));
    }
    let d = Place::of(q, dst, size)?;
    let bytes = crate::core::transfer::repeated(pattern, size);
    Ok(Command::new(
        q,
        CL_COMMAND_MEMFILL_INTEL,
        false,
        Work::Host(Box::new(move || d.write(&bytes))),
    ))
}

/// clEnqueueMigrateMemINTEL: every allocation lives in one place the host and the device both
/// reach, so a migration has nothing to move; it keeps its place in the queue's order.
pub fn migrate(
    q: &Arc<Handle<Queue>>,
    ptr: *const c_void,
    size: usize,
    flags: cl_mem_migration_flags,
) -> Result<Command, cl_int> {
    if flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0 {
        return Err(CL_INVALID_VALUE);
    }
    Place::of(q, ptr, size)?;
    Ok(Command::new(
        q,
        CL_COMMAND_MIGRATEMEM_INTEL,
        false,
        Work::Nothing,
    ))
}

/// clEnqueueMemAdviseINTEL: the extension defines no advice, so advice is kept in the queue's
/// order and changes nothing.
pub fn advise(q: &Arc<Handle<Queue>>, ptr: *const c_void, size: usize) -> Result<Command, cl_int> {
    Place::of(q, ptr, size)?;
    Ok(Command::new(
        q,
        CL_COMMAND_MEMADVISE_INTEL,
        false,
        Work::Nothing,
    ))
}
