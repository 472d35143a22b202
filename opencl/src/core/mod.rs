//! The OpenCL objects and their rules, free of the C ABI (never naming [`crate::api`]): the
//! generic handle every object lives in ([`handle`]), each object family, what the platform
//! and devices report ([`facts`], [`extensions`], [`identity`], [`info`]), how commands
//! run on a queue ([`queue`], [`event`], [`failure`]), and the commands that move memory
//! ([`transfer`]).

pub mod accelerator;
pub mod build;
pub mod context;
pub mod destructors;
pub mod device;
pub mod device_info;
pub mod device_uuid;
pub mod event;
pub mod extensions;
pub mod facts;
pub mod failure;
pub mod handle;
pub mod host_ptr;
pub mod identity;
pub mod image;
pub mod image_desc;
pub mod image_formats;
pub mod image_from_buffer;
pub mod image_plane;
pub mod info;
pub mod kernel;
pub mod kernel_args;
pub mod kernel_info;
pub mod link;
pub mod memory;
pub mod ndrange;
pub mod platform;
pub mod program;
pub mod queue;
pub mod queue_family;
pub mod reason;
pub mod sampler;
pub mod spin;
pub mod timer;
pub mod transfer;
pub mod usm;
pub mod usm_alloc;
