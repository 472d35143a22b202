//! The forms a classified send takes (`super::quick` classifies and runs them; the memory's
//! windows, `super::direct`, copy the commonest), kept apart so that both read them.

use platform::Platform;

/// Where a classified message's per-lane addresses point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// Virtual addresses (A64, or LSC flat on UGM).
    Flat,
    /// Offsets into the surface at this binding-table index.
    Bti(u8),
    /// Shared local memory offsets (the platform's SLM address rule).
    Slm(Platform),
}

/// A classified send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quick {
    /// Changes neither registers nor memory (end of thread, a non-barrier gateway message).
    Nothing,
    /// The gateway's barrier signal: the thread's barrier is pending and the memory is told
    /// ([`super::Memory::barrier_signal`]); the response registers keep their contents.
    Barrier,
    /// A fence (true: of global memory beyond the work-group, [`super::fence_is_global`]): the
    /// memory is told, the response registers keep their contents.
    Fence(bool),
    /// `vec` DWords per lane at per-lane addresses: lane `i` accesses `vec` DWords at `base +
    /// address[i] + chan_off`; component `k` of lane `i` is register DWord `i` of block `k`
    /// of the data (stores) or response (loads).
    Lanes(Lanes),
    /// An OWord block read or write through a binding-table entry (DC0 0x00, 0x01, 0x08: what
    /// IGC emits for `intel_sub_group_block_read`/`write`): one run of bytes between memory
    /// and consecutive registers.
    Block(Block),
    /// An HDC byte scattered read or write through a binding-table entry (DC0 0x04, 0x0C: what
    /// IGC emits for `half` and `char` elements it cannot read as DWords): lane `i` accesses
    /// `size` bytes at the surface's offset `address[i]`, the low bytes of register DWord `i`
    /// of the data (stores) or response (loads, whose other bytes are zero).
    Bytes(Bytes),
}

/// A classified OWord block message (see [`Quick::Block`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    pub write: bool,
    /// The surface, or shared local memory.
    pub base: Base,
    /// Channels of the send: every one must be enabled (a masked block moves only some
    /// DWords, the general path's case).
    pub lanes: u8,
    /// GRF byte of the header's DWord 2, the offset.
    pub offset_at: u16,
    /// The offset counts OWords (the aligned forms) rather than bytes.
    pub in_owords: bool,
    /// GRF byte of the header's Buffer Base Offset DWord, added to the offset (stateless
    /// blocks where the platform adds it: [`super::scratch::adds_block_base_offset`]).
    pub base_offset_at: Option<u16>,
    /// GRF byte of the data (writes) or of where the response lands (reads).
    pub data_at: u16,
    pub bytes: u16,
    /// The alignment rule of the block's address.
    pub align: u8,
}

/// A classified byte scattered message (see [`Quick::Bytes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bytes {
    pub write: bool,
    /// The binding-table index of the surface.
    pub bti: u8,
    /// Lanes the payload lays out (8 or 16).
    pub lanes: u8,
    /// Bytes per lane: 1, 2 or 4.
    pub size: u8,
    /// GRF byte of lane 0's 32-bit offset.
    pub addr_at: u16,
    /// GRF byte of lane 0's data DWord (stores) or response DWord (loads).
    pub data_at: u16,
}

/// A 32-bit-per-component read or write of one to four components per lane (see
/// [`Quick::Lanes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lanes {
    pub write: bool,
    pub base: Base,
    /// Lanes the payload lays out; all of them must be enabled.
    pub lanes: u8,
    /// Bytes per address (4 or 8).
    pub addr_bytes: u8,
    /// GRF byte of lane 0's address.
    pub addr_at: u16,
    /// Byte added to every lane's address (the enabled untyped channel times 4).
    pub chan_off: u8,
    /// DWords per lane, back to back in memory (untyped channels x to xyzw, an LSC vector of
    /// 1 to 4); in the registers component `k` of every lane is block `k`
    /// (`component_block`).
    pub vec: u8,
    /// GRF byte of lane 0's store data, or of the response.
    pub data_at: u16,
    /// The alignment rule of the run's first address (the general path checks it per lane).
    pub align: u8,
}

/// Bytes of one component's block in the registers: a DWord per lane, whole registers.
pub(crate) fn component_block(lanes: usize) -> usize {
    super::hdc::block(lanes, 4)
}
