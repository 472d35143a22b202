//! One GPU virtual address space: a page-granular map from 48-bit GPU VAs to BO pages.
//!
//! Bindings are kept as page-aligned ranges ordered by start address, which is a page table with
//! every run of consecutive PTEs onto consecutive BO pages stored once. Lookups find the binding
//! covering a page in O(log n); accesses that straddle bindings are split per binding.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use super::Bo;

/// GPU page size: every binding starts and ends on it.
pub const PAGE_SIZE: u64 = 4096;
/// Width of a GPU virtual address (4-level PPGTT).
pub const VA_BITS: u32 = 48;
/// The bits of a GPU virtual address the page tables translate: commands may carry an
/// address in canonical form (bit 47 copied up into 63:48), which the hardware ignores.
pub const VA_MASK: u64 = (1 << VA_BITS) - 1;
const VA_LIMIT: u64 = 1 << VA_BITS;

/// The direction of a faulting access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// What an address no binding covers reaches: the page tables' unused PTEs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unbound {
    /// No valid PTE: the access is a page fault.
    #[default]
    Fault,
    /// Reads return zero and writes are dropped: xe's NULL PTE, or a scratch page mapped
    /// read-only that nothing can write.
    Zero,
    /// One writable 4 KiB scratch page per address space behind every unbound page: writes
    /// land in it and later reads of any unbound address see them at the same page offset.
    Page,
}

/// How an address space's page tables treat the accesses no writable binding takes (see
/// `DeviceInfo::i915_ppgtt` and xe's `vm::create` for what each driver sets up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PageTables {
    pub unbound: Unbound,
    /// A write through a read-only binding is dropped without stopping the engine, rather
    /// than faulting.
    pub drop_read_only_writes: bool,
}

/// A GPU access that no binding covers (or a write to a read-only binding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("GPU page fault: {access:?} of {len} bytes at {address:#x}")]
pub struct GpuFault {
    /// The first byte of the access that has no valid translation.
    pub address: u64,
    pub len: usize,
    pub access: Access,
}

/// Why a bind or unbind was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BindError {
    #[error("address {0:#x}, size or BO offset is not 4 KiB aligned, or the size is zero")]
    Unaligned(u64),
    #[error("range {start:#x}+{len:#x} does not fit the 48-bit address space or the BO")]
    OutOfRange { start: u64, len: u64 },
    #[error("range {start:#x}+{len:#x} overlaps an existing binding at {existing:#x}")]
    Overlap { start: u64, len: u64, existing: u64 },
}

/// A run of GPU pages mapped onto consecutive pages of one BO.
#[derive(Clone)]
pub struct Binding {
    pub start: u64,
    pub len: u64,
    pub bo: Arc<Bo>,
    pub bo_offset: u64,
    pub read_only: bool,
}

impl Binding {
    fn end(&self) -> u64 {
        self.start + self.len
    }
}

impl fmt::Debug for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:#x}..{:#x} -> bo@{:p}+{:#x}{}",
            self.start,
            self.end(),
            Arc::as_ptr(&self.bo),
            self.bo_offset,
            if self.read_only { " ro" } else { "" }
        )
    }
}

/// The memory behind [`Unbound::Page`]: shared by every snapshot of its address space.
#[derive(Clone)]
struct ScratchPage(Arc<Mutex<Box<[u8]>>>);

impl ScratchPage {
    fn new() -> Self {
        ScratchPage(Arc::new(Mutex::new(vec![0; PAGE_SIZE as usize].into())))
    }

    fn bytes(&self) -> std::sync::MutexGuard<'_, Box<[u8]>> {
        // The page holds plain bytes: a panic elsewhere cannot leave it inconsistent.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl fmt::Debug for ScratchPage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "scratch page @{:p}", Arc::as_ptr(&self.0))
    }
}

/// One contiguous piece of an access, as the page tables translate it.
enum Piece<'a> {
    /// Bytes of a BO from this offset.
    Bo(&'a Bo, u64),
    /// Nothing behind it: reads return zero, writes are dropped.
    Zero,
    /// The scratch page from this offset.
    Scratch(&'a ScratchPage, usize),
}

/// A GPU virtual address space. Cloning it snapshots the bindings (the BOs and the scratch
/// page are shared): the map is shared until one side changes it, so the snapshot every
/// submission takes costs no copy, and a bind copies the map only while a request still
/// holds an older snapshot.
#[derive(Debug, Default, Clone)]
pub struct AddressSpace {
    map: Arc<BTreeMap<u64, Binding>>,
    tables: PageTables,
    /// The page behind unbound addresses when `tables.unbound` is [`Unbound::Page`].
    scratch: Option<ScratchPage>,
}

impl AddressSpace {
    /// An address space where every access outside a binding faults.
    pub fn new() -> Self {
        Self::default()
    }

    /// An address space whose page tables treat unbound and read-only accesses as `tables`.
    pub fn with_page_tables(tables: PageTables) -> Self {
        AddressSpace {
            map: Arc::default(),
            tables,
            scratch: (tables.unbound == Unbound::Page).then(ScratchPage::new),
        }
    }

    /// Maps `[start, start+len)` onto `bo` from `bo_offset`. The range must be free. A
    /// read-only BO (a read-only userptr) is always bound read-only.
    pub fn bind(
        &mut self,
        start: u64,
        len: u64,
        bo: Arc<Bo>,
        bo_offset: u64,
        read_only: bool,
    ) -> Result<(), BindError> {
        if len == 0 || !(start | len | bo_offset).is_multiple_of(PAGE_SIZE) {
            return Err(BindError::Unaligned(start));
        }
        let end = start.checked_add(len).filter(|&e| e <= VA_LIMIT);
        let bo_end = bo_offset.checked_add(len).filter(|&e| e <= bo.size());
        if end.is_none() || bo_end.is_none() {
            return Err(BindError::OutOfRange { start, len });
        }
        if let Some(existing) = self.first_overlap(start, len) {
            return Err(BindError::Overlap {
                start,
                len,
                existing,
            });
        }
        let read_only = read_only || bo.is_read_only();
        Arc::make_mut(&mut self.map).insert(
            start,
            Binding {
                start,
                len,
                bo,
                bo_offset,
                read_only,
            },
        );
        Ok(())
    }

    /// Start of the first binding that intersects `[start, start+len)`, if any.
    pub fn first_overlap(&self, start: u64, len: u64) -> Option<u64> {
        let end = start.saturating_add(len);
        if let Some((_, b)) = self.map.range(..=start).next_back() {
            if b.end() > start {
                return Some(b.start);
            }
        }
        self.map.range(start..end).next().map(|(&s, _)| s)
    }

    /// Removes every mapping of pages in `[start, start+len)`, splitting bindings that straddle
    /// the range's edges. Unmapped pages in the range are not an error (as xe's UNMAP).
    pub fn unbind(&mut self, start: u64, len: u64) -> Result<(), BindError> {
        if len == 0 || !(start | len).is_multiple_of(PAGE_SIZE) {
            return Err(BindError::Unaligned(start));
        }
        let end = start
            .checked_add(len)
            .filter(|&e| e <= VA_LIMIT)
            .ok_or(BindError::OutOfRange { start, len })?;
        let hit: Vec<u64> = self
            .map
            .range(..end)
            .rev()
            .take_while(|(_, b)| b.end() > start)
            .map(|(&s, _)| s)
            .collect();
        for s in hit {
            let Some(b) = Arc::make_mut(&mut self.map).remove(&s) else {
                continue;
            };
            if b.start < start {
                let keep = Binding {
                    len: start - b.start,
                    ..b.clone()
                };
                Arc::make_mut(&mut self.map).insert(keep.start, keep);
            }
            if b.end() > end {
                let cut = end - b.start;
                let keep = Binding {
                    start: end,
                    len: b.len - cut,
                    bo_offset: b.bo_offset + cut,
                    ..b.clone()
                };
                Arc::make_mut(&mut self.map).insert(keep.start, keep);
            }
        }
        Ok(())
    }

    /// Removes every binding of `bo` (its handle was closed, or it is being re-pinned).
    pub fn unbind_bo(&mut self, bo: &Arc<Bo>) {
        // Unchanged maps stay shared with the snapshots of running requests.
        if self.map.values().any(|b| Arc::ptr_eq(&b.bo, bo)) {
            Arc::make_mut(&mut self.map).retain(|_, b| !Arc::ptr_eq(&b.bo, bo));
        }
    }

    /// The bindings of `bo`, lowest address first.
    pub fn bindings_of<'a>(&'a self, bo: &'a Arc<Bo>) -> impl Iterator<Item = &'a Binding> + 'a {
        self.map.values().filter(move |b| Arc::ptr_eq(&b.bo, bo))
    }

    /// All bindings, lowest address first.
    pub fn bindings(&self) -> impl Iterator<Item = &Binding> {
        self.map.values()
    }

    /// The binding containing `va` (its high bits ignored, as the hardware does): callers
    /// that access the same buffer many times keep it instead of walking the map each time.
    pub fn binding_at(&self, va: u64) -> Option<&Binding> {
        self.lookup(va & (VA_LIMIT - 1))
    }

    /// The binding containing `va` (already reduced to 48 bits).
    fn lookup(&self, va: u64) -> Option<&Binding> {
        self.map
            .range(..=va)
            .next_back()
            .map(|(_, b)| b)
            .filter(|b| b.end() > va)
    }

    /// Visits the contiguous pieces of `[va, va+len)`: (piece, its start in the access, its
    /// length). Stops with a fault at the first byte without a valid translation.
    fn walk(
        &self,
        va: u64,
        len: usize,
        access: Access,
        mut f: impl FnMut(Piece<'_>, usize, usize),
    ) -> Result<(), GpuFault> {
        let va = va & (VA_LIMIT - 1);
        let mut done = 0usize;
        while done < len {
            let addr = va + done as u64;
            let fault = GpuFault {
                address: addr,
                len: len - done,
                access,
            };
            if addr >= VA_LIMIT {
                return Err(fault);
            }
            let Some(b) = self.lookup(addr) else {
                let piece = match (self.tables.unbound, &self.scratch) {
                    (Unbound::Zero, _) => Piece::Zero,
                    (Unbound::Page, Some(page)) => {
                        Piece::Scratch(page, (addr % PAGE_SIZE) as usize)
                    }
                    (Unbound::Fault, _) | (Unbound::Page, None) => return Err(fault),
                };
                // Up to the next binding, and within one page of the scratch page.
                let next = self
                    .map
                    .range(addr..)
                    .next()
                    .map_or(VA_LIMIT, |(&s, _)| s)
                    .min((addr | (PAGE_SIZE - 1)) + 1);
                let n = usize::try_from(next - addr)
                    .unwrap_or(usize::MAX)
                    .min(len - done);
                f(piece, done, n);
                done += n;
                continue;
            };
            let piece = if access == Access::Write && b.read_only {
                if !self.tables.drop_read_only_writes {
                    return Err(fault);
                }
                Piece::Zero
            } else {
                Piece::Bo(&b.bo, b.bo_offset + (addr - b.start))
            };
            let avail = usize::try_from(b.end() - addr).unwrap_or(usize::MAX);
            let n = avail.min(len - done);
            f(piece, done, n);
            done += n;
        }
        Ok(())
    }

    /// Copies GPU memory at `va` into `dst`. Nothing is read unless every byte is mapped.
    pub fn read(&self, va: u64, dst: &mut [u8]) -> Result<(), GpuFault> {
        self.walk(va, dst.len(), Access::Read, |_, _, _| {})?;
        let mut res = Ok(());
        self.walk(va, dst.len(), Access::Read, |p, at, n| {
            let piece = &mut dst[at..at + n];
            match p {
                Piece::Zero => piece.fill(0),
                Piece::Scratch(page, off) => piece.copy_from_slice(&page.bytes()[off..off + n]),
                Piece::Bo(bo, off) => {
                    if bo.read(off, piece).is_err() {
                        res = Err(GpuFault {
                            address: va + at as u64,
                            len: n,
                            access: Access::Read,
                        });
                    }
                }
            }
        })?;
        res
    }

    /// Copies `src` to GPU memory at `va`. Nothing is written unless every byte is mapped.
    pub fn write(&self, va: u64, src: &[u8]) -> Result<(), GpuFault> {
        self.walk(va, src.len(), Access::Write, |_, _, _| {})?;
        let mut res = Ok(());
        self.walk(va, src.len(), Access::Write, |p, at, n| {
            let piece = &src[at..at + n];
            match p {
                Piece::Zero => {}
                Piece::Scratch(page, off) => page.bytes()[off..off + n].copy_from_slice(piece),
                Piece::Bo(bo, off) => {
                    if bo.write(off, piece).is_err() {
                        res = Err(GpuFault {
                            address: va + at as u64,
                            len: n,
                            access: Access::Write,
                        });
                    }
                }
            }
        })?;
        res
    }

    pub fn read_u32(&self, va: u64) -> Result<u32, GpuFault> {
        let mut b = [0u8; 4];
        self.read(va, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    pub fn read_u64(&self, va: u64) -> Result<u64, GpuFault> {
        let mut b = [0u8; 8];
        self.read(va, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    pub fn write_u32(&self, va: u64, v: u32) -> Result<(), GpuFault> {
        self.write(va, &v.to_le_bytes())
    }

    pub fn write_u64(&self, va: u64, v: u64) -> Result<(), GpuFault> {
        self.write(va, &v.to_le_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bo(pages: u64) -> Arc<Bo> {
        Bo::new(pages * PAGE_SIZE).unwrap()
    }

    #[test]
    fn read_write_through_bindings_lands_in_bo_pages() {
        let mut vm = AddressSpace::new();
        let b = bo(2);
        vm.bind(0x10000, 0x1000, b.clone(), 0x1000, false).unwrap();
        vm.write_u32(0x10008, 0xdead_beef).unwrap();
        assert_eq!(b.mapping().load_u32(0x1008).unwrap(), 0xdead_beef);
        assert_eq!(vm.read_u32(0x10008).unwrap(), 0xdead_beef);
    }

    #[test]
    fn one_bo_in_two_vms_is_one_memory() {
        let (mut a, mut c) = (AddressSpace::new(), AddressSpace::new());
        let b = bo(1);
        a.bind(0x1000, 0x1000, b.clone(), 0, false).unwrap();
        c.bind(0x7fff_0000_0000, 0x1000, b.clone(), 0, false)
            .unwrap();
        a.write_u64(0x1010, 42).unwrap();
        assert_eq!(c.read_u64(0x7fff_0000_0010).unwrap(), 42);
    }

    #[test]
    fn unbound_access_faults_with_the_first_bad_address() {
        let mut vm = AddressSpace::new();
        vm.bind(0x1000, 0x1000, bo(1), 0, false).unwrap();
        let err = vm.write(0x1ffc, &[0u8; 8]).unwrap_err();
        assert_eq!(err.address, 0x2000);
        assert_eq!(err.access, Access::Write);
        // Nothing was written to the mapped half.
        assert_eq!(vm.read_u32(0x1ffc).unwrap(), 0);
        assert_eq!(vm.read_u32(0x0).unwrap_err().address, 0);
        assert!(vm.read_u32(VA_LIMIT - 2).is_err());
    }

    #[test]
    fn accesses_span_adjacent_bindings() {
        let mut vm = AddressSpace::new();
        let (x, y) = (bo(1), bo(1));
        vm.bind(0x1000, 0x1000, x.clone(), 0, false).unwrap();
        vm.bind(0x2000, 0x1000, y.clone(), 0, false).unwrap();
        vm.write_u64(0x1ffc, 0x1111_2222_3333_4444).unwrap();
        assert_eq!(x.mapping().load_u32(0xffc).unwrap(), 0x3333_4444);
        assert_eq!(y.mapping().load_u32(0).unwrap(), 0x1111_2222);
    }

    #[test]
    fn bind_rules() {
        let mut vm = AddressSpace::new();
        let b = bo(4);
        assert!(matches!(
            vm.bind(0x1001, 0x1000, b.clone(), 0, false),
            Err(BindError::Unaligned(_))
        ));
        assert!(matches!(
            vm.bind(0x1000, 0, b.clone(), 0, false),
            Err(BindError::Unaligned(_))
        ));
        assert!(matches!(
            vm.bind(0x1000, 0x5000, b.clone(), 0, false),
            Err(BindError::OutOfRange { .. })
        ));
        assert!(matches!(
            vm.bind(VA_LIMIT - 0x1000, 0x2000, b.clone(), 0, false),
            Err(BindError::OutOfRange { .. })
        ));
        vm.bind(0x4000, 0x2000, b.clone(), 0, false).unwrap();
        for (s, l) in [(0x3000, 0x2000), (0x5000, 0x1000), (0x4000, 0x4000)] {
            assert!(matches!(
                vm.bind(s, l, b.clone(), 0, false),
                Err(BindError::Overlap {
                    existing: 0x4000,
                    ..
                })
            ));
        }
        vm.bind(0x6000, 0x1000, b.clone(), 0, false).unwrap();
        vm.bind(0x3000, 0x1000, b, 0, false).unwrap();
    }

    #[test]
    fn partial_unbind_splits() {
        let mut vm = AddressSpace::new();
        let b = bo(4);
        vm.bind(0x10000, 0x4000, b.clone(), 0, false).unwrap();
        vm.write_u32(0x13000, 7).unwrap();
        vm.unbind(0x11000, 0x2000).unwrap();
        assert!(vm.read_u32(0x10000).is_ok());
        assert_eq!(vm.read_u32(0x11000).unwrap_err().address, 0x11000);
        assert_eq!(vm.read_u32(0x12ffc).unwrap_err().address, 0x12ffc);
        assert_eq!(vm.read_u32(0x13000).unwrap(), 7);
        vm.unbind(0, 0x100000).unwrap();
        assert_eq!(vm.bindings().count(), 0);
    }

    #[test]
    fn read_only_bindings_fault_on_write() {
        let mut vm = AddressSpace::new();
        vm.bind(0x1000, 0x1000, bo(1), 0, true).unwrap();
        assert!(vm.read_u32(0x1000).is_ok());
        assert_eq!(vm.write_u32(0x1000, 1).unwrap_err().access, Access::Write);
    }

    #[test]
    fn host_pages_behind_a_binding_fault_when_missing() {
        use crate::mem::HostRange;
        let mut host = memmap2::MmapMut::map_anon(PAGE_SIZE as usize).unwrap();
        let addr = host.as_mut_ptr() as u64;
        let mut vm = AddressSpace::new();
        let ok = Bo::host(HostRange {
            addr,
            len: PAGE_SIZE,
            read_only: false,
        })
        .unwrap();
        vm.bind(0x1000, 0x1000, ok, 0, false).unwrap();
        vm.write_u32(0x1010, 0x1234_5678).unwrap();
        assert_eq!(&host[0x10..0x14], &[0x78, 0x56, 0x34, 0x12]);
        // Page 0 of the host is never mapped: a GPU fault at the GPU address, no crash.
        let gone = Bo::host(HostRange {
            addr: 0,
            len: PAGE_SIZE,
            read_only: false,
        })
        .unwrap();
        vm.bind(0x2000, 0x1000, gone, 0, false).unwrap();
        let f = vm.read_u32(0x2008).unwrap_err();
        assert_eq!((f.address, f.access), (0x2008, Access::Read));
        let ro = Bo::host(HostRange {
            addr,
            len: PAGE_SIZE,
            read_only: true,
        })
        .unwrap();
        vm.bind(0x3000, 0x1000, ro, 0, false).unwrap();
        assert_eq!(vm.write_u32(0x3000, 1).unwrap_err().access, Access::Write);
        assert_eq!(vm.read_u32(0x3010).unwrap(), 0x1234_5678);
    }

    #[test]
    fn zero_page_tables_read_zero_and_drop_writes() {
        let mut vm = AddressSpace::with_page_tables(PageTables {
            unbound: Unbound::Zero,
            drop_read_only_writes: false,
        });
        let b = bo(1);
        vm.bind(0x2000, 0x1000, b.clone(), 0, false).unwrap();
        vm.write(0x1ff8, &[0xffu8; 16]).unwrap();
        assert_eq!(b.mapping().load_u64(0).unwrap(), u64::MAX);
        assert_eq!(vm.read_u64(0x1ff8).unwrap(), 0);
        assert_eq!(vm.read_u32(0x5000_0000).unwrap(), 0);
        // Read-only bindings still fault on write unless the tables drop those writes.
        vm.bind(0x8000, 0x1000, bo(1), 0, true).unwrap();
        assert_eq!(vm.write_u32(0x8000, 1).unwrap_err().access, Access::Write);
    }

    #[test]
    fn scratch_page_is_one_page_behind_every_unbound_address() {
        let mut vm = AddressSpace::with_page_tables(PageTables {
            unbound: Unbound::Page,
            drop_read_only_writes: false,
        });
        let b = bo(1);
        vm.bind(0x2000, 0x1000, b.clone(), 0, false).unwrap();
        // A write straddling the binding's start: the low half lands in the scratch page.
        vm.write_u64(0x1ffc, 0x1111_2222_3333_4444).unwrap();
        assert_eq!(b.mapping().load_u32(0).unwrap(), 0x1111_2222);
        // The same page offset of any other unbound page, anywhere, reads it back.
        assert_eq!(vm.read_u32(0x7_0000_0ffc).unwrap(), 0x3333_4444);
        assert_eq!(vm.read_u32(0xffc).unwrap(), 0x3333_4444);
        assert_eq!(vm.read_u32(0x5000_0000).unwrap(), 0);
        // A snapshot (a submission's) shares the page; another address space has its own.
        let snapshot = vm.clone();
        snapshot.write_u32(0x9000_0010, 7).unwrap();
        assert_eq!(vm.read_u32(0x10).unwrap(), 7);
        let other = AddressSpace::with_page_tables(vm.tables);
        assert_eq!(other.read_u32(0x10).unwrap(), 0);
    }

    #[test]
    fn read_only_writes_can_be_dropped() {
        let mut vm = AddressSpace::with_page_tables(PageTables {
            unbound: Unbound::Zero,
            drop_read_only_writes: true,
        });
        let b = bo(1);
        b.write(0, &5u32.to_le_bytes()).unwrap();
        vm.bind(0x1000, 0x1000, b.clone(), 0, true).unwrap();
        vm.bind(0x2000, 0x1000, bo(1), 0, false).unwrap();
        // The read-only half is dropped, the writable half lands.
        vm.write_u64(0x1ffc, u64::MAX).unwrap();
        vm.write_u32(0x1000, 9).unwrap();
        assert_eq!(vm.read_u32(0x1000).unwrap(), 5);
        assert_eq!(vm.read_u32(0x1ffc).unwrap(), 0);
        assert_eq!(vm.read_u32(0x2000).unwrap(), u32::MAX);
    }

    #[test]
    fn high_address_bits_are_ignored_like_the_hardware() {
        let mut vm = AddressSpace::new();
        vm.bind(0xffff_f000_0000, 0x1000, bo(1), 0, false).unwrap();
        // Canonical (sign-extended) form of the same address.
        vm.write_u32(0xffff_ffff_f000_0000, 5).unwrap();
        assert_eq!(vm.read_u32(0xffff_f000_0000).unwrap(), 5);
    }
}
