//! Subgroup block built-ins: the sends `sendmsg::subgroup::block_io` chooses must be the ones
//! Intel's compiler emits for the same built-in, kernel by kernel, on every platform, for
//! buffers (stateful and stateless) and images.

use crate::sendmsg_support;

use isa_encoder::sendmsg::subgroup::{block_io, BlockIo, BlockSurface};
use isa_encoder::sendmsg::{describe, DescValue, Sfid};
use oracles::ocloc::{compile, kernel_heaps, Format};
use oracles::{require, Oracle};
use platform::Platform;
use sendmsg_support::listed_sends;

/// (element type, built-in suffix, element bytes, vector sizes).
const TYPES: [(&str, &str, u32, &[u32]); 3] = [
    ("uint", "", 4, &[1, 2, 4, 8]),
    ("ushort", "_us", 2, &[1, 2, 4, 8]),
    ("uchar", "_uc", 1, &[1, 2, 4, 8, 16]),
];

/// Kernel name -> the built-in call it makes (surface kind: 'b' buffer, 'i' image).
fn kernels() -> (String, Vec<(String, BlockIo, char)>) {
    let mut src = String::from(
        "#pragma OPENCL EXTENSION cl_intel_subgroups : enable\n\
         #pragma OPENCL EXTENSION cl_intel_subgroups_short : enable\n",
    );
    let mut calls = Vec::new();
    for simd in [8u32, 16] {
        for (t, suffix, bytes, vectors) in TYPES {
            for &n in vectors {
                let vn = if n == 1 { String::new() } else { n.to_string() };
                let vt = format!("{t}{vn}");
                let f = format!("intel_sub_group_block_read{suffix}{vn}");
                let w = format!("intel_sub_group_block_write{suffix}{vn}");
                let attr = format!("__attribute__((intel_reqd_sub_group_size({simd})))");
                let off = simd * n;
                let coord = format!("(int2)(get_group_id(0) * {}, get_group_id(1))", simd * 4);
                src += &format!(
                    "{attr} kernel void br_{t}{n}_s{simd}(global {t}* p, global {vt}* o) \
                     {{ o[get_global_id(0)] = {f}(p + get_group_id(0) * {off}); }}\n\
                     {attr} kernel void bw_{t}{n}_s{simd}(global {t}* p, global {vt}* i) \
                     {{ {w}(p + get_group_id(0) * {off}, i[get_global_id(0)]); }}\n\
                     {attr} kernel void ir_{t}{n}_s{simd}(read_only image2d_t im, global {vt}* o) \
                     {{ o[get_global_id(0)] = {f}(im, {coord}); }}\n\
                     {attr} kernel void iw_{t}{n}_s{simd}(write_only image2d_t im, global {vt}* i) \
                     {{ {w}(im, {coord}, i[get_global_id(0)]); }}\n"
                );
                for (prefix, write, surface) in [
                    ("br", false, 'b'),
                    ("bw", true, 'b'),
                    ("ir", false, 'i'),
                    ("iw", true, 'i'),
                ] {
                    let io = BlockIo {
                        write,
                        simd,
                        elem_bytes: bytes,
                        vector: n,
                    };
                    calls.push((format!("{prefix}_{t}{n}_s{simd}"), io, surface));
                }
            }
        }
    }
    (src, calls)
}

/// A send reduced to what the lowering decides: SFID, descriptor without the surface index,
/// src1 length.
type Shape = (u8, u32, u8);

fn is_block_message(text: &str) -> bool {
    text.contains("block read")
        || text.contains("block write")
        || text.contains("t.a32")
        || text.contains("t.a64")
}

fn check(
    p: Platform,
    options: &str,
    stateless: bool,
    ocloc: &std::path::Path,
    iga: &std::path::Path,
) -> Vec<String> {
    let (src, calls) = kernels();
    let bin = compile(ocloc, p, &src, options, Format::PatchTokens)
        .unwrap_or_else(|e| panic!("ocloc {p}: {e}"));
    let heaps = kernel_heaps(ocloc, &bin).unwrap();
    let mut bad = Vec::new();
    for (name, io, kind) in calls {
        let heap = heaps
            .iter()
            .find(|h| h.name == name)
            .unwrap_or_else(|| panic!("{p}: no kernel {name}"));
        let listing = oracles::iga64::disasm(iga, p, &heap.bytes, &[]).unwrap();
        // The built-in's sends: block messages on the data port (not the runtime's payload
        // loads through BTI 0xFD), plus the 2-lane byte gather/scatter of 8-byte blocks.
        let theirs: Vec<Shape> = listed_sends(p, &listing)
            .into_iter()
            .filter_map(|s| {
                let DescValue::Imm(desc) = s.msg.desc else {
                    return None;
                };
                let text = describe(&s.msg)?;
                let sfid = s.msg.sfid?;
                let hdc = p < Platform::Dg2
                    || matches!(Sfid::decode(p, sfid), Some(Sfid::Dc0 | Sfid::Dc1));
                let payload = hdc && desc & 0xFF == 0xFD;
                let tiny = s.msg.exec_size == 2 && text.contains("32b");
                ((is_block_message(&text) && !payload) || tiny).then(|| {
                    let xlen = match (s.msg.src1_len, s.msg.ex_desc) {
                        (Some(n), _) => n,
                        (None, DescValue::Imm(x)) => (x >> 6 & 0x1F) as u8,
                        (None, DescValue::A0(_)) => 0xFF,
                    };
                    (sfid, if hdc { desc & !0xFF } else { desc }, xlen)
                })
            })
            .collect();
        let surface = match (kind, stateless) {
            ('i', _) => BlockSurface::Image { bti: 0 },
            (_, true) => BlockSurface::BufferA64,
            _ => BlockSurface::Buffer { bti: 0 },
        };
        let ours: Vec<Shape> = block_io(p, io, surface)
            .unwrap_or_else(|e| panic!("{p} {name}: {e}"))
            .iter()
            .map(|l| {
                let m = l.message;
                let hdc = !m.sfid.is_lsc();
                (
                    m.sfid.encode(p).unwrap(),
                    if hdc { m.desc & !0xFF } else { m.desc },
                    m.src1_len,
                )
            })
            .collect();
        // Stateless HDC messages name BTI 0xFF in the descriptor; compare like for like.
        if ours != theirs {
            bad.push(format!("{p} {name} ({options}):\n    ours:  {ours:08X?}\n    ocloc: {theirs:08X?}\n{listing}"));
        }
    }
    bad
}

#[test]
fn block_builtins_lower_like_ocloc() {
    let ocloc = require!(Oracle::Ocloc);
    let iga = require!(Oracle::Iga64);
    let mut bad = Vec::new();
    for p in Platform::ALL {
        bad.extend(check(p, "-cl-std=CL2.0", false, &ocloc, &iga));
    }
    for p in [Platform::Skl, Platform::Dg2] {
        bad.extend(check(
            p,
            "-cl-std=CL2.0 -cl-intel-greater-than-4GB-buffer-required",
            true,
            &ocloc,
            &iga,
        ));
    }
    assert!(
        bad.is_empty(),
        "{} kernels differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn unsupported_block_io_is_an_error() {
    let p = Platform::Tgllp;
    let io = BlockIo {
        write: false,
        simd: 32,
        elem_bytes: 4,
        vector: 1,
    };
    assert!(block_io(p, io, BlockSurface::Buffer { bti: 0 }).is_err());
    assert!(block_io(
        p,
        BlockIo {
            simd: 16,
            vector: 16,
            ..io
        },
        BlockSurface::Buffer { bti: 0 }
    )
    .is_err());
    assert!(block_io(
        p,
        BlockIo {
            simd: 16,
            vector: 3,
            ..io
        },
        BlockSurface::Buffer { bti: 0 }
    )
    .is_err());
    assert!(block_io(
        p,
        BlockIo {
            simd: 16,
            elem_bytes: 8,
            ..io
        },
        BlockSurface::Buffer { bti: 0 }
    )
    .is_err());
}
