//! A chain of `half` mads in a SIMD32 kernel, as ocloc compiles it and the simulator runs it,
//! against the host's sums. On Gen11 IGC keeps the running sum in the accumulator and turns
//! each `mad` into `mac`, whose addend is the implicit accumulator: `acc0` for channels 0-15
//! and `acc1` for the `(16|M16)` half. The operands are small integers, so every product and
//! partial sum is exact in half and the result is the same whether mad is fused or not.

use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__attribute__((intel_reqd_sub_group_size(32)))
kernel void dot8(global const half *a, global const half *b, global half *o) {
    size_t i = get_global_id(0);
    half s = b[8];
    for (int k = 0; k < 8; k++)
        s = mad(a[i * 8 + k], b[k], s);
    o[i] = s;
}
";

/// Work items: two SIMD32 threads.
const N: usize = 64;

/// The half whose value is the integer `v` (|v| < 2048, so exact).
fn half_of(v: i32) -> u16 {
    if v == 0 {
        return 0;
    }
    let sign = if v < 0 { 0x8000 } else { 0 };
    let m = v.unsigned_abs();
    let e = 31 - m.leading_zeros(); // m = 1.f × 2^e
    let frac = (m << (10 - e)) & 0x3ff;
    sign | ((e + 15) << 10) as u16 | frac as u16
}

#[test]
fn half_mad_chains_in_both_simd32_halves() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    // a[i][k] and b[k] in -4..=4, different in every lane; |sum| <= 8*16 + 4.
    let a: Vec<i32> = (0..N * 8)
        .map(|j| ((j * 7 + j / 8 * 3) % 9) as i32 - 4)
        .collect();
    let b: Vec<i32> = (0..9).map(|k| k * 5 % 9 - 4).collect();
    let want: Vec<u16> = (0..N)
        .map(|i| half_of(b[8] + (0..8).map(|k| a[i * 8 + k] * b[k]).sum::<i32>()))
        .collect();
    let halves =
        |v: &[i32]| -> Vec<u8> { v.iter().flat_map(|&x| half_of(x).to_le_bytes()).collect() };
    let mut bad = Vec::new();
    for p in Platform::ALL {
        let bin = oracles::ocloc::compile(&ocloc, p, SRC, "", oracles::ocloc::Format::PatchTokens)
            .unwrap();
        let d = Device::open_sim(p, Some(umd::device::sim_kmds(p)[0])).unwrap();
        let ab = d.create_buffer((N * 8 * 2) as u64).unwrap();
        ab.write(0, &halves(&a)).unwrap();
        let bb = d.create_buffer(9 * 2).unwrap();
        bb.write(0, &halves(&b)).unwrap();
        let o = d.create_buffer((N * 2) as u64).unwrap();
        let k = Kernel::from_ocloc(&bin, Some("dot8"), Some(p)).unwrap();
        assert_eq!(k.simd, 32, "{p}: dot8 not compiled SIMD32");
        let range = NdRange::new(&[N as u32], None, k.simd, None).unwrap();
        let args = [
            ArgValue::Buffer(ab),
            ArgValue::Buffer(bb),
            ArgValue::Buffer(o.clone()),
        ];
        d.dispatch(&k, &range, &args).unwrap();
        let got = o.to_vec().unwrap();
        for (i, w) in want.iter().enumerate() {
            let g = u16::from_le_bytes([got[2 * i], got[2 * i + 1]]);
            if g != *w {
                bad.push(format!("{p} lane {i}: got {g:#06x}, want {w:#06x}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
