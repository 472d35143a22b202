//! The buffer entry points: creation, sub-buffers, queries, destructor callbacks, and the
//! buffer commands (read, write, copy, fill, map, unmap, migrate) ([`crate::core::memory`],
//! [`crate::core::transfer`]).

use std::ffi::c_void;
use std::sync::Mutex;

use opencl_sys::*;

use crate::api::enqueue::enqueue;
use crate::api::entry::{destructor_callback, entry, retain_release};
use crate::api::info;
use crate::core::handle::Handle;
use crate::core::host_ptr::HostPtr;
use crate::core::info::Info;
use crate::core::memory::{check_flags, create_buffer, Mem};
use crate::core::transfer::map::map_buffer;
use crate::core::transfer::{copy_buffer, fill_buffer, migrate, read_write_buffer, unmap, Way};

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
    /// cl_intel_create_buffer_with_properties: clCreateBufferWithProperties before OpenCL 3.0,
    /// with the extension's error for a property (none is defined): CL_INVALID_VALUE.
    fn clCreateBufferWithPropertiesINTEL(
        context: cl_context,
        properties: *const cl_mem_properties_intel,
        flags: cl_mem_flags,
        size: usize,
        host_ptr: *mut c_void,
    ) -> cl_mem, errcode_ret {
        // SAFETY: the application's properties list.
        let list = unsafe { no_properties(properties) }.map_err(|_| CL_INVALID_VALUE)?;
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
            destructors: Default::default(),
        })
        .0)
    }
}

retain_release!(clRetainMemObject, clReleaseMemObject, m: cl_mem => Mem);

destructor_callback!(clSetMemObjectDestructorCallback, memobj: cl_mem => Mem);

entry! {
    fn clGetMemObjectInfo(memobj: cl_mem, param_name: cl_mem_info) -> query {
        Handle::<Mem>::get(memobj).and_then(|m| {
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
                _ => return Err(crate::core::reason::unknown_query("memory object", param_name)),
            })
        })
    }
}

/// clEnqueueReadBuffer and clEnqueueWriteBuffer: one body, the way apart.
macro_rules! read_write_buffer_entry {
    ($name:ident, $way:expr, ptr: $ptr:ty) => {
        entry! {
            fn $name(
                queue: cl_command_queue, buffer: cl_mem, blocking: cl_bool,
                offset: usize, size: usize, ptr: $ptr,
            ) -> enqueue [n, wait, event] {
                let (at, host) = ((offset, size), HostPtr::of(ptr));
                read_write_buffer(queue, buffer, $way, at, host, blocking != CL_FALSE)
            }
        }
    };
}

read_write_buffer_entry!(clEnqueueReadBuffer, Way::Read, ptr: *mut c_void);
read_write_buffer_entry!(clEnqueueWriteBuffer, Way::Write, ptr: *const c_void);

entry! {
    fn clEnqueueCopyBuffer(
        queue: cl_command_queue, src: cl_mem, dst: cl_mem,
        src_offset: usize, dst_offset: usize, size: usize,
    ) -> enqueue [n, wait, event] {
        copy_buffer(queue, (src, src_offset), (dst, dst_offset), size)
    }
}

entry! {
    fn clEnqueueFillBuffer(
        queue: cl_command_queue, buffer: cl_mem,
        pattern: *const c_void, pattern_size: usize, offset: usize, size: usize,
    ) -> enqueue [n, wait, event] {
        // SAFETY: the application's pattern of pattern_size bytes (or NULL).
        unsafe { fill_buffer(queue, buffer, (pattern, pattern_size), offset, size) }
    }
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
        let how = (blocking != CL_FALSE, map_flags);
        let map = map_buffer(queue, buffer, how, offset, size)?;
        // SAFETY: the application's wait list and event pointer.
        map.enqueue(|c| unsafe { enqueue(c, n, wait, event) })
    }
}

entry! {
    /// Buffers and images alike.
    fn clEnqueueUnmapMemObject(
        queue: cl_command_queue,
        memobj: cl_mem,
        mapped_ptr: *mut c_void,
    ) -> enqueue [n, wait, event] {
        unmap(queue, memobj, mapped_ptr)
    }
}

entry! {
    /// Every memory object lives on its one device: migration has nothing to move.
    fn clEnqueueMigrateMemObjects(
        queue: cl_command_queue, num_mem_objects: cl_uint, mem_objects: *const cl_mem,
        flags: cl_mem_migration_flags,
    ) -> enqueue [n, wait, event] {
        // SAFETY: the application's array.
        let mems = unsafe { info::slice(mem_objects, num_mem_objects as usize) };
        migrate(queue, mems, flags)
    }
}
