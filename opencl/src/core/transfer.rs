//! The commands that move memory: buffer reads, writes, copies, fills, unmaps and migrations
//! here, image commands in [`image`], rectangular buffer regions in [`rect`], maps in [`map`],
//! each made as a [`Command`] the C ABI hands to the queue. What they share lives here: the
//! queue and memory object checked against each other, the host memory of a read or write and
//! the host access it needs ([`Way`]), bytes moved between a buffer and the host or another
//! buffer, and the two forms a command runs in (on the queue's thread, or on the copy engine).

pub mod image;
pub mod map;
pub mod rect;

use std::ffi::c_void;
use std::sync::Arc;

use opencl_sys::*;

use crate::core::handle::Handle;
use crate::core::host_ptr::HostPtr;
use crate::core::image::scatter;
use crate::core::memory::{Mem, EXEC_FAILED};
use crate::core::queue::{BlitRun, BlitSubmit, Command, Queue, Work};
use crate::core::reason::why;

pub type QueueAndMem = (Arc<Handle<Queue>>, Arc<Handle<Mem>>);

/// The queue and memory object of a command, checked against each other; `fits` says whether
/// the object is of the kind the command takes (CL_INVALID_MEM_OBJECT otherwise).
fn queue_and_mem(
    queue: cl_command_queue,
    mem: cl_mem,
    fits: fn(&Mem) -> bool,
) -> Result<QueueAndMem, cl_int> {
    let q = Handle::<Queue>::get(queue)?;
    let m = Handle::<Mem>::get(mem)?;
    if !fits(&m.obj) {
        return Err(why(CL_INVALID_MEM_OBJECT, || {
            let is = if m.obj.image.is_some() {
                "an image"
            } else {
                "a buffer"
            };
            format!("{mem:p} is {is}, which this command does not take")
        }));
    }
    same_place(&q.obj, &m.obj)?;
    Ok((q, m))
}

/// A command of `q` may take `m`: the same context, and the device `m` lives on (memory
/// objects live on their context's first device; moving them is not provided).
fn same_place(q: &Queue, m: &Mem) -> Result<(), cl_int> {
    if !Arc::ptr_eq(&q.context, &m.context) {
        return Err(why(CL_INVALID_CONTEXT, || {
            "the memory object belongs to another context than the queue".into()
        }));
    }
    if !Arc::ptr_eq(&q.device, &m.device) {
        return Err(why(CL_INVALID_OPERATION, || {
            "the memory object lives on another device than the queue's".into()
        }));
    }
    Ok(())
}

/// The queue and buffer of a buffer command, checked against each other and the range.
pub fn buffer_command(
    queue: cl_command_queue,
    mem: cl_mem,
    offset: usize,
    size: usize,
) -> Result<QueueAndMem, cl_int> {
    let (q, m) = queue_and_mem(queue, mem, |m| m.image.is_none())?;
    if offset.checked_add(size).is_none_or(|end| end > m.obj.size) {
        return Err(why(CL_INVALID_VALUE, || {
            format!(
                "the region of {size} bytes at offset {offset} ends past the buffer's {} bytes",
                m.obj.size
            )
        }));
    }
    Ok((q, m))
}

/// The queue and image of an image command, checked against each other.
pub fn image_command(queue: cl_command_queue, image: cl_mem) -> Result<QueueAndMem, cl_int> {
    queue_and_mem(queue, image, |m| m.image.is_some())
}

/// Which way a read or write command moves bytes: into host memory, or out of it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Way {
    Read,
    Write,
}

impl Way {
    /// CL_INVALID_OPERATION where `m`'s host-access flags rule this way out.
    pub fn allowed(self, m: &Mem) -> Result<(), cl_int> {
        let refused = match self {
            Way::Read => CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
            Way::Write => CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
        };
        if m.flags & refused != 0 {
            return Err(CL_INVALID_OPERATION);
        }
        Ok(())
    }

    /// The command type: the read's or the write's.
    fn kind(self, read: cl_command_type, write: cl_command_type) -> cl_command_type {
        match self {
            Way::Read => read,
            Way::Write => write,
        }
    }

    /// Moves `host.len()` bytes between `m`'s buffer at `at` and `host`.
    fn buffer_bytes(self, m: &Mem, at: usize, host: &mut [u8]) -> Result<(), cl_int> {
        match self {
            Way::Read => m.buffer.read(at as u64, host),
            Way::Write => m.buffer.write(at as u64, host),
        }
        .map_err(|_| EXEC_FAILED)
    }
}

/// The host memory of a read or write of `m`: CL_INVALID_VALUE for none, CL_INVALID_OPERATION
/// where `m`'s host-access flags rule the way out.
fn host_memory(m: &Mem, way: Way, ptr: Option<HostPtr>) -> Result<HostPtr, cl_int> {
    let host = ptr.ok_or(CL_INVALID_VALUE)?;
    way.allowed(m)?;
    Ok(host)
}

/// `len` bytes of `s` at `from` into `d` at `to`, through `scratch` (`len` bytes).
fn copy_bytes(s: &Mem, from: usize, d: &Mem, to: usize, scratch: &mut [u8]) -> Result<(), cl_int> {
    Way::Read.buffer_bytes(s, from, scratch)?;
    Way::Write.buffer_bytes(d, to, scratch)
}

/// A command run on the queue's thread once its turn came.
fn on_host(
    q: &Arc<Handle<Queue>>,
    kind: cl_command_type,
    blocking: bool,
    run: impl FnOnce() -> Result<(), cl_int> + Send + 'static,
) -> Command {
    Command::new(q, kind, blocking, Work::Host(Box::new(run)))
}

/// A command for the device's copy engine (`what` names it in error reports), holding `mems`
/// until it completes.
fn on_blitter(
    q: &Arc<Handle<Queue>>,
    kind: cl_command_type,
    what: &'static str,
    mems: Vec<Arc<Handle<Mem>>>,
    submit: BlitSubmit,
) -> Command {
    Command::new(q, kind, false, Work::Blit(BlitRun { what, submit, mems }))
}

/// A copy from `s` to `d` on the device's copy engine (`how`: command type, name in error
/// reports), holding both until it completes; `submit` gets the umd queue, the two buffers and
/// the events to wait for.
fn copy_on_blitter(
    q: &Arc<Handle<Queue>>,
    (kind, what): (cl_command_type, &'static str),
    (s, d): (Arc<Handle<Mem>>, Arc<Handle<Mem>>),
    submit: impl FnOnce(
            &umd::queue::Queue,
            &umd::memory::Buffer,
            &umd::memory::Buffer,
            &[umd::queue::Event],
        ) -> Result<Option<umd::queue::Event>, umd::Error>
        + Send
        + 'static,
) -> Command {
    let (sb, db) = (s.obj.buffer.clone(), d.obj.buffer.clone());
    let submit: BlitSubmit = Box::new(move |umd, deps| submit(umd, &sb, &db, deps));
    on_blitter(q, kind, what, vec![s, d], submit)
}

/// clEnqueueReadBuffer and clEnqueueWriteBuffer: `size` bytes at `offset` of the buffer, from
/// or to the application's `ptr`.
pub fn read_write_buffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    way: Way,
    (offset, size): (usize, usize),
    ptr: Option<HostPtr>,
    blocking: bool,
) -> Result<Command, cl_int> {
    let (q, m) = buffer_command(queue, buffer, offset, size)?;
    if size == 0 {
        return Err(CL_INVALID_VALUE);
    }
    let host = host_memory(&m.obj, way, ptr)?;
    let kind = way.kind(CL_COMMAND_READ_BUFFER, CL_COMMAND_WRITE_BUFFER);
    Ok(on_host(&q, kind, blocking, move || {
        // SAFETY: the application's `size` bytes at ptr, until completion (a write only reads
        // them).
        let bytes = unsafe { host.bytes_mut(0, size) };
        way.buffer_bytes(&m.obj, offset, bytes)
    }))
}

/// clEnqueueCopyBuffer: on the copy engine where the device has one.
pub fn copy_buffer(
    queue: cl_command_queue,
    (src, src_offset): (cl_mem, usize),
    (dst, dst_offset): (cl_mem, usize),
    size: usize,
) -> Result<Command, cl_int> {
    let (q, s) = buffer_command(queue, src, src_offset, size)?;
    let (_, d) = buffer_command(queue, dst, dst_offset, size)?;
    if size == 0 {
        return Err(CL_INVALID_VALUE);
    }
    let (sa, da) = (s.obj.buffer.gpu_address(), d.obj.buffer.gpu_address());
    let same = sa == da || (sa < da + d.obj.size as u64 && da < sa + s.obj.size as u64);
    if same {
        let (a, b) = (sa + src_offset as u64, da + dst_offset as u64);
        if a < b + size as u64 && b < a + size as u64 {
            return Err(CL_MEM_COPY_OVERLAP);
        }
    }
    if q.obj.has_blitter() {
        let (so, d_o, len) = (src_offset as u64, dst_offset as u64, size as u64);
        let how = (CL_COMMAND_COPY_BUFFER, "clEnqueueCopyBuffer");
        return Ok(copy_on_blitter(
            &q,
            how,
            (s, d),
            move |umd, sb, db, deps| umd.copy_buffer(sb, so, db, d_o, len, deps),
        ));
    }
    Ok(on_host(&q, CL_COMMAND_COPY_BUFFER, false, move || {
        copy_bytes(&s.obj, src_offset, &d.obj, dst_offset, &mut vec![0u8; size])
    }))
}

/// clEnqueueFillBuffer: on the copy engine where its fill packet has the pattern's size.
///
/// # Safety
/// `pattern` NULL or `pattern_size` readable bytes.
pub unsafe fn fill_buffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    (pattern, pattern_size): (*const c_void, usize),
    offset: usize,
    size: usize,
) -> Result<Command, cl_int> {
    let (q, m) = buffer_command(queue, buffer, offset, size)?;
    if pattern.is_null()
        || !matches!(pattern_size, 1 | 2 | 4 | 8 | 16 | 32 | 64 | 128)
        || !offset.is_multiple_of(pattern_size)
        || !size.is_multiple_of(pattern_size)
    {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: the caller's pattern of pattern_size bytes.
    let pat = unsafe { std::slice::from_raw_parts(pattern as *const u8, pattern_size) };
    if q.obj.blitter_fills(pattern_size) {
        let buf = m.obj.buffer.clone();
        let (pattern, at, len) = (pat.to_vec(), offset as u64, size as u64);
        let submit: BlitSubmit =
            Box::new(move |umd, deps| umd.fill_buffer(&buf, at, len, &pattern, deps));
        let what = "clEnqueueFillBuffer";
        return Ok(on_blitter(
            &q,
            CL_COMMAND_FILL_BUFFER,
            what,
            vec![m],
            submit,
        ));
    }
    let mut bytes = repeated(pat, size);
    Ok(on_host(&q, CL_COMMAND_FILL_BUFFER, false, move || {
        Way::Write.buffer_bytes(&m.obj, offset, &mut bytes)
    }))
}

/// `size` bytes of `pattern` repeated (empty for an empty pattern), built by doubling copies
/// rather than byte by byte (OpenVINO fills its buffers at every inference).
pub fn repeated(pattern: &[u8], size: usize) -> Vec<u8> {
    let mut bytes = pattern.repeat(size.div_ceil(pattern.len().max(1)));
    bytes.truncate(size);
    bytes
}

/// clEnqueueUnmapMemObject, of a buffer or an image: a written map's copy goes back.
pub fn unmap(
    queue: cl_command_queue,
    mem: cl_mem,
    mapped_ptr: *mut c_void,
) -> Result<Command, cl_int> {
    let (q, m) = queue_and_mem(queue, mem, |_| true)?;
    let region = m
        .obj
        .maps
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&(mapped_ptr as usize))
        .ok_or(CL_INVALID_VALUE)?;
    let Some(copy) = region.copy.filter(|_| region.write) else {
        return Ok(Command::new(
            &q,
            CL_COMMAND_UNMAP_MEM_OBJECT,
            false,
            Work::Nothing,
        ));
    };
    Ok(on_host(&q, CL_COMMAND_UNMAP_MEM_OBJECT, false, move || {
        // SAFETY: the copy is alive; the application is done with it.
        let bytes = unsafe { std::slice::from_raw_parts_mut(copy.ptr(), copy.len) };
        match &region.image {
            Some(g) => scatter(&m.obj, g, bytes),
            None => Way::Write.buffer_bytes(&m.obj, region.offset, bytes),
        }
    }))
}

/// clEnqueueMigrateMemObjects: every memory object lives on its one device, so migration has
/// nothing to move; `mems` is the application's list (or why it has none).
pub fn migrate(
    queue: cl_command_queue,
    mems: Result<&[cl_mem], cl_int>,
    flags: cl_mem_migration_flags,
) -> Result<Command, cl_int> {
    let q = Handle::<Queue>::get(queue)?;
    if flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0 {
        return Err(CL_INVALID_VALUE);
    }
    let mems = mems?;
    if mems.is_empty() {
        return Err(CL_INVALID_VALUE);
    }
    for mem in mems {
        // Any memory object migrates (images too), not only buffers.
        same_place(&q.obj, &Handle::<Mem>::get(*mem)?.obj)?;
    }
    Ok(Command::new(
        &q,
        CL_COMMAND_MIGRATE_MEM_OBJECTS,
        false,
        Work::Nothing,
    ))
}
