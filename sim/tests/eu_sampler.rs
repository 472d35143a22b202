//! The sampler's `sample_lz` (message type 0x18, the message IGC emits for `read_imagef` with
//! a sampler and float coordinates; the descriptor below is the one in ocloc's listing for
//! such a kernel, which iga64 names "simd16 sample with lod forced to 0") against a test
//! memory on Gen12LP: nearest and linear filtering, normalized and unnormalized coordinates,
//! and every OpenCL addressing mode through the SAMPLER_STATE Texture Coordinate Mode that
//! stands for it (genxml: WRAP, MIRROR, CLAMP, CLAMP_BORDER).
//!
//! Expected values follow the OpenCL C specification's addressing and filtering formulas
//! ("Image addressing and filtering", written here from its text): e.g. CLK_ADDRESS_REPEAT
//! nearest `u = (s - floor(s)) * w; i = floor(u); if (i > w - 1) i -= w`, linear `i0 =
//! floor(u - 0.5)`, `a = frac(u - 0.5)` with the four taps weighted `(1-a)(1-b)`, ...; the
//! border color of CLK_ADDRESS_CLAMP is (0, 0, 0, 0), or (0, 0, 0, 1) for formats without
//! alpha. Linear results are compared within the spec's allowance for the sampler's reduced
//! sub-texel precision (here 2/256 of the texel range).

use crate::eu_support as support;

use batchbuffer::surface_format as sf;
use batchbuffer::SamplerState;
use platform::Platform;
use sim_eu::{ImageSurface, Sampler, Surface};
use support::*;

const BASE: u64 = 0x20_0000;
const W: u32 = 5;
const H: u32 = 3;

/// The OpenCL addressing modes and the genxml Texture Coordinate Mode for each.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Address {
    Repeat,
    MirroredRepeat,
    ClampToEdge,
    Clamp,
}

impl Address {
    fn tcm(self) -> batchbuffer::TextureCoordinateMode {
        use batchbuffer::TextureCoordinateMode as Tcm;
        match self {
            Address::Repeat => Tcm::Wrap,
            Address::MirroredRepeat => Tcm::Mirror,
            Address::ClampToEdge => Tcm::Clamp,
            Address::Clamp => Tcm::ClampBorder,
        }
    }
}

fn image(format: sf::SurfaceFormat) -> Surface {
    let pitch = 64;
    Surface {
        base: BASE,
        width: u64::from(W * format.bytes_per_element),
        height: H,
        pitch,
        tiling: sim::mem::tiling::Tiling::Linear,
        image: Some(ImageSurface {
            format,
            dims: 2,
            array: false,
            size: [W, H, 1],
            slice_pitch: u64::from(H) * pitch,
            row_pitch: pitch,
            mip: sim_eu::ImageMips::NONE,
            chroma_row: 0,
        }),
    }
}

/// Texel indices along one axis and their weights, by the spec's formulas; None is the border.
fn spec_axis(
    s: f32,
    size: u32,
    mode: Address,
    normalized: bool,
    linear: bool,
) -> Vec<(Option<i64>, f32)> {
    let w = size as f32;
    let n = i64::from(size);
    let inside = |i: i64| (0..n).contains(&i).then_some(i);
    match (mode, linear) {
        (Address::Repeat, false) => {
            let u = (s - s.floor()) * w;
            let mut i = u.floor() as i64;
            if i > n - 1 {
                i -= n;
            }
            vec![(Some(i), 1.0)]
        }
        (Address::Repeat, true) => {
            let u = (s - s.floor()) * w;
            let (mut i0, a) = ((u - 0.5).floor() as i64, (u - 0.5) - (u - 0.5).floor());
            let mut i1 = i0 + 1;
            if i0 < 0 {
                i0 += n;
            }
            if i1 > n - 1 {
                i1 -= n;
            }
            vec![(Some(i0), 1.0 - a), (Some(i1), a)]
        }
        (Address::MirroredRepeat, linear) => {
            let s2 = 2.0 * (0.5 * s).round_ties_even();
            let u = (s - s2).abs() * w;
            if linear {
                let (i0, a) = ((u - 0.5).floor() as i64, (u - 0.5) - (u - 0.5).floor());
                vec![(Some(i0.max(0)), 1.0 - a), (Some((i0 + 1).min(n - 1)), a)]
            } else {
                vec![(Some((u.floor() as i64).min(n - 1)), 1.0)]
            }
        }
        (edge_or_border, linear) => {
            let u = if normalized { s * w } else { s };
            let fix = |i: i64| match edge_or_border {
                Address::ClampToEdge => Some(i.clamp(0, n - 1)),
                _ => inside(i),
            };
            if linear {
                let (i0, a) = ((u - 0.5).floor() as i64, (u - 0.5) - (u - 0.5).floor());
                vec![(fix(i0), 1.0 - a), (fix(i0 + 1), a)]
            } else {
                vec![(fix(u.floor() as i64), 1.0)]
            }
        }
    }
}

/// Texel bytes of an R8G8B8A8_UNORM image as the kernel reads them (`c / 255.0f`).
fn unorm8(texels: &[u8], x: i64, y: i64) -> [f32; 4] {
    let at = (y as usize * W as usize + x as usize) * 4;
    std::array::from_fn(|k| f32::from(texels[at + k]) / 255.0)
}

#[test]
fn sample_lz_filters_and_addressing_modes_follow_the_opencl_formulas() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    // simd16 sample_lz, sampler index 0, BTI 0, no header: U in src0 (r2-r3), V in src1
    // (r4-r5), R, G, B, A back in r20-r27.
    let prog = program(
        &iga,
        Platform::Tgllp,
        "send.smpl (16|M0) r20 r2 r4 0x80 0x04858000",
    );
    let texels: Vec<u8> = (0..W * H * 4).map(|i| (i * 97 % 256) as u8).collect();
    let s: Vec<f32> = (0..16).map(|i| i as f32 * 0.173 - 0.61).collect();
    let t: Vec<f32> = (0..16).map(|i| 1.37 - i as f32 * 0.151).collect();
    let mut failed = Vec::new();
    let modes = [
        Address::Repeat,
        Address::MirroredRepeat,
        Address::ClampToEdge,
        Address::Clamp,
    ];
    for linear in [false, true] {
        for mode in modes {
            // OpenCL allows unnormalized coordinates with the clamp modes only.
            let norms: &[bool] = match mode {
                Address::ClampToEdge | Address::Clamp => &[true, false],
                _ => &[true],
            };
            for &normalized in norms {
                let mut mem = TestMem::new(BASE, 0x1000);
                for (y, row) in texels.chunks(20).enumerate() {
                    let at = y * 64;
                    mem.bytes[at..at + 20].copy_from_slice(row);
                }
                mem.surfaces.insert(0, image(sf::R8G8B8A8_UNORM));
                let filter = if linear {
                    batchbuffer::MapFilter::Linear
                } else {
                    batchbuffer::MapFilter::Nearest
                };
                let state = SamplerState {
                    min_mode_filter: filter,
                    mag_mode_filter: filter,
                    tcx_address_control_mode: mode.tcm(),
                    tcy_address_control_mode: mode.tcm(),
                    tcz_address_control_mode: mode.tcm(),
                    non_normalized_coordinate_enable: !normalized,
                    ..Default::default()
                };
                mem.samplers.insert(
                    0,
                    Sampler {
                        state,
                        border: [0; 4],
                    },
                );
                // Unnormalized coordinates in texels: the same points, scaled.
                let (cs, ct): (Vec<f32>, Vec<f32>) = if normalized {
                    (s.clone(), t.clone())
                } else {
                    (
                        s.iter().map(|v| v * W as f32).collect(),
                        t.iter().map(|v| v * H as f32).collect(),
                    )
                };
                let th = run_on(&prog, 16, &mut mem, |th| {
                    set_u32s(th, 2, &cs.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
                    set_u32s(th, 4, &ct.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
                })
                .unwrap();
                let got = f32s(&th, 20, 64);
                for lane in 0..16 {
                    let mut want = [0f32; 4];
                    for (x, wx) in spec_axis(cs[lane], W, mode, normalized, linear) {
                        for (y, wy) in spec_axis(ct[lane], H, mode, normalized, linear) {
                            let v = match (x, y) {
                                (Some(x), Some(y)) => unorm8(&texels, x, y),
                                _ => [0.0; 4],
                            };
                            for k in 0..4 {
                                want[k] += wx * wy * v[k];
                            }
                        }
                    }
                    let tol = if linear { 2.0 / 256.0 } else { 0.0 };
                    for k in 0..4 {
                        let g = got[k * 16 + lane];
                        if (g - want[k]).abs() > tol {
                            failed.push(format!(
                                "linear {linear} {mode:?} normalized {normalized} lane {lane} \
                                 ({}, {}) channel {k}: got {g}, want {}",
                                cs[lane], ct[lane], want[k]
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} failures:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// CLK_ADDRESS_CLAMP's border on a format without alpha is (0, 0, 0, 1); nearest sampling of
/// an integer format returns the stored integers; linear filtering of one is refused.
#[test]
fn border_of_a_format_without_alpha_and_integer_formats() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let prog = program(
        &iga,
        Platform::Tgllp,
        "send.smpl (16|M0) r20 r2 r4 0x80 0x04858000",
    );
    let mut mem = TestMem::new(BASE, 0x1000);
    for y in 0..H as usize {
        for x in 0..W as usize {
            let at = y * 64 + 4 * x;
            mem.bytes[at..at + 4].copy_from_slice(&(1000 + 10 * y + x).to_le_bytes()[..4]);
        }
    }
    mem.surfaces.insert(0, image(sf::R32_UINT));
    let nearest_border = SamplerState {
        tcx_address_control_mode: Address::Clamp.tcm(),
        tcy_address_control_mode: Address::Clamp.tcm(),
        non_normalized_coordinate_enable: true,
        ..Default::default()
    };
    mem.samplers.insert(
        0,
        Sampler {
            state: nearest_border,
            border: [0; 4],
        },
    );
    // Lanes 0..8 inside (texel centres and just below the next one), 8..16 outside.
    let u: Vec<f32> = (0..16)
        .map(|i| {
            if i < 8 {
                (i % 5) as f32 + 0.99
            } else {
                -0.5 - i as f32
            }
        })
        .collect();
    let v: Vec<f32> = (0..16)
        .map(|i| if i < 8 { (i % 3) as f32 } else { 0.5 })
        .collect();
    let th = run_on(&prog, 16, &mut mem, |th| {
        set_u32s(th, 2, &u.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
        set_u32s(th, 4, &v.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    })
    .unwrap();
    let got = u32s(&th, 20, 64);
    for lane in 0..16 {
        let want = if lane < 8 {
            [1000 + 10 * (lane % 3) as u32 + (lane % 5) as u32, 0, 0, 1]
        } else {
            [0, 0, 0, 1]
        };
        let g: Vec<u32> = (0..4).map(|k| got[k * 16 + lane]).collect();
        assert_eq!(g, want, "lane {lane}");
    }
    mem.samplers.get_mut(&0).unwrap().state.min_mode_filter = batchbuffer::MapFilter::Linear;
    mem.samplers.get_mut(&0).unwrap().state.mag_mode_filter = batchbuffer::MapFilter::Linear;
    match run_on(&prog, 16, &mut mem, |_| {}) {
        Ok(_) => panic!("linear filtering of R32_UINT ran"),
        Err(e) => assert!(e.to_string().contains("linear filtering"), "{e}"),
    }
}
