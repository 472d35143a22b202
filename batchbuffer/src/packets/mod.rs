//! Every packet and memory struct, declared once with its layout on each generation.
//!
//! The declarations mirror genxml (names, dword and bit ranges) and are checked against it by
//! `tests/genxml_crosscheck.rs`.

pub mod base_address_update;
pub mod blit;
pub mod blit_legacy;
pub mod enums;
pub mod mi;
pub mod pipe_control;
pub mod state;
pub mod surface;
pub mod walker;

pub use base_address_update::*;
pub use blit::*;
pub use blit_legacy::*;
pub use enums::*;
pub use mi::*;
pub use pipe_control::*;
pub use state::*;
pub use surface::*;
pub use walker::*;
