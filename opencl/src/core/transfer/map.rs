//! clEnqueueMapBuffer and clEnqueueMapImage: a map hands the application a pointer, either into
//! its own memory (CL_MEM_USE_HOST_PTR: the map only orders) or to a host copy the command
//! fills (not for a write-invalidate map); the memory object keeps the map until its unmap
//! ([`crate::core::transfer::unmap`]).

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;

use crate::core::handle::Handle;
use crate::core::image::host::{map_pitches, map_ptr};
use crate::core::image::{gather, umd_image};
use crate::core::memory::{MapCopy, MapRegion, Mem};
use crate::core::queue::{Command, Queue, Work};
use crate::core::transfer::image::region;
use crate::core::transfer::{buffer_command, image_command, Way};

/// A map registered with its memory object, its command not yet enqueued.
pub struct Map {
    command: Command,
    mem: Arc<Handle<Mem>>,
    ptr: *mut c_void,
}

impl Map {
    /// Enqueues the map's command through `enqueue`; the pointer, or (the map forgotten) the
    /// error.
    pub fn enqueue(
        self,
        enqueue: impl FnOnce(Command) -> Result<(), cl_int>,
    ) -> Result<*mut c_void, cl_int> {
        let Map { command, mem, ptr } = self;
        enqueue(command).map(|()| ptr).inspect_err(|_| {
            mem.obj
                .maps
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&(ptr as usize));
        })
    }
}

/// Whether a map with `map_flags` of memory with `mem_flags` writes, or the specification's
/// error (CL_INVALID_VALUE for unknown or conflicting map flags, CL_INVALID_OPERATION against
/// the host-access flags).
fn map_access(map_flags: cl_map_flags, m: &Mem) -> Result<bool, cl_int> {
    if map_flags & !(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0 {
        return Err(CL_INVALID_VALUE);
    }
    if map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
        && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0
    {
        return Err(CL_INVALID_VALUE);
    }
    let write = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    if map_flags & CL_MAP_READ != 0 {
        Way::Read.allowed(m)?;
    }
    if write {
        Way::Write.allowed(m)?;
    }
    Ok(write)
}

/// Registers `region` at `ptr` with `m` and makes the map's command, which runs `fill` (a
/// host copy's) unless the map invalidates the region.
fn register(
    (q, m): (&Arc<Handle<Queue>>, Arc<Handle<Mem>>),
    (kind, blocking, map_flags): (cl_command_type, bool, cl_map_flags),
    ptr: *mut c_void,
    region: MapRegion,
    fill: impl FnOnce() -> Result<(), cl_int> + Send + 'static,
) -> Map {
    let work = if region.copy.is_none() || map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0 {
        Work::Nothing
    } else {
        Work::Host(Box::new(fill))
    };
    m.obj
        .maps
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(ptr as usize, region);
    Map {
        command: Command::new(q, kind, blocking, work),
        mem: m,
        ptr,
    }
}

/// clEnqueueMapBuffer: `size` bytes at `offset`.
pub fn map_buffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    (blocking, map_flags): (bool, cl_map_flags),
    offset: usize,
    size: usize,
) -> Result<Map, cl_int> {
    let (q, m) = buffer_command(queue, buffer, offset, size)?;
    if size == 0 {
        return Err(CL_INVALID_VALUE);
    }
    let write = map_access(map_flags, &m.obj)?;
    let how = (CL_COMMAND_MAP_BUFFER, blocking, map_flags);
    if !m.obj.host_ptr.is_null() {
        // CL_MEM_USE_HOST_PTR: the storage is the host memory itself; a second map of the same
        // host pointer is counted once.
        // SAFETY: inside the application's host allocation (range checked).
        let ptr: *mut c_void = unsafe { m.obj.host_ptr.cast::<u8>().add(offset).cast() };
        let region = MapRegion {
            copy: None,
            offset,
            write,
            image: None,
        };
        return Ok(register((&q, m), how, ptr, region, || Ok(())));
    }
    let copy = Arc::new(MapCopy::new(size));
    let ptr = copy.ptr() as *mut c_void;
    let (mm, into) = (m.clone(), copy.clone());
    let fill = move || {
        // SAFETY: the copy is alive (`into`) and the application does not touch it before the
        // map completes.
        let out = unsafe { std::slice::from_raw_parts_mut(into.ptr(), size) };
        Way::Read.buffer_bytes(&mm.obj, offset, out)
    };
    let region = MapRegion {
        copy: Some(copy),
        offset,
        write,
        image: None,
    };
    Ok(register((&q, m), how, ptr, region, fill))
}

/// clEnqueueMapImage: the region at `origin` of size `size`, with the row and slice pitch of
/// the memory the pointer points into. `pitches` says which pitch pointers the application
/// gave (the row pitch's is required, the slice pitch's for arrays and 3D images).
pub fn map_image(
    queue: cl_command_queue,
    image: cl_mem,
    (blocking, map_flags): (bool, cl_map_flags),
    (origin, size): crate::core::transfer::image::Area,
    pitches: (bool, bool),
) -> Result<(Map, (usize, usize)), cl_int> {
    let (q, m) = image_command(queue, image)?;
    let im = umd_image(&m.obj)?;
    // The map flags against the host-access flags first, as NEO checks them (an NV12 image is
    // CL_MEM_HOST_NO_ACCESS: CL_INVALID_OPERATION whatever the region).
    let write = map_access(map_flags, &m.obj)?;
    let g = region(im, origin, size, 0, 0)?;
    let slices = im.ty.is_array() || im.ty == umd::image::ImageType::D3;
    if !pitches.0 || (slices && !pitches.1) {
        return Err(CL_INVALID_VALUE);
    }
    let (row, slice) = map_pitches(&m.obj).unwrap_or((g.row_pitch, g.slice_pitch));
    let pitches = (row, if slices { slice } else { 0 });
    let how = (CL_COMMAND_MAP_IMAGE, blocking, map_flags);
    if let Some(ptr) = map_ptr(&m.obj, &g) {
        // CL_MEM_USE_HOST_PTR: the host memory is the storage; the map only orders.
        let region = MapRegion {
            copy: None,
            offset: 0,
            write,
            image: Some(g),
        };
        return Ok((register((&q, m), how, ptr, region, || Ok(())), pitches));
    }
    // A host copy of the region, packed.
    let copy = Arc::new(MapCopy::new(g.packed_bytes()));
    let ptr = copy.ptr() as *mut c_void;
    let (mm, into, gg) = (m.clone(), copy.clone(), g.clone());
    let fill = move || {
        let v = gather(&mm.obj, &gg)?;
        // SAFETY: the copy is alive (`into`), of the region's size, and the application does
        // not touch it before the map completes.
        unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), into.ptr(), v.len()) };
        Ok(())
    };
    let region = MapRegion {
        copy: Some(copy),
        offset: 0,
        write,
        image: Some(g),
    };
    Ok((register((&q, m), how, ptr, region, fill), pitches))
}
