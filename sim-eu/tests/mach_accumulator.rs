//! `mach` adds to the accumulator the `mul` before it left: the PRM's multiply-high is
//! `mul acc0, a, b:uw` (a times b's low 16 bits, kept at the accumulator's precision) then
//! `mach dst, a, b` (adds a times b's high 16 bits shifted up; the high DWord to dst, the low
//! one to the accumulator under AccWrEn). oneDNN's generated GEMM kernels (which OpenVINO's
//! GPU plugin runs on Xe-HPG) rely on both halves of that: a 32x16-bit product taken with 0 as
//! mach's src1, and an implicit accumulator at the destination's subregister. The expected
//! values are the products themselves, computed here in 64 bits.

use platform::Platform;
use sim_eu::regfile::REG_BYTES;
use sim_eu::{run, NoMemory, Program, Status, Thread};

const P: Platform = Platform::Dg2;

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

fn dword(t: &Thread, reg: usize, sub: usize) -> u32 {
    let at = reg * REG_BYTES + 4 * sub;
    u32::from_le_bytes(t.grf()[at..at + 4].try_into().unwrap())
}

fn set_dword(t: &mut Thread, reg: usize, sub: usize, v: u32) {
    let at = reg * REG_BYTES + 4 * sub;
    t.grf_mut()[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn run_code(hex: &str, t: &mut Thread, n: u64) {
    let mut code = bytes(hex);
    code.extend(isa_encoder::assemble(P, "nop").unwrap());
    let prog = Program::decode(P, &code);
    assert_eq!(run(t, &prog, &mut NoMemory, n), Ok(Status::Budget));
}

/// From oneDNN's GEMM kernel (`iga64 -d -p 12p71`):
/// `(W) mov (8|M0) r2.0<1>:uw 0x76543210:uv`,
/// `(W) mul (4|M0) acc0.0<1>:ud r6.6<0;1,0>:ud r2.0<4;4,1>:uw`,
/// `(W) mach (4|M0) r3.0<1>:ud r6.6<0;1,0>:ud 0x0:ud {AccWrEn}`,
/// `(W) mov (4|M0) r4.0<1>:ud acc0.0<4;4,1>:ud`: r6.6 times 0, 1, 2, 3 as 64-bit values,
/// high DWords in r3, low in r4.
const BY_16_BITS: &str = "610003801040050200000000103254764101028020020120c406000105023400493b028022820503c40600020000000061000280200205040120340000000000";

#[test]
fn mach_with_zero_keeps_the_product_mul_left_in_the_accumulator() {
    for a in [0x9abc_def1u32, 0xffff_ffff, 7, 0x8000_0000] {
        let mut t = Thread::new(0xff);
        set_dword(&mut t, 6, 6, a);
        run_code(BY_16_BITS, &mut t, 4);
        for k in 0..4u64 {
            let p = u64::from(a) * k;
            let i = k as usize;
            assert_eq!(dword(&t, 3, i), (p >> 32) as u32, "high of {a:#x} * {k}");
            assert_eq!(dword(&t, 4, i), p as u32, "low of {a:#x} * {k}");
        }
    }
}

/// From the same kernel: `(W) mul (1|M0) acc0.6<1>:ud r5.2<0;1,0>:ud r6.8<0;1,0>:uw`,
/// `(W) mach (1|M0) r7.6<1>:ud r5.2<0;1,0>:ud r6.4<0;1,0>:ud {AccWrEn}`,
/// `(W) mov (1|M0) r7.7<1>:d r7.6<0;1,0>:ud`, `(W) mov (1|M0) r7.6<1>:ud acc0.6<0;1,0>:ud`:
/// r5.2 * r6.4 as a 64-bit value in r7.6 (low) and r7.7 (high); mach's implicit accumulator
/// is acc0.6, at its destination's subregister.
const FULL_AT_SUBREGISTER_6: &str = "410200802002c1204405000184060000492d00802202c5074405000284060000610100806002e507c407000000000000610000802002c507c020000000000000";

#[test]
fn mach_reads_and_writes_the_accumulator_at_its_destinations_subregister() {
    for (a, b) in [
        (0x1234_5678u32, 0x9abc_def0u32),
        (0xffff_ffff, 0xffff_ffff),
        (3, 0x0001_0000),
        (0x8765_4321, 0x0000_ffff),
    ] {
        let mut t = Thread::new(0xff);
        set_dword(&mut t, 5, 2, a);
        set_dword(&mut t, 6, 4, b);
        run_code(FULL_AT_SUBREGISTER_6, &mut t, 4);
        let p = u64::from(a) * u64::from(b);
        assert_eq!(dword(&t, 7, 6), p as u32, "low of {a:#x} * {b:#x}");
        assert_eq!(dword(&t, 7, 7), (p >> 32) as u32, "high of {a:#x} * {b:#x}");
    }
}

/// From oneDNN's Xe-HPG convolution (OpenVINO's f16 3x3 convolutions with 128 channels on
/// dg2; `iga64 -d -p 12p71`): `(W) mul (1|M0) acc0.0<1>:d r6.0<0;1,0>:d 0x2493:uw`,
/// `(W) mach (1|M0) r7.0<1>:d r6.0<0;1,0>:d 0x92492493:ud {AccWrEn}`,
/// `(W) asr (1|M0) r7.0<1>:d r7.0<0;1,0>:d 0x4:uw`: r6.0 / 28 by an unsigned magic number.
/// Each source is multiplied as its own type, a signed src0 by an unsigned src1: with the
/// magic taken as signed the quotient is wrong and the kernel's rows land past its output.
const DIV_BY_28: &str = "41010080608601200406000193249324490000806286050704060002932449926c010080608605070407000104000400";

#[test]
fn mach_multiplies_a_signed_source_by_an_unsigned_one_as_their_types_say() {
    const MAGIC: i128 = 0x9249_2493;
    for n in [
        0i32,
        1,
        27,
        28,
        29,
        55,
        56,
        1000,
        0x7fff_ffff,
        -1,
        -5,
        -28,
        i32::MIN,
    ] {
        let mut t = Thread::new(0xff);
        set_dword(&mut t, 6, 0, n as u32);
        run_code(DIV_BY_28, &mut t, 3);
        // The 64-bit product of the signed dword and the unsigned one, its high dword >> 4.
        let want = ((i128::from(n) * MAGIC) >> 32) as i32 >> 4;
        assert_eq!(dword(&t, 7, 0) as i32, want, "{n} * {MAGIC:#x}");
        if n >= 0 {
            assert_eq!(want, n / 28, "the magic divides by 28");
        }
    }
}
