//! Image messages whose lanes address consecutive texels of a row (a kernel's
//! `read_image*`/`write_image*` at `(x + lane, y)`) against the same message sent lane by lane,
//! one channel enabled at a time: typed writes (every channel, and two of them), typed reads,
//! the sampler's `ld_lz` and its nearest `sample_lz`, on formats of 1 to 16 bytes, rows in and
//! partly out of bounds, lanes in and out of order. Memory and every lane's response must be
//! the same. The lane-by-lane messages are themselves checked against the OpenCL formulas in
//! `eu_typed` and `eu_sampler`; when every lane is enabled and its texels are one run in
//! bounds, the message must touch memory as one access.

use crate::eu_support as support;

use batchbuffer::surface_format as sf;
use batchbuffer::SamplerState;
use platform::Platform;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use sim_eu::{run, ImageSurface, Program, Sampler, Status, Surface, Thread};
use support::*;

const BASE: u64 = 0x20_0000;
const PITCH: u64 = 1024;
const ROWS: u32 = 4;

const FORMATS: [sf::SurfaceFormat; 10] = [
    sf::R8G8B8A8_UNORM,
    sf::B8G8R8A8_UNORM,
    sf::R32G32B32A32_FLOAT,
    sf::R16G16B16A16_FLOAT,
    sf::R16G16B16A16_UNORM,
    sf::R16G16_SNORM,
    sf::R32_UINT,
    sf::R8G8_UINT,
    sf::R16_SINT,
    sf::R8_UNORM,
];

/// The messages, in iga64's syntax (Gen12LP), and their lanes. Typed: U in src0, V (and the
/// data) in src1; the sampler: U in src0, V in src1, SIMD16.
const MESSAGES: [(&str, u32); 5] = [
    // typed surface write with xyzw
    ("send.dc1 (8|M0) null r2 r3 0x140 0x02035001", 8),
    // typed surface write with xz
    ("send.dc1 (8|M0) null r2 r3 0xC0 0x02035A01", 8),
    // typed surface read with xyzw
    ("send.dc1 (8|M0) r20 r2 r3 0x40 0x02415001", 8),
    // simd16 ld_lz
    ("send.smpl (16|M0) r20 r2 r4 0x80 0x0485A000", 16),
    // simd16 sample with lod forced to 0, sampler 0
    ("send.smpl (16|M0) r20 r2 r4 0x80 0x04858000", 16),
];

#[derive(Debug, Clone)]
struct Case {
    message: usize,
    format: usize,
    width: u32,
    u: u32,
    v: u32,
    /// A lane sent elsewhere (its U and V), if any: the lanes out of order or in two rows.
    moved: Option<(usize, u32, u32)>,
    normalized: bool,
    /// Sub-texel offsets of the sampler's coordinates (0..1 of a texel).
    frac: f32,
    memory: Vec<u8>,
    data: Vec<u32>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (
            0..MESSAGES.len(),
            0..FORMATS.len(),
            1u32..48,
            0u32..52,
            0u32..ROWS + 1,
        ),
        (
            proptest::option::weighted(0.2, (0usize..16, 0u32..52, 0u32..ROWS)),
            any::<bool>(),
            0.0f32..0.999,
        ),
        proptest::collection::vec(any::<u8>(), (PITCH * u64::from(ROWS)) as usize),
        proptest::collection::vec(any::<u32>(), 4 * 16),
    )
        .prop_map(
            |((message, format, width, u, v), (moved, normalized, frac), memory, data)| Case {
                message,
                format,
                width,
                u,
                v,
                moved,
                normalized,
                frac,
                memory,
                data,
            },
        )
}

fn memory(c: &Case) -> TestMem {
    let format = FORMATS[c.format];
    let mut mem = TestMem::new(BASE, c.memory.len());
    mem.bytes.copy_from_slice(&c.memory);
    mem.surfaces.insert(
        if c.message < 3 { 1 } else { 0 },
        Surface {
            base: BASE,
            width: u64::from(c.width * format.bytes_per_element),
            height: ROWS,
            pitch: PITCH,
            tiling: sim::mem::tiling::Tiling::Linear,
            image: Some(ImageSurface {
                format,
                dims: 2,
                array: false,
                size: [c.width, ROWS, 1],
                slice_pitch: PITCH * u64::from(ROWS),
                row_pitch: PITCH,
                mip: sim_eu::ImageMips::NONE,
                chroma_row: 0,
            }),
        },
    );
    let state = SamplerState {
        non_normalized_coordinate_enable: !c.normalized,
        ..Default::default()
    };
    mem.samplers.insert(
        0,
        Sampler {
            state,
            border: [0; 4],
        },
    );
    mem
}

/// Lane i's U and V as the message sends them.
fn coords(c: &Case, i: usize) -> (u32, u32) {
    let (u, v) = match c.moved {
        Some((lane, u, v)) if lane == i => (u, v),
        _ => (c.u.wrapping_add(i as u32), c.v),
    };
    if c.message < 4 {
        return (u, v);
    }
    let (s, t) = (u as f32 + c.frac, v as f32 + c.frac);
    if c.normalized {
        ((s / c.width as f32).to_bits(), (t / ROWS as f32).to_bits())
    } else {
        (s.to_bits(), t.to_bits())
    }
}

/// Runs the case's message on a thread whose enabled lanes are `mask`.
fn send(prog: &Program, c: &Case, mem: &mut TestMem, mask: u32) -> Thread {
    let lanes = MESSAGES[c.message].1 as usize;
    let mut t = Thread::new(mask);
    let (u, v): (Vec<u32>, Vec<u32>) = (0..lanes).map(|i| coords(c, i)).unzip();
    set_u32s(&mut t, 2, &u);
    if lanes == 8 {
        set_u32s(&mut t, 3, &v);
        set_u32s(&mut t, 4, &c.data[..32]);
    } else {
        set_u32s(&mut t, 4, &v);
    }
    assert_eq!(run(&mut t, prog, mem, 100).expect("runs"), Status::Ended);
    t
}

#[test]
fn image_rows_read_and_write_as_lane_by_lane() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let progs: Vec<Program> = MESSAGES
        .iter()
        .map(|(m, _)| program(&iga, Platform::Tgllp, m))
        .collect();
    let mut runner = TestRunner::new(Config {
        cases: 3000,
        ..Config::default()
    });
    runner
        .run(&case(), |c| {
            let prog = &progs[c.message];
            let lanes = MESSAGES[c.message].1 as usize;
            let mut whole = memory(&c);
            let all = send(prog, &c, &mut whole, (1 << lanes) - 1);
            let mut each = memory(&c);
            for i in 0..lanes {
                let one = send(prog, &c, &mut each, 1 << i);
                if c.message >= 2 {
                    let per_channel = |t: &Thread| -> Vec<u32> {
                        u32s(t, 20, 4 * lanes)
                            .chunks(lanes)
                            .map(|ch| ch[i])
                            .collect()
                    };
                    prop_assert_eq!(per_channel(&all), per_channel(&one), "lane {}", i);
                }
            }
            prop_assert!(whole.bytes == each.bytes, "memory differs");
            // One run in bounds: one access (and, for a partial write, the read before it).
            let in_row = c.moved.is_none()
                && c.v < ROWS
                && c.u
                    .checked_add(lanes as u32)
                    .is_some_and(|end| end <= c.width);
            let format = FORMATS[c.format];
            if in_row && !(c.message == 4 && c.normalized) {
                prop_assert_eq!(whole.one_by_one, 0, "{}", format.name);
                let want = if c.message == 1 && format.order.channels().len() > 1 {
                    2
                } else {
                    1
                };
                prop_assert_eq!(whole.whole, want, "{}", format.name);
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}
