//! memcheck of image accesses on a seeded bug: `write_imageui` one texel past each row of a
//! 16x4 image (undefined in OpenCL: "the behavior of write_image* for coordinates outside the
//! image is undefined"), and its twin writing every texel in place, compiled by ocloc and run
//! on every simulated platform. The bug must give memcheck findings only, at sends of the
//! kernel iga64 lists, naming the image, the texel the OpenCL C source computes (x = 16) and
//! the image's size, one occurrence per row; the twin, run with every check, none. The texels in bounds are the same
//! with the sanitizer as without (the data port drops the write out of bounds either way).

use crate::sanitizer_support;

use platform::Platform;
use sanitizer_support::{findings, listing, offsets};
use serde_json::Value;
use umd::device::Device;
use umd::image::ImageFormat;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = r#"
kernel void ok_image_write(write_only image2d_t dst) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(dst, c, (uint4)(c.x + 1, c.y + 1, 7, 9));
}
kernel void bug_image_write(write_only image2d_t dst) {
  int2 c = (int2)(get_global_id(0) + 1, get_global_id(1));
  write_imageui(dst, c, (uint4)(c.x + 1, c.y + 1, 7, 9));
}
"#;

const W: u32 = 16;
const H: u32 = 4;

/// The findings, the image's texels (packed rows) and its address after running `name` over W x H work-items.
fn run(p: Platform, bin: &[u8], name: &str, checks: &str) -> (Vec<Value>, Vec<u8>, u64) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("findings.jsonl");
    let d = Device::open_sim_sanitized(p, None, checks, Some(log.clone())).unwrap();
    let img = d.create_image(W, H, ImageFormat::Rgba8ui).unwrap();
    img.write_packed(&vec![0u8; img.packed_bytes()]).unwrap();
    let kernel = Kernel::from_ocloc(bin, Some(name), Some(p)).unwrap();
    let range = NdRange::new(&[W, H], None, kernel.simd, None).unwrap();
    d.dispatch(&kernel, &range, &[ArgValue::Image(img.clone())])
        .unwrap();
    (
        findings(&log),
        img.read_packed().unwrap(),
        img.gpu_address(),
    )
}

#[test]
fn an_image_write_outside_the_image_is_caught_and_its_twin_is_clean() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in Platform::ALL {
        let bin = oracles::ocloc::compile(&ocloc, p, SRC, "", oracles::ocloc::Format::PatchTokens)
            .unwrap();
        let (found, bytes, base) = run(p, &bin, "bug_image_write", "memcheck");
        assert!(!found.is_empty(), "{p:?}: nothing found");
        let sends = offsets(&listing(&ocloc, &iga, &bin, "bug_image_write", p), |t| {
            t.contains("send")
        });
        for f in &found {
            assert_eq!(f["check"], "memcheck", "{p:?}: {f}");
            assert_eq!(f["kernel"], "bug_image_write", "{p:?}: {f}");
            let at = f["offset"].as_u64().unwrap() as u32;
            assert!(
                sends.contains(&at),
                "{p:?}: offset {at:#x} is no send of {sends:x?}"
            );
            assert_eq!(f["address"].as_u64(), Some(base), "{p:?}: {f}");
            let what = f["what"].as_str().unwrap();
            assert!(what.contains("write of texel (16, "), "{p:?}: {what}");
            assert!(what.contains(&format!("{W}x{H}x1")), "{p:?}: {what}");
        }
        // One work-item per row writes outside; a SIMD8 typed write (IGC splits wider ones)
        // carries at most one of them, as rows are 16 work-items long.
        let count: u64 = found.iter().map(|f| f["count"].as_u64().unwrap()).sum();
        assert_eq!(count, u64::from(H), "{p:?}: {found:#?}");

        let (_, plain, _) = run(p, &bin, "bug_image_write", "");
        assert_eq!(
            bytes, plain,
            "{p:?}: the sanitizer changed what the bug wrote"
        );

        let (found, bytes, _) = run(p, &bin, "ok_image_write", "all");
        assert!(found.is_empty(), "{p:?}: the twin: {found:#?}");
        // The twin wrote every texel as the source says (RGBA8 unsigned: saturated to 8 bits).
        for y in 0..H as usize {
            for x in 0..W as usize {
                let at = (y * W as usize + x) * 4;
                assert_eq!(
                    bytes[at..at + 4],
                    [x as u8 + 1, y as u8 + 1, 7, 9],
                    "{p:?}: texel ({x}, {y})"
                );
            }
        }
    }
}
