//! `read_imagef` with a sampler and float coordinates, compiled by ocloc (IGC emits the
//! sampler's `sample_lz`) and run through umd on the simulated platforms: a sampler argument
//! for every valid combination of OpenCL's filter modes, addressing modes and coordinate
//! normalization, and a program-scope (inline) sampler from the binary's own sampler state.
//! Expected values come from the OpenCL C specification's addressing and filtering formulas
//! ("Image addressing and filtering", written here from its text); the border color of
//! CLK_ADDRESS_CLAMP is (0, 0, 0, 0) for this RGBA image. Linear results are compared within
//! 2/256 of the texel range (the sampler's reduced sub-texel precision). Each runs twice: with
//! the work-group size umd picks on the default device, and in work-groups of one item on a
//! device that translates every kernel before it runs (threads of one channel, which get a
//! translation of their own once hot).

use platform::Platform;
use umd::device::{Device, KmdChoice};
use umd::image::ImageFormat;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;
use umd::sampler::{AddressingMode, FilterMode, Sampler};

const SRC: &str = r#"
kernel void samp(read_only image2d_t src, sampler_t s, global float4 *out,
                 global const float2 *coords) {
  int i = get_global_id(0);
  out[i] = read_imagef(src, s, coords[i]);
}
const sampler_t cs = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
kernel void samp_inline(read_only image2d_t src, global float4 *out,
                        global const float2 *coords) {
  int i = get_global_id(0);
  out[i] = read_imagef(src, cs, coords[i]);
}
"#;

const W: u32 = 5;
const H: u32 = 3;
const N: usize = 32;

/// Texel indices along one axis and their weights, by the spec's formulas; None is the border.
fn spec_axis(s: f32, size: u32, smp: Sampler) -> Vec<(Option<i64>, f32)> {
    let w = size as f32;
    let n = i64::from(size);
    let linear = smp.filter == FilterMode::Linear;
    let frac = |x: f32| x - x.floor();
    match smp.addressing {
        AddressingMode::Repeat => {
            let u = (s - s.floor()) * w;
            if linear {
                let mut i0 = (u - 0.5).floor() as i64;
                let mut i1 = i0 + 1;
                if i0 < 0 {
                    i0 += n;
                }
                if i1 > n - 1 {
                    i1 -= n;
                }
                let a = frac(u - 0.5);
                vec![(Some(i0), 1.0 - a), (Some(i1), a)]
            } else {
                let mut i = u.floor() as i64;
                if i > n - 1 {
                    i -= n;
                }
                vec![(Some(i), 1.0)]
            }
        }
        AddressingMode::MirroredRepeat => {
            let s2 = 2.0 * (0.5 * s).round_ties_even();
            let u = (s - s2).abs() * w;
            if linear {
                let i0 = (u - 0.5).floor() as i64;
                let a = frac(u - 0.5);
                vec![(Some(i0.max(0)), 1.0 - a), (Some((i0 + 1).min(n - 1)), a)]
            } else {
                vec![(Some((u.floor() as i64).min(n - 1)), 1.0)]
            }
        }
        mode => {
            let u = if smp.normalized { s * w } else { s };
            let fix = |i: i64| match mode {
                AddressingMode::ClampToEdge => Some(i.clamp(0, n - 1)),
                _ => (0..n).contains(&i).then_some(i),
            };
            if linear {
                let i0 = (u - 0.5).floor() as i64;
                let a = frac(u - 0.5);
                vec![(fix(i0), 1.0 - a), (fix(i0 + 1), a)]
            } else {
                vec![(fix(u.floor() as i64), 1.0)]
            }
        }
    }
}

fn expected(texels: &[u8], smp: Sampler, s: f32, t: f32) -> [f32; 4] {
    let mut want = [0f32; 4];
    for (x, wx) in spec_axis(s, W, smp) {
        for (y, wy) in spec_axis(t, H, smp) {
            if let (Some(x), Some(y)) = (x, y) {
                let at = (y as usize * W as usize + x as usize) * 4;
                for k in 0..4 {
                    // CL_UNORM_INT8 reads as c / 255.0f.
                    want[k] += wx * wy * (f32::from(texels[at + k]) / 255.0);
                }
            }
        }
    }
    want
}

/// How a test device is opened.
type Open = fn(Platform, Option<KmdChoice>) -> umd::Result<Device>;

#[test]
fn read_imagef_with_samplers_follows_the_opencl_formulas() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let texels: Vec<u8> = (0..W * H * 4).map(|i| (i * 97 % 256) as u8).collect();
    let coords: Vec<(f32, f32)> = (0..N)
        .map(|i| (i as f32 * 0.113 - 1.3, 1.9 - i as f32 * 0.097))
        .collect();
    let mut samplers = Vec::new();
    for filter in [FilterMode::Nearest, FilterMode::Linear] {
        for addressing in [
            AddressingMode::Repeat,
            AddressingMode::MirroredRepeat,
            AddressingMode::ClampToEdge,
            AddressingMode::Clamp,
        ] {
            for normalized in [true, false] {
                // Unnormalized coordinates go with the clamp modes only.
                let clamp = matches!(
                    addressing,
                    AddressingMode::ClampToEdge | AddressingMode::Clamp
                );
                if normalized || clamp {
                    samplers.push(Sampler {
                        normalized,
                        addressing,
                        filter,
                        mip: Default::default(),
                    });
                }
            }
        }
    }
    let mut failed = Vec::new();
    let ways: [(Open, Option<&[u32]>); 2] = [
        (Device::open_sim, None),
        (Device::open_sim_translating_every_kernel, Some(&[1])),
    ];
    for (p, (open, local)) in [Platform::Skl, Platform::Tgllp, Platform::Dg2]
        .into_iter()
        .flat_map(|p| ways.map(|w| (p, w)))
    {
        let bin = oracles::ocloc::compile(&ocloc, p, SRC, "", oracles::ocloc::Format::PatchTokens)
            .unwrap();
        let samp = Kernel::from_ocloc(&bin, Some("samp"), Some(p)).unwrap();
        let samp_inline = Kernel::from_ocloc(&bin, Some("samp_inline"), Some(p)).unwrap();
        let d = open(p, None).unwrap();
        let img = d.create_image(W, H, ImageFormat::Rgba8).unwrap();
        img.write_packed(&texels).unwrap();
        let out = d.create_buffer(16 * N as u64).unwrap();
        let cbuf = d.create_buffer(8 * N as u64).unwrap();
        let run = |kernel: &Kernel, smp: Sampler, inline: bool, failed: &mut Vec<String>| {
            let scale = if smp.normalized {
                (1.0, 1.0)
            } else {
                (W as f32, H as f32)
            };
            let c: Vec<(f32, f32)> = coords
                .iter()
                .map(|&(s, t)| (s * scale.0, t * scale.1))
                .collect();
            let bytes: Vec<u8> = c
                .iter()
                .flat_map(|&(s, t)| [s.to_le_bytes(), t.to_le_bytes()].concat())
                .collect();
            cbuf.write(0, &bytes).unwrap();
            let mut args = vec![ArgValue::Image(img.clone())];
            if !inline {
                args.push(ArgValue::Sampler(smp));
            }
            args.push(ArgValue::Buffer(out.clone()));
            args.push(ArgValue::Buffer(cbuf.clone()));
            let range = NdRange::new(&[N as u32], local, kernel.simd, None).unwrap();
            if let Err(e) = d.dispatch(kernel, &range, &args) {
                failed.push(format!("{p} {smp:?} inline {inline} local {local:?}: {e}"));
                return;
            }
            let got: Vec<f32> = out
                .to_vec()
                .unwrap()
                .chunks(4)
                .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
                .collect();
            let tol = if smp.filter == FilterMode::Linear {
                2.0 / 256.0
            } else {
                0.0
            };
            for (i, &(s, t)) in c.iter().enumerate() {
                let want = expected(&texels, smp, s, t);
                let g = &got[4 * i..4 * i + 4];
                if g.iter().zip(want).any(|(g, w)| (g - w).abs() > tol) {
                    failed.push(format!(
                        "{p} {smp:?} inline {inline} local {local:?} ({s}, {t}): got {g:?}, \
                         want {want:?}"
                    ));
                    return;
                }
            }
        };
        for &smp in &samplers {
            run(&samp, smp, false, &mut failed);
        }
        let inline = Sampler {
            normalized: true,
            addressing: AddressingMode::MirroredRepeat,
            filter: FilterMode::Linear,
            mip: Default::default(),
        };
        run(&samp_inline, inline, true, &mut failed);
    }
    assert!(
        failed.is_empty(),
        "{} failures:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
