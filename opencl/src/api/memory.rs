//! The buffer entry points: creation, sub-buffers, queries, destructor callbacks, and the
//! buffer commands (read, write, copy, fill, map, unmap, migrate) ([`crate::core::memory`]).

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use opencl_sys::*;

use crate::api::entry::entry;
use crate::api::info;
use crate::api::queue::enqueue;
use crate::core::handle::Handle;
use crate::core::host_ptr::HostPtr;
use crate::core::image::host::map_ptr;
use crate::core::image::{gather, scatter};
use crate::core::image_desc::Region;
use crate::core::info::Info;
use crate::core::memory::{check_flags, create_buffer, MapCopy, MapRegion, Mem, EXEC_FAILED};
use crate::core::queue::{BlitRun, Queue, Work};

entry! {
    fn clCreateBuffer(
        context: cl_context,
        flags: cl_mem_flags,
        size: usize,
        host_ptr: *mut c_void,
    ) -> cl_mem, errcode_ret {
        create_buffer(context, Vec::new(), flags, size, host_ptr)
    }
}

/// A `*WithProperties` list where no property is supported: NULL or an empty list, which
/// CL_MEM_PROPERTIES reports back (`[]` or `[0]`); any key is CL_INVALID_PROPERTY.
///
/// # Safety
/// When non-NULL, `properties` must point to at least one element.
pub(crate) unsafe fn no_properties(
    properties: *const cl_mem_properties,
) -> Result<Vec<cl_mem_properties>, cl_int> {
    if properties.is_null() {
        return Ok(Vec::new());
    }
    // SAFETY: the caller's promise.
    match unsafe { *properties } {
        0 => Ok(vec![0]),
        _ => Err(CL_INVALID_PROPERTY),
    }
}

entry! {
    fn clCreateBufferWithProperties(
        context: cl_context,
        properties: *const cl_mem_properties,
        flags: cl_mem_flags,
        size: usize,
        host_ptr: *mut c_void,
    ) -> cl_mem, errcode_ret {
        // SAFETY: the application's properties list.
        let list = unsafe { no_properties(properties) }?;
        create_buffer(context, list, flags, size, host_ptr)
    }
}

entry! {
    fn clCreateSubBuffer(
        buffer: cl_mem,
        flags: cl_mem_flags,
        create_type: cl_buffer_create_type,
        create_info: *const c_void,
    ) -> cl_mem, errcode_ret {
        let mut flags = flags;
        let parent = Handle::<Mem>::get(buffer)?;
        if parent.obj.parent.is_some() || parent.obj.image.is_some() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        check_flags(flags)?;
        if flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0 {
            return Err(CL_INVALID_VALUE);
        }
        let pf = parent.obj.flags;
        let access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
        if flags & access == 0 {
            flags |= pf & access;
        } else if (pf & CL_MEM_WRITE_ONLY != 0
            && flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0)
            || (pf & CL_MEM_READ_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0)
        {
            return Err(CL_INVALID_VALUE);
        }
        // A sub-buffer may narrow the host's access (to none, or to what the parent allows)
        // but not widen it (clCreateSubBuffer's CL_INVALID_VALUE cases).
        let host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
        let widens =
            |parent: cl_mem_flags, asked: cl_mem_flags| pf & parent != 0 && flags & asked != 0;
        if flags & host == 0 {
            flags |= pf & host;
        } else if widens(CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY)
            || widens(CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY)
            || widens(
                CL_MEM_HOST_NO_ACCESS,
                CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
            )
        {
            return Err(CL_INVALID_VALUE);
        }
        flags |= pf & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        if create_type != CL_BUFFER_CREATE_TYPE_REGION || create_info.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: CL_BUFFER_CREATE_TYPE_REGION points at a cl_buffer_region.
        let region = unsafe { *(create_info as *const cl_buffer_region) };
        if region.size == 0 {
            return Err(CL_INVALID_BUFFER_SIZE);
        }
        if region
            .origin
            .checked_add(region.size)
            .is_none_or(|end| end > parent.obj.size)
        {
            return Err(CL_INVALID_VALUE);
        }
        // CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits.
        let align = match parent.obj.device.obj.info(CL_DEVICE_MEM_BASE_ADDR_ALIGN) {
            Ok(Info::Uint(bits)) => bits as usize / 8,
            _ => 1,
        };
        if !region.origin.is_multiple_of(align) {
            return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        }
        let buffer = parent
            .obj
            .buffer
            .sub_buffer(region.origin as u64, region.size as u64, None)
            .map_err(|_| CL_INVALID_VALUE)?;
        let host_ptr = if parent.obj.host_ptr.is_null() {
            std::ptr::null_mut()
        } else {
            // SAFETY: inside the application's host allocation (range checked above).
            unsafe { parent.obj.host_ptr.cast::<u8>().add(region.origin).cast() }
        };
        Ok(Handle::create(Mem {
            context: parent.obj.context.clone(),
            device: parent.obj.device.clone(),
            buffer,
            flags,
            size: region.size,
            host_ptr,
            parent: Some(parent.clone()),
            offset: region.origin,
            image: None,
            properties: Vec::new(),
            maps: Mutex::default(),
            destructors: Mutex::default(),
        })
        .0)
    }
}

entry! {
    fn clRetainMemObject(m: cl_mem) -> cl_int {
        Handle::<Mem>::retain(m)
    }
}

entry! {
    fn clReleaseMemObject(m: cl_mem) -> cl_int {
        Handle::<Mem>::release(m)
    }
}

entry! {
    fn clSetMemObjectDestructorCallback(
        memobj: cl_mem,
        pfn_notify: Option<unsafe extern "C" fn(cl_mem, *mut c_void)>,
        user_data: *mut c_void,
    ) -> cl_int {
        let m = match Handle::<Mem>::get(memobj) {
            Ok(m) => m,
            Err(e) => return e,
        };
        let Some(f) = pfn_notify else {
            return CL_INVALID_VALUE;
        };
        m.obj
            .destructors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((f, user_data));
        CL_SUCCESS
    }
}

entry! {
    fn clGetMemObjectInfo(
        memobj: cl_mem,
        param_name: cl_mem_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        let r = Handle::<Mem>::get(memobj).and_then(|m| {
            let o = &m.obj;
            Ok(match param_name {
                CL_MEM_TYPE => Info::Uint(
                    o.image
                        .as_ref()
                        .map_or(CL_MEM_OBJECT_BUFFER, |i| i.object_type),
                ),
                CL_MEM_FLAGS => Info::Ulong(o.flags),
                CL_MEM_SIZE => Info::Size(o.size),
                CL_MEM_HOST_PTR => Info::Ptr(o.host_ptr),
                CL_MEM_MAP_COUNT => {
                    Info::Uint(o.maps.lock().unwrap_or_else(|e| e.into_inner()).len() as u32)
                }
                CL_MEM_REFERENCE_COUNT => Info::Uint(m.ref_count()),
                CL_MEM_CONTEXT => Info::Ptr(o.context.raw()),
                CL_MEM_ASSOCIATED_MEMOBJECT => {
                    Info::Ptr(o.parent.as_ref().map_or(std::ptr::null_mut(), |p| p.raw()))
                }
                CL_MEM_OFFSET => Info::Size(o.offset),
                CL_MEM_USES_SVM_POINTER => Info::Bool(false),
                CL_MEM_PROPERTIES => Info::Ulongs(o.properties.clone()),
                _ => return Err(CL_INVALID_VALUE),
            })
        });
        // SAFETY: the application's buffers.
        unsafe { info::answer(r, param_value_size, param_value, param_value_size_ret) }
    }
}

type QueueAndMem = (Arc<Handle<Queue>>, Arc<Handle<Mem>>);

/// The queue and buffer of a buffer command, checked against each other and the range.
pub(crate) fn command(
    queue: cl_command_queue,
    mem: cl_mem,
    offset: usize,
    size: usize,
) -> Result<QueueAndMem, cl_int> {
    let q = Handle::<Queue>::get(queue)?;
    let m = Handle::<Mem>::get(mem)?;
    if m.obj.image.is_some() {
        // Buffer commands take buffers; the image commands are not provided.
        return Err(CL_INVALID_MEM_OBJECT);
    }
    if !Arc::ptr_eq(&q.obj.context, &m.obj.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    if !Arc::ptr_eq(&q.obj.device, &m.obj.device) {
        // Buffers live on their context's first device; migration is not provided.
        return Err(CL_INVALID_OPERATION);
    }
    if offset.checked_add(size).is_none_or(|end| end > m.obj.size) {
        return Err(CL_INVALID_VALUE);
    }
    Ok((q, m))
}

entry! {
    fn clEnqueueReadBuffer(
        queue: cl_command_queue,
        buffer: cl_mem,
        blocking: cl_bool,
        offset: usize,
        size: usize,
        ptr: *mut c_void,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let (q, m) = match command(queue, buffer, offset, size) {
            Ok(x) => x,
            Err(e) => return e,
        };
        if ptr.is_null() || size == 0 {
            return CL_INVALID_VALUE;
        }
        if m.obj.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
            return CL_INVALID_OPERATION;
        }
        let dst = HostPtr(ptr as usize);
        let work = Work::Host(Box::new(move || {
            // SAFETY: the application's `size` writable bytes at ptr, until completion.
            let out = unsafe { dst.bytes_mut(0, size) };
            m.obj
                .buffer
                .read(offset as u64, out)
                .map_err(|_| EXEC_FAILED)
        }));
        // SAFETY: the application's wait list and event pointer.
        unsafe {
            enqueue(
                &q,
                CL_COMMAND_READ_BUFFER,
                n,
                wait,
                event,
                blocking != CL_FALSE,
                work,
            )
        }
        .map_or_else(|e| e, |_| CL_SUCCESS)
    }
}

entry! {
    fn clEnqueueWriteBuffer(
        queue: cl_command_queue,
        buffer: cl_mem,
        blocking: cl_bool,
        offset: usize,
        size: usize,
        ptr: *const c_void,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        let (q, m) = match command(queue, buffer, offset, size) {
            Ok(x) => x,
            Err(e) => return e,
        };
        if ptr.is_null() || size == 0 {
            return CL_INVALID_VALUE;
        }
        if m.obj.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
            return CL_INVALID_OPERATION;
        }
        let src = HostPtr(ptr as usize);
        let work = Work::Host(Box::new(move || {
            // SAFETY: the application's `size` bytes at ptr, unchanged until completion.
            let bytes = unsafe { src.bytes_mut(0, size) };
            m.obj
                .buffer
                .write(offset as u64, bytes)
                .map_err(|_| EXEC_FAILED)
        }));
        // SAFETY: the application's wait list and event pointer.
        unsafe {
            enqueue(
                &q,
                CL_COMMAND_WRITE_BUFFER,
                n,
                wait,
                event,
                blocking != CL_FALSE,
                work,
            )
        }
        .map_or_else(|e| e, |_| CL_SUCCESS)
    }
}

entry! {
    fn clEnqueueCopyBuffer(
        queue: cl_command_queue,
        src: cl_mem,
        dst: cl_mem,
        src_offset: usize,
        dst_offset: usize,
        size: usize,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        info::status(|| {
            let (q, s) = command(queue, src, src_offset, size)?;
            let (_, d) = command(queue, dst, dst_offset, size)?;
            if size == 0 {
                return Err(CL_INVALID_VALUE);
            }
            let same = s.obj.buffer.gpu_address() == d.obj.buffer.gpu_address()
                || (s.obj.buffer.gpu_address() < d.obj.buffer.gpu_address() + d.obj.size as u64
                    && d.obj.buffer.gpu_address() < s.obj.buffer.gpu_address() + s.obj.size as u64);
            if same {
                let (a, b) = (
                    s.obj.buffer.gpu_address() + src_offset as u64,
                    d.obj.buffer.gpu_address() + dst_offset as u64,
                );
                if a < b + size as u64 && b < a + size as u64 {
                    return Err(CL_MEM_COPY_OVERLAP);
                }
            }
            if q.obj.has_blitter() {
                let (sb, db) = (s.obj.buffer.clone(), d.obj.buffer.clone());
                let (so, d_o, len) = (src_offset as u64, dst_offset as u64, size as u64);
                let work = Work::Blit(BlitRun {
                    what: "clEnqueueCopyBuffer",
                    submit: Box::new(move |umd, deps| umd.copy_buffer(&sb, so, &db, d_o, len, deps)),
                    mems: vec![s, d],
                });
                // SAFETY: the application's wait list and event pointer.
                return unsafe {
                    enqueue(&q, CL_COMMAND_COPY_BUFFER, n, wait, event, false, work)
                };
            }
            let work = Work::Host(Box::new(move || {
                let mut tmp = vec![0u8; size];
                s.obj
                    .buffer
                    .read(src_offset as u64, &mut tmp)
                    .map_err(|_| EXEC_FAILED)?;
                d.obj
                    .buffer
                    .write(dst_offset as u64, &tmp)
                    .map_err(|_| EXEC_FAILED)
            }));
            // SAFETY: the application's wait list and event pointer.
            unsafe { enqueue(&q, CL_COMMAND_COPY_BUFFER, n, wait, event, false, work) }
        })
    }
}

entry! {
    fn clEnqueueFillBuffer(
        queue: cl_command_queue,
        buffer: cl_mem,
        pattern: *const c_void,
        pattern_size: usize,
        offset: usize,
        size: usize,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        info::status(|| {
            let (q, m) = command(queue, buffer, offset, size)?;
            if pattern.is_null()
                || !matches!(pattern_size, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128)
                || !offset.is_multiple_of(pattern_size)
                || !size.is_multiple_of(pattern_size)
            {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: the application's pattern of pattern_size bytes.
            let pat = unsafe { std::slice::from_raw_parts(pattern as *const u8, pattern_size) };
            // The blitter fills with the patterns its fill packet has a colour depth for.
            if q.obj.blitter_fills(pattern_size) {
                let buf = m.obj.buffer.clone();
                let (pattern, offset, len) = (pat.to_vec(), offset as u64, size as u64);
                let work = Work::Blit(BlitRun {
                    what: "clEnqueueFillBuffer",
                    submit: Box::new(move |umd, deps| {
                        umd.fill_buffer(&buf, offset, len, &pattern, deps)
                    }),
                    mems: vec![m],
                });
                // SAFETY: the application's wait list and event pointer.
                return unsafe {
                    enqueue(&q, CL_COMMAND_FILL_BUFFER, n, wait, event, false, work)
                };
            }
            let bytes: Vec<u8> = pat.iter().copied().cycle().take(size).collect();
            let work = Work::Host(Box::new(move || {
                m.obj
                    .buffer
                    .write(offset as u64, &bytes)
                    .map_err(|_| EXEC_FAILED)
            }));
            // SAFETY: the application's wait list and event pointer.
            unsafe { enqueue(&q, CL_COMMAND_FILL_BUFFER, n, wait, event, false, work) }
        })
    }
}

/// Whether a map with `map_flags` of memory with `mem_flags` writes, or the specification's
/// error (CL_INVALID_VALUE for unknown or conflicting map flags, CL_INVALID_OPERATION against
/// the host-access flags).
fn map_access(map_flags: cl_map_flags, f: cl_mem_flags) -> Result<bool, cl_int> {
    if map_flags & !(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0 {
        return Err(CL_INVALID_VALUE);
    }
    if map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
        && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0
    {
        return Err(CL_INVALID_VALUE);
    }
    if (map_flags & CL_MAP_READ != 0 && f & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0)
        || (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0
            && f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0)
    {
        return Err(CL_INVALID_OPERATION);
    }
    Ok(map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0)
}

/// clEnqueueMapImage's map of the image region `g` of `m` (queue and image checked): a host
/// copy of the region packed, filled by the command unless the map invalidates it.
///
/// # Safety
/// The application's wait list and event pointer.
pub(crate) unsafe fn map_image(
    q: &Arc<Handle<Queue>>,
    m: Arc<Handle<Mem>>,
    blocking: bool,
    map_flags: cl_map_flags,
    g: Region,
    wait: (cl_uint, *const cl_event),
    event: *mut cl_event,
) -> Result<*mut c_void, cl_int> {
    let write = map_access(map_flags, m.obj.flags)?;
    if let Some(ptr) = map_ptr(&m.obj, &g) {
        // CL_MEM_USE_HOST_PTR: the host memory is the storage; the map only orders.
        let region = MapRegion {
            copy: None,
            offset: 0,
            write,
            image: Some(g),
        };
        // SAFETY: forwarded.
        return unsafe { map_in_place(q, &m, ptr, region, blocking, wait, event) };
    }
    let copy = Arc::new(MapCopy::new(g.packed_bytes()));
    let ptr = copy.ptr() as *mut c_void;
    let work = if map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0 {
        Work::Nothing
    } else {
        let (mm, into, gg) = (m.clone(), copy.clone(), g.clone());
        Work::Host(Box::new(move || {
            let v = gather(&mm.obj, &gg)?;
            // SAFETY: the copy is alive (`into`), of the region's size, and the application
            // does not touch it before the map completes.
            unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), into.ptr(), v.len()) };
            Ok(())
        }))
    };
    m.obj.maps.lock().unwrap_or_else(|e| e.into_inner()).insert(
        ptr as usize,
        MapRegion {
            copy: Some(copy),
            offset: 0,
            write,
            image: Some(g),
        },
    );
    // SAFETY: forwarded.
    let r = unsafe {
        enqueue(
            q,
            CL_COMMAND_MAP_IMAGE,
            wait.0,
            wait.1,
            event,
            blocking,
            work,
        )
    };
    match r {
        Ok(()) => Ok(ptr),
        Err(e) => {
            m.obj
                .maps
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&(ptr as usize));
            Err(e)
        }
    }
}

/// A map whose pointer is the application's own memory (`region.copy` None): registers it and
/// enqueues the map command, which has nothing to move.
///
/// # Safety
/// The application's wait list and event pointer.
unsafe fn map_in_place(
    q: &Arc<Handle<Queue>>,
    m: &Arc<Handle<Mem>>,
    ptr: *mut c_void,
    region: MapRegion,
    blocking: bool,
    wait: (cl_uint, *const cl_event),
    event: *mut cl_event,
) -> Result<*mut c_void, cl_int> {
    let maps = || m.obj.maps.lock().unwrap_or_else(|e| e.into_inner());
    maps().insert(ptr as usize, region);
    // SAFETY: forwarded.
    let r = unsafe {
        enqueue(
            q,
            CL_COMMAND_MAP_IMAGE,
            wait.0,
            wait.1,
            event,
            blocking,
            Work::Nothing,
        )
    };
    r.map(|_| ptr).inspect_err(|_| {
        maps().remove(&(ptr as usize));
    })
}

entry! {
    fn clEnqueueMapBuffer(
        queue: cl_command_queue,
        buffer: cl_mem,
        blocking: cl_bool,
        map_flags: cl_map_flags,
        offset: usize,
        size: usize,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> *mut c_void, errcode_ret {
        let (q, m) = command(queue, buffer, offset, size)?;
        if size == 0 {
            return Err(CL_INVALID_VALUE);
        }
        let write = map_access(map_flags, m.obj.flags)?;
        let (ptr, work) = if m.obj.host_ptr.is_null() {
            // A host copy, filled by the command (not for a write-invalidate map).
            let copy = Arc::new(MapCopy::new(size));
            let ptr = copy.ptr() as *mut c_void;
            let work = if map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0 {
                Work::Nothing
            } else {
                let (mm, into) = (m.clone(), copy.clone());
                Work::Host(Box::new(move || {
                    // SAFETY: the copy is alive (`into`) and the application does not touch
                    // it before the map completes.
                    let out = unsafe { std::slice::from_raw_parts_mut(into.ptr(), size) };
                    mm.obj
                        .buffer
                        .read(offset as u64, out)
                        .map_err(|_| EXEC_FAILED)
                }))
            };
            let mut maps = m.obj.maps.lock().unwrap_or_else(|e| e.into_inner());
            maps.insert(
                ptr as usize,
                MapRegion {
                    copy: Some(copy),
                    offset,
                    write,
                    image: None,
                },
            );
            (ptr, work)
        } else {
            // CL_MEM_USE_HOST_PTR: the storage is the host memory itself.
            // SAFETY: inside the application's host allocation (range checked).
            let ptr: *mut c_void = unsafe { m.obj.host_ptr.cast::<u8>().add(offset).cast() };
            let mut maps = m.obj.maps.lock().unwrap_or_else(|e| e.into_inner());
            // A second map of the same host pointer is counted once.
            maps.insert(
                ptr as usize,
                MapRegion {
                    copy: None,
                    offset,
                    write,
                    image: None,
                },
            );
            (ptr, Work::Nothing)
        };
        // SAFETY: the application's wait list and event pointer.
        let r = unsafe {
            enqueue(
                &q,
                CL_COMMAND_MAP_BUFFER,
                n,
                wait,
                event,
                blocking != CL_FALSE,
                work,
            )
        };
        match r {
            Ok(()) => Ok(ptr),
            Err(e) => {
                m.obj
                    .maps
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&(ptr as usize));
                Err(e)
            }
        }
    }
}

entry! {
    fn clEnqueueUnmapMemObject(
        queue: cl_command_queue,
        memobj: cl_mem,
        mapped_ptr: *mut c_void,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        info::status(|| {
            // Buffers and images alike.
            let q = Handle::<Queue>::get(queue)?;
            let m = Handle::<Mem>::get(memobj)?;
            if !Arc::ptr_eq(&q.obj.context, &m.obj.context) {
                return Err(CL_INVALID_CONTEXT);
            }
            if !Arc::ptr_eq(&q.obj.device, &m.obj.device) {
                return Err(CL_INVALID_OPERATION);
            }
            let region = m
                .obj
                .maps
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&(mapped_ptr as usize))
                .ok_or(CL_INVALID_VALUE)?;
            let work = match (region.copy, region.write) {
                (Some(copy), true) => {
                    let mm = m.clone();
                    Work::Host(Box::new(move || {
                        // SAFETY: the copy is alive; the application is done with it.
                        let bytes = unsafe { std::slice::from_raw_parts(copy.ptr(), copy.len) };
                        match &region.image {
                            Some(g) => scatter(&mm.obj, g, bytes),
                            None => mm
                                .obj
                                .buffer
                                .write(region.offset as u64, bytes)
                                .map_err(|_| EXEC_FAILED),
                        }
                    }))
                }
                _ => Work::Nothing,
            };
            // SAFETY: the application's wait list and event pointer.
            unsafe { enqueue(&q, CL_COMMAND_UNMAP_MEM_OBJECT, n, wait, event, false, work) }
        })
    }
}

entry! {
    /// Every memory object lives on its one device: migration has nothing to move.
    fn clEnqueueMigrateMemObjects(
        queue: cl_command_queue,
        num_mem_objects: cl_uint,
        mem_objects: *const cl_mem,
        flags: cl_mem_migration_flags,
        n: cl_uint,
        wait: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int {
        info::status(|| {
            let q = Handle::<Queue>::get(queue)?;
            if num_mem_objects == 0
                || flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0
            {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: the application's array.
            for mem in unsafe { info::slice(mem_objects, num_mem_objects as usize) }? {
                // Any memory object migrates (images too), not only buffers.
                let m = Handle::<Mem>::get(*mem)?;
                if !Arc::ptr_eq(&q.obj.context, &m.obj.context) {
                    return Err(CL_INVALID_CONTEXT);
                }
                if !Arc::ptr_eq(&q.obj.device, &m.obj.device) {
                    // Objects live on their context's first device; moving them is not provided.
                    return Err(CL_INVALID_OPERATION);
                }
            }
            // SAFETY: the application's wait list and event pointer.
            unsafe {
                enqueue(
                    &q,
                    CL_COMMAND_MIGRATE_MEM_OBJECTS,
                    n,
                    wait,
                    event,
                    false,
                    Work::Nothing,
                )
            }
        })
    }
}
