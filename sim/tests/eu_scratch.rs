//! HWord scratch block messages (IGC's spill and fill) on the EU interpreter, assembled by
//! iga64 in the forms IGC emits per platform: the slice comes from r0 as the thread was
//! dispatched, not from the header (Gen9–Gen12LP: General State Base + r0.5\[31:10\], size code in r0.3\[3:0\]; Xe-HPG: the
//! SURFTYPE_SCRATCH surface named by r0.5\[31:10\] and the thread's slot in r0.5\[9:0\]), and a
//! block leaving the slice is an EU error, not an access.

use crate::eu_support;

use eu_support::{program, run_on, TestMem};
use platform::Platform;
use sim_eu::{
    run, EuError, EuErrorKind, MemFault, Memory, Program, ScratchSurface, Status, Surface, Thread,
};

const MEM_BASE: u64 = 0x1000;
const MEM_BYTES: usize = 0x8000;

/// Copy r0 into the header, write r10-r11 (two HWords) at HWord `wr`, read two HWords at
/// HWord `rd` into r20-r21.
fn spill_fill(p: Platform, wr: u32, rd: u32) -> String {
    format!(
        "(W) mov (8|M0) r6.0<1>:ud r0.0<1;1,0>:ud\n{}",
        spill_fill_headers(p, wr, rd, 6, 6)
    )
}

/// The write and read of [`spill_fill`] with header registers `hw` and `hr`.
fn spill_fill_headers(p: Platform, wr: u32, rd: u32, hw: u32, hr: u32) -> String {
    let write = 0x020F_1000 | wr;
    let read = 0x022C_1000 | rd;
    let (w, r) = match p {
        Platform::Skl | Platform::Icllp => (
            format!("sends (16|M0) null:uw r{hw} r10 0x8A {write:#010X}"),
            format!("send (16|M0) r20:uw r{hr} 0xA {read:#010X}"),
        ),
        Platform::Tgllp => (
            format!("send.dc0 (16|M0) null r{hw} r10 0x80 {write:#010X}"),
            format!("send.dc0 (16|M0) r20 r{hr} null 0x0 {read:#010X}"),
        ),
        Platform::Dg2 => (
            format!("send.dc0 (16|M0) null r{hw} r10:2 0x0 {write:#010X}"),
            format!("send.dc0 (16|M0) r20 r{hr} null:0 0x0 {read:#010X}"),
        ),
    };
    format!("{w}\n{r}\n")
}

fn set_dw(t: &mut Thread, reg: usize, dw: usize, v: u32) {
    let at = reg * 32 + dw * 4;
    t.grf_mut()[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn dw(t: &Thread, reg: usize, dw: usize) -> u32 {
    t.grf_u32(reg, dw)
}

/// Runs `prog` on a SIMD16 thread against any memory.
fn run_on_mem(
    prog: &Program,
    mem: &mut dyn Memory,
    init: impl FnOnce(&mut Thread),
) -> Result<Thread, EuError> {
    let mut t = Thread::new(0xffff);
    init(&mut t);
    let st = run(&mut t, prog, mem, 1_000_000)?;
    assert_eq!(st, Status::Ended);
    Ok(t)
}

/// Sixteen recognisable dwords in r10-r11.
fn payload(t: &mut Thread) {
    for i in 0..16 {
        set_dw(t, 10 + i / 8, i % 8, 0xA000_0000 | i as u32);
    }
}

#[test]
fn general_state_slices_on_gen9_to_gen12lp() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in [Platform::Skl, Platform::Icllp, Platform::Tgllp] {
        // The thread's slice: offset 0x2000 from General State Base (0 in TestMem), 2 KiB.
        let prog = program(&iga, p, &spill_fill(p, 4, 4));
        let mut mem = TestMem::new(MEM_BASE, MEM_BYTES);
        let t = run_on(&prog, 16, &mut mem, |t| {
            set_dw(t, 0, 5, 0x2000 | 0x7); // FFTID bits are not part of the pointer
            set_dw(t, 0, 3, 1); // 2 KiB
            payload(t);
        })
        .unwrap_or_else(|e| panic!("{p}: {e}"));
        for i in 0..16u64 {
            let want = 0xA000_0000 | i as u32;
            assert_eq!(
                mem.u32_at(0x2000 + 128 + 4 * i),
                want,
                "{p} memory dword {i}"
            );
            assert_eq!(
                dw(&t, 20 + i as usize / 8, i as usize % 8),
                want,
                "{p} r20 {i}"
            );
        }
        // Nothing outside the block was touched.
        assert_eq!(mem.u32_at(0x2000 + 124), 0);
        assert_eq!(mem.u32_at(0x2000 + 192), 0);

        // The last two HWords of a 2 KiB slice are inside; one HWord further is not.
        let edge = program(&iga, p, &spill_fill(p, 62, 62));
        let mut mem = TestMem::new(MEM_BASE, MEM_BYTES);
        run_on(&edge, 16, &mut mem, |t| {
            set_dw(t, 0, 5, 0x2000);
            set_dw(t, 0, 3, 1);
            payload(t);
        })
        .unwrap_or_else(|e| panic!("{p}: {e}"));
        for (wr, rd) in [(63, 0), (0, 63)] {
            let out = program(&iga, p, &spill_fill(p, wr, rd));
            let mut mem = TestMem::new(MEM_BASE, MEM_BYTES);
            let Err(err) = run_on(&out, 16, &mut mem, |t| {
                set_dw(t, 0, 5, 0x2000);
                set_dw(t, 0, 3, 1);
                payload(t);
            }) else {
                panic!("{p} ({wr}, {rd}): a block leaving the slice ran");
            };
            assert!(
                matches!(err.kind, EuErrorKind::Scratch(_)),
                "{p} ({wr}, {rd}): {err}"
            );
            // The write past the slice did not reach the neighbouring slice.
            assert_eq!(mem.u32_at(0x2800), 0, "{p}");
        }
    }
}

/// IGC's spill code on platforms without LSC passes the spilled data itself as the header (and
/// any register as a fill's header): the slice is the one the thread was dispatched with, even
/// after the kernel overwrites r0.
#[test]
fn the_header_does_not_locate_the_slice() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in [Platform::Skl, Platform::Icllp, Platform::Tgllp] {
        let text = format!(
            "(W) mov (8|M0) r0.0<1>:ud 0x0:ud\n{}",
            spill_fill_headers(p, 4, 4, 10, 30)
        );
        let prog = program(&iga, p, &text);
        let mut mem = TestMem::new(MEM_BASE, MEM_BYTES);
        let t = run_on(&prog, 16, &mut mem, |t| {
            set_dw(t, 0, 5, 0x2000);
            set_dw(t, 0, 3, 1);
            payload(t);
            for d in 0..8 {
                set_dw(t, 30, d, 0x5A5A_0000 | d as u32);
            }
        })
        .unwrap_or_else(|e| panic!("{p}: {e}"));
        for i in 0..16u64 {
            let want = 0xA000_0000 | i as u32;
            assert_eq!(mem.u32_at(0x2000 + 128 + 4 * i), want, "{p} dword {i}");
            assert_eq!(
                dw(&t, 20 + i as usize / 8, i as usize % 8),
                want,
                "{p} r20 {i}"
            );
        }
    }
}

/// TestMem plus one SURFTYPE_SCRATCH surface state at `offset` of the surface heap.
struct WithScratch {
    mem: TestMem,
    offset: u32,
    surface: ScratchSurface,
}

impl WithScratch {
    /// The scratch surface state at offset 0x140: four 1 KiB slices from 0x3000.
    fn four_slices() -> WithScratch {
        WithScratch {
            mem: TestMem::new(MEM_BASE, MEM_BYTES),
            offset: 0x140,
            surface: ScratchSurface {
                base: 0x3000,
                slice: 1024,
                slices: 4,
            },
        }
    }
}

impl Memory for WithScratch {
    fn read(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        self.mem.read(addr, buf)
    }
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.mem.write(addr, data)
    }
    fn slm_read(&mut self, offset: u32, buf: &mut [u8]) -> Result<(), MemFault> {
        self.mem.slm_read(offset, buf)
    }
    fn slm_write(&mut self, offset: u32, data: &[u8]) -> Result<(), MemFault> {
        self.mem.slm_write(offset, data)
    }
    fn surface(&mut self, bti: u32) -> Result<Surface, MemFault> {
        self.mem.surface(bti)
    }
    fn surface_state(&mut self, offset: u32) -> Result<Surface, MemFault> {
        self.mem.surface_state(offset)
    }
    fn scratch_surface(&mut self, offset: u32) -> Result<ScratchSurface, MemFault> {
        if offset == self.offset {
            Ok(self.surface)
        } else {
            Err(MemFault {
                address: u64::from(offset),
            })
        }
    }
    fn is_scratch_surface(&mut self, offset: u32) -> bool {
        offset == self.offset
    }
}

#[test]
fn scratch_surface_slices_on_xe_hpg() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let p = Platform::Dg2;
    let run = |prog: &Program, slot: u32| {
        let mut m = WithScratch::four_slices();
        // r0.5: the surface state's offset in 64-byte units in [31:10], the slot in [9:0].
        let r = run_on_mem(prog, &mut m, |t| {
            set_dw(t, 0, 5, (0x140 >> 6) << 10 | slot);
            payload(t);
        });
        (r, m.mem)
    };
    let prog = program(&iga, p, &spill_fill(p, 2, 2));
    let (t, mem) = run(&prog, 3);
    let t = t.unwrap();
    for i in 0..16u64 {
        let want = 0xA000_0000 | i as u32;
        assert_eq!(
            mem.u32_at(0x3000 + 3 * 1024 + 64 + 4 * i),
            want,
            "slot 3, dword {i}"
        );
        assert_eq!(dw(&t, 20 + i as usize / 8, i as usize % 8), want);
    }
    // A slot past the surface's slices, and a block past the 1 KiB slice, are errors.
    let scratch_error = |r: Result<Thread, EuError>| match r {
        Err(e) => matches!(e.kind, EuErrorKind::Scratch(_)),
        Ok(_) => false,
    };
    let (r, _) = run(&prog, 4);
    assert!(scratch_error(r), "slot 4 of 4");
    let (r, mem) = run(&program(&iga, p, &spill_fill(p, 31, 0)), 0);
    assert!(scratch_error(r), "HWords 31-32 of a 32-HWord slice");
    assert_eq!(mem.u32_at(0x3000 + 1024), 0, "slot 1 untouched");
}

/// IGC's stack on Xe-HPG (its stack calls, and unoptimized code): LSC through the scratch
/// surface that r0.5 names, `a0.2` holding r0.5 >> 4 (the surface state's offset), so that
/// each thread reaches its own slice as the scratch messages do.
#[test]
fn lsc_through_the_scratch_surface_reaches_the_threads_slice() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let p = Platform::Dg2;
    let text = "(W) shr (1|M0) a0.2<1>:ud r0.5<0;1,0>:ud 0x4:ud\n\
                (W) send.ugm (1|M0) null r6 r10:1 a0.2 0x4200C504 {ExBSO}\n\
                (W) send.ugm (1|M0) r20 r6 null:0 a0.2 0x4210C500 {ExBSO}\n";
    let prog = program(&iga, p, text);
    let mut m = WithScratch::four_slices();
    let t = run_on_mem(&prog, &mut m, |t| {
        set_dw(t, 0, 5, (0x140 >> 6) << 10 | 2);
        set_dw(t, 6, 0, 0x40);
        payload(t);
    })
    .unwrap();
    for i in 0..8u64 {
        let want = 0xA000_0000 | i as u32;
        assert_eq!(
            m.mem.u32_at(0x3000 + 2 * 1024 + 0x40 + 4 * i),
            want,
            "dword {i}"
        );
        assert_eq!(dw(&t, 20, i as usize), want, "r20 {i}");
    }
}

/// IGC's spill of one register at SIMD8 inside divergent code: a one-HWord write under the
/// channels then enabled, without NoMask (its Gen11-and-later kernels fill the slot whole
/// afterwards, so a disabled channel's DWord must keep what was spilled there before).
fn masked_spill(p: Platform, enabled: u8) -> String {
    let write = 0x020F_0000 | 4;
    let send = match p {
        Platform::Skl | Platform::Icllp => {
            format!("sends (8|M0) null:uw r6 r10 0x4A {write:#010X}")
        }
        Platform::Tgllp => format!("send.dc0 (8|M0) null r6 r10 0x40 {write:#010X}"),
        Platform::Dg2 => format!("send.dc0 (8|M0) null r6 r10:1 0x0 {write:#010X}"),
    };
    format!(
        "(W) mov (8|M0) r6.0<1>:ud r0.0<1;1,0>:ud\n\
         (W) mov (1|M0) f0.0<1>:uw {enabled:#x}:uw\n\
         (f0.0) {send}\n"
    )
}

#[test]
fn a_spill_under_a_partial_mask_writes_the_enabled_channels_dwords() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let enabled = 0b1010_0101u8;
    let old = 0xEEEE_EEEEu32;
    let check = |p: Platform, mem: &TestMem, at: u64| {
        for i in 0..8u64 {
            let want = if enabled >> i & 1 != 0 {
                0xA000_0000 | i as u32
            } else {
                old
            };
            assert_eq!(mem.u32_at(at + 4 * i), want, "{p} dword {i}");
        }
        // The block is one HWord: nothing after it changed.
        assert_eq!(mem.u32_at(at + 32), old, "{p} past the block");
    };
    for p in [Platform::Skl, Platform::Icllp, Platform::Tgllp] {
        let prog = program(&iga, p, &masked_spill(p, enabled));
        let mut mem = TestMem::new(MEM_BASE, MEM_BYTES);
        mem.put_u32s(0x2000, &[old; 64]);
        run_on(&prog, 16, &mut mem, |t| {
            set_dw(t, 0, 5, 0x2000);
            set_dw(t, 0, 3, 1);
            payload(t);
        })
        .unwrap_or_else(|e| panic!("{p}: {e}"));
        check(p, &mem, 0x2000 + 4 * 32);
    }
    let p = Platform::Dg2;
    let mut m = WithScratch::four_slices();
    m.mem.put_u32s(0x3000, &[old; 256]);
    let prog = program(&iga, p, &masked_spill(p, enabled));
    run_on_mem(&prog, &mut m, |t| {
        set_dw(t, 0, 5, (0x140 >> 6) << 10);
        payload(t);
    })
    .unwrap_or_else(|e| panic!("{p}: {e}"));
    check(p, &m.mem, 0x3000 + 4 * 32);
}
