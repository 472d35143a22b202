//! Xe-HPG kernels compiled for 256 GRF registers (ocloc `-ze-opt-large-register-file`, zebin
//! `.ze_info` `grf_count: 256`) run with STATE_COMPUTE_MODE's Large GRF Mode, which the batch
//! programs for them and clears again for the next 128-register kernel (a platform without
//! the mode refuses them: `umd::limits` tests). The kernel keeps 80 loaded
//! values live at once, so ocloc gives it registers past r127 (iga64's disassembly shows them);
//! its result is checked against the formula of its source, computed here.

use oracles::ocloc::{compile, Format};
use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const N: usize = 80;

const SOURCE: &str = "
kernel void k(global const uint* in, global uint* out) {
    uint g = get_global_id(0);
    uint n = get_global_size(0);
    uint a[80];
    #pragma unroll
    for (int i = 0; i < 80; i++) a[i] = in[i * n + g];
    uint s = 0;
    #pragma unroll
    for (int i = 0; i < 80; i++) s = s * 3u + a[i] * a[79 - i];
    out[g] = s;
}
";

/// What the kernel computes for work-item `g` of `n`, from its source.
fn expected(input: &[u32], g: usize, n: usize) -> u32 {
    let a: Vec<u32> = (0..N).map(|i| input[i * n + g]).collect();
    (0..N).fold(0u32, |s, i| {
        s.wrapping_mul(3)
            .wrapping_add(a[i].wrapping_mul(a[N - 1 - i]))
    })
}

/// The highest GRF register number iga64's disassembly of `isa` names.
fn highest_register(iga: &std::path::Path, p: Platform, isa: &[u8]) -> u32 {
    let text = oracles::iga64::disasm(iga, p, isa, &[]).unwrap();
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|w| w.strip_prefix('r')?.parse::<u32>().ok())
        .max()
        .unwrap_or(0)
}

fn run(d: &Device, k: &Kernel, items: usize) -> (Vec<u32>, Vec<u32>) {
    let input: Vec<u32> = (0..N * items)
        .map(|i| (i as u32).wrapping_mul(0x9e37_79b9) ^ 0x5bd1_e995)
        .collect();
    let bytes: Vec<u8> = input.iter().flat_map(|v| v.to_le_bytes()).collect();
    let inb = d.create_buffer(bytes.len() as u64).unwrap();
    inb.write(0, &bytes).unwrap();
    let out = d.create_buffer(4 * items as u64).unwrap();
    let range = NdRange::new(&[items as u32], None, k.simd, None).unwrap();
    d.dispatch(
        k,
        &range,
        &[ArgValue::Buffer(inb), ArgValue::Buffer(out.clone())],
    )
    .unwrap();
    let got = out
        .to_vec()
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    (input, got)
}

#[test]
fn a_256_register_kernel_runs_in_large_grf_mode_on_dg2() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let p = Platform::Dg2;
    let large = compile(
        &ocloc,
        p,
        SOURCE,
        "-ze-opt-large-register-file",
        Format::Zebin,
    )
    .unwrap();
    let k = Kernel::from_ocloc(&large, Some("k"), Some(p)).unwrap();
    assert_eq!(k.grf_regs(), 256);
    let high = highest_register(&iga, p, k.isa());
    assert!(high >= 128, "the kernel uses registers up to r{high} only");

    let default = compile(&ocloc, p, SOURCE, "", Format::Zebin).unwrap();
    let small = Kernel::from_ocloc(&default, Some("k"), Some(p)).unwrap();
    assert_eq!(small.grf_regs(), 128);
    assert!(highest_register(&iga, p, small.isa()) < 128);

    let d = Device::open_sim(p, None).unwrap();
    // 256, then 128 (Large GRF Mode cleared again), then 256 once more on the same device.
    for (what, k) in [("256", &k), ("128", &small), ("256 again", &k)] {
        let items = 64;
        let (input, got) = run(&d, k, items);
        let want: Vec<u32> = (0..items).map(|g| expected(&input, g, items)).collect();
        assert_eq!(got, want, "{what}-register kernel");
    }
}
