//! `vloadn`/`vstoren` of char, short and int data at every element offset, compiled by ocloc
//! and run on every simulated platform and kernel driver, stateful (binding table) and
//! stateless (A64). IGC lowers the char and short cases to byte-addressed 2- and 4-byte
//! accesses (HDC byte scattered messages; LSC d16u32/d32 on Xe-HPG) at odd addresses, which
//! the data port takes at any byte address. The reference is the OpenCL C spec's definition:
//! `vloadn(i, p)` reads the n elements at `p + i * n`, `vstoren(v, i, p)` writes them there.

use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = include_str!("data/vload_vstore.cl");
/// Element types of the kernels (name, bytes) and vector widths.
const TYPES: [(&str, usize); 5] = [
    ("char", 1),
    ("uchar", 1),
    ("short", 2),
    ("ushort", 2),
    ("int", 4),
];
const WIDTHS: [usize; 5] = [2, 3, 4, 8, 16];
/// Work-items per dispatch and the element offsets tried (byte offsets 0..3 for char).
const ITEMS: usize = 32;
const OFFSETS: [usize; 4] = [0, 1, 2, 3];

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

struct Tools {
    ocloc: std::path::PathBuf,
    iga: std::path::PathBuf,
}

/// The send instructions of kernel `name` in `bin`, as iga64 prints them from ocloc's own dump.
fn sends(tools: &Tools, bin: &[u8], name: &str, p: Platform) -> Vec<String> {
    let heaps = oracles::ocloc::kernel_heaps(&tools.ocloc, bin).unwrap();
    let heap = heaps.iter().find(|h| h.name == name).expect(name);
    oracles::iga64::listing(&tools.iga, p, &heap.bytes)
        .unwrap()
        .into_iter()
        .map(|(_, t)| t)
        .filter(|t| t.contains("send"))
        .collect()
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
                    // Room for the widest vector at the largest offset.
                    let bytes = (ITEMS * 16 + OFFSETS.len()) * elem;
                    let a_init: Vec<u8> = (0..bytes).map(|i| (i * 37 + 11) as u8).collect();
                    let b_init: Vec<u8> = (0..bytes).map(|i| (i * 101 + 7) as u8).collect();
                    let (a, b) = (
                        d.create_buffer(bytes as u64).unwrap(),
                        d.create_buffer(bytes as u64).unwrap(),
                    );
                    a.write(0, &a_init).unwrap();
                    for n in WIDTHS {
                        let name = format!("copy_{ty}{n}");
                        let kernel = Kernel::from_ocloc(&bin, Some(&name), Some(p)).unwrap();
                        let range = NdRange::new(&[ITEMS as u32], None, kernel.simd, None).unwrap();
                        for off in OFFSETS {
                            b.write(0, &b_init).unwrap();
                            let args = [
                                ArgValue::Buffer(a.clone()),
                                ArgValue::Buffer(b.clone()),
                                ArgValue::Value((off as u32).to_le_bytes().to_vec()),
                            ];
                            let what = format!("{p} {k:?} {mode} {name} offset {off}");
                            if let Err(e) = d.dispatch(&kernel, &range, &args) {
                                panic!("{what}: {e}");
                            }
                            let want = reference(&a_init, &b_init, elem, n, off);
                            let got = b.to_vec().unwrap();
                            if let Some(at) = (0..bytes).find(|&i| got[i] != want[i]) {
                                panic!("{what}: byte {at} is {:#x}, want {:#x}", got[at], want[at]);
                            }
                        }
                    }
                }
            }
        }
    }
}
