//! Moving an ioctl's argument struct in and out the way `drm_ioctl` does.
//!
//! The kernel copies in `min(user size, driver size)` bytes when both the request and the
//! driver's table entry have the IN direction, zero-fills the rest, runs the handler, and copies
//! the struct back out (even when the handler failed) when both have OUT. Personalities dispatch
//! on the command number alone, so a request with a wrong size or direction gets exactly the
//! kernel's treatment instead of a mismatch error.

use kmd_iface::seam::Errno;
use nix::sys::ioctl::{DIRMASK, DIRSHIFT, NRMASK, READ, TYPEMASK, TYPESHIFT, WRITE};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use kmd_iface::ioc::DRM_IOCTL_BASE;

/// The ioctl command number (`_IOC_NR`) of a DRM request, or `None` for another ioctl type.
pub fn drm_nr(request: u64) -> Option<u32> {
    let ty = (request >> TYPESHIFT) & TYPEMASK;
    (ty == u64::from(DRM_IOCTL_BASE)).then_some((request & NRMASK) as u32)
}

fn dir(request: u64) -> u8 {
    ((request >> DIRSHIFT) & DIRMASK) as u8
}

/// Runs `f` on the argument struct `T` of driver request `table`, called as `request`.
pub fn with_arg<T, F>(request: u64, table: u64, arg: &mut [u8], f: F) -> Result<i32, Errno>
where
    T: FromBytes + IntoBytes + Immutable + KnownLayout,
    F: FnOnce(&mut T) -> Result<i32, Errno>,
{
    let both = dir(request) & dir(table);
    let mut v = T::new_zeroed();
    let n = arg.len().min(std::mem::size_of::<T>());
    if both & WRITE != 0 {
        v.as_mut_bytes()[..n].copy_from_slice(&arg[..n]);
    }
    let r = f(&mut v);
    if both & READ != 0 {
        arg[..n].copy_from_slice(&v.as_bytes()[..n]);
    }
    r
}

/// Routes a driver request to the handler whose table entry has the same command number, as
/// `drm_ioctl` does: `route!(request, arg, dev, { DRM_IOCTL_X => handler, ... })` runs
/// `handler(dev, &mut arg_struct)` through [`with_arg`]. Another ioctl type is ENOTTY and a
/// command number no entry has EINVAL.
macro_rules! route {
    ($request:expr, $arg:expr, $dev:expr, { $($table:path => $handler:path),+ $(,)? }) => {{
        let nr = $crate::ioctl::drm_nr($request).ok_or(Errno::ENOTTY)?;
        $(
            if $crate::ioctl::drm_nr($table) == Some(nr) {
                return $crate::ioctl::with_arg($request, $table, $arg, |a| $handler($dev, a));
            }
        )+
        Err(Errno::EINVAL)
    }};
}
pub(crate) use route;

#[cfg(test)]
mod tests {
    use super::*;
    use kmd_iface::drm_core::uapi::{drm_gem_close, DRM_IOCTL_GEM_CLOSE, DRM_IOCTL_SYNCOBJ_CREATE};

    #[test]
    fn copies_in_and_out_by_direction_and_size() {
        assert_eq!(drm_nr(DRM_IOCTL_SYNCOBJ_CREATE), Some(0xbf));
        assert_eq!(drm_nr(0x5401), None);
        // GEM_CLOSE is write-only: the handler sees the input, nothing is copied back.
        let mut arg = [7u8, 0, 0, 0, 0, 0, 0, 0];
        let r =
            with_arg::<drm_gem_close, _>(DRM_IOCTL_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE, &mut arg, |c| {
                assert_eq!(c.handle, 7);
                c.handle = 9;
                Ok(0)
            });
        assert_eq!((r, arg[0]), (Ok(0), 7));
        // A short argument is zero-extended.
        let mut short = [5u8];
        with_arg::<drm_gem_close, _>(DRM_IOCTL_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE, &mut short, |c| {
            assert_eq!((c.handle, c.pad), (5, 0));
            Ok(0)
        })
        .unwrap();
    }
}
