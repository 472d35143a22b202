//! ALU semantics: programs in IGA syntax assembled by iga64, run by the interpreter, checked
//! against the PRM's definitions computed here in plain Rust.
// Lanes index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::eu_support as support;

use support::*;

#[test]
fn integer_arithmetic_simd16() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        add (16|M0) r10.0<1>:d r2.0<8;8,1>:d r4.0<8;8,1>:d
        mul (16|M0) r12.0<1>:d r2.0<8;8,1>:d r4.0<8;8,1>:w
        add (16|M0) r14.0<1>:ud r2.0<8;8,1>:ud -r4.0<8;8,1>:ud
        mad (16|M0) r16.0<1>:d r2.0<8;1>:d r4.0<8;1>:d 0x3:w
        avg (16|M0) r18.0<1>:d r2.0<8;8,1>:d r4.0<8;8,1>:d
        add (16|M0) r20.0<1>:d r2.0<0;1,0>:d 0x76543210:v
        mov (16|M0) r22.0<1>:d (abs)r2.0<8;8,1>:d
        add (16|M0) r24.0<1>:d r2.0<16;8,2>:w r4.0<8;8,1>:uw
        add (16|M0) (sat)r26.0<1>:ud r2.0<8;8,1>:ud r4.0<8;8,1>:ud
        ";
    for p in GEN12 {
        let prog = program(&iga, p, body);
        let (a, b) = (values(16, 0), values(16, 7));
        let mut mem = TestMem::new(0x1000, 0x1000);
        let t = run_on(&prog, 16, &mut mem, |t| {
            set_u32s(t, 2, &a);
            set_u32s(t, 4, &b);
        })
        .unwrap();
        let words = |v: &[u32]| -> Vec<u16> {
            v.iter()
                .flat_map(|x| [*x as u16, (*x >> 16) as u16])
                .collect()
        };
        let (aw, bw) = (words(&a), words(&b));
        for i in 0..16 {
            let (x, y) = (a[i] as i32, b[i] as i32);
            assert_eq!(
                u32s(&t, 10, 16)[i],
                x.wrapping_add(y) as u32,
                "{p} add lane {i}"
            );
            // :w source: the low word of lane i's dword region element (stride 1 word).
            let yw = bw[i] as i16 as i32;
            assert_eq!(
                u32s(&t, 12, 16)[i],
                x.wrapping_mul(yw) as u32,
                "{p} mul {i}"
            );
            assert_eq!(u32s(&t, 14, 16)[i], a[i].wrapping_sub(b[i]), "{p} sub {i}");
            assert_eq!(
                u32s(&t, 16, 16)[i],
                x.wrapping_add(y.wrapping_mul(3)) as u32,
                "{p} mad {i}"
            );
            let avg = ((i64::from(x) + i64::from(y) + 1) >> 1) as i32;
            assert_eq!(u32s(&t, 18, 16)[i], avg as u32, "{p} avg {i}");
            let v = [0, 1, 2, 3, 4, 5, 6, 7][i % 8];
            assert_eq!(
                u32s(&t, 20, 16)[i],
                (a[0] as i32).wrapping_add(v) as u32,
                "{p} :v {i}"
            );
            assert_eq!(u32s(&t, 22, 16)[i], x.wrapping_abs() as u32, "{p} abs {i}");
            let s = i32::from(aw[2 * i] as i16) + i32::from(bw[i]);
            assert_eq!(u32s(&t, 24, 16)[i], s as u32, "{p} words {i}");
            let sat = (u64::from(a[i]) + u64::from(b[i])).min(0xffff_ffff) as u32;
            assert_eq!(u32s(&t, 26, 16)[i], sat, "{p} sat {i}");
        }
    }
}

#[test]
fn float_arithmetic_math_and_conversions() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        add (16|M0) r10.0<1>:f r2.0<8;8,1>:f r4.0<8;8,1>:f
        mul (16|M0) r12.0<1>:f r2.0<8;8,1>:f -r4.0<8;8,1>:f
        mad (16|M0) r14.0<1>:f r2.0<8;1>:f r4.0<8;1>:f r2.0<1>:f
        math.inv (16|M0) r16.0<1>:f r4.0<8;8,1>:f
        math.sqt (16|M0) r18.0<1>:f (abs)r2.0<8;8,1>:f
        math.rsqt (16|M0) r20.0<1>:f r4.0<8;8,1>:f
        mov (16|M0) r22.0<1>:d r2.0<8;8,1>:f
        mov (16|M0) r24.0<1>:f r6.0<8;8,1>:d
        rndd (16|M0) r26.0<1>:f r2.0<8;8,1>:f
        rnde (16|M0) r28.0<1>:f r2.0<8;8,1>:f
        frc (16|M0) r30.0<1>:f r2.0<8;8,1>:f
        mov (16|M0) r32.0<1>:hf r2.0<8;8,1>:f
        mov (16|M0) r40.0<1>:f r32.0<8;8,1>:hf
        add (16|M0) (sat)r34.0<1>:f r2.0<8;8,1>:f r4.0<8;8,1>:f
        mov (16|M0) r36.0<1>:ud r2.0<8;8,1>:f
        ";
    let a: Vec<f32> = (0..16).map(|i| (i as f32 - 7.5) * 1.37).collect();
    let b: Vec<f32> = (0..16).map(|i| 0.25 + i as f32 * 0.5).collect();
    let ints: Vec<u32> = values(16, 3);
    for p in GEN12 {
        let prog = program(&iga, p, body);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let t = run_on(&prog, 16, &mut mem, |t| {
            set_u32s(t, 2, &a.iter().map(|f| f.to_bits()).collect::<Vec<_>>());
            set_u32s(t, 4, &b.iter().map(|f| f.to_bits()).collect::<Vec<_>>());
            set_u32s(t, 6, &ints);
        })
        .unwrap();
        for i in 0..16 {
            let (x, y) = (a[i], b[i]);
            assert_eq!(f32s(&t, 10, 16)[i], x + y, "{p} add {i}");
            assert_eq!(f32s(&t, 12, 16)[i], x * -y, "{p} mul {i}");
            assert_eq!(f32s(&t, 14, 16)[i], y.mul_add(x, x), "{p} mad {i}");
            assert_eq!(f32s(&t, 16, 16)[i], 1.0 / y, "{p} inv {i}");
            assert_eq!(f32s(&t, 18, 16)[i], x.abs().sqrt(), "{p} sqrt {i}");
            assert_eq!(f32s(&t, 20, 16)[i], 1.0 / y.sqrt(), "{p} rsqt {i}");
            assert_eq!(u32s(&t, 22, 16)[i], x.trunc() as i32 as u32, "{p} f->d {i}");
            assert_eq!(f32s(&t, 24, 16)[i], ints[i] as i32 as f32, "{p} d->f {i}");
            assert_eq!(f32s(&t, 26, 16)[i], x.floor(), "{p} rndd {i}");
            assert_eq!(f32s(&t, 28, 16)[i], x.round_ties_even(), "{p} rnde {i}");
            assert_eq!(f32s(&t, 30, 16)[i], x - x.floor(), "{p} frc {i}");
            // Through half precision and back: exact for these values' 11-bit mantissas.
            let h = f32s(&t, 40, 16)[i];
            assert!(
                (h - x).abs() <= x.abs() * 2f32.powi(-11),
                "{p} hf {i}: {h} vs {x}"
            );
            assert_eq!(f32s(&t, 34, 16)[i], (x + y).clamp(0.0, 1.0), "{p} sat {i}");
            assert_eq!(
                u32s(&t, 36, 16)[i],
                if x < 0.0 { 0 } else { x as u32 },
                "{p} f->ud {i}"
            );
        }
    }
}

#[test]
fn compare_flags_predication_and_select() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        cmp (16|M0) (lt)f0.0 r10.0<1>:d r2.0<8;8,1>:d r4.0<8;8,1>:d
        mov (16|M0) r12.0<1>:d 0x0:d
        (f0.0) mov (16|M0) r12.0<1>:d 0x7:d
        (~f0.0) add (16|M0) r12.0<1>:d r12.0<8;8,1>:d 0x3:d
        sel (16|M0) (ge)f0.0 r14.0<1>:d r2.0<8;8,1>:d r4.0<8;8,1>:d
        cmp (16|M0) (gt)f1.0 null<1>:ud r2.0<8;8,1>:ud r4.0<8;8,1>:ud
        (f1.0) sel (16|M0) r16.0<1>:ud r2.0<8;8,1>:ud r4.0<8;8,1>:ud
        (W) mov (1|M0) r18.0<1>:uw f1.0<0;1,0>:uw
        mov (16|M0) r20.0<1>:d 0x0:d
        (f1.0.any16h) mov (16|M0) r20.0<1>:d 0x1:d
        (f1.0.all16h) mov (16|M0) r20.0<1>:d 0x2:d
        cmp (16|M0) (eq)f0.1 null<1>:d r2.0<8;8,1>:d 0x12345:d
        (W) mov (1|M0) r18.1<1>:uw f0.1<0;1,0>:uw
        ";
    let a = values(16, 0);
    let b = values(16, 5);
    for p in ALL {
        let prog = program(&iga, p, body);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let t = run_on(&prog, 16, &mut mem, |t| {
            set_u32s(t, 2, &a);
            set_u32s(t, 4, &b);
        })
        .unwrap();
        let mut gt_mask = 0u32;
        for i in 0..16 {
            let (x, y) = (a[i] as i32, b[i] as i32);
            let lt = x < y;
            assert_eq!(
                u32s(&t, 10, 16)[i],
                if lt { u32::MAX } else { 0 },
                "{p} cmp {i}"
            );
            assert_eq!(u32s(&t, 12, 16)[i], if lt { 7 } else { 3 }, "{p} pred {i}");
            assert_eq!(u32s(&t, 14, 16)[i], x.max(y) as u32, "{p} sel.ge {i}");
            let gt = a[i] > b[i];
            gt_mask |= u32::from(gt) << i;
            assert_eq!(
                u32s(&t, 16, 16)[i],
                if gt { a[i] } else { b[i] },
                "{p} (f1.0) sel {i}"
            );
        }
        assert_eq!(t.grf_u32(18, 0) & 0xffff, gt_mask, "{p} f1.0");
        let any = if gt_mask == 0xffff {
            2
        } else if gt_mask != 0 {
            1
        } else {
            0
        };
        assert_eq!(u32s(&t, 20, 16), vec![any; 16], "{p} any/all");
        assert_eq!(
            t.grf_u32(18, 0) >> 16,
            0,
            "{p} f0.1 eq (no lane equals 0x12345)"
        );
    }
}

#[test]
fn logic_shifts_and_bit_operations() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        and (8|M0) r10.0<1>:ud r2.0<8;8,1>:ud r3.0<8;8,1>:ud
        or (8|M0) r11.0<1>:ud r2.0<8;8,1>:ud ~r3.0<8;8,1>:ud
        xor (8|M0) r12.0<1>:ud r2.0<8;8,1>:ud r3.0<8;8,1>:ud
        not (8|M0) r13.0<1>:ud r2.0<8;8,1>:ud
        shl (8|M0) r14.0<1>:ud r2.0<8;8,1>:ud r4.0<8;8,1>:ud
        shr (8|M0) r15.0<1>:ud r2.0<8;8,1>:ud r4.0<8;8,1>:ud
        asr (8|M0) r16.0<1>:d r2.0<8;8,1>:d r4.0<8;8,1>:ud
        rol (8|M0) r17.0<1>:ud r2.0<8;8,1>:ud r4.0<8;8,1>:ud
        ror (8|M0) r18.0<1>:ud r2.0<8;8,1>:ud r4.0<8;8,1>:ud
        bfrev (8|M0) r19.0<1>:ud r2.0<8;8,1>:ud
        cbit (8|M0) r20.0<1>:ud r2.0<8;8,1>:ud
        fbh (8|M0) r21.0<1>:ud r2.0<8;8,1>:ud
        fbh (8|M0) r22.0<1>:ud r2.0<8;8,1>:d
        fbl (8|M0) r23.0<1>:ud r2.0<8;8,1>:ud
        lzd (8|M0) r24.0<1>:ud r2.0<8;8,1>:ud
        bfe (8|M0) r25.0<1>:ud r5.0<8;1>:ud r4.0<8;1>:ud r2.0<1>:ud
        bfe (8|M0) r26.0<1>:d r5.0<8;1>:d r4.0<8;1>:d r2.0<1>:d
        bfi1 (8|M0) r27.0<1>:ud r5.0<8;8,1>:ud r4.0<8;8,1>:ud
        bfi2 (8|M0) r28.0<1>:ud r27.0<8;1>:ud r2.0<8;1>:ud r3.0<1>:ud
        addc (8|M0) r29.0<1>:ud r2.0<8;8,1>:ud r3.0<8;8,1>:ud {AccWrEn}
        mov (8|M0) r30.0<1>:ud acc0.0<8;8,1>:ud
        mul (8|M0) acc0.0<1>:ud r2.0<8;8,1>:ud r3.0<16;8,2>:uw
        mach (8|M0) r31.0<1>:ud r2.0<8;8,1>:ud r3.0<8;8,1>:ud {AccWrEn}
        ";
    let a = values(8, 0);
    let b = values(8, 9);
    let s: Vec<u32> = vec![0, 1, 4, 31, 32, 33, 17, 63];
    let w: Vec<u32> = vec![0, 1, 8, 16, 31, 32, 5, 12];
    for p in GEN12 {
        let prog = program(&iga, p, body);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let t = run_on(&prog, 8, &mut mem, |t| {
            set_u32s(t, 2, &a);
            set_u32s(t, 3, &b);
            set_u32s(t, 4, &s);
            set_u32s(t, 5, &w);
        })
        .unwrap();
        for i in 0..8 {
            let (x, y, sh) = (a[i], b[i], s[i] & 31);
            let r = |reg: usize| t.grf_u32(reg, i);
            assert_eq!(r(10), x & y, "{p} and {i}");
            assert_eq!(r(11), x | !y, "{p} or~ {i}");
            assert_eq!(r(12), x ^ y, "{p} xor {i}");
            assert_eq!(r(13), !x, "{p} not {i}");
            assert_eq!(r(14), x << sh, "{p} shl {i}");
            assert_eq!(r(15), x >> sh, "{p} shr {i}");
            assert_eq!(r(16), ((x as i32) >> sh) as u32, "{p} asr {i}");
            assert_eq!(r(17), x.rotate_left(s[i]), "{p} rol {i}");
            assert_eq!(r(18), x.rotate_right(s[i]), "{p} ror {i}");
            assert_eq!(r(19), x.reverse_bits(), "{p} bfrev {i}");
            assert_eq!(r(20), x.count_ones(), "{p} cbit {i}");
            assert_eq!(
                r(21),
                if x == 0 { u32::MAX } else { x.leading_zeros() },
                "{p} fbh {i}"
            );
            let sx = x ^ ((x as i32 >> 31) as u32);
            assert_eq!(
                r(22),
                if sx == 0 {
                    u32::MAX
                } else {
                    sx.leading_zeros()
                },
                "{p} fbh:d {i}"
            );
            assert_eq!(
                r(23),
                if x == 0 { u32::MAX } else { x.trailing_zeros() },
                "{p} fbl {i}"
            );
            assert_eq!(r(24), x.leading_zeros(), "{p} lzd {i}");
            // bfe: width w (src0), offset s (src1), value (src2), per the PRM pseudocode.
            let (wd, off) = (w[i] & 31, s[i] & 31);
            let ext_u = if wd == 0 {
                0
            } else if wd + off < 32 {
                (x << (32 - wd - off)) >> (32 - wd)
            } else {
                x >> off
            };
            let ext_s = if wd == 0 {
                0
            } else if wd + off < 32 {
                (((x << (32 - wd - off)) as i32) >> (32 - wd)) as u32
            } else {
                ((x as i32) >> off) as u32
            };
            assert_eq!(r(25), ext_u, "{p} bfe {i}");
            assert_eq!(r(26), ext_s, "{p} bfe:d {i}");
            let m = ((1u32 << wd).wrapping_sub(1)) << off;
            assert_eq!(r(27), m, "{p} bfi1 {i}");
            assert_eq!(r(28), (m & x) | (!m & y), "{p} bfi2 {i}");
            let (sum, carry) = x.overflowing_add(y);
            assert_eq!(r(29), sum, "{p} addc {i}");
            assert_eq!(r(30), u32::from(carry), "{p} addc carry {i}");
            assert_eq!(
                r(31),
                ((u64::from(x) * u64::from(y)) >> 32) as u32,
                "{p} mach {i}"
            );
        }
    }
}

/// Float `mac` rounds once, as `mad` does: dst = acc0 + src0 * src1 with an exact product (the
/// reference is IEEE-754 fusedMultiplyAdd, `f32::mul_add`). IGC relies on it: its correctly
/// rounded Gen11 division ends in a mac. The operands are one refinement step of 1/16777215,
/// where rounding the product first lands on the other side of a tie.
#[test]
fn float_mac_is_fused() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        mov (16|M0) acc0.0<1>:f r2.0<8;8,1>:f
        mac (16|M0) r10.0<1>:f r4.0<8;8,1>:f r6.0<8;8,1>:f
        ";
    let (q, y, r) = (
        f32::from_bits(0x3380_0001),
        f32::from_bits(0x3380_0001),
        f32::from_bits(0xb37f_fffe),
    );
    let fused = y.mul_add(r, q);
    assert_ne!(
        fused,
        q + y * r,
        "the operands must tell fused from unfused"
    );
    for p in ALL {
        let prog = program(&iga, p, body);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let t = run_on(&prog, 16, &mut mem, |t| {
            set_u32s(t, 2, &[q.to_bits(); 16]);
            set_u32s(t, 4, &[y.to_bits(); 16]);
            set_u32s(t, 6, &[r.to_bits(); 16]);
        })
        .unwrap();
        assert_eq!(u32s(&t, 10, 16), vec![fused.to_bits(); 16], "{p}");
    }
}
