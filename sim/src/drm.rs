//! The core DRM ioctls both personalities answer: VERSION, GEM_CLOSE, GEM_FLINK/GEM_OPEN
//! (global names, [`crate::flink`]) and the SYNCOBJ family,
//! with the DRM core's argument checks (`drm_ioctl.c`, `drm_gem.c`, `drm_syncobj.c`).

use kmd_iface::drm_core::uapi::*;
use kmd_iface::flags::drm::SyncobjWaitFlags;
use kmd_iface::seam::Errno;

use crate::device::{Deadline, SimDevice, State};
use crate::ioctl::{drm_nr, with_arg};
use crate::sync::{Fence, FenceStatus};
use crate::user;

/// Handles `request` if it is a core DRM ioctl. `on_close` runs after a GEM handle is dropped
/// (i915 unbinds the object from the file's VMs).
pub(crate) fn ioctl(
    dev: &SimDevice,
    request: u64,
    arg: &mut [u8],
    driver_name: &str,
    on_close: fn(&mut State, &crate::gem::GemObject),
) -> Option<Result<i32, Errno>> {
    let nr = drm_nr(request)?;
    let is = |table: u64| drm_nr(table) == Some(nr);
    Some(if is(DRM_IOCTL_VERSION) {
        with_arg(request, DRM_IOCTL_VERSION, arg, |v| version(v, driver_name))
    } else if is(DRM_IOCTL_GEM_CLOSE) {
        with_arg(
            request,
            DRM_IOCTL_GEM_CLOSE,
            arg,
            |c: &mut drm_gem_close| {
                if c.pad != 0 {
                    return Err(Errno::EINVAL);
                }
                let mut st = dev.lock();
                // drm_gem_handle_delete answers EINVAL, not ENOENT, for an unknown handle.
                let obj = st.gem.close(c.handle).map_err(|_| Errno::EINVAL)?;
                on_close(&mut st, &obj);
                Ok(0)
            },
        )
    } else if is(DRM_IOCTL_GEM_FLINK) {
        with_arg(
            request,
            DRM_IOCTL_GEM_FLINK,
            arg,
            |f: &mut drm_gem_flink| {
                f.name = flink(dev, f.handle)?;
                Ok(0)
            },
        )
    } else if is(DRM_IOCTL_GEM_OPEN) {
        with_arg(request, DRM_IOCTL_GEM_OPEN, arg, |o: &mut drm_gem_open| {
            // Looked up before the file's lock is taken: a named entry's drop takes the name
            // table's lock while a file's lock is held.
            let named = crate::flink::open(dev.names(), o.name)?;
            o.size = named.bo.size();
            o.handle = dev.lock().gem.open_named(named);
            Ok(0)
        })
    } else if is(DRM_IOCTL_PRIME_HANDLE_TO_FD) {
        with_arg(
            request,
            DRM_IOCTL_PRIME_HANDLE_TO_FD,
            arg,
            |p: &mut drm_prime_handle| {
                p.fd = prime_export(dev, p.handle, p.flags)?;
                Ok(0)
            },
        )
    } else if is(DRM_IOCTL_PRIME_FD_TO_HANDLE) {
        with_arg(
            request,
            DRM_IOCTL_PRIME_FD_TO_HANDLE,
            arg,
            |p: &mut drm_prime_handle| {
                p.handle = prime_import(dev, p.fd)?;
                Ok(0)
            },
        )
    } else if is(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD) {
        with_arg(
            request,
            DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD,
            arg,
            |h: &mut drm_syncobj_handle| {
                h.fd = syncobj_to_fd(dev, h)?;
                Ok(0)
            },
        )
    } else if is(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE) {
        with_arg(
            request,
            DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE,
            arg,
            |h: &mut drm_syncobj_handle| syncobj_from_fd(dev, h),
        )
    } else if is(DRM_IOCTL_SYNCOBJ_CREATE) {
        with_arg(
            request,
            DRM_IOCTL_SYNCOBJ_CREATE,
            arg,
            |c: &mut drm_syncobj_create| {
                if c.flags & !DRM_SYNCOBJ_CREATE_SIGNALED != 0 {
                    return Err(Errno::EINVAL);
                }
                c.handle = dev
                    .lock()
                    .syncobjs
                    .create(c.flags & DRM_SYNCOBJ_CREATE_SIGNALED != 0);
                Ok(0)
            },
        )
    } else if is(DRM_IOCTL_SYNCOBJ_DESTROY) {
        with_arg(
            request,
            DRM_IOCTL_SYNCOBJ_DESTROY,
            arg,
            |d: &mut drm_syncobj_destroy| {
                if d.pad != 0 || !dev.lock().syncobjs.destroy(d.handle) {
                    return Err(Errno::EINVAL);
                }
                Ok(0)
            },
        )
    } else if is(DRM_IOCTL_SYNCOBJ_WAIT) {
        with_arg(
            request,
            DRM_IOCTL_SYNCOBJ_WAIT,
            arg,
            |w: &mut drm_syncobj_wait| {
                // WAIT_AVAILABLE is for timeline points only.
                let flags = SyncobjWaitFlags::from_bits(w.flags)
                    .filter(|f| !f.contains(SyncobjWaitFlags::WAIT_AVAILABLE))
                    .ok_or(Errno::EINVAL)?;
                if w.pad != 0 || w.count_handles == 0 {
                    return Err(Errno::EINVAL);
                }
                let handles: Vec<u32> = user::read_array(w.handles, w.count_handles as usize)?;
                let points = vec![0; handles.len()];
                w.first_signaled = wait(dev, &handles, &points, flags, w.timeout_nsec)?;
                Ok(0)
            },
        )
    } else if is(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT) {
        with_arg(
            request,
            DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT,
            arg,
            |w: &mut drm_syncobj_timeline_wait| {
                let flags = SyncobjWaitFlags::from_bits(w.flags).ok_or(Errno::EINVAL)?;
                if w.pad != 0 || w.count_handles == 0 {
                    return Err(Errno::EINVAL);
                }
                let n = w.count_handles as usize;
                let handles: Vec<u32> = user::read_array(w.handles, n)?;
                let points: Vec<u64> = user::read_array(w.points, n)?;
                w.first_signaled = wait(dev, &handles, &points, flags, w.timeout_nsec)?;
                Ok(0)
            },
        )
    } else if is(DRM_IOCTL_SYNCOBJ_RESET) || is(DRM_IOCTL_SYNCOBJ_SIGNAL) {
        let signal = is(DRM_IOCTL_SYNCOBJ_SIGNAL);
        with_arg(
            request,
            DRM_IOCTL_SYNCOBJ_RESET,
            arg,
            |a: &mut drm_syncobj_array| {
                if a.pad != 0 || a.count_handles == 0 {
                    return Err(Errno::EINVAL);
                }
                let handles: Vec<u32> = user::read_array(a.handles, a.count_handles as usize)?;
                let mut st = dev.lock();
                if !handles.iter().all(|h| st.syncobjs.contains(*h)) {
                    return Err(Errno::ENOENT);
                }
                for h in handles {
                    if let Some(mut s) = st.syncobjs.get_mut(h) {
                        s.replace(signal.then(Fence::signaled));
                    }
                }
                drop(st);
                dev.notify();
                Ok(0)
            },
        )
    } else if is(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL) || is(DRM_IOCTL_SYNCOBJ_QUERY) {
        let signal = is(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL);
        with_arg(
            request,
            DRM_IOCTL_SYNCOBJ_QUERY,
            arg,
            |a: &mut drm_syncobj_timeline_array| timeline(dev, a, signal),
        )
    } else {
        return None;
    })
}

/// `drm_gem_flink_ioctl`: the object's name, given on first use; ENOENT for an unknown handle.
/// (Which files may call it, DRM_AUTH on the primary node only, is the node's rule: the
/// simulator answers as for an authenticated client.)
fn flink(dev: &SimDevice, handle: u32) -> Result<u32, Errno> {
    let mut st = dev.lock();
    let obj = st.gem.get_mut(handle)?;
    if let Some(n) = &obj.named {
        return Ok(n.name);
    }
    let named = crate::flink::name(
        dev.names(),
        obj.bo.clone(),
        obj.activity.clone(),
        obj.min_page,
        obj.region,
        obj.private_vm,
    )?;
    let name = named.name;
    obj.named = Some(named);
    Ok(name)
}

/// `drm_prime_handle_to_fd_ioctl` and `drm_gem_prime_handle_to_fd`: flags other than
/// DRM_CLOEXEC/DRM_RDWR are EINVAL, an unknown handle ENOENT; the drivers' export refuses
/// userptr objects (i915: EINVAL) and objects private to a VM (xe: EPERM).
fn prime_export(dev: &SimDevice, handle: u32, flags: u32) -> Result<i32, Errno> {
    if flags & !(DRM_CLOEXEC | DRM_RDWR) != 0 {
        return Err(Errno::EINVAL);
    }
    let mut st = dev.lock();
    let obj = st.gem.get(handle)?;
    if obj.bo.host_range().is_some() {
        return Err(Errno::EINVAL);
    }
    if obj.private_vm.is_some() {
        return Err(Errno::EPERM);
    }
    let of = crate::prime::ExportOf {
        bo: &obj.bo,
        activity: &obj.activity,
        min_page: obj.min_page,
        region: obj.region,
        xe_cpu_caching: obj.xe_cpu_caching,
    };
    let (fd, key) = crate::prime::export(of, flags)?;
    if st.gem.prime_handle(key).is_none() {
        st.gem.add_prime(key, handle);
    }
    Ok(fd)
}

/// `drm_gem_prime_fd_to_handle`: the handle this file already has for the dma-buf, else a new
/// handle of its object (`dma_buf_get`'s errors: EBADF, EINVAL for a file that is no
/// dma-buf).
fn prime_import(dev: &SimDevice, fd: i32) -> Result<u32, Errno> {
    let buf = crate::prime::import(fd)?;
    let named = crate::flink::name_of(dev.names(), &buf.bo);
    let mut st = dev.lock();
    if let Some(h) = st.gem.prime_handle(buf.key()) {
        return Ok(h);
    }
    Ok(st.gem.open_imported(&buf, named))
}

/// `drm_syncobj_handle_to_fd_ioctl`: an opaque syncobj fd (unknown handle: EINVAL), or with
/// EXPORT_SYNC_FILE a sync file of the syncobj's fence (unknown handle ENOENT, no fence
/// EINVAL).
fn syncobj_to_fd(dev: &SimDevice, h: &drm_syncobj_handle) -> Result<i32, Errno> {
    if h.pad != 0 || (h.flags != 0 && h.flags != DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE) {
        return Err(Errno::EINVAL);
    }
    let mut st = dev.lock();
    if h.flags == 0 {
        let obj = st.syncobjs.shared(h.handle).ok_or(Errno::EINVAL)?;
        drop(st);
        return crate::prime::export_syncobj(obj);
    }
    let fence = st
        .syncobjs
        .get(h.handle)
        .ok_or(Errno::ENOENT)?
        .fence()
        .cloned()
        .ok_or(Errno::EINVAL)?;
    st.sync_files.export(fence)
}

/// `drm_syncobj_fd_to_handle_ioctl`: a new handle of an opaque syncobj fd's syncobj (any other
/// fd: EINVAL), or with IMPORT_SYNC_FILE the sync file's fence put in syncobj `handle` (not a
/// sync file: EINVAL, unknown handle ENOENT).
fn syncobj_from_fd(dev: &SimDevice, h: &mut drm_syncobj_handle) -> Result<i32, Errno> {
    if h.pad != 0 || (h.flags != 0 && h.flags != DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE) {
        return Err(Errno::EINVAL);
    }
    if h.flags == 0 {
        let obj = crate::prime::import_syncobj(h.fd)?;
        h.handle = dev.lock().syncobjs.insert(obj);
        return Ok(0);
    }
    let mut st = dev.lock();
    let fence = st.sync_files.import(h.fd)?;
    st.syncobjs
        .get_mut(h.handle)
        .ok_or(Errno::ENOENT)?
        .replace(Some(fence));
    drop(st);
    dev.notify();
    Ok(0)
}

/// DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED (drm.h).
const QUERY_LAST_SUBMITTED: u32 = 1 << 0;

fn timeline(
    dev: &SimDevice,
    a: &mut drm_syncobj_timeline_array,
    signal: bool,
) -> Result<i32, Errno> {
    let allowed = if signal { 0 } else { QUERY_LAST_SUBMITTED };
    if a.flags & !allowed != 0 || a.count_handles == 0 {
        return Err(Errno::EINVAL);
    }
    let n = a.count_handles as usize;
    let handles: Vec<u32> = user::read_array(a.handles, n)?;
    let mut st = dev.lock();
    if !handles.iter().all(|h| st.syncobjs.contains(*h)) {
        return Err(Errno::ENOENT);
    }
    if signal {
        let points: Vec<u64> = user::read_array(a.points, n)?;
        for (h, p) in handles.iter().zip(points) {
            if let Some(mut s) = st.syncobjs.get_mut(*h) {
                match p {
                    0 => s.replace(Some(Fence::signaled())),
                    p => s.add_point(p, Fence::signaled()),
                }
            }
        }
        drop(st);
        dev.notify();
        return Ok(0);
    }
    let points: Vec<u64> = handles
        .iter()
        .filter_map(|h| st.syncobjs.get(*h))
        .map(|s| {
            if a.flags & QUERY_LAST_SUBMITTED != 0 {
                s.last_point()
            } else {
                s.signaled_point()
            }
        })
        .collect();
    drop(st);
    let bytes: Vec<u8> = points.iter().flat_map(|p| p.to_ne_bytes()).collect();
    user::write(a.points, &bytes)?;
    Ok(0)
}

/// `drm_syncobj_array_wait`: returns the index of the first signalled syncobj.
fn wait(
    dev: &SimDevice,
    handles: &[u32],
    points: &[u64],
    flags: SyncobjWaitFlags,
    timeout_nsec: i64,
) -> Result<u32, Errno> {
    let all = flags.contains(SyncobjWaitFlags::WAIT_ALL);
    let for_submit = flags.contains(SyncobjWaitFlags::WAIT_FOR_SUBMIT);
    let available = flags.contains(SyncobjWaitFlags::WAIT_AVAILABLE);
    {
        let st = dev.lock();
        for (h, p) in handles.iter().zip(points) {
            let s = st.syncobjs.get(*h).ok_or(Errno::ENOENT)?;
            if !for_submit && s.point_status(*p).is_none() {
                return Err(Errno::EINVAL);
            }
        }
    }
    dev.wait_until(Deadline::monotonic_ns(timeout_nsec), None, |st, pending| {
        let mut first = None;
        let mut done = 0;
        for (i, (h, p)) in handles.iter().zip(points).enumerate() {
            let s = st.syncobjs.get(*h).ok_or(Errno::ENOENT)?;
            let ready = match s.point_status(*p) {
                None => false,
                Some(_) if available => true,
                Some(FenceStatus::Pending) => {
                    pending.extend(s.point_fences(*p).into_iter().flatten());
                    false
                }
                Some(_) => true,
            };
            if ready {
                done += 1;
                first.get_or_insert(i as u32);
            }
        }
        Ok(if all {
            (done == handles.len()).then_some(0)
        } else {
            first
        })
    })
}

fn version(v: &mut drm_version, name: &str) -> Result<i32, Errno> {
    // The drivers' DRIVER_MAJOR/MINOR/DATE/DESC.
    let (major, minor, date, desc) = match name {
        "i915" => (1, 6, "20201103", "Intel Graphics"),
        _ => (1, 1, "20230201", "Intel Xe2 Graphics"),
    };
    v.version_major = major;
    v.version_minor = minor;
    v.version_patchlevel = 0;
    copy_field(&mut v.name_len, v.name, name)?;
    copy_field(&mut v.date_len, v.date, date)?;
    copy_field(&mut v.desc_len, v.desc, desc)?;
    Ok(0)
}

/// `drm_copy_field`: copies what fits, reports the full length.
fn copy_field(len: &mut u64, buf: u64, value: &str) -> Result<(), Errno> {
    let n = (value.len() as u64).min(*len) as usize;
    *len = value.len() as u64;
    if n > 0 && buf != 0 {
        user::write(buf, &value.as_bytes()[..n])?;
    }
    Ok(())
}

/// Records `fence` in every syncobj of `handles` (the personalities' out-syncs). Timeline
/// points go through `points` (0 = binary).
pub(crate) fn signal_syncobjs(st: &mut State, outs: &[(u32, u64)], fence: &std::sync::Arc<Fence>) {
    for &(h, p) in outs {
        if let Some(mut s) = st.syncobjs.get_mut(h) {
            match p {
                0 => s.replace(Some(fence.clone())),
                p => s.add_point(p, fence.clone()),
            }
        }
    }
}
