//! The Linux `_IOW`/`_IOWR` request-number encoding, in one place (delegating to nix's macros).

/// `'d'`: the DRM ioctl type byte (`DRM_IOCTL_BASE`).
pub const DRM_IOCTL_BASE: u8 = b'd';
/// First driver-private ioctl number (`DRM_COMMAND_BASE`).
pub const DRM_COMMAND_BASE: u32 = 0x40;

/// `DRM_IO(nr)`: an ioctl without an argument.
#[allow(clippy::unnecessary_cast)]
pub const fn drm_io(nr: u32) -> u64 {
    nix::request_code_none!(DRM_IOCTL_BASE, nr) as u64
}

/// `DRM_IOW(nr, T)` for an argument of `size` bytes.
// nix's request type is c_ulong on glibc but c_int elsewhere: the casts are not always no-ops.
#[allow(clippy::unnecessary_cast)]
pub const fn drm_iow(nr: u32, size: usize) -> u64 {
    nix::request_code_write!(DRM_IOCTL_BASE, nr, size) as u64
}

/// `DRM_IOWR(nr, T)` for an argument of `size` bytes.
#[allow(clippy::unnecessary_cast)]
pub const fn drm_iowr(nr: u32, size: usize) -> u64 {
    nix::request_code_readwrite!(DRM_IOCTL_BASE, nr, size) as u64
}

/// The argument size encoded in a request number (`_IOC_SIZE`).
#[allow(clippy::unnecessary_cast)]
pub const fn arg_size(request: u64) -> usize {
    use nix::sys::ioctl::{SIZEMASK, SIZESHIFT};
    ((request >> SIZESHIFT as u64) & SIZEMASK as u64) as usize
}

/// Description of one ioctl, collected into each module's `IOCTLS` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoctlInfo {
    /// The C macro's name, e.g. `DRM_IOCTL_I915_GETPARAM`.
    pub name: &'static str,
    pub request: u64,
    /// The argument struct's Rust (and C) name.
    pub arg: &'static str,
    pub arg_size: usize,
}

/// Defines `pub const NAME: u64` request numbers and a table describing them.
macro_rules! ioctls {
    ($table:ident; $( $(#[doc = $doc:literal])* $name:ident = $dir:ident($nr:expr, $arg:ident); )*) => {
        $(
            $(#[doc = $doc])*
            pub const $name: u64 = $crate::ioc::$dir($nr, ::core::mem::size_of::<$arg>());
        )*
        /// Every ioctl this module defines (checked against the headers by the layout test).
        pub const $table: &[$crate::ioc::IoctlInfo] = &[
            $( $crate::ioc::IoctlInfo {
                name: stringify!($name),
                request: $name,
                arg: stringify!($arg),
                arg_size: ::core::mem::size_of::<$arg>(),
            }, )*
        ];
    };
}
pub(crate) use ioctls;

/// The name of a request number from any module's table, for errors and logs.
pub fn ioctl_name(request: u64) -> Option<&'static str> {
    crate::all_ioctls()
        .find(|i| i.request == request)
        .map(|i| i.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_matches_the_linux_layout() {
        // _IOWR('d', 0x46, 16 bytes): dir 3 << 30 | size 16 << 16 | 'd' << 8 | nr.
        assert_eq!(drm_iowr(0x46, 16), 0xC010_6446);
        // _IOW('d', 0x09, 8 bytes): dir 1 << 30.
        assert_eq!(drm_iow(0x09, 8), 0x4008_6409);
        assert_eq!(arg_size(0xC010_6446), 16);
    }

    #[test]
    fn every_request_number_names_one_ioctl() {
        let mut all: Vec<(u64, &str)> = crate::all_ioctls().map(|i| (i.request, i.name)).collect();
        let n = all.len();
        all.sort();
        all.dedup_by_key(|(r, _)| *r);
        assert_eq!(all.len(), n, "two ioctls share a request number");
        for i in crate::all_ioctls() {
            assert_eq!(arg_size(i.request), i.arg_size, "{}", i.name);
            assert_eq!(ioctl_name(i.request), Some(i.name));
        }
    }
}
