//! The i915 user-extension chain (`struct i915_user_extension`), walked as the kernel's
//! `i915_user_extensions()` walks it, for every ioctl that takes one.

use kmd_iface::i915::uapi::i915_user_extension;
use kmd_iface::seam::Errno;

use crate::user;

/// Links followed before giving up with E2BIG (the kernel's limit).
const MAX_EXTENSIONS: usize = 512;

/// Calls `each(address, name)` for every extension from `first` on (0 ends the chain). A header
/// with nonzero flags or reserved words is EINVAL, an unreadable one EFAULT, and a chain longer
/// than the kernel follows E2BIG; `each` rejects the names its ioctl does not take.
pub(crate) fn walk(
    first: u64,
    mut each: impl FnMut(u64, u32) -> Result<(), Errno>,
) -> Result<(), Errno> {
    let mut next = first;
    for _ in 0..MAX_EXTENSIONS {
        if next == 0 {
            return Ok(());
        }
        let ext: i915_user_extension = user::read_val(next)?;
        if ext.flags != 0 || ext.rsvd.iter().any(|&r| r != 0) {
            return Err(Errno::EINVAL);
        }
        each(next, ext.name)?;
        next = ext.next_extension;
    }
    if next == 0 {
        Ok(())
    } else {
        Err(Errno::E2BIG)
    }
}
