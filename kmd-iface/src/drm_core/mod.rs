//! Core DRM ioctls shared by i915 and xe.

pub mod gem;
pub mod syncobj;
pub mod uapi;
pub mod version;

pub use gem::{gem_close, prime_fd_to_handle, prime_handle_to_fd};
pub use syncobj::{
    monotonic_now_ns, syncobj_create, syncobj_destroy, syncobj_fd_to_handle, syncobj_handle_to_fd,
    syncobj_query, syncobj_reset, syncobj_signal, syncobj_timeline_signal, syncobj_wait,
    SyncobjWait,
};
pub use version::{version, Version};
