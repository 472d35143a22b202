//! A fused-off part (`sim:<platform>-<part>`): umd's limits follow the topology its kernel
//! driver reports. Expected values are worked by hand from the peers' formulas (as in
//! `batchbuffer --test integration device_limits::`):
//! - front end's Maximum Number of Threads: Mesa's max_cs_threads × subslice_total (each
//!   enabled subslice whole, 8 dispatch threads per EU on Gen12LP as NEO's
//!   getMaxThreadsForVfe);
//! - scratch slices: NEO's getComputeUnitsUsedForScratch over the largest topology the query
//!   describes (Mesa's 4 subslices per slice on Gen9);
//! - the largest work-group: one subslice's threads (EUs per subslice × threads per EU) × SIMD.
//!
//! Then a kernel at the part's largest work-group runs correctly and one item more is refused
//! with umd's ND-range error, where the full part would take it.

use crate::program_support;

use oracles::ocloc::Format;
use platform::Platform;
use umd::device::{Device, DeviceSpec, KmdChoice};
use umd::kernel::Kernel;
use umd::Error;

const SOURCE: &str = include_str!("data/group_limits.cl");

fn open(name: &str, kmd: KmdChoice) -> Device {
    let spec: DeviceSpec = name.parse().unwrap();
    Device::open(&spec, Some(kmd), None).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn limits_follow_the_fused_topology() {
    // (device, kmd, EUs, subslices, front-end threads, scratch slices)
    let cases = [
        // SKL GT1 on the GT2 shape 1×3×8: 2 × 8 × 7 = 112 (Mesa 56 × 2); scratch 4 × 8 × 7 = 224.
        ("sim:skl-gt1", KmdChoice::I915, 12, 2, 112, 224),
        // 5 of 6 DSS: 5 × 16 × 8 = 640; scratch 6 × 16 × 8 = 768.
        ("sim:tgllp-80eu", KmdChoice::I915, 80, 5, 640, 768),
        ("sim:tgllp-80eu", KmdChoice::Xe, 80, 5, 640, 768),
        // 28 of 32 Xe-cores: 28 × 16 × 8 = 3584; scratch 32 × 16 × 8 = 4096.
        ("sim:dg2-a750", KmdChoice::I915, 448, 28, 3584, 4096),
        ("sim:dg2-a750", KmdChoice::Xe, 448, 28, 3584, 4096),
    ];
    for (name, kmd, eus, subslices, front, scratch) in cases {
        let d = open(name, kmd);
        let i = d.info();
        assert!(i.simulated, "{name}");
        assert_eq!(i.name, name);
        assert_eq!(
            (i.eu_count, i.subslice_count),
            (eus, subslices),
            "{name} {kmd:?}"
        );
        assert_eq!(
            (i.limits.front_end_threads, i.limits.scratch_slices),
            (front, scratch),
            "{name} {kmd:?}"
        );
    }
    assert!(matches!(
        "sim:tgllp-70eu"
            .parse::<DeviceSpec>()
            .map(|s| Device::open(&s, None, None)),
        Ok(Err(Error::Sim(_)))
    ));
}

fn mirror(d: &Device, kernel: &Kernel, local: u32) -> Result<Vec<u32>, Error> {
    program_support::dispatch_u32s(d, kernel, 2, local)
}

#[test]
fn the_parts_largest_group_runs_and_one_item_more_is_refused() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let p = Platform::Skl;
    let bin = program_support::compile_cached(&ocloc, p, SOURCE, Format::PatchTokens)
        .unwrap_or_else(|e| panic!("ocloc {p}: {e}"));
    let gt1 = open("sim:skl-gt1", KmdChoice::I915);
    let gt2 = open("sim:skl", KmdChoice::I915);
    // One subslice: 6 EUs × 7 threads = 42 threads on GT1, 8 × 7 = 56 on GT2.
    for (name, simd) in [("mirror8", 8), ("mirror16", 16)] {
        let kernel = Kernel::from_ocloc(&bin, Some(name), Some(p)).unwrap();
        assert_eq!(kernel.simd, simd);
        let max = gt1.info().max_group_items(simd).unwrap();
        assert_eq!(max, 42 * simd, "{name}");
        assert_eq!(gt2.info().max_group_items(simd).unwrap(), 56 * simd);
        let got = mirror(&gt1, &kernel, max).unwrap_or_else(|e| panic!("{name}: {e}"));
        // mirrorN: item l of group g writes (g * local + local - 1 - l) + (g << 16).
        for (i, &v) in got.iter().enumerate() {
            let (g, l) = (i as u32 / max, i as u32 % max);
            assert_eq!(v, g * max + max - 1 - l + (g << 16), "{name} item {i}");
        }
        match mirror(&gt1, &kernel, max + simd) {
            Err(Error::NdRange(_)) => {}
            other => panic!("{name} local {}: {other:?}", max + simd),
        }
        assert!(mirror(&gt2, &kernel, max + simd).is_ok(), "{name} on GT2");
    }
}
