//! The whole-run surface accesses (`surface_read_all`, `surface_write_all`) against their
//! rule, with the binding they remember between calls: a run is made when the surface
//! resolves, it starts at a multiple of the alignment, ends within the surface's width and
//! every byte is mapped (and writable, for writes); otherwise nothing is read or written.

use std::sync::Mutex;

use batchbuffer::Packet;
use platform::Platform;

use super::VmMemory;
use crate::dispatch::state::Bases;
use crate::mem::{AddressSpace, Bo};
use sim_eu::Memory;

const P: Platform = Platform::Tgllp;
const STATES: u64 = 0x40_0000;
const BT: u32 = 0x800;
/// (binding-table index, surface base, width): inside one mapping; running past the end of
/// the mapped range; in a read-only mapping.
const SURFACES: [(u32, u64, u64); 3] = [
    (1, 0x10_0040, 0x100),
    (2, 0x20_0f80, 0x100),
    (3, 0x30_0000, 0x80),
];

fn space() -> AddressSpace {
    let mut vm = AddressSpace::new();
    for (at, ro) in [(0x10_0000, false), (0x20_0000, false), (0x30_0000, true)] {
        // Twice the mapped size: a run past the mapping's end must fail though the BO
        // goes on.
        vm.bind(at, 0x1000, Bo::new(0x2000).unwrap(), 0, ro)
            .unwrap();
        let fill: Vec<u8> = (0..0x1000u32)
            .map(|i| (i ^ (at >> 20) as u32) as u8)
            .collect();
        if !ro {
            vm.write(at, &fill).unwrap();
        }
    }
    vm.bind(STATES, 0x1000, Bo::new(0x1000).unwrap(), 0, false)
        .unwrap();
    for (k, &(bti, base, width)) in SURFACES.iter().enumerate() {
        let s = batchbuffer::builder::buffer_surface(P, base, width).unwrap();
        let mut dw = [0u32; 16];
        s.pack(P, &mut dw).unwrap();
        let at = 0x100 * (k as u64 + 1);
        for (i, d) in dw.iter().enumerate() {
            vm.write_u32(STATES + at + 4 * i as u64, *d).unwrap();
        }
        vm.write_u32(STATES + u64::from(BT) + 4 * u64::from(bti), at as u32)
            .unwrap();
    }
    vm
}

/// Whether the rule allows the run, from the surface table above and the mappings.
fn allowed(bti: u32, off: u64, len: usize, write: bool) -> bool {
    let Some(&(_, base, width)) = SURFACES.iter().find(|s| s.0 == bti) else {
        return false;
    };
    let addr = base + off;
    let mapped_end = (base & !0xfff) + 0x1000;
    (base + off).is_multiple_of(4)
        && off + len as u64 <= width
        && addr + len as u64 <= mapped_end
        && !(write && bti == 3)
}

#[test]
fn whole_run_surface_accesses_follow_the_rule() {
    let vm = space();
    let lock = Mutex::new(());
    let bases = Bases {
        surface: STATES,
        binding_tables: STATES,
        ..Bases::default()
    };
    let mut mem = VmMemory::new(P, &vm, bases, BT, 0, &lock);
    // Each surface and offset twice, interleaved, so later runs go through the binding the
    // earlier ones left (also one another surface's).
    let offsets = [0u64, 0x40, 0x2, 0xc0, 0xc4, 0x80, 0x40, 0, 0x1_0000_0000];
    let (mut n, mut direct_hits) = (0, 0);
    for round in 0..2 {
        for &(bti, base, _) in SURFACES.iter().chain(&[(9, 0, 0)]) {
            for &off in &offsets {
                for len in [64usize, 128] {
                    let want = allowed(bti, off, len, false);
                    let mut buf = vec![0x5au8; len];
                    let got = mem.surface_read_all(bti, off, 4, &mut buf);
                    assert_eq!(got, want, "read bti {bti} +{off:#x} x{len} round {round}");
                    // A refused run leaves the buffer (the registers) as it was.
                    assert!(got || buf.iter().all(|&b| b == 0x5a), "bti {bti} +{off:#x}");
                    if got {
                        let mut direct = vec![0u8; len];
                        vm.read(base + off, &mut direct).unwrap();
                        assert_eq!(buf, direct, "bti {bti} +{off:#x}");
                        n += 1;
                    }
                    direct_hits += window_agrees(&mem, &vm, bti, base, off, len);
                    let want = allowed(bti, off, len, true);
                    let data: Vec<u8> = (0..len)
                        .map(|i| (i as u8).wrapping_mul(3) ^ round)
                        .collect();
                    let before = (bti != 9).then(|| {
                        let mut b = vec![0u8; 0x1000];
                        vm.read(base & !0xfff, &mut b).unwrap();
                        b
                    });
                    let got = mem.surface_write_all(bti, off, 4, &data);
                    assert_eq!(got, want, "write bti {bti} +{off:#x} x{len} round {round}");
                    if let Some(mut expect) = before {
                        if got {
                            let at = (base + off - (base & !0xfff)) as usize;
                            expect[at..at + len].copy_from_slice(&data);
                        }
                        let mut after = vec![0u8; 0x1000];
                        vm.read(base & !0xfff, &mut after).unwrap();
                        assert!(after == expect, "memory after write bti {bti} +{off:#x}");
                    }
                }
            }
        }
    }
    // Some runs of each kind were made (the test would pass if none were), and the windows
    // translated code reads held some of them.
    assert!(n >= 12, "{n} reads");
    assert!(
        direct_hits >= 6,
        "{direct_hits} accesses inside published windows"
    );
}

/// Whether the window `mem` publishes for `bti` ([`Memory::direct_windows`]) holds the read
/// and the write of `len` bytes at `off` (1 each); those it holds must be ones the rule
/// allows, and its host address must show the surface's bytes there.
fn window_agrees(
    mem: &VmMemory<'_>,
    vm: &AddressSpace,
    bti: u32,
    base: u64,
    off: u64,
    len: usize,
) -> usize {
    let Some(w) = usize::try_from(bti)
        .ok()
        .filter(|&b| b < sim_eu::dataport::direct::WINDOWS)
        // SAFETY: an index below the table's length, while `mem` lives.
        .map(|b| unsafe { (*mem.direct_windows()).windows[b] })
    else {
        return 0;
    };
    let holds = |end: u64| {
        off >= w.start && off + len as u64 <= end && w.base.wrapping_add(off).is_multiple_of(4)
    };
    let mut hits = 0;
    if holds(w.end) {
        assert!(
            allowed(bti, off, len, false),
            "window of {bti} holds +{off:#x} x{len}"
        );
        let mut want = vec![0u8; len];
        vm.read(base + off, &mut want).unwrap();
        // SAFETY: the window holds [off, off+len): mapped bytes of a BO `vm` keeps alive.
        let got = unsafe { std::slice::from_raw_parts(w.host.wrapping_add(off) as *const u8, len) };
        assert_eq!(got, &want[..], "window of {bti} at +{off:#x}");
        hits += 1;
    }
    if holds(w.write_end) {
        assert!(
            allowed(bti, off, len, true),
            "window of {bti} holds a write at +{off:#x}"
        );
        hits += 1;
    }
    hits
}

/// Surface 4: 0x2000 bytes of host pages (userptr) at `HOST_VA`, the last page of the host
/// range left out of the binding so a span can run off the binding's end.
const HOST_VA: u64 = 0x50_0000;
const HOST_BTI: u32 = 4;

fn gather_space(host: &memmap2::MmapMut) -> AddressSpace {
    let mut vm = space();
    let bo = Bo::host(crate::mem::HostRange {
        addr: host.as_ptr() as u64,
        len: 0x3000,
        read_only: false,
    })
    .unwrap();
    vm.bind(HOST_VA, 0x2000, bo, 0, false).unwrap();
    let s = batchbuffer::builder::buffer_surface(P, HOST_VA, 0x3000).unwrap();
    let mut dw = [0u32; 16];
    s.pack(P, &mut dw).unwrap();
    let at = 0x800u64;
    for (i, d) in dw.iter().enumerate() {
        vm.write_u32(STATES + at + 4 * i as u64, *d).unwrap();
    }
    vm.write_u32(STATES + u64::from(BT) + 4 * u64::from(HOST_BTI), at as u32)
        .unwrap();
    vm
}

/// A gather (the lanes of one message) reads what its pieces read one by one, and fails
/// exactly when one of them would, whether the memory reads the span at once (host pages)
/// or piece by piece (the simulator's own pages, spans too wide, gaps in the mapping).
#[test]
fn gathers_read_what_their_pieces_read() {
    let mut host = memmap2::MmapMut::map_anon(0x3000).unwrap();
    for (i, b) in host.iter_mut().enumerate() {
        *b = (i * 7 + i / 256) as u8;
    }
    let vm = gather_space(&host);
    let lock = Mutex::new(());
    let bases = Bases {
        surface: STATES,
        binding_tables: STATES,
        ..Bases::default()
    };
    // Offset sets: within a row, scattered over a page, past the binding's end (0x2000), a
    // misaligned one, past the surface's width, and wider than a span.
    let sets: [&[u64]; 7] = [
        &[0x40, 0x44, 0x48, 0x4c, 0x60, 0x50],
        &[0x7f0, 0x10, 0x400, 0x10, 0x1ff0, 0x0],
        &[0x1ff0, 0x1ff8, 0x2000, 0x8],
        &[0x40, 0x42],
        &[0x40, 0x2ffc, 0x3000],
        &[0x0, 0x1ffc],
        &[0xc0, 0x80],
    ];
    let mut spans = 0;
    for bti in [1, 2, HOST_BTI] {
        for set in sets {
            for len in [4usize, 8, 16] {
                let mut a = VmMemory::new(P, &vm, bases, BT, 0, &lock);
                let mut gathered = vec![0u8; set.len() * len];
                let got = a.surface_gather(bti, set, 4, &mut gathered);
                let mut b = VmMemory::new(P, &vm, bases, BT, 0, &lock);
                let mut each = vec![0u8; set.len() * len];
                let want = set
                    .iter()
                    .zip(each.chunks_exact_mut(len))
                    .all(|(&o, piece)| b.surface_read_all(bti, o, 4, piece));
                assert_eq!(got, want, "bti {bti} {set:x?} x{len}");
                if got {
                    assert_eq!(gathered, each, "bti {bti} {set:x?} x{len}");
                    spans += usize::from(bti == HOST_BTI);
                }
                // The same pieces at virtual addresses.
                let Some(&(_, base, _)) = SURFACES.iter().find(|s| s.0 == bti) else {
                    continue;
                };
                let addrs: Vec<u64> = set.iter().map(|o| base + o).collect();
                let got = a.read_gather(&addrs, &mut gathered);
                let want = addrs
                    .iter()
                    .zip(each.chunks_exact_mut(len))
                    .all(|(&va, piece)| b.read_all(va, piece));
                assert_eq!(got, want, "va {addrs:x?} x{len}");
                assert!(!got || gathered == each, "va {addrs:x?} x{len}");
            }
        }
    }
    // Gathers in host pages were made (the test would pass if every one failed).
    assert!(spans >= 6, "{spans} host gathers");
}

/// The shared local memory's window is the group's SLM: its bytes at the host address, as
/// many as the group has, writable; none before the walker sets its size.
#[test]
fn the_slm_window_is_the_groups_slm() {
    let vm = space();
    let lock = Mutex::new(());
    let mut mem = VmMemory::new(P, &vm, Bases::default(), BT, 0, &lock);
    // SAFETY: the table lives as long as `mem`.
    let slm = |m: &VmMemory<'_>| unsafe { (*m.direct_windows()).slm };
    assert_eq!(slm(&mem).end, 0, "no SLM, no window");
    mem.set_slm_len(0x100);
    let data: Vec<u8> = (0..0x40u8).collect();
    assert!(mem.slm_write_all(0x80, &data));
    let w = slm(&mem);
    assert_eq!((w.start, w.end, w.write_end, w.base), (0, 0x100, 0x100, 0));
    // SAFETY: [0x80, 0xc0) lies in the window's 0x100 bytes, which `mem` keeps; each copy is
    // made while nothing writes them.
    let seen = |w: sim_eu::dataport::direct::DirectWindow| unsafe {
        std::slice::from_raw_parts((w.host + 0x80) as *const u8, 0x40).to_vec()
    };
    assert_eq!(seen(w), data);
    mem.clear_slm();
    assert!(seen(slm(&mem)).iter().all(|&b| b == 0));
}
