//! `vloadn`/`vstoren` of char, short and int data at every element offset, compiled by ocloc
//! and run on every simulated platform and kernel driver, stateful (binding table) and
//! stateless (A64). IGC lowers the char and short cases to byte-addressed 2- and 4-byte
//! accesses (HDC byte scattered messages; LSC d16u32/d32 on Xe-HPG) at odd addresses, which
//! the data port takes at any byte address. The reference is the OpenCL C spec's definition:
//! `vloadn(i, p)` reads the n elements at `p + i * n`, `vstoren(v, i, p)` writes them there.

use crate::byte_addressed_support;

use byte_addressed_support::{sends, Buffers, Tools, OFFSETS, TYPES, WIDTHS};
use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;

const SRC: &str = include_str!("data/vload_vstore.cl");
/// Work-items per dispatch.
const ITEMS: usize = 32;

/// The two addressing models: ocloc's default (binding table) and stateless only.
const MODES: [(&str, &str); 2] = [
    ("stateful", ""),
    ("stateless", "-cl-intel-greater-than-4GB-buffer-required"),
];

/// The bytes a copy kernel leaves in `b`: `b` before, with `vstoren(vloadn(i, a + off) ^ 0x5a,
/// i, b + off)` applied for every work-item (the xor flips each element's low byte).
fn reference(a: &[u8], b: &[u8], elem: usize, n: usize, off: usize) -> Vec<u8> {
    let mut out = b.to_vec();
    for i in 0..ITEMS {
        for k in 0..n {
            let at = (off + i * n + k) * elem;
            out[at..at + elem].copy_from_slice(&a[at..at + elem]);
            out[at] ^= 0x5a;
        }
    }
    out
}

/// The kernels have the shape of the issue: a 2-byte byte-addressed read and write for
/// `vload2` of uchar, 4-byte ones for `vload8`, through the addressing model asked for.
fn assert_byte_addressed(tools: &Tools, bin: &[u8], p: Platform, stateless: bool) {
    for (kernel, hdc, lsc) in [
        ("copy_uchar2", "16b", ".d16u32."),
        ("copy_uchar8", "32b", ".d32."),
    ] {
        let sends = sends(tools, bin, kernel, p);
        let (read, write) = if p == Platform::Dg2 {
            let model = if stateless { ".a64" } else { ".a32" };
            (
                sends
                    .iter()
                    .any(|t| t.contains("load.ugm") && t.contains(lsc) && t.contains(model)),
                sends
                    .iter()
                    .any(|t| t.contains("store.ugm") && t.contains(lsc) && t.contains(model)),
            )
        } else {
            let model = if stateless { "a64 byte" } else { "; byte" };
            let has = |what: &str| {
                sends
                    .iter()
                    .any(|t| t.contains(&format!("{model} {what} {hdc}")))
            };
            (has("gathering read"), has("scattering write"))
        };
        assert!(read && write, "{p} {kernel}: {sends:#?}");
    }
}

#[test]
fn vload_vstore_at_every_offset_on_every_device() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let tools = Tools { ocloc, iga };
    for p in Platform::ALL {
        for (mode, options) in MODES {
            let bin = oracles::ocloc::compile(
                &tools.ocloc,
                p,
                SRC,
                options,
                oracles::ocloc::Format::PatchTokens,
            )
            .unwrap();
            assert_byte_addressed(&tools, &bin, p, !options.is_empty());
            for k in umd::device::sim_kmds(p) {
                let d = Device::open_sim(p, Some(k)).unwrap();
                for (ty, elem) in TYPES {
                    let bufs = Buffers::new(&d, ITEMS, elem);
                    for n in WIDTHS {
                        let name = format!("copy_{ty}{n}");
                        let kernel = Kernel::from_ocloc(&bin, Some(&name), Some(p)).unwrap();
                        let range = NdRange::new(&[ITEMS as u32], None, kernel.simd, None).unwrap();
                        for off in OFFSETS {
                            let want = reference(&bufs.a_init, &bufs.b_init, elem, n, off);
                            let what = format!("{p} {k:?} {mode} {name} offset {off}");
                            bufs.run(&d, (&kernel, &range), off, &[], &want, &what);
                        }
                    }
                }
            }
        }
    }
}
