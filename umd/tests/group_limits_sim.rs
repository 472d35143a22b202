//! The largest work-group per SIMD width runs correctly on the simulator, and one work-item
//! more is refused with an ND-range error before any batch is built. A group's threads are
//! at most one subslice's (the simulated skl and icllp GT2: 8 EUs × 7 threads = 56) and what
//! the walker can count: 64 threads on Gen9–Gen12LP (GPGPU_WALKER's 6-bit Thread Width
//! Counter Maximum; a Gen12LP dual-subslice holds 112), 1024 work-items on Xe-HPG. Kernels
//! compiled by ocloc; results checked against the kernel's definition.

use crate::program_support;

use oracles::ocloc::Format;
use platform::Platform;
use umd::device::{sim_kmds, Device};
use umd::kernel::Kernel;
use umd::Error;

const SOURCE: &str = include_str!("data/group_limits.cl");
const GROUPS: u32 = 2;

/// What `mirrorN` writes for work-item `gid` in groups of `local`.
fn expected(gid: u32, local: u32) -> u32 {
    let (g, l) = (gid / local, gid % local);
    (g * local + local - 1 - l) + (g << 16)
}

fn run(d: &Device, kernel: &Kernel, local: u32) -> Result<Vec<u32>, Error> {
    program_support::dispatch_u32s(d, kernel, GROUPS, local)
}

#[test]
fn largest_group_runs_and_one_item_more_is_refused() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for p in Platform::ALL {
        let bin = program_support::compile_cached(&ocloc, p, SOURCE, Format::PatchTokens)
            .unwrap_or_else(|e| panic!("ocloc {p}: {e}"));
        let kmd = sim_kmds(p)[0];
        let d = Device::open_sim(p, Some(kmd)).unwrap();
        for (name, simd) in [("mirror8", 8), ("mirror16", 16), ("mirror32", 32)] {
            let kernel = Kernel::from_ocloc(&bin, Some(name), Some(p)).unwrap();
            assert_eq!(kernel.simd, simd, "{p} {name}");
            let max = d.info().max_group_items(simd).unwrap();
            let threads = match p {
                Platform::Skl | Platform::Icllp => 56,
                Platform::Tgllp => 64,
                Platform::Dg2 => 128,
            };
            assert_eq!(max, (threads * simd).min(1024), "{p} {name}");
            let got = run(&d, &kernel, max).unwrap_or_else(|e| panic!("{p} {name}: {e}"));
            let wrong: Vec<_> = (0..GROUPS * max)
                .filter(|&i| got[i as usize] != expected(i, max))
                .take(4)
                .map(|i| (i, got[i as usize], expected(i, max)))
                .collect();
            assert!(wrong.is_empty(), "{p} {name} local {max}: {wrong:?}");
            match run(&d, &kernel, max + 1) {
                Err(Error::NdRange(_)) => {}
                other => panic!("{p} {name} local {}: {other:?}", max + 1),
            }
        }
    }
}
