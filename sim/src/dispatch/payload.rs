//! A hardware thread's initial GRF: the r0 header, then the payload.
//!
//! Gen9–Gen12LP (GPGPU_WALKER): r1 onward holds the thread's per-thread data (Constant URB
//! Entry Read Length GRFs), then the cross-thread data (Cross-Thread Constant Data Read Length
//! GRFs). In memory, at the indirect data address, the cross-thread data comes first and the
//! per-thread blocks follow, one per thread in dispatch order (NEO's indirect heap; IGC
//! kernels read their local IDs from r1 and their arguments after them).
//!
//! Xe-HPG (COMPUTE_WALKER): r1 onward holds the hardware-generated local IDs (Emit Local
//! channels, x then y then z, in the walk order), then one GRF of inline data. The rest of the
//! payload stays in memory: IGC's prologue reads it through r0.0 and r0.2.

use platform::Platform;

use super::gen::{gen_dispatch, GenDispatch, BARRIER_IDS, R0_BARRIER, R0_FFTID, R0_GROUP_ID};
use super::state::{Dispatch, HwLocalIds};
use crate::mem::{AddressSpace, GpuFault};
use sim_eu::dataport::scratch;
use sim_eu::regfile::GrfSet;
use sim_eu::Thread;
use zerocopy::IntoBytes;

const GRF: usize = 32;

/// GRFs one local-ID channel takes: 16-bit IDs, two GRFs at SIMD32.
pub fn grfs_per_channel(simd: u32) -> usize {
    if simd == 32 {
        2
    } else {
        1
    }
}

/// The indirect data of a walker's group read once: the cross-thread data, then one block per
/// thread of a group, as they lie in memory (Gen9–Gen12LP). Every group of the walker loads
/// the same bytes, so its threads copy from here instead of walking the address space twice
/// per thread. The walker's threads are taken not to write their own indirect data (IGC's code
/// never does; on hardware a later group could see the old or the new bytes).
pub struct IndirectData {
    start: u64,
    bytes: Vec<u8>,
}

/// Indirect data read ahead only up to this size; a larger walker reads per thread.
const INDIRECT_AHEAD_MAX: usize = 1 << 20;

impl IndirectData {
    /// Reads the indirect data of `d`'s threads; `None` when the platform does not load it,
    /// it is larger than `INDIRECT_AHEAD_MAX`, or any of it cannot be read (each thread then
    /// reads its own, and a fault is reported as that thread's).
    pub fn read(p: Platform, d: &Dispatch, vm: &AddressSpace) -> Option<IndirectData> {
        if !gen_dispatch(p).loads_curbe {
            return None;
        }
        let ct = d.idd.cross_thread_constant_data_read_length as usize * GRF;
        let pt = d.idd.constant_urb_entry_read_length as usize * GRF;
        let len = pt
            .checked_mul(d.threads_per_group as usize)?
            .checked_add(ct)?;
        if len > INDIRECT_AHEAD_MAX || d.indirect.checked_add(len as u64).is_none() {
            return None;
        }
        let mut bytes = vec![0; len];
        vm.read(d.indirect, &mut bytes).ok()?;
        Some(IndirectData {
            start: d.indirect,
            bytes,
        })
    }

    /// The bytes at `[va, va+len)` when they were read ahead.
    fn get(&self, va: u64, len: usize) -> Option<&[u8]> {
        let at = usize::try_from(va.checked_sub(self.start)?).ok()?;
        self.bytes.get(at..at.checked_add(len)?)
    }
}

/// Reads `dst.len()` bytes at `va`, from `ahead` when it holds them.
fn read_indirect(
    vm: &AddressSpace,
    ahead: Option<&IndirectData>,
    va: u64,
    dst: &mut [u8],
) -> Result<(), GpuFault> {
    match ahead.and_then(|a| a.get(va, dst.len())) {
        Some(b) => {
            dst.copy_from_slice(b);
            Ok(())
        }
        None => vm.read(va, dst),
    }
}

/// What a thread running in one hardware thread slot gets whatever its group: sr0.0's IDs
/// and r0.5 (its scratch slice above its FFTID), worked out once per walker and slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotWords {
    sr0: u32,
    r0_fftid: u32,
}

/// What the threads of one group load, worked out once for the group: r0 but for its
/// per-thread fields, and where the per-thread and cross-thread data come from.
pub struct Loader<'a> {
    g: &'static GenDispatch,
    d: &'a Dispatch,
    vm: &'a AddressSpace,
    ahead: Option<&'a IndirectData>,
    /// r0 of the group's threads without the scratch slice and FFTID (r0.5) and, where r0
    /// holds it, the thread's index (r0.2's low byte).
    r0: [u32; 8],
    /// Bytes of per-thread and cross-thread data a thread loads (Gen9–Gen12LP).
    pt: usize,
    ct: usize,
    /// The group's per-thread blocks, one after the other, when read ahead.
    blocks: Option<&'a [u8]>,
}

impl<'a> Loader<'a> {
    /// The loader of group `group` (`ordinal` counts groups) of `d`; `ahead`: the walker's
    /// indirect data when it was read ahead ([`IndirectData::read`]).
    pub fn new(
        p: Platform,
        d: &'a Dispatch,
        vm: &'a AddressSpace,
        ahead: Option<&'a IndirectData>,
        group: [u32; 3],
        ordinal: u64,
    ) -> Loader<'a> {
        let g = gen_dispatch(p);
        let mut r0 = [0u32; 8];
        for (dim, &dw) in R0_GROUP_ID.iter().enumerate() {
            r0[dw] = group[dim];
        }
        let barrier = (ordinal % u64::from(BARRIER_IDS)) as u32;
        r0[R0_BARRIER] = barrier << g.barrier_id_shift;
        // Scratch: the size code in r0.3[3:0] (the slice pointer is per thread).
        r0[scratch::R0_SCRATCH_SIZE] = d.scratch.size_code & 0xf;
        if g.r0_payload_pointers {
            r0[0] = d.indirect_offset & !0x3f;
        }
        let (pt, ct) = if g.loads_curbe {
            (
                d.idd.constant_urb_entry_read_length as usize * GRF,
                d.idd.cross_thread_constant_data_read_length as usize * GRF,
            )
        } else {
            (0, 0)
        };
        let blocks = ahead.and_then(|a| {
            let len = pt.checked_mul(d.threads_per_group as usize)?;
            a.get(d.indirect.checked_add(ct as u64)?, len)
        });
        Loader {
            g,
            d,
            vm,
            ahead,
            r0,
            pt,
            ct,
            blocks,
        }
    }

    /// What a thread in hardware thread slot `slot` gets ([`SlotWords`]).
    pub fn slot_words(&self, slot: u32) -> SlotWords {
        let (g, d) = (self.g, self.d);
        // The slice pointer in r0.5[31:10] above the FFTID.
        let slice = d
            .scratch
            .pointer
            .wrapping_add(d.scratch.stride.wrapping_mul(u64::from(slot)));
        SlotWords {
            sr0: g.sr0_ids(slot),
            r0_fftid: (slice as u32 & scratch::POINTER_MASK) | (slot & (g.fftid_slots() - 1)),
        }
    }

    /// Fills `t`'s GRF for thread `index` of the group, which runs in the hardware thread
    /// slot whose words are `slot` ([`Loader::slot_words`]: its FFTID, its scratch slice and
    /// hardware thread ID, which no other thread running at the same time has). Only the r0 header, payload bytes and sr0.0 are
    /// written: `t` comes zeroed ([`Thread::new`] or [`Thread::reset`]); what a thread loads
    /// is the same whether the indirect data was read ahead or not. `held`: `t`'s
    /// cross-thread registers already hold this walker's cross-thread data (a reused thread
    /// whose program never writes them), which is then not copied again when it was read
    /// ahead (a walker's threads do not write their indirect data). Returns the GRF registers
    /// it wrote (bit r = register r).
    #[inline]
    pub fn load(
        &self,
        t: &mut Thread,
        index: u32,
        slot: SlotWords,
        held: bool,
    ) -> Result<usize, GpuFault> {
        let (g, d) = (self.g, self.d);
        t.set_sr0_ids(slot.sr0);
        let grf = t.grf_mut();
        let mut r0 = self.r0;
        r0[R0_FFTID] = slot.r0_fftid;
        if g.r0_payload_pointers {
            r0[R0_BARRIER] |= index & 0xff;
        }
        if let Some(r) = grf.get_mut(..GRF) {
            r.copy_from_slice(r0.map(u32::to_le).as_bytes());
        }
        let mut at = GRF;
        if g.loads_curbe {
            let (pt, ct) = (self.pt, self.ct);
            let Some(out) = grf.get_mut(at..at + pt + ct) else {
                return Err(GpuFault {
                    address: d.indirect,
                    len: pt + ct,
                    access: crate::mem::Access::Read,
                });
            };
            let (own, cross) = out.split_at_mut(pt);
            let block = index as usize * pt;
            match self.blocks.and_then(|b| b.get(block..block + pt)) {
                Some(from) => own.copy_from_slice(from),
                None => {
                    let va = d.indirect.wrapping_add((ct + block) as u64);
                    read_indirect(self.vm, self.ahead, va, own)?;
                }
            }
            if !(held && self.ahead.is_some()) {
                read_indirect(self.vm, self.ahead, d.indirect, cross)?;
            }
            at += pt + ct;
        } else {
            if let Some(ids) = &d.hw_ids {
                at += write_hw_ids(&mut grf[at..], ids, d.simd, index);
            }
            if let Some(inline) = &d.inline {
                for (i, v) in inline.iter().enumerate() {
                    grf[at + 4 * i..at + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
                }
                at += 4 * inline.len();
            }
        }
        Ok(at.div_ceil(GRF))
    }
}

/// The GRF registers [`Loader::load`] writes whole for every thread of `d` (bit r = register
/// r): r0 and, where the platform loads them, the per-thread and cross-thread data registers.
/// A reused thread need not clear these before its payload is loaded.
pub fn rewritten(p: Platform, d: &Dispatch) -> GrfSet {
    let mut regs = 1;
    if gen_dispatch(p).loads_curbe {
        regs += d.idd.cross_thread_constant_data_read_length as usize;
        regs += d.idd.constant_urb_entry_read_length as usize;
    }
    GrfSet::range(0, regs)
}

/// The GRF registers [`Loader::load`] writes whole with the same bytes for every thread of
/// `d`: the cross-thread data, where the platform loads it (a reused thread whose program
/// never writes them keeps them: [`Loader::load`]'s `held`).
pub fn loaded_alike(p: Platform, d: &Dispatch) -> GrfSet {
    if !gen_dispatch(p).loads_curbe {
        return GrfSet::EMPTY;
    }
    let pt = d.idd.constant_urb_entry_read_length as usize;
    let ct = d.idd.cross_thread_constant_data_read_length as usize;
    GrfSet::range(1 + pt, ct)
}

/// Writes the local IDs thread `index` of a group gets; returns the bytes written. Lane `l`
/// is work-item `index * simd + l` of the group, counted in the walk order.
pub(super) fn write_hw_ids(out: &mut [u8], ids: &HwLocalIds, simd: u32, index: u32) -> usize {
    let block = grfs_per_channel(simd) * GRF;
    let total = ids.size.iter().product::<u32>();
    let [fast, mid, _] = ids.order;
    for lane in 0..simd {
        let item = index * simd + lane;
        if item >= total {
            break;
        }
        let mut id = [0u32; 3];
        id[fast] = item % ids.size[fast];
        id[mid] = item / ids.size[fast] % ids.size[mid];
        id[ids.order[2]] = item / (ids.size[fast] * ids.size[mid]);
        for (c, v) in id.iter().take(ids.channels as usize).enumerate() {
            let at = c * block + 2 * lane as usize;
            out[at..at + 2].copy_from_slice(&(*v as u16).to_le_bytes());
        }
    }
    ids.channels as usize * block
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatch::state::{Bases, ScratchR0};

    /// Thread `index` of group `group` (`ordinal` counts groups) in slot `slot`, loaded by a
    /// loader made for it alone.
    #[allow(clippy::too_many_arguments)]
    fn load(
        p: Platform,
        d: &Dispatch,
        vm: &AddressSpace,
        ahead: Option<&IndirectData>,
        t: &mut Thread,
        group: [u32; 3],
        ordinal: u64,
        index: u32,
        slot: u32,
        held: bool,
    ) -> Result<usize, GpuFault> {
        let loader = Loader::new(p, d, vm, ahead, group, ordinal);
        loader.load(t, index, loader.slot_words(slot), held)
    }

    fn dispatch(simd: u32, scratch: ScratchR0) -> Dispatch {
        Dispatch {
            bases: Bases::default(),
            idd: Default::default(),
            kernel: 0,
            simd,
            group_start: [0; 3],
            group_end: [1; 3],
            threads_per_group: 4,
            last_mask: 0xff,
            indirect: 0,
            indirect_offset: 0,
            hw_ids: None,
            inline: None,
            post_sync: None,
            scratch,
            front_end_threads: 64,
        }
    }

    /// Gen9–Gen12LP: a thread in slot s gets slice base + s × slice size in r0.5[31:10]
    /// above its FFTID s, and the size code in r0.3[3:0]; Xe-HPG threads all get the scratch
    /// surface state pointer (the slot is the FFTID).
    #[test]
    fn each_thread_gets_its_own_scratch_slice() {
        let vm = AddressSpace::new();
        // Thread 1 of its group, in slot `slot`.
        let r0 = |p: Platform, d: &Dispatch, slot: u32| {
            let mut t = Thread::new(0xff);
            load(p, d, &vm, None, &mut t, [0; 3], 0, 1, slot, false).unwrap();
            (t.grf_u32(0, 5), t.grf_u32(0, 3))
        };
        let vfe = dispatch(
            8,
            ScratchR0 {
                size_code: 2,
                pointer: 0x10_0000,
                stride: 4096,
            },
        );
        for slot in [0, 1, 5, 63] {
            assert_eq!(
                r0(Platform::Tgllp, &vfe, slot),
                ((0x10_0000 + 4096 * slot) | slot, 2),
                "slot {slot}"
            );
        }
        let cfe = dispatch(
            16,
            ScratchR0 {
                size_code: 0,
                pointer: 5 << 10,
                stride: 0,
            },
        );
        for slot in [0, 1, 5, 63] {
            assert_eq!(
                r0(Platform::Dg2, &cfe, slot),
                ((5 << 10) | slot, 0),
                "slot {slot}"
            );
        }
    }

    /// The hardware thread ID IGC computes from sr0.0 on Xe-HPG (the instructions ocloc emits
    /// for dg2: keep bits 13:0, drop bit 6, then bit 3) gives back the slot; on Gen9–Gen12LP
    /// IGC reads the FFTID in r0.5 instead and sr0.0 stays zero.
    #[test]
    fn hardware_thread_ids_name_the_slot() {
        let vm = AddressSpace::new();
        let d = dispatch(16, ScratchR0::default());
        let igc_xe_hpg = |sr0: u32| {
            let x = sr0 & 16383;
            let x = (x & 63) | ((x >> 1) & !63);
            (x & 7) | ((x >> 1) & !7)
        };
        for slot in [0, 1, 7, 8, 31, 32, 100, 1023] {
            let mut t = Thread::new(0xffff);
            load(
                Platform::Dg2,
                &d,
                &vm,
                None,
                &mut t,
                [0; 3],
                0,
                0,
                slot,
                false,
            )
            .unwrap();
            assert_eq!(igc_xe_hpg(t.sr0_ids()), slot, "dg2 slot {slot}");
            for p in [Platform::Skl, Platform::Icllp, Platform::Tgllp] {
                let mut t = Thread::new(0xffff);
                load(p, &d, &vm, None, &mut t, [0; 3], 0, 0, slot & 0x1ff, false).unwrap();
                assert_eq!(t.grf_u32(0, 5) & 0x3ff, slot & 0x1ff, "{p} slot {slot}");
                assert_eq!(t.sr0_ids(), 0, "{p}");
            }
        }
    }

    /// Threads loaded from the read-ahead indirect data get the GRF they get from the address
    /// space; a walker whose indirect data is not all mapped reads per thread and faults there.
    #[test]
    fn read_ahead_indirect_data_loads_the_same_payload() {
        let mut vm = AddressSpace::new();
        let bo = crate::mem::Bo::new(0x1000).unwrap();
        vm.bind(0x4000, 0x1000, bo, 0, false).unwrap();
        let bytes: Vec<u8> = (0..0x1000u32).map(|i| (i * 7 + 3) as u8).collect();
        vm.write(0x4000, &bytes).unwrap();
        let mut d = dispatch(8, ScratchR0::default());
        d.idd.cross_thread_constant_data_read_length = 2;
        d.idd.constant_urb_entry_read_length = 3;
        d.indirect = 0x4040;
        let ahead = IndirectData::read(Platform::Tgllp, &d, &vm).expect("all mapped");
        for i in 0..d.threads_per_group {
            let mut a = Thread::new(0xff);
            let mut b = Thread::new(0xff);
            let wa = load(
                Platform::Tgllp,
                &d,
                &vm,
                None,
                &mut a,
                [1, 2, 3],
                5,
                i,
                i,
                false,
            )
            .unwrap();
            let wb = load(
                Platform::Tgllp,
                &d,
                &vm,
                Some(&ahead),
                &mut b,
                [1, 2, 3],
                5,
                i,
                i,
                false,
            )
            .unwrap();
            assert_eq!(wa, wb);
            assert_eq!(a.grf(), b.grf(), "thread {i}");
        }
        // One thread object loaded for each thread in turn by one loader for the group, as
        // the dispatcher does: after the first, its cross-thread registers are held and not
        // copied again (garbage put there stays, which shows the copy skipped), unless the
        // data was not read ahead.
        let alike = loaded_alike(Platform::Tgllp, &d);
        assert_eq!(alike, GrfSet::range(4, 2));
        let mut reused = Thread::new(0xff);
        let group = Loader::new(Platform::Tgllp, &d, &vm, Some(&ahead), [1, 2, 3], 5);
        for i in 0..d.threads_per_group {
            let mut fresh = Thread::new(0xff);
            let loaded = load(
                Platform::Tgllp,
                &d,
                &vm,
                None,
                &mut fresh,
                [1, 2, 3],
                5,
                i,
                i,
                false,
            );
            let slot = group.slot_words(i);
            assert_eq!(
                loaded,
                group.load(&mut reused, i, slot, i > 0),
                "thread {i}"
            );
            assert_eq!(fresh.grf(), reused.grf(), "thread {i}");
        }
        let cross = 4 * GRF..6 * GRF;
        for (ahead, kept) in [(Some(&ahead), true), (None, false)] {
            reused.grf_mut()[cross.clone()].fill(0xa5);
            load(
                Platform::Tgllp,
                &d,
                &vm,
                ahead,
                &mut reused,
                [1, 2, 3],
                5,
                0,
                0,
                true,
            )
            .unwrap();
            let garbage = reused.grf()[cross.clone()].iter().all(|&b| b == 0xa5);
            assert_eq!(garbage, kept, "read ahead: {}", ahead.is_some());
        }
        // 2 cross-thread GRFs + 4 threads x 3 GRFs from 0x4fc0 run past the mapping.
        d.indirect = 0x4fc0;
        assert!(IndirectData::read(Platform::Tgllp, &d, &vm).is_none());
        let mut t = Thread::new(0xff);
        assert!(load(
            Platform::Tgllp,
            &d,
            &vm,
            None,
            &mut t,
            [0; 3],
            0,
            0,
            0,
            false
        )
        .is_err());
        // Xe-HPG threads do not load indirect data.
        assert!(IndirectData::read(Platform::Dg2, &d, &vm).is_none());
    }

    /// The registers `rewritten` names are written whole by every thread's load: a thread
    /// whose GRF held garbage there ends up as a zeroed one does (reused threads skip clearing
    /// them), on a platform that loads indirect data and on one that does not.
    #[test]
    fn rewritten_registers_are_all_written_by_the_load() {
        let mut vm = AddressSpace::new();
        let bo = crate::mem::Bo::new(0x1000).unwrap();
        vm.bind(0x4000, 0x1000, bo, 0, false).unwrap();
        let bytes: Vec<u8> = (0..0x1000u32).map(|i| (i * 5 + 1) as u8).collect();
        vm.write(0x4000, &bytes).unwrap();
        let mut d = dispatch(16, ScratchR0::default());
        d.idd.cross_thread_constant_data_read_length = 2;
        d.idd.constant_urb_entry_read_length = 3;
        d.indirect = 0x4000;
        for p in [Platform::Tgllp, Platform::Dg2] {
            let regs = rewritten(p, &d);
            let want = if p == Platform::Tgllp { 6 } else { 1 };
            assert_eq!(regs.count(), want, "{p}");
            for i in 0..d.threads_per_group {
                let mut clean = Thread::new(0xff);
                let mut dirty = Thread::new(0xff);
                dirty.grf_mut().fill(0xa5);
                load(p, &d, &vm, None, &mut clean, [1, 2, 3], 5, i, i, false).unwrap();
                load(p, &d, &vm, None, &mut dirty, [1, 2, 3], 5, i, i, false).unwrap();
                for r in (0..128).filter(|&r| regs.contains(r)) {
                    let at = r * GRF..(r + 1) * GRF;
                    assert_eq!(
                        clean.grf()[at.clone()],
                        dirty.grf()[at],
                        "{p} r{r} thread {i}"
                    );
                }
            }
        }
    }

    fn ids(out: &[u8], channel: usize, lane: usize, simd: u32) -> u16 {
        let at = channel * grfs_per_channel(simd) * GRF + 2 * lane;
        u16::from_le_bytes([out[at], out[at + 1]])
    }

    /// Walk order lists the dimensions from fastest to slowest; channels stay x, y, z.
    #[test]
    fn hardware_local_ids_follow_the_walk_order() {
        let mut out = vec![0u8; 6 * GRF];
        let yx = HwLocalIds {
            channels: 2,
            size: [3, 2, 1],
            order: [1, 0, 2],
        };
        assert_eq!(write_hw_ids(&mut out, &yx, 8, 0), 2 * GRF);
        let got: Vec<(u16, u16)> = (0..6)
            .map(|l| (ids(&out, 0, l, 8), ids(&out, 1, l, 8)))
            .collect();
        assert_eq!(got, [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
        // Lanes past the group's last work-item stay zero.
        assert_eq!((ids(&out, 0, 6, 8), ids(&out, 1, 7, 8)), (0, 0));
    }

    #[test]
    fn simd32_ids_take_two_grfs_per_channel() {
        let mut out = vec![0u8; 6 * GRF];
        let xyz = HwLocalIds {
            channels: 3,
            size: [4, 4, 4],
            order: [0, 1, 2],
        };
        assert_eq!(write_hw_ids(&mut out, &xyz, 32, 1), 6 * GRF);
        // Thread 1, lane 31 is work-item 63: (3, 3, 3).
        assert_eq!(
            (
                ids(&out, 0, 31, 32),
                ids(&out, 1, 31, 32),
                ids(&out, 2, 31, 32)
            ),
            (3, 3, 3)
        );
        assert_eq!(
            (
                ids(&out, 0, 0, 32),
                ids(&out, 1, 0, 32),
                ids(&out, 2, 0, 32)
            ),
            (0, 0, 2)
        );
    }
}
