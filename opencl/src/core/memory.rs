//! Memory objects: buffers (flags, host pointers as CL_MEM_USE_HOST_PTR over umd's userptr
//! buffers, sub-buffers), the storage of images, and the regions the application has mapped.

use std::cell::UnsafeCell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use kmd_iface::seam::{MapBacking, Mapping};
use opencl_sys::*;

use crate::core::context::{hint, Context};
use crate::core::device::Device;
use crate::core::handle::{ClObject, Handle, Kind};
use crate::core::image_desc::{ClImage, Region};
use crate::core::reason::why;

/// How many buffers have been destroyed: a kernel's cached argument snapshot made before the
/// count changed may hold the storage of a buffer that is gone, and is made again (which also
/// lets that storage go).
static BUFFERS_DESTROYED: AtomicU64 = AtomicU64::new(0);

/// Counts a destroyed memory object.
fn buffer_destroyed() {
    BUFFERS_DESTROYED.fetch_add(1, Ordering::SeqCst);
}

/// How many memory objects have been destroyed so far.
pub fn buffers_destroyed() -> u64 {
    BUFFERS_DESTROYED.load(Ordering::SeqCst)
}

/// A live clEnqueueMapBuffer region: the host copy handed out, where it maps to, and
/// whether it is written back on unmap.
pub struct MapRegion {
    pub copy: Option<Arc<MapCopy>>,
    pub offset: usize,
    pub write: bool,
    /// The image region a map of an image covers (its copy is the region packed).
    pub image: Option<Region>,
}

/// The host copy a map hands out: the command fills it, the application reads and writes it
/// through the pointer, the unmap command writes it back; each holds it while it runs.
pub struct MapCopy {
    bytes: Box<[UnsafeCell<u8>]>,
    pub len: usize,
}

// SAFETY: the bytes are reached only through `ptr`, by one command at a time or by the
// application between a map's completion and its unmap (the specification's rule).
unsafe impl Send for MapCopy {}
// SAFETY: as above.
unsafe impl Sync for MapCopy {}

impl MapCopy {
    pub fn new(len: usize) -> MapCopy {
        MapCopy {
            bytes: (0..len).map(|_| UnsafeCell::new(0)).collect(),
            len,
        }
    }

    pub fn ptr(&self) -> *mut u8 {
        UnsafeCell::raw_get(self.bytes.as_ptr())
    }
}

pub struct Mem {
    pub context: Arc<Handle<Context>>,
    /// The device the storage lives on (the context's first).
    pub device: Arc<Handle<Device>>,
    pub buffer: umd::memory::Buffer,
    pub flags: cl_mem_flags,
    pub size: usize,
    pub host_ptr: *mut c_void,
    pub parent: Option<Arc<Handle<Mem>>>,
    pub offset: usize,
    /// The image, for an image object (None for buffers).
    pub image: Option<ClImage>,
    /// The property list given to clCreateBufferWithProperties, with its terminating 0;
    /// empty for NULL, clCreateBuffer and sub-buffers (what CL_MEM_PROPERTIES returns).
    pub properties: Vec<cl_mem_properties>,
    pub maps: Mutex<HashMap<usize, MapRegion>>,
    pub destructors: crate::core::destructors::Destructors<cl_mem>,
}

// SAFETY: `host_ptr` is the application's address, only reported back or used by umd's
// userptr buffer; destructor user data is the application's, passed back untouched.
unsafe impl Send for Mem {}
// SAFETY: as above; the mutable parts are behind mutexes.
unsafe impl Sync for Mem {}

impl ClObject for Mem {
    const KIND: Kind = Kind::Mem;
    const INVALID: cl_int = CL_INVALID_MEM_OBJECT;
    fn destroyed(&self, raw: *mut c_void) {
        buffer_destroyed();
        self.destructors.run(raw);
    }
}

/// An image object's context, device, flags, CL_MEM_SIZE and property list.
pub(crate) type ImageParts = (
    Arc<Handle<Context>>,
    Arc<Handle<Device>>,
    cl_mem_flags,
    usize,
    Vec<cl_mem_properties>,
);

impl Mem {
    /// An image object's handle; `buffer` is a 1D image buffer's buffer (its
    /// CL_MEM_ASSOCIATED_MEMOBJECT, kept alive by the image).
    pub(crate) fn new_image(
        context: Arc<Handle<Context>>,
        device: Arc<Handle<Device>>,
        flags: cl_mem_flags,
        size: usize,
        properties: Vec<cl_mem_properties>,
        image: ClImage,
        buffer: Option<Arc<Handle<Mem>>>,
    ) -> cl_mem {
        let parts = (context, device, flags, size, properties);
        Self::new_image_at(parts, image, buffer, std::ptr::null_mut())
    }

    /// [`Mem::new_image`] of a CL_MEM_USE_HOST_PTR image: `host_ptr` is its CL_MEM_HOST_PTR.
    pub(crate) fn new_image_at(
        (context, device, flags, size, properties): ImageParts,
        image: ClImage,
        buffer: Option<Arc<Handle<Mem>>>,
        host_ptr: *mut c_void,
    ) -> cl_mem {
        Handle::create(Mem {
            context,
            device,
            buffer: image.image.buffer().clone(),
            flags,
            size,
            host_ptr,
            parent: buffer,
            offset: 0,
            image: Some(image),
            properties,
            maps: Mutex::default(),
            destructors: Default::default(),
        })
        .0
    }
}

/// Application memory wrapped for userptr: page-aligned, whole pages, borrowed (the
/// application unmaps it, not the driver; umd's own USM pages are another type, which unmaps).
struct AppPages {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: the application guarantees `host_ptr` stays valid while the buffer lives
// (CL_MEM_USE_HOST_PTR's contract), and the pages around it belong to the same mappings.
unsafe impl MapBacking for AppPages {
    fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }
    fn len(&self) -> usize {
        self.len
    }
}
// SAFETY: plain addresses.
unsafe impl Send for AppPages {}
// SAFETY: plain addresses.
unsafe impl Sync for AppPages {}

const PAGE: usize = 4096;

pub(crate) fn use_host_ptr(
    dev: &umd::device::Device,
    host: *mut c_void,
    size: usize,
) -> Result<umd::memory::Buffer, cl_int> {
    let start = host as usize & !(PAGE - 1);
    let offset = host as usize - start;
    // The xe granule on discrete parts is 64 KiB; try the page first.
    let mut last = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    for granule in [PAGE, 64 << 10] {
        let len = (offset + size).next_multiple_of(granule);
        let map = Mapping::new(Arc::new(AppPages {
            ptr: start as *mut u8,
            len,
        }));
        match dev.create_buffer_use_host_ptr(map, offset as u64, size as u64) {
            Ok(b) => return Ok(b),
            Err(_) => last = CL_MEM_OBJECT_ALLOCATION_FAILURE,
        }
    }
    Err(last)
}

pub(crate) fn check_flags(flags: cl_mem_flags) -> Result<(), cl_int> {
    let known = CL_MEM_READ_WRITE
        | CL_MEM_WRITE_ONLY
        | CL_MEM_READ_ONLY
        | CL_MEM_USE_HOST_PTR
        | CL_MEM_ALLOC_HOST_PTR
        | CL_MEM_COPY_HOST_PTR
        | CL_MEM_HOST_WRITE_ONLY
        | CL_MEM_HOST_READ_ONLY
        | CL_MEM_HOST_NO_ACCESS
        | NO_ACCESS
        | UNRESTRICTED;
    let access = (flags & KERNEL_ACCESS).count_ones();
    let host = (flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
        .count_ones();
    let use_with_other = flags & CL_MEM_USE_HOST_PTR != 0
        && flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if flags & !known != 0 || access > 1 || host > 1 || use_with_other {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

/// cl_intel_planar_yuv's memory flags: CL_MEM_NO_ACCESS_INTEL (kernels neither read nor write
/// the object; one of the kernel access flags, exclusive with the others) and
/// CL_MEM_ACCESS_FLAGS_UNRESTRICTED_INTEL (objects made from it may name any access).
pub(crate) const NO_ACCESS: cl_mem_flags = CL_MEM_NO_ACCESS_INTEL as cl_mem_flags;
pub(crate) const UNRESTRICTED: cl_mem_flags =
    CL_MEM_ACCESS_FLAGS_UNRESTRICTED_INTEL as cl_mem_flags;
/// The kernel access flags, at most one of which an object has.
pub(crate) const KERNEL_ACCESS: cl_mem_flags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | NO_ACCESS;

/// `flags` with CL_MEM_READ_WRITE when they name no kernel access (the default).
pub(crate) fn default_access(flags: cl_mem_flags) -> cl_mem_flags {
    if flags & KERNEL_ACCESS == 0 {
        flags | CL_MEM_READ_WRITE
    } else {
        flags
    }
}

/// CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, which also aligns CL_MEM_FORCE_HOST_MEMORY_INTEL's
/// host_ptr and size.
pub const CACHELINE: usize = 64;

pub fn create_buffer(
    context: cl_context,
    properties: Vec<cl_mem_properties>,
    mut flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let c = Handle::<Context>::get(context)?;
    // cl_intel_mem_force_host_memory: buffers only (not sub-buffers or images).
    let force_host = flags & CL_MEM_FORCE_HOST_MEMORY_INTEL != 0;
    check_flags(flags & !CL_MEM_FORCE_HOST_MEMORY_INTEL)?;
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if wants_ptr == host_ptr.is_null() {
        return Err(why(CL_INVALID_HOST_PTR, || {
            if wants_ptr {
                "flags name CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR and host_ptr is NULL".into()
            } else {
                "host_ptr is given but flags name neither CL_MEM_USE_HOST_PTR nor CL_MEM_COPY_HOST_PTR".into()
            }
        }));
    }
    let device = c.obj.devices.first().cloned().ok_or(CL_INVALID_CONTEXT)?;
    if size == 0 || size as u64 > device.obj.max_alloc() {
        return Err(why(CL_INVALID_BUFFER_SIZE, || {
            format!(
                "size {size} is not 1 to the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE {}",
                device.obj.max_alloc()
            )
        }));
    }
    let use_host = flags & CL_MEM_USE_HOST_PTR != 0;
    if force_host && use_host {
        // The extension's errors: host_ptr and size multiples of the cache line.
        if !(host_ptr as usize).is_multiple_of(CACHELINE) {
            return Err(CL_INVALID_HOST_PTR);
        }
        if !size.is_multiple_of(CACHELINE) {
            return Err(CL_INVALID_BUFFER_SIZE);
        }
    }
    flags = default_access(flags);
    let umd = &device.obj.umd;
    let buffer = if use_host {
        // The application's own pages, wrapped in place whatever their alignment.
        let b = use_host_ptr(umd, host_ptr, size)?;
        let text = format!(
            "clCreateBuffer with host_ptr {host_ptr:p} and size {size}: the GPU uses this host \
             memory in place, without a copy"
        );
        hint(&c.obj, CL_CONTEXT_DIAGNOSTICS_LEVEL_GOOD_INTEL, &text);
        b
    } else {
        let copy = flags & CL_MEM_COPY_HOST_PTR != 0;
        // SAFETY: with CL_MEM_COPY_HOST_PTR the application passes `size` readable bytes at
        // host_ptr.
        let src = copy.then(|| unsafe { std::slice::from_raw_parts(host_ptr as *const u8, size) });
        let b = match (force_host, src) {
            // Host pages the GPU reaches in place (what a USM host allocation is).
            (true, _) => {
                let b = umd
                    .alloc_host_usm(size as u64, 0)
                    .map_err(|_| CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
                if let Some(src) = src {
                    b.write(0, src).map_err(|_| CL_OUT_OF_RESOURCES)?;
                }
                b
            }
            (false, Some(src)) => umd
                .create_buffer_with(src)
                .map_err(|_| CL_MEM_OBJECT_ALLOCATION_FAILURE)?,
            (false, None) => umd
                .create_buffer(size as u64)
                .map_err(|_| CL_MEM_OBJECT_ALLOCATION_FAILURE)?,
        };
        let text = format!(
            "clCreateBuffer allocates {size} bytes of {} memory for the buffer{}",
            if b.is_host_memory() { "host" } else { "GPU" },
            if copy {
                " and copies host_ptr's bytes into it"
            } else {
                ""
            }
        );
        hint(&c.obj, CL_CONTEXT_DIAGNOSTICS_LEVEL_GOOD_INTEL, &text);
        b
    };
    if device.obj.facts.compressible_buffers {
        let text = format!("the buffer of {size} bytes does not use compressed memory");
        hint(&c.obj, CL_CONTEXT_DIAGNOSTICS_LEVEL_NEUTRAL_INTEL, &text);
    }
    if flags & CL_MEM_READ_ONLY != 0 {
        // Under the simulator's sanitizer a kernel write to it is a finding.
        buffer.declare_read_only();
    }
    let host_ptr = if use_host {
        host_ptr
    } else {
        std::ptr::null_mut()
    };
    Ok(Handle::create(Mem {
        context: c,
        device,
        buffer,
        flags,
        size,
        host_ptr,
        parent: None,
        offset: 0,
        image: None,
        properties,
        maps: Mutex::default(),
        destructors: Default::default(),
    })
    .0)
}

pub(crate) const EXEC_FAILED: cl_int = CL_OUT_OF_RESOURCES;
