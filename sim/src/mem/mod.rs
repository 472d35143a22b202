//! GPU memory: buffer objects and per-VM GPU virtual address spaces.
//!
//! A [`Bo`]'s pages are the very bytes a CPU mmap of it shows, so the GPU and the CPU see one
//! memory; a userptr [`Bo`] is a [`HostRange`] of the host process's own pages, reached through
//! fault-checked copies. An [`AddressSpace`] maps 4 KiB pages of a 48-bit GPU VA range onto BO pages; every GPU
//! access goes through it, and an access outside a binding reaches what its [`PageTables`] put
//! there (a [`GpuFault`], zeros, or the VM's scratch page), never a host access.

mod bo;
pub use sim_eu::tiling;
mod vm;

pub use bo::{share_bo_pages, Bo, BoAccessError, BoError, HostRange, SharedPages};
pub use vm::{
    Access, AddressSpace, BindError, Binding, GpuFault, PageTables, Unbound, PAGE_SIZE, VA_BITS,
    VA_MASK,
};
