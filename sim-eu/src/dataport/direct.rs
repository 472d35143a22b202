//! Surfaces translated code reaches without a call: per binding-table index, where the
//! memory's whole-run surface accesses ([`super::Memory::surface_read_all`] and its write)
//! would copy for the offsets it holds, as a host address. A classified send whose form is
//! [`Direct`] checks the window and copies between it and the registers itself; anything
//! the window does not answer (no window, out of it, misaligned, a write to a read-only
//! binding) goes the classified send's way, then the general path's, so faults and bounds
//! stay theirs.

use std::ptr::NonNull;

use super::classified::{component_block, Base, Bytes, Lanes, Quick};
use super::{aligned, lanes_of, slm_run};
use crate::lane_mask::lane_bits;

/// Binding-table indices a window table holds (a message's BTI is an 8-bit field).
pub const WINDOWS: usize = 256;

/// One surface's window, as translated code reads it (`#[repr(C)]`: it loads the fields at
/// the offsets below). Offsets `o` with `start <= o` and `o + len <= end` (`write_end` for
/// writes) are host address `host + o`, when `base + o` meets the access's alignment rule.
/// All zero: no window (every access falls back).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DirectWindow {
    /// Host address of offset 0 (modulo 2^64: only offsets inside the window are used).
    pub host: u64,
    pub start: u64,
    /// One past the last offset a read may touch.
    pub end: u64,
    /// One past the last offset a write may touch (`start` when the binding is read-only).
    pub write_end: u64,
    /// The surface's base address, which the alignment rule is about.
    pub base: u64,
}

impl DirectWindow {
    pub const HOST: i32 = 0;
    pub const START: i32 = 8;
    pub const END: i32 = 16;
    pub const WRITE_END: i32 = 24;
    pub const BASE: i32 = 32;
    /// Bytes per entry.
    pub const SIZE: usize = std::mem::size_of::<DirectWindow>();

    /// Whether offsets `o..o + len` lie in the window for a read, or for a `write` (the
    /// alignment rule aside). Translated code checks the same in its own instructions.
    pub fn holds(&self, o: u64, len: u64, write: bool) -> bool {
        let end = if write { self.write_end } else { self.end };
        o >= self.start && o.checked_add(len).is_some_and(|e| e <= end)
    }
}

/// What a memory lets translated code do without calling it ([`super::Memory::direct_windows`]):
/// copy through its surfaces' windows, by binding-table index, and through the group's shared
/// local memory (`slm`: offsets as [`super::Memory::slm_read_all`] takes them, base 0), and
/// skip fences when its [`super::Memory::fence`] does nothing (`quiet_fences` non-zero).
/// `#[repr(C)]`: translated code loads the fields at `bti * DirectWindow::SIZE`,
/// [`DirectTable::SLM`] and [`DirectTable::QUIET_FENCES`].
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirectTable {
    pub windows: [DirectWindow; WINDOWS],
    pub slm: DirectWindow,
    pub quiet_fences: u64,
}

impl DirectTable {
    pub const SLM: i32 = (WINDOWS * DirectWindow::SIZE) as i32;
    pub const QUIET_FENCES: i32 = Self::SLM + DirectWindow::SIZE as i32;
}

/// The table a memory keeps for translated code: on the heap, reached only through a raw
/// pointer, so that code holding [`DirectWindows::as_ptr`] reads what [`DirectWindows::set`]
/// writes later.
pub struct DirectWindows {
    table: NonNull<DirectTable>,
}

// SAFETY: the table is a heap allocation owned by this value alone (as a Box would be); it is
// only read and written through `&self`/`&mut self` methods and pointers the owner hands out
// for the time it keeps the value, never shared between threads by this type.
unsafe impl Send for DirectWindows {}

impl DirectWindows {
    /// A table without windows, for a memory whose `fence` does nothing when `quiet_fences`.
    pub fn new(quiet_fences: bool) -> DirectWindows {
        let table = Box::new(DirectTable {
            windows: [DirectWindow::default(); WINDOWS],
            slm: DirectWindow::default(),
            quiet_fences: u64::from(quiet_fences),
        });
        DirectWindows {
            table: NonNull::from(Box::leak(table)),
        }
    }

    /// Makes `w` the window of `bti` (indices past the table are ignored).
    pub fn set(&mut self, bti: u32, w: DirectWindow) {
        if (bti as usize) < WINDOWS {
            // SAFETY: the table is alive and `bti` indexes its windows; written through the
            // raw pointer alone, as translated code reads it.
            unsafe {
                std::ptr::addr_of_mut!((*self.table.as_ptr()).windows)
                    .cast::<DirectWindow>()
                    .add(bti as usize)
                    .write(w)
            };
        }
    }

    /// Makes `w` the shared local memory's window.
    pub fn set_slm(&mut self, w: DirectWindow) {
        // SAFETY: the table is alive; written through the raw pointer alone.
        unsafe { std::ptr::addr_of_mut!((*self.table.as_ptr()).slm).write(w) };
    }

    /// The table: valid for reads while this value lives (it never moves).
    pub fn as_ptr(&self) -> *const DirectTable {
        self.table.as_ptr()
    }
}

impl Drop for DirectWindows {
    fn drop(&mut self) {
        // SAFETY: the Box `new` leaked, dropped once here.
        drop(unsafe { Box::from_raw(self.table.as_ptr()) });
    }
}

/// A table with no window and fences that must be called, for memories that keep none: every
/// direct access falls back.
pub static NO_WINDOWS: DirectTable = DirectTable {
    windows: [DirectWindow {
        host: 0,
        start: 0,
        end: 0,
        write_end: 0,
        base: 0,
    }; WINDOWS],
    slm: DirectWindow {
        host: 0,
        start: 0,
        end: 0,
        write_end: 0,
        base: 0,
    },
    quiet_fences: 0,
};

/// A classified send translated code may perform through a window: every one of `lanes`
/// channels enabled, `len` bytes between surface `bti` at `offset` and the registers at
/// `data_at`, the offset's start and end checked against the window and `base + offset`
/// against `align`. Anything else is the classified send's (`super::quick::run`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Direct {
    pub write: bool,
    pub space: DirectSpace,
    /// Channels of the send, all of which must be enabled.
    pub lanes: u8,
    pub offset: Offset,
    pub data_at: u16,
    pub len: u16,
    pub align: u8,
}

/// What a [`Direct`] access's offset is into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirectSpace {
    /// The surface at this binding-table index.
    Bti(u8),
    /// The group's shared local memory: an offset whose run fits in 32 bits, masked to its
    /// `mask` (the platform's SLM address bits), then the SLM's window.
    Slm { mask: u32 },
}

/// Where a [`Direct`] access's offset comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offset {
    /// Untyped lanes of `vec` DWords each (channels x to xyzw): lane `i`'s 32-bit offset at
    /// GRF byte `at + 4 i` must be lane 0's plus `4 vec i` (without wrapping past 2^32); the
    /// access starts at lane 0's plus `chan_off`. In memory the lanes' vectors follow each
    /// other; in the registers component `k` of lane `i` is at `data_at + k component + 4 i`
    /// (`component`: whole registers of a DWord per lane).
    Lanes {
        at: u16,
        chan_off: u8,
        vec: u8,
        component: u16,
    },
    /// An OWord block: the header DWord at GRF byte `at`, shifted left by `shift` (4 for the
    /// aligned forms, which count OWords).
    Header { at: u16, shift: u8 },
}

impl Direct {
    /// The channel mask the access needs (every channel of the send).
    pub fn all(&self) -> u32 {
        lane_bits(self.lanes)
    }

    /// One past the last register-file byte the access reads or writes.
    pub fn extent(&self) -> usize {
        let offsets = match self.offset {
            Offset::Lanes { at, .. } => usize::from(at) + 4 * usize::from(self.lanes),
            Offset::Header { at, .. } => usize::from(at) + 4,
        };
        offsets.max(self.data_bytes().1)
    }

    /// The register-file bytes `lo..hi` holding the data the access reads or writes.
    pub fn data_bytes(&self) -> (usize, usize) {
        let len = match self.offset {
            Offset::Lanes { vec, component, .. } if vec > 1 => {
                usize::from(vec) * usize::from(component)
            }
            _ => usize::from(self.len),
        };
        let lo = usize::from(self.data_at);
        (lo, lo + len)
    }
}

/// The direct form of `q`: one, two or four DWords per lane (one lane, or lanes four at a
/// time), or an OWord block, through a binding-table index or into shared local memory,
/// with 32-bit offsets, whole DWords and a power-of-two alignment: the shapes translated
/// code copies.
pub fn direct(q: Quick) -> Option<Direct> {
    direct_any(q).filter(|d| {
        let lanes_fit = match d.offset {
            Offset::Lanes { vec: 1, .. } => d.lanes == 1 || d.lanes.is_multiple_of(4),
            Offset::Lanes { vec, .. } => matches!(vec, 2 | 4) && d.lanes.is_multiple_of(4),
            Offset::Header { .. } => true,
        };
        lanes_fit && d.align.is_power_of_two() && d.len.is_multiple_of(4)
    })
}

/// [`direct`] of any shape.
fn direct_any(q: Quick) -> Option<Direct> {
    match q {
        Quick::Lanes(l) => {
            let space = space(l.base)?;
            (l.addr_bytes == 4).then_some(Direct {
                write: l.write,
                space,
                lanes: l.lanes,
                offset: Offset::Lanes {
                    at: l.addr_at,
                    chan_off: l.chan_off,
                    vec: l.vec,
                    component: component_block(usize::from(l.lanes)) as u16,
                },
                data_at: l.data_at,
                len: 4 * u16::from(l.vec) * u16::from(l.lanes),
                align: l.align,
            })
        }
        Quick::Block(b) => {
            let space = space(b.base)?;
            b.base_offset_at.is_none().then_some(Direct {
                write: b.write,
                space,
                lanes: b.lanes,
                offset: Offset::Header {
                    at: b.offset_at,
                    shift: if b.in_owords { 4 } else { 0 },
                },
                data_at: b.data_at,
                len: b.bytes,
                align: b.align,
            })
        }
        Quick::Nothing | Quick::Barrier | Quick::Fence(_) | Quick::Bytes(_) => None,
    }
}

/// The enabled lanes `mask` of the untyped message `l` (32-bit lane offsets, any order), each
/// lane's vector copied through the window of `table` its base names, as the memory's
/// whole-run accesses of one lane each would copy it (a gather from a local-memory tile, a
/// scatter into one, a tail of partly enabled lanes): true when every enabled lane's access
/// lies in the window at its alignment rule and every lane was copied, in lane order; false,
/// having changed nothing, otherwise (no window, a lane out of it, misaligned, a write to a
/// read-only binding): the memory's own path then runs the message.
///
/// # Safety
/// `table` is a memory's [`super::Memory::direct_windows`] table, read while that memory
/// lives and is not otherwise used: its windows' host addresses are then valid for the
/// accesses they admit.
pub(crate) unsafe fn lanes_through(
    table: &DirectTable,
    file: &mut [u8],
    l: &Lanes,
    mask: u32,
) -> bool {
    let (w, slm) = match l.base {
        Base::Bti(b) => (&table.windows[usize::from(b)], None),
        Base::Slm(p) => (&table.slm, Some(p)),
        Base::Flat => return false,
    };
    if l.addr_bytes != 4 || l.vec == 0 || w.end <= w.start || mask == 0 {
        return false;
    }
    let vec = usize::from(l.vec);
    let len = 4 * vec as u64;
    let blk = component_block(usize::from(l.lanes));
    let data = usize::from(l.data_at);
    let addr_at = usize::from(l.addr_at);
    let lanes = 32 - mask.leading_zeros() as usize;
    // Every register byte the copy touches, checked once.
    let regs_end = data + (vec - 1) * blk + 4 * lanes;
    if regs_end > file.len() || addr_at + 4 * lanes > file.len() {
        return false;
    }
    let align = u64::from(l.align);
    // All lanes' host addresses first: a read's response may overwrite the offsets.
    let mut host = [0u64; 32];
    for i in lanes_of(mask) {
        let Some(a) = dword(file, addr_at + 4 * i) else {
            return false;
        };
        let a = u64::from(u32::from_le(a));
        let off = a + u64::from(l.chan_off);
        // The offset in the window: a surface's rule is the alignment of its base plus the
        // offset; shared local memory's is the lane address's, then its address bits.
        let o = match slm {
            None if aligned(w.base.wrapping_add(off), align) => off,
            Some(p) if aligned(a, align) => match slm_run(p, off, len as usize) {
                Some(o) => u64::from(o),
                None => return false,
            },
            _ => return false,
        };
        let h = w.host.wrapping_add(o);
        if !w.holds(o, len, l.write) || !h.is_multiple_of(4) {
            return false;
        }
        host[i] = h;
    }
    for i in lanes_of(mask) {
        for k in 0..vec {
            let r = data + k * blk + 4 * i;
            let p = host[i].wrapping_add(4 * k as u64) as *mut u32;
            if l.write {
                let v = dword(file, r).unwrap_or(0);
                // SAFETY: `p` lies in the window (checked above), whose host bytes the
                // caller vouches for, and is 4-byte aligned; volatile, as the memory's own
                // copies: other threads may access the same memory.
                unsafe { p.write_volatile(v) };
            } else if let Some(d) = file.get_mut(r..r + 4) {
                // SAFETY: as for the write.
                let v = unsafe { p.read_volatile() };
                d.copy_from_slice(&v.to_ne_bytes());
            }
        }
    }
    true
}

/// [`lanes_through`] for the byte scattered message `b` (any alignment): each enabled lane's
/// `size` bytes copied through the window of its surface, reads zero-extended into the lane's
/// DWord once every lane's bytes were read, writes in lane order after every lane was checked;
/// false, having changed nothing, when a lane's bytes are not all in the window.
///
/// # Safety
/// As [`lanes_through`]'s.
pub(crate) unsafe fn bytes_through(
    table: &DirectTable,
    file: &mut [u8],
    b: &Bytes,
    mask: u32,
) -> bool {
    let w = &table.windows[usize::from(b.bti)];
    let size = usize::from(b.size);
    let (addr_at, data_at) = (usize::from(b.addr_at), usize::from(b.data_at));
    let lanes = 32 - mask.leading_zeros() as usize;
    if w.end <= w.start || mask == 0 || size > 4 || file.len() < addr_at.max(data_at) + 4 * lanes {
        return false;
    }
    let mut host = [0u64; 32];
    for i in lanes_of(mask) {
        let Some(o) = dword(file, addr_at + 4 * i) else {
            return false;
        };
        let o = u64::from(u32::from_le(o));
        if !w.holds(o, size as u64, b.write) {
            return false;
        }
        host[i] = w.host.wrapping_add(o);
    }
    if b.write {
        for i in lanes_of(mask) {
            for k in 0..size {
                let p = host[i].wrapping_add(k as u64) as *mut u8;
                // SAFETY: `p` lies in the window (checked above), whose host bytes the caller
                // vouches for; volatile, as the memory's own copies: other threads may access
                // the same memory.
                unsafe { p.write_volatile(file[data_at + 4 * i + k]) };
            }
        }
        return true;
    }
    let mut got = [[0u8; 4]; 32];
    for i in lanes_of(mask) {
        for (k, g) in got[i][..size].iter_mut().enumerate() {
            let p = host[i].wrapping_add(k as u64) as *const u8;
            // SAFETY: as for the writes above.
            *g = unsafe { p.read_volatile() };
        }
    }
    for i in lanes_of(mask) {
        file[data_at + 4 * i..data_at + 4 * i + 4].copy_from_slice(&got[i]);
    }
    true
}

/// The 4 bytes at `at` of `file` as they lie in memory (native order).
#[inline(always)]
fn dword(file: &[u8], at: usize) -> Option<u32> {
    let b: [u8; 4] = file.get(at..at + 4)?.try_into().ok()?;
    Some(u32::from_ne_bytes(b))
}

/// The direct space of a classified send's base: flat addresses have none.
fn space(base: Base) -> Option<DirectSpace> {
    match base {
        Base::Bti(b) => Some(DirectSpace::Bti(b)),
        Base::Slm(p) => Some(DirectSpace::Slm {
            mask: super::slm::address(p, u32::MAX),
        }),
        Base::Flat => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_reads_back_what_was_set_and_ignores_indices_past_it() {
        let mut t = DirectWindows::new(true);
        let w = DirectWindow {
            host: 0x1000,
            start: 4,
            end: 64,
            write_end: 4,
            base: 0x8000,
        };
        t.set(7, w);
        t.set(WINDOWS as u32, w);
        // SAFETY: a live table.
        let table = unsafe { *t.as_ptr() };
        assert_eq!(table.windows[0], DirectWindow::default());
        assert_eq!(table.windows[7], w);
        assert_eq!(table.quiet_fences, 1);
        let loud = DirectWindows::new(false);
        // SAFETY: a live table.
        assert_eq!(unsafe { (*loud.as_ptr()).quiet_fences }, 0);
    }

    #[test]
    fn field_offsets_are_the_ones_translated_code_loads() {
        let w = DirectWindow::default();
        let at = |f: &u64| (f as *const u64 as usize - &w as *const _ as usize) as i32;
        assert_eq!(at(&w.host), DirectWindow::HOST);
        assert_eq!(at(&w.start), DirectWindow::START);
        assert_eq!(at(&w.end), DirectWindow::END);
        assert_eq!(at(&w.write_end), DirectWindow::WRITE_END);
        assert_eq!(at(&w.base), DirectWindow::BASE);
        assert_eq!(DirectWindow::SIZE, 40);
        let t = &NO_WINDOWS;
        let at = (&t.quiet_fences as *const u64 as usize) - (t as *const DirectTable as usize);
        assert_eq!(at as i32, DirectTable::QUIET_FENCES);
        let at = (&t.slm as *const DirectWindow as usize) - (t as *const DirectTable as usize);
        assert_eq!(at as i32, DirectTable::SLM);
    }
}
