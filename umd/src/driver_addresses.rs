//! The GPU addresses of the driver's own allocations a kernel's payload refers to: set when
//! the kernel is made resident on a device and completed per dispatch. Its own file so a
//! kernel's device-side state holds them without depending on the payload builder.

/// GPU addresses of the driver's own allocations the payload refers to.
#[derive(Debug, Clone, Copy, Default)]
pub struct DriverAddresses {
    pub private_base: u64,
    pub constant_base: u64,
    pub global_base: u64,
    /// Bytes of the private, constant and global allocations (their surfaces' sizes).
    pub private_size: u64,
    pub constant_size: u64,
    pub global_size: u64,
    /// The dispatch's printf buffer (0 when the kernel does not call printf).
    pub printf_base: u64,
    pub printf_size: u64,
}
