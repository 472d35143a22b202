//! A forked child keeps using its parent's simulated GPU through the fds it inherited, as a
//! child of a process with a real render node keeps using the same open file: the same GEM
//! handles, contexts, VMs and memory.
//!
//! The GPU's threads exist only in the process that opened the node, so the child forwards.
//! At every `fork` (the `pthread_atfork` prepare handler) the parent makes, for each open DRM
//! file, a `SOCK_SEQPACKET` socket pair and a thread that serves the child's end: ioctls run
//! there on the parent's device with the child's pointers (`sim::on_behalf_of`: the simulator
//! reads and writes the child's memory through `process_vm_readv`/`writev`), and an `mmap`
//! answers how the child reaches the BO's pages. A BO that existed at the fork is mapped at the
//! same address in the child (an inherited `MAP_SHARED` mapping of the same memfd): the child
//! duplicates that mapping. A BO made later comes with its memfd (passed with `SCM_RIGHTS`;
//! the simulator keeps BO memfds from the first fork on, `sim::share_bo_pages`). The parent's
//! thread ends when the child closes its last copy of the socket (closing the fd, exiting or
//! `exec`), and keeps the GPU alive until then, as the child's reference to the file does.
//!
//! File descriptors an ioctl passes travel as fds (`SCM_RIGHTS`): an i915 execbuf's sync-file
//! fences, PRIME dma-bufs and syncobj fds (opaque, and sync files). An fd the child passes in
//! goes with the request and stands in the argument for the call in the parent (an fd the
//! child does not have goes as -1, which the simulator refuses as the kernel refuses it); an fd
//! the call returns comes back as a new fd of the child, and the parent keeps its own copy open
//! until the channel closes, so that the child can pass it back: the simulator knows a sync
//! file by the fd number it gave out in this process, so the parent finds its own fd of the
//! same file (`kcmp`) and hands the simulator that number (dma-bufs and syncobj files are known
//! by inode, whatever the number).
//!
//! Not forwarded: any use of an inherited fd by a grandchild (a child that forks again); such
//! an fd answers `EIO` there.

use std::os::raw::{c_int, c_void};
use std::sync::{Arc, Mutex};

use kmd_iface::drm_core::uapi::{
    drm_prime_handle, drm_syncobj_handle, DRM_IOCTL_PRIME_FD_TO_HANDLE,
    DRM_IOCTL_PRIME_HANDLE_TO_FD, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD,
};
use kmd_iface::flags::i915::ExecFlags;
use kmd_iface::i915::uapi::{
    drm_i915_gem_execbuffer2, DRM_IOCTL_I915_GEM_EXECBUFFER2, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR,
};
use kmd_iface::seam::{DeviceFile, Errno};
use nix::libc;
use sim::SimDevice;

use crate::drm_file::DrmFile;
use crate::real::real;

/// Request kinds.
const IOCTL: u32 = 1;
const MMAP: u32 = 2;

/// Every message starts with four 64-bit words; an ioctl's argument bytes follow.
/// Request: kind | pid << 32, request or mmap offset, mmap length, 0.
/// Answer: result (≥ 0, or −errno), mmap address in the parent, 1 if an fd came with it, 0.
const HEAD: usize = 32;
/// Largest ioctl argument (`_IOC_SIZEBITS` is 14).
const MAX_ARG: usize = 1 << 14;

/// `close` of the C library, not the shim's hook (which takes the fd table's lock, held by the
/// fork handlers).
fn real_close(fd: c_int) {
    if let Some(close) = real!(close: fn(c_int) -> c_int) {
        // SAFETY: close takes any integer; the fd is ours.
        unsafe { close(fd) };
    }
}

/// One end of a channel, closed with the C library's `close`.
pub struct Socket(c_int);

impl Drop for Socket {
    fn drop(&mut self) {
        real_close(self.0);
    }
}

fn errno() -> c_int {
    // SAFETY: __errno_location returns this thread's errno slot.
    unsafe { *libc::__errno_location() }
}

/// Sends one message (and `fd`, if any).
fn send(sock: c_int, msg: &[u8], fd: Option<c_int>) -> Result<(), Errno> {
    let mut iov = libc::iovec {
        iov_base: msg.as_ptr() as *mut c_void,
        iov_len: msg.len(),
    };
    // Room for one cmsghdr carrying one int, 8-byte aligned.
    let mut cbuf = [0u64; 4];
    // SAFETY: a zeroed msghdr is valid; the pointers set below outlive the sendmsg call.
    let mut mh: libc::msghdr = unsafe { std::mem::zeroed() };
    mh.msg_iov = &mut iov;
    mh.msg_iovlen = 1;
    if let Some(fd) = fd {
        // SAFETY: CMSG_SPACE/CMSG_LEN are pure; `cbuf` has room for CMSG_SPACE(4) bytes, and
        // CMSG_FIRSTHDR of a msghdr whose control buffer is that large is non-null.
        unsafe {
            mh.msg_control = cbuf.as_mut_ptr().cast();
            mh.msg_controllen = libc::CMSG_SPACE(4) as usize;
            let c = libc::CMSG_FIRSTHDR(&mh);
            (*c).cmsg_level = libc::SOL_SOCKET;
            (*c).cmsg_type = libc::SCM_RIGHTS;
            (*c).cmsg_len = libc::CMSG_LEN(4) as usize;
            std::ptr::write_unaligned(libc::CMSG_DATA(c).cast::<c_int>(), fd);
        }
    }
    loop {
        // SAFETY: `mh` describes valid buffers.
        let n = unsafe { libc::sendmsg(sock, &mh, libc::MSG_NOSIGNAL) };
        if n >= 0 {
            return Ok(());
        }
        if errno() != libc::EINTR {
            return Err(Errno::EIO);
        }
    }
}

/// Receives one message into `buf` (its length and any fd that came with it); `None` at the
/// end of the stream or on an error.
fn recv(sock: c_int, buf: &mut [u8]) -> Option<(usize, Option<c_int>)> {
    let mut iov = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: buf.len(),
    };
    let mut cbuf = [0u64; 4];
    // SAFETY: a zeroed msghdr is valid; its pointers outlive the recvmsg call.
    let mut mh: libc::msghdr = unsafe { std::mem::zeroed() };
    mh.msg_iov = &mut iov;
    mh.msg_iovlen = 1;
    mh.msg_control = cbuf.as_mut_ptr().cast();
    mh.msg_controllen = std::mem::size_of_val(&cbuf);
    let n = loop {
        // SAFETY: `mh` describes valid buffers.
        let n = unsafe { libc::recvmsg(sock, &mut mh, libc::MSG_CMSG_CLOEXEC) };
        if n >= 0 || errno() != libc::EINTR {
            break n;
        }
    };
    if n <= 0 {
        return None;
    }
    let mut fd = None;
    // SAFETY: the control buffer was filled by recvmsg; CMSG_FIRSTHDR/NXTHDR walk it within
    // msg_controllen.
    unsafe {
        let mut c = libc::CMSG_FIRSTHDR(&mh);
        while !c.is_null() {
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_RIGHTS {
                fd = Some(std::ptr::read_unaligned(libc::CMSG_DATA(c).cast::<c_int>()));
            }
            c = libc::CMSG_NXTHDR(&mh, c);
        }
    }
    Some((n as usize, fd))
}

fn word(b: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[i * 8..i * 8 + 8]);
    u64::from_ne_bytes(w)
}

fn head(words: [u64; 4]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_ne_bytes()).collect()
}

/// The fds an ioctl's argument passes: the one it takes (offset of the i32, and its value)
/// and where the one it returns on success goes.
struct FdArgs {
    fd_in: Option<(usize, c_int)>,
    out_at: Option<usize>,
}

const RSVD2: usize = std::mem::offset_of!(drm_i915_gem_execbuffer2, rsvd2);
const PRIME_FD: usize = std::mem::offset_of!(drm_prime_handle, fd);
const SYNCOBJ_FD: usize = std::mem::offset_of!(drm_syncobj_handle, fd);

fn read_i32(arg: &[u8], at: usize) -> Option<c_int> {
    let b = arg.get(at..at + 4)?;
    Some(c_int::from_ne_bytes(b.try_into().ok()?))
}

fn write_i32(arg: &mut [u8], at: usize, v: c_int) {
    if let Some(b) = arg.get_mut(at..at + 4) {
        b.copy_from_slice(&v.to_ne_bytes());
    }
}

fn fd_args(request: u64, arg: &[u8]) -> FdArgs {
    let none = FdArgs {
        fd_in: None,
        out_at: None,
    };
    let input = |at: usize| FdArgs {
        fd_in: read_i32(arg, at).map(|fd| (at, fd)),
        out_at: None,
    };
    let output = |at: usize| FdArgs {
        fd_in: None,
        out_at: Some(at),
    };
    match request {
        DRM_IOCTL_PRIME_FD_TO_HANDLE => input(PRIME_FD),
        DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE => input(SYNCOBJ_FD),
        DRM_IOCTL_PRIME_HANDLE_TO_FD => output(PRIME_FD),
        DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD => output(SYNCOBJ_FD),
        DRM_IOCTL_I915_GEM_EXECBUFFER2 | DRM_IOCTL_I915_GEM_EXECBUFFER2_WR => {
            // The in-fence fd (FENCE_IN or FENCE_SUBMIT) is the low half of `rsvd2`, the
            // out-fence (FENCE_OUT) its high half.
            let at = std::mem::offset_of!(drm_i915_gem_execbuffer2, flags);
            let (Some(flags), Some(rsvd2)) = (arg.get(at..at + 8), arg.get(RSVD2..RSVD2 + 8))
            else {
                return none;
            };
            let (flags, rsvd2) = (
                ExecFlags::from_bits_truncate(word(flags, 0)),
                word(rsvd2, 0),
            );
            FdArgs {
                fd_in: flags
                    .intersects(ExecFlags::FENCE_IN | ExecFlags::FENCE_SUBMIT)
                    .then_some((RSVD2, rsvd2 as u32 as c_int)),
                out_at: flags.contains(ExecFlags::FENCE_OUT).then_some(RSVD2 + 4),
            }
        }
        _ => none,
    }
}

/// Whether `fd` is open in this process.
fn is_open(fd: c_int) -> bool {
    // SAFETY: F_GETFD takes no argument and reads no memory.
    fd >= 0 && unsafe { libc::fcntl(fd, libc::F_GETFD) } >= 0
}

/// Whether two fds of this process refer to the same open file (`kcmp(KCMP_FILE)`; false
/// where the kernel refuses it).
fn same_file(a: c_int, b: c_int) -> bool {
    const KCMP_FILE: c_int = 0;
    // SAFETY: getpid has no preconditions.
    let pid = unsafe { libc::getpid() };
    // SAFETY: kcmp takes integers only and reads no memory of ours.
    unsafe { libc::syscall(libc::SYS_kcmp, pid, pid, KCMP_FILE, a, b) == 0 }
}

/// The parents' ends of the channels this process serves. A child closes its copies (they are
/// of no use to it); the list's lock is held across `fork` so that it is exact then.
static SERVED: Mutex<Vec<c_int>> = Mutex::new(Vec::new());

fn served() -> std::sync::MutexGuard<'static, Vec<c_int>> {
    SERVED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Held by the fork prepare handler until the fork is done.
pub fn hold_served() -> std::sync::MutexGuard<'static, Vec<c_int>> {
    served()
}

/// In the child, with the list held since before the fork: closes its copies of the parent's
/// ends.
pub fn close_inherited_served(list: &mut Vec<c_int>) {
    for fd in list.drain(..) {
        real_close(fd);
    }
}

/// The parent's side of one child's channel: serves until the child's end is closed.
fn serve(sock: Socket, dev: Arc<SimDevice>, file: Arc<DrmFile>, fork_serial: u64) {
    let mut buf = vec![0u8; HEAD + MAX_ARG];
    // The out-fences sent to the child, kept open here while the child may pass them back:
    // the simulator knows a sync file by the fd number it gave out in this process.
    let mut out_fences: Vec<Socket> = Vec::new();
    while let Some((n, fd)) = recv(sock.0, &mut buf) {
        // An in-fence the child sent: this process's fd of the same file, for the call.
        let received = fd.map(Socket);
        if n < HEAD {
            break;
        }
        let kind = word(&buf, 0) as u32;
        let pid = (word(&buf, 0) >> 32) as i32;
        let sent = match kind {
            IOCTL => {
                let request = word(&buf, 1);
                let arg = &mut buf[HEAD..n];
                let f = fd_args(request, arg);
                let r = if f.fd_in.is_none() && received.is_some() {
                    Err(Errno::EINVAL)
                } else {
                    if let Some((at, _)) = f.fd_in {
                        // An fd this channel gave the child is known to the simulator by this
                        // process's fd of it; an fd the child did not have is none here.
                        let ours = received.as_ref().map(|r| {
                            out_fences
                                .iter()
                                .find(|o| same_file(o.0, r.0))
                                .unwrap_or(r)
                                .0
                        });
                        write_i32(arg, at, ours.unwrap_or(-1));
                    }
                    match crate::drm_file::ioctl(&file, request, crate::drm_file::cap_sys_admin()) {
                        Some(r) => r,
                        // SAFETY: the child called ioctl(2) with this struct; its pointers
                        // are the child's, valid for the call by ioctl(2)'s contract, and the
                        // simulator reaches them in process `pid` (process_vm_readv/writev).
                        None => sim::on_behalf_of(pid, || unsafe { dev.ioctl(request, arg) }),
                    }
                };
                drop(received);
                let out = match (&r, f.out_at) {
                    (Ok(_), Some(at)) => read_i32(&buf[HEAD..n], at),
                    _ => None,
                };
                let result = r.map_or_else(|e| -(e as i64), i64::from);
                let mut msg = head([result as u64, 0, u64::from(out.is_some()), 0]);
                msg.extend_from_slice(&buf[HEAD..n]);
                let sent = send(sock.0, &msg, out);
                out_fences.extend(out.map(Socket));
                sent
            }
            MMAP => {
                let (offset, len) = (word(&buf, 1), word(&buf, 2));
                let shared = usize::try_from(len)
                    .map_err(|_| Errno::EINVAL)
                    .and_then(|len| dev.shared_pages(offset, len));
                match shared {
                    Err(e) => send(sock.0, &head([(-(e as i64)) as u64, 0, 0, 0]), None),
                    // Older than the fork: the child has the same mapping at the same place.
                    Ok(p) if p.serial < fork_serial => {
                        send(sock.0, &head([0, p.addr as u64, 0, 0]), None)
                    }
                    Ok(p) => match p.fd {
                        Some(fd) => {
                            use std::os::fd::AsRawFd;
                            send(sock.0, &head([0, 0, 1, 0]), Some(fd.as_raw_fd()))
                        }
                        None => send(
                            sock.0,
                            &head([(-(Errno::ENOMEM as i64)) as u64, 0, 0, 0]),
                            None,
                        ),
                    },
                }
            }
            _ => break,
        };
        if sent.is_err() {
            break;
        }
    }
    drop(out_fences);
    {
        let mut list = served();
        list.retain(|&fd| fd != sock.0);
        drop(sock);
    }
    // The device may be the last reference: it shuts down here, on this thread.
    drop(file);
    drop(dev);
}

/// A child's end of a channel to the parent's GPU, shared by the fd's `dup`s.
pub struct Channel {
    sock: Mutex<Socket>,
}

/// How the parent answered an `mmap`.
pub enum Pages {
    /// The same pages are mapped at this address in this process (inherited at the fork).
    Inherited(usize),
    /// The BO's memfd, to be mapped from offset 0 and closed.
    Fd(c_int),
}

impl Channel {
    fn exchange(
        &self,
        msg: &[u8],
        fd: Option<c_int>,
        reply: &mut [u8],
    ) -> Result<(usize, Option<c_int>), Errno> {
        let sock = self.sock.lock().unwrap_or_else(|e| e.into_inner());
        send(sock.0, msg, fd)?;
        recv(sock.0, reply).ok_or(Errno::EIO)
    }

    /// Forwards an ioctl: `arg` is its argument as copied in; it holds the argument to copy
    /// back out afterwards, also on failure. An fd the ioctl takes goes along (`SCM_RIGHTS`;
    /// one this process does not have goes as none); an fd it returns comes back the same way,
    /// as a new fd of this process.
    pub fn ioctl(&self, request: u64, arg: &mut [u8]) -> Result<i32, Errno> {
        let me = u64::from(std::process::id());
        let mut msg = head([u64::from(IOCTL) | me << 32, request, 0, 0]);
        msg.extend_from_slice(arg);
        let f = fd_args(request, arg);
        let fd_in = f.fd_in.map(|(_, fd)| fd).filter(|&fd| is_open(fd));
        let mut reply = vec![0u8; HEAD + arg.len()];
        let (n, fd) = self.exchange(&msg, fd_in, &mut reply)?;
        if n != reply.len() {
            if let Some(fd) = fd {
                real_close(fd);
            }
            return Err(Errno::EIO);
        }
        arg.copy_from_slice(&reply[HEAD..]);
        let r = result(word(&reply, 0));
        match (fd, f.out_at) {
            (Some(fd), Some(at)) if r.is_ok() => write_i32(arg, at, fd),
            (Some(fd), _) => real_close(fd),
            (None, Some(_)) if r.is_ok() => return Err(Errno::EIO),
            (None, _) => {}
        }
        r
    }

    /// Asks how to map `len` bytes at GEM mmap offset `offset`.
    pub fn mmap(&self, offset: u64, len: usize) -> Result<Pages, Errno> {
        let me = u64::from(std::process::id());
        let msg = head([u64::from(MMAP) | me << 32, offset, len as u64, 0]);
        let mut reply = [0u8; HEAD];
        let (n, fd) = self.exchange(&msg, None, &mut reply)?;
        let r = result(word(&reply, 0));
        match (n, r, fd) {
            (HEAD, Ok(_), Some(fd)) if word(&reply, 2) == 1 => Ok(Pages::Fd(fd)),
            (HEAD, Ok(_), None) if word(&reply, 2) == 0 => usize::try_from(word(&reply, 1))
                .map(Pages::Inherited)
                .map_err(|_| Errno::EIO),
            (_, r, fd) => {
                if let Some(fd) = fd {
                    real_close(fd);
                }
                r.and(Err(Errno::EIO))
            }
        }
    }
}

fn result(w: u64) -> Result<i32, Errno> {
    let v = w as i64;
    if v >= 0 {
        i32::try_from(v).map_err(|_| Errno::EIO)
    } else {
        let e = i32::try_from(-v).map_err(|_| Errno::EIO)?;
        Err(Errno::from_raw(e))
    }
}

/// A channel made for the fork under way: the parent's thread is serving `parent`'s peer.
pub struct Pending {
    pub file: Arc<DrmFile>,
    pub child: c_int,
}

/// Makes a channel for `file` on `dev` and starts the parent's thread; returns the child's
/// end. Called by the fork prepare handler, without the fd table's lock.
pub fn open_channel(
    dev: Arc<SimDevice>,
    file: Arc<DrmFile>,
    fork_serial: u64,
) -> Result<Pending, Errno> {
    let mut fds = [0 as c_int; 2];
    // SAFETY: socketpair writes two fds into `fds`.
    let r = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if r != 0 {
        return Err(Errno::from_raw(errno()));
    }
    served().push(fds[0]);
    let parent = Socket(fds[0]);
    let for_file = file.clone();
    let spawned = std::thread::Builder::new()
        .name("sim-shim-fork".into())
        .spawn(move || serve(parent, dev, for_file, fork_serial));
    if spawned.is_err() {
        // The closure, and the parent's end with it, was dropped.
        served().retain(|&fd| fd != fds[0]);
        real_close(fds[1]);
        return Err(Errno::EAGAIN);
    }
    Ok(Pending {
        file,
        child: fds[1],
    })
}

impl Pending {
    /// In the child: the channel.
    pub fn into_channel(self) -> Arc<Channel> {
        Arc::new(Channel {
            sock: Mutex::new(Socket(self.child)),
        })
    }

    /// In the parent: its copy of the child's end goes.
    pub fn close(self) {
        real_close(self.child);
    }
}
