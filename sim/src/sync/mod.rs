//! Completion tracking: fences signalled by the command streamer, DRM syncobjs holding them.
//!
//! Every waiter sleeps on the device's [`Doorbell`], which rings whenever a fence signals or a
//! syncobj changes.

mod doorbell;
mod fence;
mod sync_file;
mod syncobj;

pub use doorbell::Doorbell;
pub use fence::{Fence, FenceStatus, Runner};
pub use sync_file::SyncFiles;
pub use syncobj::{SharedSyncobj, Syncobj, SyncobjTable};
