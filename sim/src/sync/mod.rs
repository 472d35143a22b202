//! Completion tracking: fences signalled by the command streamer, DRM syncobjs holding them.
//!
//! Every waiter waits on the device's condition variable (see `device.rs`), which is notified
//! whenever a fence signals or a syncobj changes, so fences themselves only hold their status.

mod fence;
mod sync_file;
mod syncobj;

pub use fence::{Fence, FenceStatus};
pub use sync_file::SyncFiles;
pub use syncobj::{Syncobj, SyncobjTable};
