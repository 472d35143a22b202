//! Xe-HPG kernels compiled for 256 GRF registers (ocloc `-ze-opt-large-register-file`) are
//! refused with an error naming the register count, since this driver dispatches every
//! thread with 128 (it does not program Large GRF Mode); the same kernel at the default
//! register file loads and runs. Binaries from ocloc; the register count is the one its
//! zebin's `.ze_info` declares.

use oracles::ocloc::{compile, Format};
use platform::Platform;
use umd::device::Device;
use umd::kernel::{Kernel, LoadError};
use umd::ndrange::NdRange;
use umd::payload::ArgValue;
use umd::Error;

const SOURCE: &str = "kernel void k(global int* o) { o[get_global_id(0)] = 7; }\n";

#[test]
fn large_grf_kernel_is_refused_on_dg2_and_default_one_runs() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let p = Platform::Dg2;
    let large = compile(
        &ocloc,
        p,
        SOURCE,
        "-ze-opt-large-register-file",
        Format::Zebin,
    )
    .unwrap();
    match Kernel::from_ocloc(&large, Some("k"), Some(p)) {
        Err(LoadError::Other(Error::BadKernel { kernel, problem })) => {
            assert_eq!(kernel, "k");
            assert!(problem.contains("256 GRF registers"), "{problem}");
        }
        other => panic!("a 256-register kernel was not refused: {other:?}"),
    }

    let default = compile(&ocloc, p, SOURCE, "", Format::Zebin).unwrap();
    let k = Kernel::from_ocloc(&default, Some("k"), Some(p)).unwrap();
    let d = Device::open_sim(p, None).unwrap();
    let out = d.create_buffer(64 * 4).unwrap();
    let range = NdRange::new(&[64], None, k.simd, None).unwrap();
    d.dispatch(&k, &range, &[ArgValue::Buffer(out.clone())])
        .unwrap();
    let got = out.to_vec().unwrap();
    assert!(
        got.chunks_exact(4)
            .all(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) == 7),
        "{got:?}"
    );
}
