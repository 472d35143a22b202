//! Register-indirect operands in the forms IGC emits for sub-group shuffles and dynamic vector
//! indexing, assembled by iga64 and run on every platform. The expected lane addresses are
//! written from the PRM's "Indirect Register Addressing" and "Register Region Restrictions":
//!
//! - 1x1 (`r[a0.s, imm]<v;w,h>`): one address, a0.s + imm, then the region as for a direct
//!   operand; the region may continue into the next register.
//! - VxH (`r[a0.s, imm]<w,h>`): ExecSize/w rows; row r starts at a0.(s + r) + imm. Vx1 is w = 1:
//!   every channel has its own address subregister.
//! - The subregister is the one the instruction encodes: a `(8|M8)` or `(16|M16)` half does not
//!   add its channel offset (IGC encodes `a0.8` for the M8 half of a SIMD16 move).
//! - The immediate is signed (-512..511) and adds to the address for sources and destinations.

// Lanes index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::eu_support as support;

use platform::Platform;
use sim_eu::{EuErrorKind, Thread};
use support::*;

/// The address subregisters a0.0..a0.15 (loaded from r1): four chosen for the 1x1 and VxH
/// rows, then dword-aligned addresses scattered over r2..r9.
fn a0_words() -> [u16; 16] {
    let mut a = [0u16; 16];
    a[..4].copy_from_slice(&[0x40, 0x84, 0x60, 0xa8]);
    for (i, w) in a.iter_mut().enumerate().skip(4) {
        *w = 0x40 + ((i as u16 * 37) % 64) * 4;
    }
    a
}

/// 64-bit Vx1 addresses (r10): qword-aligned, scattered over r2..r9.
fn a0_qwords() -> [u16; 8] {
    std::array::from_fn(|i| 0x40 + ((i as u16 * 11 + 3) % 32) * 8)
}

const BODY: &str = "
        (W) mov (16|M0) a0.0<1>:uw r1.0<16;16,1>:uw
        mov (8|M0) r20.0<1>:ud r[a0.0,20]<8;8,1>:ud
        mov (8|M0) r21.0<1>:ud r[a0.1,-36]<8;8,1>:ud
        mov (8|M0) r22.0<1>:ud r[a0.2]<4,1>:ud
        mov (8|M0) r23.0<1>:ud r[a0.2,8]<4,1>:ud
        mov (16|M0) r24.0<1>:uw r[a0.0]<2,1>:uw
        mov (16|M0) r25.0<1>:ub r[a0.0]<1,0>:ub
        mov (16|M16) r25.16<1>:ub r[a0.0,1]<1,0>:ub
        mov (8|M8) r26.0<1>:ud r[a0.8,4]<1,0>:ud
        mov (16|M0) r27.0<1>:d r[a0.0]<1,0>:d
        mov (16|M16) r29.0<1>:d r[a0.0,-4]<1,0>:d
        add (8|M0) r31.0<1>:d r[a0.4]<1,0>:d r[a0.1,4]<0;1,0>:d
        (W) mov (1|M0) a0.3<1>:uw 0x1e0:uw
        mov (8|M0) r[a0.3,-32]<1>:ud r2.0<8;8,1>:ud
        (W) mov (1|M0) a0.4<1>:uw 0x400:uw
        mov (8|M0) r[a0.4,-512]<1>:ub r3.0<8;8,1>:ub
        mov (16|M0) r[a0.4,503]<1>:ub r4.0<16;16,1>:ub
";

/// Skl's IGC moves doubles with Vx1 `:df` (Gen12 forbids Vx1/VxH for 64-bit data).
const BODY_DF: &str = "
        (W) mov (8|M0) a0.0<1>:uw r10.0<8;8,1>:uw
        mov (8|M0) r32.0<1>:df r[a0.0]<1,0>:df
";

/// Test data: every dword of r2..r9 distinct.
fn init(t: &mut Thread) {
    let a0 = a0_words();
    let q = a0_qwords();
    let words = |w: &[u16]| -> Vec<u32> {
        w.chunks(2)
            .map(|p| u32::from(p[0]) | u32::from(*p.get(1).unwrap_or(&0)) << 16)
            .collect()
    };
    set_u32s(t, 1, &words(&a0));
    set_u32s(t, 10, &words(&q));
    set_u32s(t, 2, &values(64, 9));
}

/// The bytes of `size`-byte elements at `addrs`, from the GRF as it was before the run.
fn gather(before: &[u8], addrs: &[usize], size: usize) -> Vec<u8> {
    addrs
        .iter()
        .flat_map(|&a| before[a..a + size].to_vec())
        .collect()
}

fn check(
    t: &Thread,
    before: &[u8],
    p: Platform,
    what: &str,
    dst: usize,
    addrs: &[usize],
    size: usize,
) {
    let want = gather(before, addrs, size);
    assert_eq!(
        &t.grf()[dst..dst + want.len()],
        want.as_slice(),
        "{p} {what}: lane addresses {addrs:x?}"
    );
}

#[test]
fn indirect_forms_address_as_the_prm_says() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let a0: Vec<usize> = a0_words().iter().map(|&w| usize::from(w)).collect();
    for p in ALL {
        let prog = program(&iga, p, BODY);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let mut before = Vec::new();
        let t = run_on(&prog, 32, &mut mem, |t| {
            init(t);
            before = t.grf().to_vec();
        })
        .unwrap_or_else(|e| panic!("{p}: {e}"));
        let b = &before;
        let lanes = |n: usize, f: &dyn Fn(usize) -> usize| (0..n).map(f).collect::<Vec<_>>();
        // 1x1: one address plus the immediate, the region crossing from r2 into r3.
        let one = lanes(8, &|i| a0[0] + 20 + 4 * i);
        check(&t, b, p, "1x1 +imm across a register", 20 * 32, &one, 4);
        let neg = lanes(8, &|i| a0[1] - 36 + 4 * i);
        check(&t, b, p, "1x1 -imm", 21 * 32, &neg, 4);
        // VxH <4,1>: two rows of four from a0.2 and a0.3.
        let vxh = lanes(8, &|i| a0[2 + i / 4] + 4 * (i % 4));
        check(&t, b, p, "VxH <4,1>", 22 * 32, &vxh, 4);
        let vxh_imm = lanes(8, &|i| a0[2 + i / 4] + 8 + 4 * (i % 4));
        check(&t, b, p, "VxH <4,1> +imm", 23 * 32, &vxh_imm, 4);
        let rows2 = lanes(16, &|i| a0[i / 2] + 2 * (i % 2));
        check(&t, b, p, "VxH <2,1>:uw, 8 rows", 24 * 32, &rows2, 2);
        // Vx1: a0.i for channel i; the M16 half starts again at a0.0.
        let vx1 = lanes(16, &|i| a0[i]);
        check(&t, b, p, "Vx1 :ub", 25 * 32, &vx1, 1);
        let m16 = lanes(16, &|i| a0[i] + 1);
        check(&t, b, p, "Vx1 :ub M16 +imm", 25 * 32 + 16, &m16, 1);
        let m8 = lanes(8, &|i| a0[8 + i] + 4);
        check(&t, b, p, "Vx1 a0.8 M8 +imm", 26 * 32, &m8, 4);
        check(&t, b, p, "Vx1 :d SIMD16", 27 * 32, &vx1, 4);
        let m16d = lanes(16, &|i| a0[i] - 4);
        check(&t, b, p, "Vx1 :d M16 -imm", 29 * 32, &m16d, 4);
        // Two indirect sources: Vx1 from a0.4 and a 1x1 scalar.
        let x = gather(b, &lanes(8, &|i| a0[4 + i]), 4);
        let s = gather(b, &[a0[1] + 4], 4);
        for i in 0..8 {
            let d =
                |v: &[u8], k: usize| i32::from_le_bytes(v[4 * k..4 * k + 4].try_into().unwrap());
            let want = d(&x, i).wrapping_add(d(&s, 0));
            assert_eq!(t.grf_u32(31, i) as i32, want, "{p} add Vx1 + 1x1 lane {i}");
        }
        // Indirect destinations: 0x1e0 - 32 is r14; 0x400 - 512 is r16; 0x400 + 503 runs from
        // r47.23 into r48.
        assert_eq!(u32s(&t, 14, 8), u32s_of(b, 2, 8), "{p} dst -imm");
        assert_eq!(&t.grf()[0x200..0x208], &b[0x60..0x68], "{p} dst -512");
        assert_eq!(
            &t.grf()[0x5f7..0x607],
            &b[0x80..0x90],
            "{p} dst +503 across r47/r48"
        );
    }
}

fn u32s_of(grf: &[u8], reg: usize, n: usize) -> Vec<u32> {
    (0..n)
        .map(|i| {
            u32::from_le_bytes(
                grf[reg * 32 + 4 * i..reg * 32 + 4 * i + 4]
                    .try_into()
                    .unwrap(),
            )
        })
        .collect()
}

#[test]
fn vx1_doubles_on_skl() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let p = Platform::Skl;
    let prog = program(&iga, p, BODY_DF);
    let mut mem = TestMem::new(0x1000, 0x1000);
    let mut before = Vec::new();
    let t = run_on(&prog, 8, &mut mem, |t| {
        init(t);
        before = t.grf().to_vec();
    })
    .unwrap();
    let q: Vec<usize> = a0_qwords().iter().map(|&w| usize::from(w)).collect();
    check(&t, &before, p, "Vx1 :df", 32 * 32, &q, 8);
}

/// A VxH row past a0.15 has no address subregister: the error names it.
#[test]
fn vxh_rows_past_a0_15_are_an_error() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in ALL {
        let prog = program(&iga, p, "mov (16|M0) r20.0<1>:uw r[a0.8]<1,0>:uw");
        let mut mem = TestMem::new(0x1000, 0x1000);
        // a0.8..a0.15 are zero (r0): channels 0..7 read, channel 8 has no subregister.
        let e = run_on(&prog, 16, &mut mem, |_| {})
            .err()
            .expect("a0.16 does not exist");
        assert_eq!(
            e.kind,
            EuErrorKind::RegisterOutOfRange {
                file: "a0",
                byte: 32
            },
            "{p}"
        );
    }
}

/// Addresses past r127 (a0 up to 0xffff, or a negative immediate) for sources and
/// destinations, element by element.
const WRAP: &str = "
        (W) mov (1|M0) a0.0<1>:uw 0xfd0:uw
        mov (8|M0) r20.0<1>:ud r[a0.0,32]<8;8,1>:ud
        (W) mov (1|M0) a0.1<1>:uw 0x10:uw
        mov (8|M0) r21.0<1>:ud r[a0.1,-32]<8;8,1>:ud
        (W) mov (1|M0) a0.0<1>:uw 0x1040:uw
        (W) mov (1|M0) a0.1<1>:uw 0x1ffc:uw
        (W) mov (1|M0) a0.2<1>:uw 0xfffc:uw
        (W) mov (1|M0) a0.3<1>:uw 0x2000:uw
        (W) mov (1|M0) a0.4<1>:uw 0x1004:uw
        (W) mov (1|M0) a0.5<1>:uw 0x3ff0:uw
        (W) mov (1|M0) a0.6<1>:uw 0x8000:uw
        (W) mov (1|M0) a0.7<1>:uw 0xf00c:uw
        mov (8|M0) r22.0<1>:ud r[a0.0]<1,0>:ud
        mov (8|M0) r23.0<1>:ud r[a0.0,-8]<1,0>:ud
        (W) mov (1|M0) a0.8<1>:uw 0x1fe0:uw
        mov (8|M0) r[a0.8]<1>:ud r30.0<8;8,1>:ud
        (W) mov (1|M0) a0.9<1>:uw 0x20:uw
        mov (8|M0) r[a0.9,-48]<1>:ud r31.0<8;8,1>:ud
";

/// The EU keeps an indirect GRF address's low 12 bits (regfile `grf_addr_mask`: 128
/// registers of 32 bytes), computed per element; there is no exception for a register
/// address. So 0xff0 + 4i runs from r127 into r0, and a0 = 0x1040 is r2.
#[test]
fn addresses_past_the_grf_wrap_per_element() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let a0 = [
        0x1040usize,
        0x1ffc,
        0xfffc,
        0x2000,
        0x1004,
        0x3ff0,
        0x8000,
        0xf00c,
    ];
    let wrap = |a: usize| a % 0x1000;
    for p in ALL {
        let prog = program(&iga, p, WRAP);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let mut before = Vec::new();
        let t = run_on(&prog, 8, &mut mem, |t| {
            set_u32s(t, 0, &values(1024, 13));
            before = t.grf().to_vec();
        })
        .unwrap_or_else(|e| panic!("{p}: {e}"));
        let b = &before;
        let lanes = |f: &dyn Fn(usize) -> usize| (0..8).map(f).collect::<Vec<_>>();
        let across = lanes(&|i| wrap(0xff0 + 4 * i));
        check(&t, b, p, "1x1 +imm from r127 into r0", 20 * 32, &across, 4);
        check(&t, b, p, "1x1 -imm below r0", 21 * 32, &across, 4);
        let vx1 = lanes(&|i| wrap(a0[i]));
        check(&t, b, p, "Vx1 a0 past the GRF", 22 * 32, &vx1, 4);
        let vx1_neg = lanes(&|i| wrap(a0[i] + 0x1000 - 8));
        check(&t, b, p, "Vx1 a0 past the GRF -imm", 23 * 32, &vx1_neg, 4);
        // 0x1fe0 is r127; then 0x20 - 48 = -16 writes r127.16..31 and r0.0..15.
        let mut r127 = u32s_of(b, 30, 4);
        r127.extend(u32s_of(b, 31, 4));
        assert_eq!(u32s(&t, 127, 8), r127, "{p} dst at 0x1fe0 and 0xff0");
        assert_eq!(
            u32s(&t, 0, 4),
            u32s_of(b, 31, 8)[4..],
            "{p} dst wraps into r0"
        );
        assert_eq!(
            u32s(&t, 0, 8)[4..],
            u32s_of(b, 0, 8)[4..],
            "{p} r0.16.. kept"
        );
    }
}

/// An element that would straddle the end of the GRF is not aligned to its size: the
/// interpreter reports it rather than inventing bytes.
#[test]
fn an_unaligned_element_across_the_grf_end_is_an_error() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        (W) mov (1|M0) a0.0<1>:uw 0xffe:uw
        mov (8|M0) r20.0<1>:ud r[a0.0]<1,0>:ud
    ";
    for p in ALL {
        let prog = program(&iga, p, body);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let e = run_on(&prog, 8, &mut mem, |_| {}).err().expect("straddles");
        assert_eq!(
            e.kind,
            EuErrorKind::RegisterOutOfRange {
                file: "the GRF",
                byte: 0xffe
            },
            "{p}"
        );
    }
}
