//! ALU semantics: programs in IGA syntax assembled by iga64, run by the interpreter, checked
//! against the PRM's definitions computed here in plain Rust.

#[path = "eu_support.rs"]
mod support;

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
