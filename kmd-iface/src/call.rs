//! Issuing one ioctl through the seam: size check, EINTR/EAGAIN retry, named errors.

use zerocopy::{FromBytes, IntoBytes};

use crate::error::{Error, Result};
use crate::ioc;
use crate::seam::{DeviceFile, Errno};

/// Runs `request` with `arg` read and written in place, retrying EINTR and EAGAIN as libdrm's
/// `drmIoctl` does (without a bound: the kernel returns them for transient conditions only).
///
/// Crate-private: only the typed wrappers call it, and each fills the pointer fields of `arg`
/// from Rust values that live across the call (`addr_of`/`addr_of_mut` of borrowed slices,
/// extension structs on its stack), which is [`DeviceFile::ioctl`]'s safety contract.
pub(crate) fn ioctl<T: IntoBytes + FromBytes>(
    dev: &dyn DeviceFile,
    request: u64,
    arg: &mut T,
) -> Result<i32> {
    let bytes = arg.as_mut_bytes();
    let encoded = ioc::arg_size(request);
    if encoded != bytes.len() {
        return Err(Error::ArgSize {
            request,
            encoded,
            actual: bytes.len(),
        });
    }
    loop {
        // SAFETY: the typed wrappers are this function's only callers, and each points the
        // struct's pointer fields at values it keeps alive and unborrowed for the call (see
        // above); the size matches the request (checked).
        match unsafe { dev.ioctl(request, bytes) } {
            Err(Errno::EINTR | Errno::EAGAIN) => continue,
            Err(errno) => {
                return Err(Error::Ioctl {
                    op: ioc::ioctl_name(request).unwrap_or("unknown DRM ioctl"),
                    errno,
                    context: String::new(),
                })
            }
            Ok(ret) => return Ok(ret),
        }
    }
}

/// A count or byte length as the u32 a uAPI field holds.
pub fn to_u32(what: &'static str, len: usize) -> Result<u32> {
    u32::try_from(len).map_err(|_| Error::TooLarge { what, len })
}

/// The process address of a slice, as uAPI pointer fields carry it (0 for an empty slice, which
/// the kernel never dereferences when the matching count is 0).
pub fn addr_of<T>(s: &[T]) -> u64 {
    if s.is_empty() {
        0
    } else {
        s.as_ptr() as u64
    }
}

/// As [`addr_of`], for arrays the kernel writes into.
pub fn addr_of_mut<T>(s: &mut [T]) -> u64 {
    if s.is_empty() {
        0
    } else {
        s.as_mut_ptr() as u64
    }
}
