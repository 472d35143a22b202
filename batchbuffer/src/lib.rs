//! Compute command packets for Gen9, Gen11, Gen12LP and Xe-HPG, the batch builder and the decoder.
//! Start reading: `packets/` (one declaration per packet), then `builder/` for a dispatch.
//!
//! Three parts: [`packets`] (every compute packet, declared once per generation), [`builder`]
//! (programs dispatches into caller memory, deriving the walker from the SIMD width) and
//! [`decode`] (bytes to a Mesa-style listing, behind `intel-gpu-run decode-batch`).
//!
//! # Packets
//! Each packet (and memory struct such as `INTERFACE_DESCRIPTOR_DATA`) is declared once in
//! [`packets`] with the `packet!` DSL: a Rust struct whose fields carry genxml's names, plus a
//! [`Layout`] saying where each field sits on each generation. Every packet implements
//! [`Packet`]:
//! - [`Packet::pack`]`(&self, platform, &mut [u32]) -> Result<usize, Error>` writes the packet
//!   (header and DWord Length included) and returns its length in dwords;
//! - [`Packet::unpack`]`(platform, &[u32]) -> Result<Self, Error>` reads it back, checking the
//!   header.
//!
//! Neither panics: a short buffer, a value that does not fit its field, a misaligned address, an
//! undefined enum value, a wrong header or a packet or field the generation lacks is an
//! [`Error`]. A field a generation lacks reads as its default and must be left at its default
//! when packing.
//!
//! # Identifying commands (stable API)
//! [`identify()`]`(platform, &[u32])` looks at the header dword at the start of the slice and
//! returns an [`Identified`]: which [`PacketId`] it is and its length in dwords (the header's
//! DWord Length plus the packet's bias, or the fixed length of one-dword commands). It fails with
//! [`IdentifyError::Empty`], [`IdentifyError::UnknownOpcode`] or [`IdentifyError::Truncated`]
//! (positions are relative to the slice start; callers add their offset). A command streamer
//! loop is:
//! ```
//! use batchbuffer::{identify, PacketId, Packet, MiStoreDataImm};
//! use platform::Platform;
//! let batch = [0x1000_0002u32, 0x1000, 0, 42, 0x0500_0000];
//! let id = identify(Platform::Tgllp, &batch).unwrap();
//! assert_eq!((id.packet, id.len), (PacketId::MiStoreDataImm, 4));
//! let sdi = MiStoreDataImm::unpack(Platform::Tgllp, &batch).unwrap();
//! assert_eq!((sdi.address, sdi.immediate_data), (0x1000, 42));
//! ```

#[macro_use]
mod macros;

pub mod builder;
pub mod codec;
pub mod decode;
pub mod error;
pub mod identify;
pub mod layout;
pub mod mip;
pub mod packets;
pub mod repeat;
pub mod surface_format;
pub mod value;

pub use codec::Packet;
pub use error::{Error, IdentifyError};
pub use identify::{identify, Identified, PacketId};
pub use layout::{FieldDesc, GenSet, Kind, Layout, Loc};
pub use packets::*;
pub use repeat::Repeat;
