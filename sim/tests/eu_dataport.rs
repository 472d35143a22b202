//! Send messages against a test memory: HDC A64 untyped and block messages and media block
//! IO on Gen12LP, LSC on Xe-HPG, faults and misalignment. Descriptors are the ones iga64
//! describes in each comment.

// Lanes index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::eu_support as support;

use platform::Platform;
use sim_eu::{EuErrorKind, Surface};
use support::*;

const BASE: u64 = 0x10_0000;

/// Lane i's 64-bit address `base + 4 * i` in the two-dword layout of an A64 payload.
fn a64_addrs(base: u64, lanes: usize, stride: u64) -> Vec<u32> {
    (0..lanes)
        .flat_map(|i| {
            let a = base + stride * i as u64;
            [a as u32, (a >> 32) as u32]
        })
        .collect()
}

#[test]
fn a64_untyped_write_and_read_with_a_predicate_mask() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        cmp (8|M0) (ne)f0.0 null<1>:d r5.0<8;8,1>:d 0x3:d
        (f0.0) send.dc1 (8|M0) null r2 r4 0x40 0x04066EFD
        send.dc1 (8|M0) r10 r2 null 0x0 0x04146EFD
        ";
    let prog = program(&iga, Platform::Tgllp, body);
    let mut mem = TestMem::new(BASE, 0x1000);
    mem.put_u32s(BASE, &[0x5555; 8]);
    let data = values(8, 4);
    let t = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &a64_addrs(BASE, 8, 4));
        set_u32s(t, 4, &data);
        set_u32s(t, 5, &[0, 1, 2, 3, 4, 5, 6, 7]);
    })
    .unwrap();
    for i in 0..8 {
        let want = if i == 3 { 0x5555 } else { data[i] };
        assert_eq!(mem.u32_at(BASE + 4 * i as u64), want, "memory lane {i}");
        assert_eq!(t.grf_u32(10, i), want, "read back lane {i}");
    }
}

#[test]
fn a64_oword_block_reads_and_their_alignment_rules() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    // Sub-type 1 (iga64: "aligned") is what IGC emits for 4-byte-aligned subgroup block reads;
    // sub-type 0 needs 16 bytes.
    let unaligned = "send.dc1 (8|M0) r12 r2 null 0x0 0x022D0BFD";
    let aligned = "send.dc1 (8|M0) r12 r2 null 0x0 0x022D03FD";
    let mut mem = TestMem::new(BASE, 0x1000);
    let words = values(32, 6);
    mem.put_u32s(BASE, &words);
    // Unaligned form from a DWord-aligned address: 4 OWords = 16 dwords.
    let prog = program(&iga, Platform::Tgllp, unaligned);
    let t = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &a64_addrs(BASE + 4, 1, 0))
    })
    .unwrap();
    assert_eq!(u32s(&t, 12, 16), words[1..17].to_vec());
    // The aligned form faults on the same address with its alignment.
    let prog = program(&iga, Platform::Tgllp, aligned);
    let e = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &a64_addrs(BASE + 4, 1, 0))
    })
    .err()
    .expect("misaligned");
    assert_eq!(e.offset, 0);
    assert_eq!(
        e.kind,
        EuErrorKind::Misaligned {
            address: BASE + 4,
            align: 16
        }
    );
    let t = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &a64_addrs(BASE + 16, 1, 0))
    })
    .unwrap();
    assert_eq!(u32s(&t, 12, 16), words[4..20].to_vec());
}

#[test]
fn writes_outside_the_address_space_fault_with_offset_and_address() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        mov (8|M0) r4.0<1>:ud 0x1:ud
        send.dc1 (8|M0) null r2 r4 0x40 0x04066EFD
        ";
    let prog = program(&iga, Platform::Tgllp, body);
    let mut mem = TestMem::new(BASE, 0x1000);
    let bad = BASE + 0x1000 - 8;
    let e = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &a64_addrs(bad, 8, 4))
    })
    .err()
    .expect("fault");
    assert_eq!(e.offset, 16);
    // Lanes 0 and 1 are inside; lane 2's address is the first outside.
    assert_eq!(
        e.kind,
        EuErrorKind::PageFault {
            address: BASE + 0x1000
        }
    );
}

/// A 16x4-uint surface (64-byte rows) at BASE, binding-table index 1.
fn image(mem: &mut TestMem) -> Vec<u32> {
    mem.surfaces.insert(
        1,
        Surface {
            base: BASE,
            width: 64,
            height: 4,
            pitch: 64,
            tiling: sim::mem::tiling::Tiling::Linear,
            image: None,
        },
    );
    let px: Vec<u32> = (0..64).map(|i| 0x1000 + i).collect();
    mem.put_u32s(BASE, &px);
    px
}

#[test]
fn media_block_read_clamps_to_the_edge_in_uints() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let prog = program(
        &iga,
        Platform::Tgllp,
        "send.dc1 (8|M0) r12 r2 null 0x0 0x02290001",
    );
    let mut mem = TestMem::new(BASE, 0x1000);
    let px = image(&mut mem);
    // 8 uints wide from x = 12 uints, 2 rows from y = 3: columns past 15 and row 4 clamp.
    let t = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &[48, 3, 31 | 1 << 16])
    })
    .unwrap();
    for row in 0..2 {
        for k in 0..8 {
            let (x, y) = ((12 + k).min(15), (3 + row).min(3));
            assert_eq!(t.grf_u32(12 + row, k), px[y * 16 + x], "row {row} uint {k}");
        }
    }
    // Negative coordinates clamp to column and row 0.
    let t = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &[(-8i32) as u32, (-1i32) as u32, 31 | 1 << 16])
    })
    .unwrap();
    for k in 0..8 {
        let x = (k as i64 - 2).max(0) as usize;
        assert_eq!(t.grf_u32(12, k), px[x], "row -1 uint {k}");
        assert_eq!(t.grf_u32(13, k), px[x], "row 0 uint {k}");
    }
}

#[test]
fn media_block_read_starts_at_any_byte_inside_the_row() {
    // cl_intel_subgroups: the image block read "may read from any arbitrary byte offset".
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let prog = program(
        &iga,
        Platform::Tgllp,
        "send.dc1 (8|M0) r12 r2 null 0x0 0x02290001",
    );
    let mut mem = TestMem::new(BASE, 0x1000);
    image(&mut mem);
    let byte =
        |x: u64, y: u64| mem.u32_at(BASE + y * 64 + (x & !3)).to_le_bytes()[(x & 3) as usize];
    let bytes: Vec<u8> = (0..2 * 64).map(|i| byte(i % 64, i / 64)).collect();
    // 8 uints wide from byte 5 of row 1: every uint from its own (unaligned) address.
    let t = run_on(&prog, 8, &mut mem, |t| set_u32s(t, 2, &[5, 1, 31])).unwrap();
    for k in 0..8 {
        let at = 64 + 5 + 4 * k;
        let want = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!(t.grf_u32(12, k), want, "uint {k}");
    }
}

#[test]
fn media_block_write_drops_what_falls_outside() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let prog = program(
        &iga,
        Platform::Tgllp,
        "send.dc1 (8|M0) null r2 r4 0x80 0x020A8001",
    );
    let mut mem = TestMem::new(BASE, 0x1000);
    let px = image(&mut mem);
    // 4 uints wide at x = 14 uints, rows 3 and 4 (rows padded to 16 bytes in the payload).
    run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &[56, 3, 15 | 1 << 16]);
        set_u32s(t, 4, &[0xa0, 0xa1, 0xa2, 0xa3, 0xb0, 0xb1, 0xb2, 0xb3]);
    })
    .unwrap();
    let at = |x: u64, y: u64| mem.u32_at(BASE + y * 64 + 4 * x);
    assert_eq!((at(14, 3), at(15, 3)), (0xa0, 0xa1));
    assert_eq!(at(0, 3), px[48], "no wrap into the row");
    assert_eq!(mem.u32_at(BASE + 4 * 64), 0, "nothing past the last row");
}

#[test]
fn lsc_load_store_transposed_slm_and_atomics_on_xe_hpg() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        send.ugm (16|M0) null r2 r6:2 0x0 0x08000584
        send.ugm (16|M0) r10 r2 null:0 0x0 0x08200580
        send.ugm (1|M0) r12 r2 null:0 0x0 0x0210C580
        send.slm (16|M0) null r14 r6:2 0x0 0x04000504
        send.slm (16|M0) r16 r14 null:0 0x0 0x04200500
        send.ugm (16|M0) r18 r2 r6:2 0x0 0x0820058C
        ";
    let prog = program(&iga, Platform::Dg2, body);
    let mut mem = TestMem::new(BASE, 0x1000);
    let data = values(16, 8);
    let offs: Vec<u32> = (0..16).map(|i| 0x100 + 4 * (15 - i)).collect();
    let t = run_on(&prog, 16, &mut mem, |t| {
        set_u32s(t, 2, &a64_addrs(BASE, 16, 4));
        set_u32s(t, 6, &data);
        set_u32s(t, 14, &offs);
    })
    .unwrap();
    for i in 0..16 {
        assert_eq!(t.grf_u32(10 + i / 8, i % 8), data[i], "load lane {i}");
        assert_eq!(t.grf_u32(16 + i / 8, i % 8), data[i], "slm lane {i}");
        let slm = 0x100 + 4 * (15 - i);
        assert_eq!(
            u32::from_le_bytes(mem.slm[slm..slm + 4].try_into().unwrap()),
            data[i],
            "slm store lane {i}"
        );
        assert_eq!(
            t.grf_u32(18 + i / 8, i % 8),
            data[i],
            "atomic returns the old value {i}"
        );
        assert_eq!(
            mem.u32_at(BASE + 4 * i as u64),
            data[i].wrapping_add(data[i]),
            "iadd {i}"
        );
    }
    // Transposed: lane 0's address, eight consecutive dwords.
    assert_eq!(u32s(&t, 12, 8), data[..8].to_vec());
}

/// A transposed LSC load or store (a sub-group block read or write on Xe-HPG) moves its
/// consecutive elements in one memory access when they are all mapped, and element by element
/// otherwise: up to the first unmapped one, where it faults.
#[test]
fn lsc_transposed_blocks_are_one_access_and_fault_at_the_first_unmapped_element() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    // d32x8t load from r2's address into r12, then store of r12 at r3's address (both A64).
    let body = "
        send.ugm (1|M0) r12 r2 null:0 0x0 0x0210C580
        send.ugm (1|M0) null r3 r12:1 0x0 0x0200C584
        ";
    let prog = program(&iga, Platform::Dg2, body);
    let data = values(8, 3);
    let mut mem = TestMem::new(BASE, 0x1000);
    mem.put_u32s(BASE + 0x100, &data);
    let t = run_on(&prog, 16, &mut mem, |t| {
        set_u32s(t, 2, &a64_addrs(BASE + 0x100, 1, 0));
        set_u32s(t, 3, &a64_addrs(BASE + 0x200, 1, 0));
    })
    .unwrap();
    assert_eq!(u32s(&t, 12, 8), data);
    let stored: Vec<u32> = (0..8).map(|i| mem.u32_at(BASE + 0x200 + 4 * i)).collect();
    assert_eq!(stored, data);
    assert_eq!((mem.whole, mem.one_by_one), (2, 0), "one access each");
    // The last three elements past the memory's end: the first five are read one by one, and
    // the sixth faults.
    let mut mem = TestMem::new(BASE, 0x1000);
    let Err(err) = run_on(&prog, 16, &mut mem, |t| {
        set_u32s(t, 2, &a64_addrs(BASE + 0x1000 - 20, 1, 0));
        set_u32s(t, 3, &a64_addrs(BASE + 0x200, 1, 0));
    }) else {
        panic!("a load past the memory's end ran");
    };
    assert_eq!((mem.one_by_one, mem.whole), (6, 0), "{err:?}");
    let at = format!("PageFault {{ address: {} }}", BASE + 0x1000);
    assert!(format!("{err:?}").contains(&at), "{err:?}");
}

/// SLM OWord block reads (BTI 254): the aligned form's header DWord 2 counts OWords (IGC
/// turns `localStorage[i]` in a loop into `offset >> 4` with this message, as in the CTS's
/// test_basic local_kernel_scope); the unaligned form's counts bytes.
#[test]
fn slm_oword_block_read_offsets_are_owords_in_the_aligned_form() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let mut mem = TestMem::new(BASE, 0x1000);
    let words = values(64, 9);
    for (i, w) in words.iter().enumerate() {
        mem.slm[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    // Aligned form, one OWord (1L), as IGC emits it for tgllp.
    let prog = program(
        &iga,
        Platform::Tgllp,
        "send.dc0 (4|M0) r12 r2 null 0x0 0x021800FE",
    );
    let t = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &[0, 0, 3, 0, 0, 0, 0, 0])
    })
    .unwrap();
    assert_eq!(u32s(&t, 12, 4), words[12..16].to_vec());
    // Unaligned form: the same header value is a byte offset (DWord aligned).
    let prog = program(
        &iga,
        Platform::Tgllp,
        "send.dc0 (4|M0) r12 r2 null 0x0 0x021840FE",
    );
    let t = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &[0, 0, 12, 0, 0, 0, 0, 0])
    })
    .unwrap();
    assert_eq!(u32s(&t, 12, 4), words[3..7].to_vec());
}

/// A buffer surface's bounds are checked per element: an OWord block straddling the surface's
/// end returns the DWords inside it and zeros past it, and a block write stores the part inside
/// and drops the rest (PRM, Data Port: out-of-bounds reads return zero, out-of-bounds writes are
/// dropped). IGC relies on it: for `(int16)(vload4(0, src + 9), src[13], src[14], src[15])` on a
/// 64-byte buffer it reads 32 bytes from byte 36 (CTS test_basic vector_creation).
#[test]
fn buffer_blocks_straddling_the_end_move_their_inside_part() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let mut mem = TestMem::new(BASE, 0x1000);
    let words = values(32, 5);
    mem.put_u32s(BASE, &words);
    mem.surfaces.insert(1, Surface::buffer(BASE, 64));
    // Unaligned OWord block read of two OWords (iga64: "oword aligned block read x2"), byte
    // offset 36 in the header: DWords 9..16, of which 9..15 lie inside the 64 bytes.
    let prog = program(
        &iga,
        Platform::Tgllp,
        "send.dc0 (8|M0) r12 r2 null 0x0 0x02184201",
    );
    let t = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &[0, 0, 36, 0, 0, 0, 0, 0])
    })
    .unwrap();
    let mut want = words[9..16].to_vec();
    want.push(0);
    assert_eq!(u32s(&t, 12, 8), want);
    // OWord block write of two OWords at OWord offset 3 (bytes 48..80): 48..64 is stored.
    let prog = program(
        &iga,
        Platform::Tgllp,
        "send.dc0 (8|M0) null r2 null 0x0 0x040A0201",
    );
    let data: Vec<u32> = (0..8).map(|i| 0xa000 + i).collect();
    run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &[0, 0, 3, 0, 0, 0, 0, 0]);
        set_u32s(t, 3, &data);
    })
    .unwrap();
    let mut want = words[..12].to_vec();
    want.extend_from_slice(&data[..4]);
    want.extend_from_slice(&words[16..]);
    let got: Vec<u32> = (0..32).map(|i| mem.u32_at(BASE + 4 * i)).collect();
    assert_eq!(got, want);
}

/// LSC D64 per lane (vector size 1) at DWord-aligned addresses, as acm-g10's printf stores
/// its longs (descriptor 0x080E0784 copied from IGC's printf code; iga64: store.ugm.d64.a64),
/// at 2-byte-aligned addresses, as oneDNN's GEMM kernels load f16 rows of odd length, and the
/// rule around it: the vector form (d64x2) below QWord alignment stops the thread.
#[test]
fn lsc_d64_lanes_take_any_address_and_d64_vectors_do_not() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        send.ugm (16|M0) null r2 r6:4 0x0 0x080E0784
        load.ugm.d64.a64 (16|M0) r10:4 [r2:4]
        ";
    let prog = program(&iga, Platform::Dg2, body);
    let mut mem = TestMem::new(BASE, 0x1000);
    // Lane i's QWord at BASE + 4 + 12 i: DWord-aligned, never QWord-aligned.
    let at = |i: usize| BASE + 4 + 12 * i as u64;
    let data = values(32, 9);
    let t = run_on(&prog, 16, &mut mem, |t| {
        set_u32s(t, 2, &a64_addrs(BASE + 4, 16, 12));
        set_u32s(t, 6, &data);
    })
    .unwrap();
    assert_eq!(u32s(&t, 10, 32), data, "read back");
    for i in 0..16 {
        let q = (mem.u32_at(at(i)), mem.u32_at(at(i) + 4));
        assert_eq!(q, (data[2 * i], data[2 * i + 1]), "lane {i}");
    }
    let misaligned = |body: &str, addr: u64| {
        let prog = program(&iga, Platform::Dg2, body);
        let mut mem = TestMem::new(BASE, 0x1000);
        run_on(&prog, 16, &mut mem, |t| {
            set_u32s(t, 2, &a64_addrs(addr, 16, 16));
        })
        .err()
        .expect("misaligned")
        .kind
    };
    // Lane i's QWord at BASE + 6 + 6 i: 2-byte-aligned, overlapping its neighbours' (a
    // row of 3 halves per lane, as oneDNN's loads of a 3-column f16 matrix).
    let halves: Vec<u16> = (0..64).map(|i| 0x1000 + i).collect();
    let mut mem = TestMem::new(BASE, 0x1000);
    let words: Vec<u32> = halves
        .chunks(2)
        .map(|p| u32::from(p[0]) | u32::from(p[1]) << 16)
        .collect();
    mem.put_u32s(BASE, &words);
    let load = program(&iga, Platform::Dg2, "load.ugm.d64.a64 (16|M0) r10:4 [r2:4]");
    let t = run_on(&load, 16, &mut mem, |t| {
        set_u32s(t, 2, &a64_addrs(BASE + 6, 16, 6));
    })
    .unwrap();
    let got = u32s(&t, 10, 32);
    for i in 0..16 {
        let h = |k: usize| u32::from(halves[3 + 3 * i + k]);
        assert_eq!(
            (got[2 * i], got[2 * i + 1]),
            (h(0) | h(1) << 16, h(2) | h(3) << 16),
            "lane {i}"
        );
    }
    assert_eq!(
        misaligned("store.ugm.d64x2.a64 (16|M0) [r2:4] r6:8", BASE + 4),
        EuErrorKind::Misaligned {
            address: BASE + 4,
            align: 8
        }
    );
}
