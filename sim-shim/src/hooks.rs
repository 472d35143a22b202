//! The interposed C library functions. Each passes anything that is not the simulated node or
//! a faked path to the next definition (the C library) unchanged.
//!
//! All `unsafe` here is the FFI edge: the functions are called by C code with C's contracts
//! (valid NUL-terminated strings, buffers of the documented sizes), which they hand on.

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_ulong, c_void};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::{Arc, Once};

use kmd_iface::seam::{DeviceFile, Errno};
use nix::libc::{self, mode_t, off_t, size_t, ssize_t, DIR, FILE};
use sim::SimDevice;

use crate::config;
use crate::paths::{self, Minor, DRM_MAJOR};
use crate::real::real;
use crate::state::{self, Node};

fn set_errno(e: c_int) {
    // SAFETY: __errno_location returns this thread's errno slot, valid for the thread's life.
    unsafe { *libc::__errno_location() = e };
}

fn errno() -> c_int {
    // SAFETY: as in `set_errno`.
    unsafe { *libc::__errno_location() }
}

/// Fails a call returning an int.
fn fail(e: Errno) -> c_int {
    set_errno(e as c_int);
    -1
}

/// Where a path argument leads.
enum Target {
    /// Not faked: the C library's own call with the caller's arguments.
    Pass,
    /// A faked path, served by this host path.
    Host(CString),
    /// A simulated node (its stand-in file on the host).
    Node(CString, Minor),
}

/// The directory a relative path is resolved against, as a faked path, if it is one.
fn faked_base(dirfd: c_int) -> Option<String> {
    let shim = state::shim_if_set()?;
    let base = if dirfd == libc::AT_FDCWD {
        std::env::current_dir().ok()?
    } else {
        std::fs::read_link(format!("/proc/self/fd/{dirfd}")).ok()?
    };
    // Only the shim's own tree: a directory inside the device's sysfs tree is the real one, and
    // relative paths from it need no redirection.
    shim.tree.to_virtual(&base, None)
}

/// # Safety
/// `path` is null or a NUL-terminated string.
unsafe fn target(dirfd: c_int, path: *const c_char, follow: bool) -> Target {
    if path.is_null() {
        return Target::Pass;
    }
    // SAFETY: non-null, NUL-terminated by the caller's contract.
    let Ok(s) = unsafe { CStr::from_ptr(path) }.to_str() else {
        return Target::Pass;
    };
    let full = if s.starts_with('/') {
        s.to_owned()
    } else if s.is_empty() {
        return Target::Pass;
    } else {
        match faked_base(dirfd) {
            Some(base) => format!("{base}/{s}"),
            None => return Target::Pass,
        }
    };
    let Some(norm) = paths::normalize(&full) else {
        return Target::Pass;
    };
    if !paths::is_faked(&norm) {
        return Target::Pass;
    }
    let Some(shim) = state::shim() else {
        return Target::Pass;
    };
    if norm.starts_with("/sys/") {
        state::ensure_shown(shim);
    }
    let host = shim.tree.host(&norm);
    let Ok(host) = CString::new(host.as_os_str().as_bytes()) else {
        return Target::Pass;
    };
    match Minor::of_path(&norm, follow) {
        Some(m) => Target::Node(host, m),
        None => Target::Host(host),
    }
}

/// The stand-in file of a node, for stat calls on a node fd.
fn node_host(minor: Minor) -> Option<CString> {
    let shim = state::shim_if_set()?;
    CString::new(shim.tree.node(minor).as_os_str().as_bytes()).ok()
}

static ATFORK: Once = Once::new();

/// Opens a new DRM file of the simulated GPU through node `minor`: a fresh eventfd (pollable,
/// never readable, like a DRM node with no events) stands for it.
fn open_node(flags: c_int, minor: Minor) -> c_int {
    if flags & (libc::O_CREAT | libc::O_EXCL) == libc::O_CREAT | libc::O_EXCL {
        return fail(Errno::EEXIST);
    }
    if flags & libc::O_DIRECTORY != 0 {
        return fail(Errno::ENOTDIR);
    }
    if config::node_access_denied() {
        return fail(Errno::EACCES);
    }
    let Some(shim) = state::shim() else {
        return fail(Errno::ENODEV);
    };
    ATFORK.call_once(|| {
        // SAFETY: the three handlers are `extern "C" fn()` living for the whole process.
        unsafe {
            libc::pthread_atfork(
                Some(state::before_fork),
                Some(state::after_fork_parent),
                Some(state::after_fork_child),
            )
        };
    });
    let (dev, file) = match state::file_for_open(shim, minor) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let mut efd_flags = 0;
    if flags & libc::O_CLOEXEC != 0 {
        efd_flags |= libc::EFD_CLOEXEC;
    }
    if flags & libc::O_NONBLOCK != 0 {
        efd_flags |= libc::EFD_NONBLOCK;
    }
    let mut t = state::table();
    // SAFETY: eventfd takes two integers and returns a new fd or -1.
    let fd = unsafe { libc::eventfd(0, efd_flags) };
    if fd < 0 {
        let e = errno();
        drop(t);
        drop((dev, file));
        set_errno(e);
        return -1;
    }
    t.insert(fd, Node::Live(dev, Arc::new(file)));
    fd
}

/// # Safety
/// C's `openat` contract.
unsafe fn openat_impl(dirfd: c_int, path: *const c_char, flags: c_int, mode: mode_t) -> c_int {
    let Some(real) = real!(openat: fn(c_int, *const c_char, c_int; ...) -> c_int) else {
        return fail(Errno::ENOSYS);
    };
    // SAFETY: the caller's arguments, handed on.
    match unsafe { target(dirfd, path, flags & libc::O_NOFOLLOW == 0) } {
        Target::Pass => unsafe { real(dirfd, path, flags, mode as c_int) },
        Target::Host(h) => unsafe { real(libc::AT_FDCWD, h.as_ptr(), flags, mode as c_int) },
        Target::Node(_, minor) => open_node(flags, minor),
    }
}

#[no_mangle]
pub unsafe extern "C" fn open(path: *const c_char, flags: c_int, mode: mode_t) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { openat_impl(libc::AT_FDCWD, path, flags, mode) }
}

#[no_mangle]
pub unsafe extern "C" fn open64(path: *const c_char, flags: c_int, mode: mode_t) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { openat_impl(libc::AT_FDCWD, path, flags, mode) }
}

#[no_mangle]
pub unsafe extern "C" fn __open_2(path: *const c_char, flags: c_int) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { openat_impl(libc::AT_FDCWD, path, flags, 0) }
}

#[no_mangle]
pub unsafe extern "C" fn __open64_2(path: *const c_char, flags: c_int) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { openat_impl(libc::AT_FDCWD, path, flags, 0) }
}

#[no_mangle]
pub unsafe extern "C" fn openat(
    dirfd: c_int,
    path: *const c_char,
    flags: c_int,
    mode: mode_t,
) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { openat_impl(dirfd, path, flags, mode) }
}

#[no_mangle]
pub unsafe extern "C" fn openat64(
    dirfd: c_int,
    path: *const c_char,
    flags: c_int,
    mode: mode_t,
) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { openat_impl(dirfd, path, flags, mode) }
}

#[no_mangle]
pub unsafe extern "C" fn __openat_2(dirfd: c_int, path: *const c_char, flags: c_int) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { openat_impl(dirfd, path, flags, 0) }
}

#[no_mangle]
pub unsafe extern "C" fn __openat64_2(dirfd: c_int, path: *const c_char, flags: c_int) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { openat_impl(dirfd, path, flags, 0) }
}

#[no_mangle]
pub extern "C" fn close(fd: c_int) -> c_int {
    let Some(real) = real!(close: fn(c_int) -> c_int) else {
        return fail(Errno::ENOSYS);
    };
    if fd < 0 {
        // SAFETY: close takes any integer.
        return unsafe { real(fd) };
    }
    // The lock spans the real close so no other thread's open can reuse the number first.
    let mut t = state::table();
    let old = t.remove(fd);
    // SAFETY: close takes any integer.
    let r = unsafe { real(fd) };
    let e = errno();
    drop(t);
    // The simulated GPU shuts down (joining its threads) outside the lock.
    drop(old);
    set_errno(e);
    r
}

/// Runs a dup-like call under the table lock; a new fd for a node fd refers to the same node,
/// and a node fd it replaced (dup2/dup3 onto it) is forgotten.
fn dup_like(old: c_int, call: impl FnOnce() -> c_int) -> c_int {
    let mut t = state::table();
    let r = call();
    let e = errno();
    let mut gone = None;
    if r >= 0 && r != old {
        gone = t.remove(r);
        if let Some(n) = t.get(old) {
            t.insert(r, n);
        }
    }
    drop(t);
    drop(gone);
    set_errno(e);
    r
}

#[no_mangle]
pub extern "C" fn dup(fd: c_int) -> c_int {
    let Some(real) = real!(dup: fn(c_int) -> c_int) else {
        return fail(Errno::ENOSYS);
    };
    // SAFETY: dup takes any integer.
    dup_like(fd, || unsafe { real(fd) })
}

#[no_mangle]
pub extern "C" fn dup2(old: c_int, new: c_int) -> c_int {
    let Some(real) = real!(dup2: fn(c_int, c_int) -> c_int) else {
        return fail(Errno::ENOSYS);
    };
    // SAFETY: dup2 takes any integers.
    dup_like(old, || unsafe { real(old, new) })
}

#[no_mangle]
pub extern "C" fn dup3(old: c_int, new: c_int, flags: c_int) -> c_int {
    let Some(real) = real!(dup3: fn(c_int, c_int, c_int) -> c_int) else {
        return fail(Errno::ENOSYS);
    };
    // SAFETY: dup3 takes any integers.
    dup_like(old, || unsafe { real(old, new, flags) })
}

fn fcntl_impl(fd: c_int, cmd: c_int, arg: c_ulong, sixty_four: bool) -> c_int {
    let real = if sixty_four {
        real!(fcntl64: fn(c_int, c_int; ...) -> c_int)
    } else {
        real!(fcntl: fn(c_int, c_int; ...) -> c_int)
    };
    let Some(real) = real else {
        return fail(Errno::ENOSYS);
    };
    // SAFETY: fcntl's third argument is an integer or a pointer, passed through as the caller
    // passed it.
    let call = || unsafe { real(fd, cmd, arg) };
    if cmd == libc::F_DUPFD || cmd == libc::F_DUPFD_CLOEXEC {
        dup_like(fd, call)
    } else {
        call()
    }
}

#[no_mangle]
pub extern "C" fn fcntl(fd: c_int, cmd: c_int, arg: c_ulong) -> c_int {
    fcntl_impl(fd, cmd, arg, false)
}

#[no_mangle]
pub extern "C" fn fcntl64(fd: c_int, cmd: c_int, arg: c_ulong) -> c_int {
    fcntl_impl(fd, cmd, arg, true)
}

/// The kernel's copy of an ioctl argument: `_IOC_WRITE` args are copied in, `_IOC_READ` args
/// copied back out (also on failure, as drm_ioctl does), through fault-checked copies; `run`
/// is the ioctl on the copy.
fn node_ioctl(
    request: c_ulong,
    arg: *mut c_void,
    run: impl FnOnce(u64, &mut [u8]) -> Result<i32, Errno>,
) -> c_int {
    use nix::sys::uio::{process_vm_readv, process_vm_writev, RemoteIoVec};
    use std::io::{IoSlice, IoSliceMut};
    let req: u64 = request;
    let size = kmd_iface::ioc::arg_size(req);
    let dir = (req >> 30) & 3;
    let mut buf = vec![0u8; size];
    let remote = [RemoteIoVec {
        base: arg as usize,
        len: size,
    }];
    let me = nix::unistd::Pid::this();
    if size > 0 && dir & 1 != 0 {
        match process_vm_readv(me, &mut [IoSliceMut::new(&mut buf)], &remote) {
            Ok(n) if n == size => {}
            _ => return fail(Errno::EFAULT),
        }
    }
    let r = run(req, &mut buf);
    if size > 0 && dir & 2 != 0 {
        match process_vm_writev(me, &[IoSlice::new(&buf)], &remote) {
            Ok(n) if n == size => {}
            _ => return fail(Errno::EFAULT),
        }
    }
    match r {
        Ok(v) => v,
        Err(e) => fail(e),
    }
}

#[no_mangle]
pub unsafe extern "C" fn ioctl(fd: c_int, request: c_ulong, arg: *mut c_void) -> c_int {
    match state::node(fd) {
        Some(Node::Live(dev, file)) => {
            if request == kmd_iface::i915::uapi::DRM_IOCTL_I915_GEM_MMAP
                && dev.kmd() == sim::Kmd::I915
            {
                return node_ioctl(request, arg, |_, buf| legacy_mmap(&dev, buf));
            }
            match crate::drm_file::ioctl(&file, request, crate::drm_file::cap_sys_admin()) {
                Some(r) => r.unwrap_or_else(fail),
                // SAFETY: the application called ioctl(2) with this struct: the pointers inside
                // it are its own, valid for the call by ioctl(2)'s contract with it, exactly as
                // the kernel would receive them.
                None => node_ioctl(request, arg, |req, buf| unsafe { dev.ioctl(req, buf) }),
            }
        }
        Some(Node::Forked(_, Some(channel))) => {
            node_ioctl(request, arg, |req, buf| channel.ioctl(req, buf))
        }
        Some(Node::Forked(_, None)) => fail(Errno::EIO),
        None => {
            let Some(real) = real!(ioctl: fn(c_int, c_ulong; ...) -> c_int) else {
                return fail(Errno::ENOSYS);
            };
            // SAFETY: the caller's arguments, handed on.
            unsafe { real(fd, request, arg) }
        }
    }
}

/// DRM_IOCTL_I915_GEM_MMAP: the simulator checks the request and names the pages
/// (`sim::LegacyMmap`); they are mapped here, shared and read-write as i915's `vm_mmap`
/// maps them, and the address is returned in `addr_ptr`.
fn legacy_mmap(dev: &SimDevice, buf: &mut [u8]) -> Result<i32, Errno> {
    use kmd_iface::i915::uapi::drm_i915_gem_mmap;
    use zerocopy::FromBytes;
    let a = drm_i915_gem_mmap::mut_from_bytes(buf).map_err(|_| Errno::EINVAL)?;
    let m = dev.i915_gem_mmap(a)?;
    if m.offset + m.len > m.pages.len() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: `m.pages` keeps the object's MAP_SHARED pages alive for the call, and
    // `offset + len` lies inside them (checked above).
    let p = unsafe {
        duplicate(
            m.pages.as_ptr().add(m.offset).cast(),
            std::ptr::null_mut(),
            m.len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(Errno::from_raw(errno()));
    }
    a.addr_ptr = p as u64;
    Ok(0)
}

/// mmap's failure: errno set, MAP_FAILED returned.
fn map_failed(e: Errno) -> *mut c_void {
    set_errno(e as c_int);
    libc::MAP_FAILED
}

/// Maps a BO into the process: a second mapping of the simulator's own (shared) pages, made by
/// `mremap` with an old size of 0, so CPU and GPU see the same memory.
fn node_mmap(
    dev: &Arc<SimDevice>,
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    offset: off_t,
) -> *mut c_void {
    let Ok(offset) = u64::try_from(offset) else {
        return map_failed(Errno::EINVAL);
    };
    let mapping = match dev.mmap(offset, len) {
        Ok(m) => m,
        Err(e) => return map_failed(e),
    };
    // SAFETY: `mapping` keeps at least `len` bytes of MAP_SHARED pages alive for the call.
    unsafe { duplicate(mapping.as_ptr().cast(), addr, len, prot, flags) }
}

/// A forked child's `mmap` of its parent's BO (see `fork`): a second mapping of the pages this
/// process inherited, or a mapping of the BO's memfd.
fn forked_mmap(
    channel: &crate::fork::Channel,
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    offset: off_t,
) -> *mut c_void {
    use crate::fork::Pages;
    let Ok(offset) = u64::try_from(offset) else {
        return map_failed(Errno::EINVAL);
    };
    match channel.mmap(offset, len) {
        Err(e) => map_failed(e),
        // SAFETY: the parent answered that its BO's pages, at least `len` bytes, are mapped
        // shared at `src` in this process too (an inherited mapping this process leaked
        // rather than unmapped at the fork).
        Ok(Pages::Inherited(src)) => unsafe {
            duplicate(src as *mut c_void, addr, len, prot, flags)
        },
        Ok(Pages::Fd(fd)) => {
            let Some(real) =
                real!(mmap: fn(*mut c_void, size_t, c_int, c_int, c_int, off_t) -> *mut c_void)
            else {
                return map_failed(Errno::ENOSYS);
            };
            // SAFETY: the caller's address, length, protection and flags, on the BO's memfd
            // (which the parent sized to the BO) from its start.
            let p = unsafe { real(addr, len, prot, flags, fd, 0) };
            let e = errno();
            if let Some(close) = real!(close: fn(c_int) -> c_int) {
                // SAFETY: the memfd came to us with the answer; the mapping keeps the pages.
                unsafe { close(fd) };
            }
            set_errno(e);
            p
        }
    }
}

/// Maps the `len` shared bytes at `src` a second time, as `mmap` with `addr`, `prot` and
/// `flags` would place them: `mremap` with an old size of 0 duplicates a shared mapping.
///
/// # Safety
/// `src` starts at least `len` bytes of a live MAP_SHARED mapping.
unsafe fn duplicate(
    src: *mut c_void,
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
) -> *mut c_void {
    let mut how = libc::MREMAP_MAYMOVE;
    if flags & libc::MAP_FIXED != 0 {
        how |= libc::MREMAP_FIXED;
    }
    // SAFETY: the source is a live MAP_SHARED mapping of at least `len` bytes (the caller's
    // contract); an old size of 0 duplicates it rather than moving it. With MAP_FIXED the
    // caller asked for `addr` to be replaced, as mmap would.
    let p = unsafe { libc::mremap(src, 0, len, how, addr) };
    if p == libc::MAP_FAILED {
        return p;
    }
    if prot != libc::PROT_READ | libc::PROT_WRITE {
        // SAFETY: `p` is the mapping just made, `len` bytes long.
        if unsafe { libc::mprotect(p, len, prot) } != 0 {
            let e = errno();
            // SAFETY: as above; the mapping is ours to undo.
            unsafe { libc::munmap(p, len) };
            set_errno(e);
            return libc::MAP_FAILED;
        }
    }
    p
}

fn mmap_impl(
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    offset: off_t,
) -> *mut c_void {
    match state::node(fd).filter(|_| flags & libc::MAP_ANONYMOUS == 0) {
        Some(Node::Live(dev, _)) => node_mmap(&dev, addr, len, prot, flags, offset),
        Some(Node::Forked(_, Some(channel))) => {
            forked_mmap(&channel, addr, len, prot, flags, offset)
        }
        Some(Node::Forked(_, None)) => {
            set_errno(libc::EIO);
            libc::MAP_FAILED
        }
        None => {
            if flags & libc::MAP_ANONYMOUS == 0 {
                if let Some(m) = dma_buf_mmap(addr, len, prot, flags, fd, offset) {
                    return m;
                }
            }
            let Some(real) =
                real!(mmap: fn(*mut c_void, size_t, c_int, c_int, c_int, off_t) -> *mut c_void)
            else {
                set_errno(libc::ENOSYS);
                return libc::MAP_FAILED;
            };
            // SAFETY: the caller's arguments, handed on.
            unsafe { real(addr, len, prot, flags, fd, offset) }
        }
    }
}

fn lseek_impl(fd: c_int, offset: i64, whence: c_int, sixty_four: bool) -> i64 {
    match sim::prime::dma_buf_seek(fd, offset, whence) {
        Some(Ok(pos)) => i64::try_from(pos).unwrap_or(i64::MAX),
        Some(Err(e)) => i64::from(fail(e)),
        None => {
            let real = if sixty_four {
                real!(lseek64: fn(c_int, i64, c_int) -> i64)
            } else {
                real!(lseek: fn(c_int, i64, c_int) -> i64)
            };
            match real {
                // SAFETY: the caller's arguments, handed on.
                Some(real) => unsafe { real(fd, offset, whence) },
                None => i64::from(fail(Errno::ENOSYS)),
            }
        }
    }
}

/// `lseek` of a simulated dma-buf whose file the C library cannot seek (see `sim::prime`).
#[no_mangle]
pub extern "C" fn lseek(fd: c_int, offset: off_t, whence: c_int) -> off_t {
    lseek_impl(fd, offset, whence, false)
}

#[no_mangle]
pub extern "C" fn lseek64(fd: c_int, offset: i64, whence: c_int) -> i64 {
    lseek_impl(fd, offset, whence, true)
}

/// A `mmap` of a simulated dma-buf whose file the C library cannot map (see `sim::prime`): a
/// second mapping of the BO's pages. `None` for any other fd.
fn dma_buf_mmap(
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    offset: off_t,
) -> Option<*mut c_void> {
    let off = u64::try_from(offset).ok()?;
    let write = prot & libc::PROT_WRITE != 0 && flags & libc::MAP_SHARED != 0;
    Some(match sim::prime::dma_buf_mapping(fd, off, len, write)? {
        Err(e) => map_failed(e),
        Ok(m) if off % 4096 != 0 => {
            drop(m);
            map_failed(Errno::EINVAL)
        }
        // SAFETY: `m` keeps the BO's MAP_SHARED pages alive for the call, and
        // dma_buf_mapping checked that `off + len` is within them.
        Ok(m) => unsafe { duplicate(m.as_ptr().add(off as usize).cast(), addr, len, prot, flags) },
    })
}

#[no_mangle]
pub extern "C" fn mmap(
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    offset: off_t,
) -> *mut c_void {
    mmap_impl(addr, len, prot, flags, fd, offset)
}

#[no_mangle]
pub extern "C" fn mmap64(
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    offset: off_t,
) -> *mut c_void {
    mmap_impl(addr, len, prot, flags, fd, offset)
}

/// Makes a stat of a stand-in file read as its node's character device.
macro_rules! as_node {
    ($buf:expr, $minor:expr) => {{
        // SAFETY: `$buf` is the caller's stat buffer, just filled by a successful stat.
        let b = unsafe { &mut *$buf };
        b.st_mode = libc::S_IFCHR | 0o666;
        b.st_rdev = libc::makedev(DRM_MAJOR, $minor.number());
        b.st_size = 0;
        b.st_blocks = 0;
    }};
}

/// Defines the path stats (`stat`, `lstat` and their 64-bit names) over `fstatat`.
macro_rules! path_stat {
    ($name:ident, $ty:ty, $at:ident, $follow:expr) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name(path: *const c_char, buf: *mut $ty) -> c_int {
            let flags = if $follow {
                0
            } else {
                libc::AT_SYMLINK_NOFOLLOW
            };
            // SAFETY: C's contract, handed on.
            unsafe { $at(libc::AT_FDCWD, path, buf, flags) }
        }
    };
}

/// Defines `fstatat`-like functions and `fstat`-like ones for one stat struct.
macro_rules! stat_family {
    ($at:ident, $fstat:ident, $ty:ty) => {
        #[no_mangle]
        pub unsafe extern "C" fn $at(
            dirfd: c_int,
            path: *const c_char,
            buf: *mut $ty,
            flags: c_int,
        ) -> c_int {
            let Some(real) = real!($at: fn(c_int, *const c_char, *mut $ty, c_int) -> c_int) else {
                return fail(Errno::ENOSYS);
            };
            // SAFETY: a non-null path is NUL-terminated by C's contract.
            let empty = !path.is_null() && unsafe { *path } == 0;
            if empty && flags & libc::AT_EMPTY_PATH != 0 {
                return $fstat(dirfd, buf);
            }
            let follow = flags & libc::AT_SYMLINK_NOFOLLOW == 0;
            // SAFETY: C's contract, handed on.
            match unsafe { target(dirfd, path, follow) } {
                Target::Pass => unsafe { real(dirfd, path, buf, flags) },
                Target::Host(h) => unsafe { real(libc::AT_FDCWD, h.as_ptr(), buf, flags) },
                Target::Node(h, minor) => {
                    // SAFETY: as above.
                    let r = unsafe { real(libc::AT_FDCWD, h.as_ptr(), buf, flags) };
                    if r == 0 {
                        as_node!(buf, minor);
                    }
                    r
                }
            }
        }

        #[no_mangle]
        pub extern "C" fn $fstat(fd: c_int, buf: *mut $ty) -> c_int {
            let Some(real) = real!($fstat: fn(c_int, *mut $ty) -> c_int) else {
                return fail(Errno::ENOSYS);
            };
            if let Some(minor) = state::node(fd).map(|n| n.minor()) {
                let Some(h) = node_host(minor) else {
                    return fail(Errno::EBADF);
                };
                let Some(at) = real!($at: fn(c_int, *const c_char, *mut $ty, c_int) -> c_int)
                else {
                    return fail(Errno::ENOSYS);
                };
                // SAFETY: `h` is NUL-terminated; `buf` is the caller's stat buffer.
                let r = unsafe { at(libc::AT_FDCWD, h.as_ptr(), buf, 0) };
                if r == 0 {
                    as_node!(buf, minor);
                }
                return r;
            }
            // SAFETY: the caller's arguments, handed on.
            unsafe { real(fd, buf) }
        }
    };
}

stat_family!(fstatat, fstat, libc::stat);
stat_family!(fstatat64, fstat64, libc::stat64);
path_stat!(stat, libc::stat, fstatat, true);
path_stat!(lstat, libc::stat, fstatat, false);
path_stat!(stat64, libc::stat64, fstatat64, true);
path_stat!(lstat64, libc::stat64, fstatat64, false);

/// The pre-2.33 glibc entry points (`__xstat(version, …)`): the x86-64 version number 1 uses
/// the same `struct stat` as `stat`.
macro_rules! xstat {
    ($name:ident, $ty:ty, $stat:ident) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name(_ver: c_int, path: *const c_char, buf: *mut $ty) -> c_int {
            // SAFETY: C's contract, handed on.
            unsafe { $stat(path, buf) }
        }
    };
}

xstat!(__xstat, libc::stat, stat);
xstat!(__lxstat, libc::stat, lstat);
xstat!(__xstat64, libc::stat64, stat64);
xstat!(__lxstat64, libc::stat64, lstat64);

#[no_mangle]
pub extern "C" fn __fxstat(_ver: c_int, fd: c_int, buf: *mut libc::stat) -> c_int {
    fstat(fd, buf)
}

#[no_mangle]
pub extern "C" fn __fxstat64(_ver: c_int, fd: c_int, buf: *mut libc::stat64) -> c_int {
    fstat64(fd, buf)
}

#[no_mangle]
pub unsafe extern "C" fn __fxstatat(
    _ver: c_int,
    dirfd: c_int,
    path: *const c_char,
    buf: *mut libc::stat,
    flags: c_int,
) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { fstatat(dirfd, path, buf, flags) }
}

#[no_mangle]
pub unsafe extern "C" fn __fxstatat64(
    _ver: c_int,
    dirfd: c_int,
    path: *const c_char,
    buf: *mut libc::stat64,
    flags: c_int,
) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { fstatat64(dirfd, path, buf, flags) }
}

#[no_mangle]
pub unsafe extern "C" fn statx(
    dirfd: c_int,
    path: *const c_char,
    flags: c_int,
    mask: libc::c_uint,
    buf: *mut libc::statx,
) -> c_int {
    let Some(real) =
        real!(statx: fn(c_int, *const c_char, c_int, libc::c_uint, *mut libc::statx) -> c_int)
    else {
        return fail(Errno::ENOSYS);
    };
    // SAFETY: a non-null path is NUL-terminated by C's contract.
    let empty = !path.is_null() && unsafe { *path } == 0;
    let node = if empty && flags & libc::AT_EMPTY_PATH != 0 {
        match state::node(dirfd) {
            Some(n) => node_host(n.minor()).map(|h| (h, n.minor())),
            // SAFETY: the caller's arguments, handed on.
            None => return unsafe { real(dirfd, path, flags, mask, buf) },
        }
    } else {
        // SAFETY: C's contract, handed on.
        match unsafe { target(dirfd, path, flags & libc::AT_SYMLINK_NOFOLLOW == 0) } {
            // SAFETY: the caller's arguments, handed on.
            Target::Pass => return unsafe { real(dirfd, path, flags, mask, buf) },
            Target::Host(h) => {
                // SAFETY: `h` is a NUL-terminated host path; the rest are the caller's.
                return unsafe { real(libc::AT_FDCWD, h.as_ptr(), flags, mask, buf) };
            }
            Target::Node(h, minor) => Some((h, minor)),
        }
    };
    let Some((h, minor)) = node else {
        return fail(Errno::EBADF);
    };
    // SAFETY: `h` is NUL-terminated, `buf` the caller's statx buffer.
    let r = unsafe {
        real(
            libc::AT_FDCWD,
            h.as_ptr(),
            flags & !libc::AT_EMPTY_PATH,
            mask,
            buf,
        )
    };
    if r == 0 {
        // SAFETY: filled by the successful statx.
        let b = unsafe { &mut *buf };
        b.stx_mode = (libc::S_IFCHR | 0o666) as u16;
        b.stx_rdev_major = DRM_MAJOR;
        b.stx_rdev_minor = minor.number();
        b.stx_size = 0;
        b.stx_blocks = 0;
    }
    r
}

#[no_mangle]
pub unsafe extern "C" fn faccessat(
    dirfd: c_int,
    path: *const c_char,
    mode: c_int,
    flags: c_int,
) -> c_int {
    let Some(real) = real!(faccessat: fn(c_int, *const c_char, c_int, c_int) -> c_int) else {
        return fail(Errno::ENOSYS);
    };
    // SAFETY: C's contract, handed on.
    match unsafe { target(dirfd, path, flags & libc::AT_SYMLINK_NOFOLLOW == 0) } {
        Target::Pass => unsafe { real(dirfd, path, mode, flags) },
        Target::Host(h) | Target::Node(h, _) => unsafe {
            real(libc::AT_FDCWD, h.as_ptr(), mode, flags)
        },
    }
}

#[no_mangle]
pub unsafe extern "C" fn access(path: *const c_char, mode: c_int) -> c_int {
    // SAFETY: C's contract, handed on.
    unsafe { faccessat(libc::AT_FDCWD, path, mode, 0) }
}

/// Copies `text` into a readlink buffer (truncating, no NUL, as readlink does).
fn put_link(text: &[u8], buf: *mut c_char, size: size_t) -> ssize_t {
    let n = text.len().min(size);
    // SAFETY: `buf` has room for `size` bytes by readlink's contract; n <= size.
    unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast(), n) };
    n as ssize_t
}

#[no_mangle]
pub unsafe extern "C" fn readlinkat(
    dirfd: c_int,
    path: *const c_char,
    buf: *mut c_char,
    size: size_t,
) -> ssize_t {
    let Some(real) = real!(readlinkat: fn(c_int, *const c_char, *mut c_char, size_t) -> ssize_t)
    else {
        return fail(Errno::ENOSYS) as ssize_t;
    };
    // /proc/self/fd/N of a node fd names the node, as for an opened device file.
    if !path.is_null() {
        // SAFETY: non-null, NUL-terminated by C's contract.
        let s = unsafe { CStr::from_ptr(path) }.to_bytes();
        if let Some(fd) = s
            .strip_prefix(b"/proc/self/fd/")
            .and_then(|n| std::str::from_utf8(n).ok())
            .and_then(|n| n.parse::<c_int>().ok())
        {
            if let Some(n) = state::node(fd) {
                return put_link(n.minor().node().as_bytes(), buf, size);
            }
        }
    }
    // SAFETY: C's contract, handed on.
    match unsafe { target(dirfd, path, false) } {
        Target::Pass => unsafe { real(dirfd, path, buf, size) },
        Target::Host(h) | Target::Node(h, _) => unsafe {
            real(libc::AT_FDCWD, h.as_ptr(), buf, size)
        },
    }
}

#[no_mangle]
pub unsafe extern "C" fn readlink(path: *const c_char, buf: *mut c_char, size: size_t) -> ssize_t {
    // SAFETY: C's contract, handed on.
    unsafe { readlinkat(libc::AT_FDCWD, path, buf, size) }
}

#[no_mangle]
pub unsafe extern "C" fn realpath(path: *const c_char, resolved: *mut c_char) -> *mut c_char {
    let Some(real) = real!(realpath: fn(*const c_char, *mut c_char) -> *mut c_char) else {
        set_errno(libc::ENOSYS);
        return std::ptr::null_mut();
    };
    // SAFETY: C's contract, handed on.
    let host = match unsafe { target(libc::AT_FDCWD, path, true) } {
        Target::Pass => return unsafe { real(path, resolved) },
        Target::Host(h) | Target::Node(h, _) => h,
    };
    let mut tmp = vec![0 as c_char; libc::PATH_MAX as usize];
    // SAFETY: `host` is NUL-terminated; `tmp` has PATH_MAX bytes.
    if unsafe { real(host.as_ptr(), tmp.as_mut_ptr()) }.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: realpath NUL-terminated `tmp`.
    let found = unsafe { CStr::from_ptr(tmp.as_ptr()) };
    let found = Path::new(std::ffi::OsStr::from_bytes(found.to_bytes()));
    let shown = state::shim_if_set()
        .and_then(|s| s.tree.to_virtual(found, state::device_dir().as_deref()))
        .map_or_else(|| found.as_os_str().as_bytes().to_vec(), String::into_bytes);
    if shown.len() >= libc::PATH_MAX as usize {
        set_errno(libc::ENAMETOOLONG);
        return std::ptr::null_mut();
    }
    let out = if resolved.is_null() {
        // SAFETY: malloc of a non-zero size; the caller frees the result, as with realpath.
        let p = unsafe { libc::malloc(shown.len() + 1) }.cast::<c_char>();
        if p.is_null() {
            set_errno(libc::ENOMEM);
            return p;
        }
        p
    } else {
        resolved
    };
    // SAFETY: `out` has room for PATH_MAX bytes (the caller's buffer) or exactly len + 1.
    unsafe {
        std::ptr::copy_nonoverlapping(shown.as_ptr(), out.cast(), shown.len());
        *out.add(shown.len()) = 0;
    }
    out
}

#[no_mangle]
pub unsafe extern "C" fn opendir(path: *const c_char) -> *mut DIR {
    let Some(real) = real!(opendir: fn(*const c_char) -> *mut DIR) else {
        set_errno(libc::ENOSYS);
        return std::ptr::null_mut();
    };
    // SAFETY: C's contract, handed on.
    match unsafe { target(libc::AT_FDCWD, path, true) } {
        Target::Pass => unsafe { real(path) },
        Target::Host(h) => unsafe { real(h.as_ptr()) },
        Target::Node(..) => {
            set_errno(libc::ENOTDIR);
            std::ptr::null_mut()
        }
    }
}

/// `fopen`'s mode string as open flags.
fn fopen_flags(mode: &[u8]) -> c_int {
    let mut f = match (mode.first(), mode.contains(&b'+')) {
        (Some(b'r'), false) => libc::O_RDONLY,
        (Some(b'r'), true) => libc::O_RDWR,
        (_, false) => libc::O_WRONLY | libc::O_CREAT,
        (_, true) => libc::O_RDWR | libc::O_CREAT,
    };
    if mode.contains(&b'e') {
        f |= libc::O_CLOEXEC;
    }
    f
}

unsafe fn fopen_impl(path: *const c_char, mode: *const c_char, sixty_four: bool) -> *mut FILE {
    let real = if sixty_four {
        real!(fopen64: fn(*const c_char, *const c_char) -> *mut FILE)
    } else {
        real!(fopen: fn(*const c_char, *const c_char) -> *mut FILE)
    };
    let Some(real) = real else {
        set_errno(libc::ENOSYS);
        return std::ptr::null_mut();
    };
    // SAFETY: C's contract, handed on.
    match unsafe { target(libc::AT_FDCWD, path, true) } {
        Target::Pass => unsafe { real(path, mode) },
        Target::Host(h) => unsafe { real(h.as_ptr(), mode) },
        Target::Node(_, minor) => {
            if mode.is_null() {
                set_errno(libc::EINVAL);
                return std::ptr::null_mut();
            }
            // SAFETY: non-null, NUL-terminated by C's contract.
            let flags = fopen_flags(unsafe { CStr::from_ptr(mode) }.to_bytes());
            let fd = open_node(flags, minor);
            if fd < 0 {
                return std::ptr::null_mut();
            }
            // SAFETY: `fd` is ours, `mode` the caller's valid mode string.
            let f = unsafe { libc::fdopen(fd, mode) };
            if f.is_null() {
                let e = errno();
                close(fd);
                set_errno(e);
            }
            f
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn fopen(path: *const c_char, mode: *const c_char) -> *mut FILE {
    // SAFETY: C's contract, handed on.
    unsafe { fopen_impl(path, mode, false) }
}

#[no_mangle]
pub unsafe extern "C" fn fopen64(path: *const c_char, mode: *const c_char) -> *mut FILE {
    // SAFETY: C's contract, handed on.
    unsafe { fopen_impl(path, mode, true) }
}
