//! Typed surface messages (HDC DC1 typed read 0x05 / write 0x0D) and the sampler's unfiltered
//! load (`ld`, 0x07) against a test memory on Gen12LP: 1D, 2D-array and 3D surfaces, format
//! conversion, channel masks, and the out-of-bounds rules (reads return 0, writes are
//! dropped). Descriptors are the ones iga64 names in each comment; the payload layout is the
//! one IGC emits (`ocloc` for `write_imageui`: U in src0, V and the data in src1).
//! Expected texels follow OpenCL C's conversion rules (`c / 255.0f`,
//! `convert_uchar_sat_rte(f * 255.0f)`, saturating integer conversions).

#![allow(clippy::needless_range_loop)]

use crate::eu_support as support;

use batchbuffer::surface_format as sf;
use platform::Platform;
use sim_eu::{ImageSurface, Surface};
use support::*;

const BASE: u64 = 0x20_0000;

fn image(format: sf::SurfaceFormat, dims: u8, array: bool, size: [u32; 3]) -> Surface {
    let row = u64::from(size[0] * format.bytes_per_element).next_multiple_of(64);
    let rows = u64::from(size[1]) + 1;
    Surface {
        base: BASE,
        width: u64::from(size[0] * format.bytes_per_element),
        height: size[1],
        pitch: row,
        tiling: sim::mem::tiling::Tiling::Linear,
        image: Some(ImageSurface {
            format,
            dims,
            array,
            size,
            // One spare row between layers, as a QPitch larger than the height gives.
            slice_pitch: rows * row,
            row_pitch: row,
            mip: sim_eu::ImageMips::NONE,
            chroma_row: 0,
        }),
    }
}

fn byte_at(mem: &TestMem, addr: u64) -> u8 {
    mem.bytes[(addr - BASE) as usize]
}

#[test]
fn typed_write_then_read_on_a_2d_array_with_saturation_and_bounds() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    // typed surface write with xyzw (slot group low, BTI 1); typed surface read with xyzw.
    let body = "
        send.dc1 (8|M0) null r2 r3 0x180 0x02035001
        send.dc1 (8|M0) r20 r2 r3 0x80 0x02415001
        ";
    let prog = program(&iga, Platform::Tgllp, body);
    let mut mem = TestMem::new(BASE, 0x1000);
    mem.bytes.fill(0xAA);
    let surf = image(sf::R8G8B8A8_UINT, 2, true, [8, 3, 2]);
    mem.surfaces.insert(1, surf);
    let u = [0u32, 1, 2, 3, 4, 5, 6, 100];
    let v = [0u32, 1, 2, 0, 1, 2, 0, 0];
    let r = [0u32, 0, 0, 1, 1, 1, 1, 0];
    let red: Vec<u32> = (0..8).map(|i| 10 + i).collect();
    let t = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &u);
        set_u32s(t, 3, &v);
        set_u32s(t, 4, &r);
        set_u32s(t, 5, &red);
        set_u32s(t, 6, &[300; 8]);
        set_u32s(t, 7, &(0..8).collect::<Vec<_>>());
        set_u32s(t, 8, &[7; 8]);
    })
    .unwrap();
    let img = surf.image.unwrap();
    let mut written = Vec::new();
    for i in 0..7 {
        let at = BASE
            + u64::from(r[i]) * img.slice_pitch
            + u64::from(v[i]) * img.row_pitch
            + 4 * u64::from(u[i]);
        // G = 300 saturates to 255 (convert_uchar_sat).
        let want = [10 + i as u8, 255, i as u8, 7];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(byte_at(&mem, at + k as u64), *w, "lane {i} channel {k}");
            written.push(at + k as u64);
        }
        assert_eq!(
            u32s(&t, 20, 32).chunks(8).map(|c| c[i]).collect::<Vec<_>>(),
            want.map(u32::from).to_vec(),
            "read back lane {i}"
        );
    }
    // Lane 7 (U past the width) wrote nothing and read zeros.
    for a in BASE..BASE + 0x1000 {
        if !written.contains(&a) {
            assert_eq!(byte_at(&mem, a), 0xAA, "byte {a:#x} changed");
        }
    }
    assert_eq!(
        u32s(&t, 20, 32).chunks(8).map(|c| c[7]).collect::<Vec<_>>(),
        [0; 4]
    );
}

#[test]
fn typed_write_with_a_channel_mask_keeps_the_other_channels() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    // typed surface write with xz (desc[11:8] = 0b1010 disables y and w), 1D surface: U in
    // src0, the two channels in src1.
    let body = "send.dc1 (8|M0) null r2 r5 0x80 0x02035A01";
    let prog = program(&iga, Platform::Tgllp, body);
    let mut mem = TestMem::new(BASE, 0x1000);
    mem.bytes.fill(0x11);
    mem.surfaces
        .insert(1, image(sf::R8G8B8A8_UNORM, 1, false, [8, 1, 1]));
    let red = [0.0f32, 0.2, 0.5, 1.0, 2.0, -1.0, f32::NAN, 0.25];
    run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &(0..8).collect::<Vec<_>>());
        set_u32s(t, 5, &red.map(f32::to_bits));
        set_u32s(t, 6, &[0.75f32.to_bits(); 8]);
    })
    .unwrap();
    for i in 0..8 {
        let want_r = {
            let f = red[i];
            if f.is_nan() {
                0
            } else {
                (f.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
            }
        };
        let want_b = (0.75f32 * 255.0).round_ties_even() as u8;
        let at = BASE + 4 * i as u64;
        assert_eq!(
            [0, 1, 2, 3].map(|k| byte_at(&mem, at + k)),
            [want_r, 0x11, want_b, 0x11],
            "texel {i}"
        );
    }
}

#[test]
fn sampler_ld_on_a_3d_surface_returns_normalized_floats_and_zero_outside() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    // simd8 sample load using sampler index 0, BTI 2: U in src0; V, LOD, R in src1.
    let body = "send.smpl (8|M0) r20 r2 r3 0xC0 0x02427002";
    let prog = program(&iga, Platform::Tgllp, body);
    let mut mem = TestMem::new(BASE, 0x1000);
    let surf = image(sf::R8G8B8A8_UNORM, 3, false, [4, 2, 3]);
    let img = surf.image.unwrap();
    mem.surfaces.insert(2, surf);
    for (i, b) in mem.bytes.iter_mut().enumerate() {
        *b = (i * 37 % 256) as u8;
    }
    let u = [0u32, 3, 1, 2, 4, 0, 1, 0xFFFF_FFFF];
    let v = [0u32, 1, 0, 1, 0, 2, 1, 0];
    let lod = [0u32, 0, 0, 0, 0, 0, 1, 0];
    let r = [0u32, 0, 1, 2, 0, 0, 0, 0];
    let t = run_on(&prog, 8, &mut mem, |t| {
        set_u32s(t, 2, &u);
        set_u32s(t, 3, &v);
        set_u32s(t, 4, &lod);
        set_u32s(t, 5, &r);
    })
    .unwrap();
    let got = f32s(&t, 20, 32);
    for i in 0..8 {
        let inside = u[i] < 4 && v[i] < 2 && r[i] < 3 && lod[i] == 0;
        let want: Vec<f32> = (0..4)
            .map(|k| {
                if !inside {
                    return 0.0;
                }
                let at = BASE
                    + u64::from(r[i]) * img.slice_pitch
                    + u64::from(v[i]) * img.row_pitch
                    + 4 * u64::from(u[i])
                    + k;
                f32::from(byte_at(&mem, at)) / 255.0
            })
            .collect();
        let lane: Vec<f32> = (0..4).map(|k| got[8 * k + i]).collect();
        assert_eq!(lane, want, "lane {i}");
    }
}

#[test]
fn typed_messages_on_a_buffer_surface_are_refused() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let prog = program(
        &iga,
        Platform::Tgllp,
        "send.dc1 (8|M0) r20 r2 r3 0x80 0x02415001",
    );
    let mut mem = TestMem::new(BASE, 0x1000);
    mem.surfaces.insert(1, Surface::buffer(BASE, 0x1000));
    let e = run_on(&prog, 8, &mut mem, |_| {}).err().expect("refused");
    assert!(
        matches!(e.kind, sim_eu::EuErrorKind::Surface(_)),
        "{:?}",
        e.kind
    );
}
