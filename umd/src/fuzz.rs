//! Drives the whole path of a device binary — parse, kernel, ND-range, batch, dispatch on the
//! simulator — with arbitrary bytes: the cargo-fuzz target `dispatch` (umd/fuzz) and the tests
//! feed it inputs; whatever they hold, nothing may panic, and a kernel that never ends is a
//! reported GPU hang within milliseconds (the simulator's watchdogs count commands and
//! instructions, cut short).
//!
//! Input layout: a [`HEADER`]-byte run description, then the binary (either ocloc format).
//! - byte 0: bits 0–1 dimensions − 1 (3 counts as 3 dimensions), bits 2–3 the platform used
//!   when the binary names none, bit 4 an explicit local size, bit 5 the xe driver;
//! - bytes 1–2: global size x (little-endian, 10 bits); bytes 3, 4: global y, z;
//! - bytes 5–7: local size x, y, z;
//! - bytes 8–9: bytes of each buffer argument; byte 10: sixteenths of each `local` argument;
//! - bytes 11, 12: width and height of each image argument; byte 13: the by-value arguments'
//!   fill byte; byte 14: which kernel of the binary; byte 15: bit 0 gives every by-value
//!   argument one byte too many.
//!
//! [`mutate_field`] is the fuzzer's structure-aware mutation: it overwrites one field of the
//! binary with a boundary value, so inputs get past parsing into the driver.

use std::sync::Arc;
use std::time::Duration;

use platform::Platform;

use crate::device::{Device, KmdChoice};
use crate::image::ImageFormat;
use crate::kernel::{ArgSlot, Kernel};
use crate::ndrange::NdRange;
use crate::payload::ArgValue;
use crate::program::patchtokens::{self, raw, tokens::ITEM_HEADER_SIZE};

/// Bytes of run description before the binary.
pub const HEADER: usize = 16;

/// The header `seed.sh` puts before each corpus binary: 1 dimension of 64 work-items, the
/// driver picks the local size, 256-byte buffers, 64 bytes per `local` argument, 8×8 images.
pub const SEED_HEADER: [u8; HEADER] = [0, 64, 0, 1, 1, 1, 1, 1, 0, 1, 4, 8, 8, 3, 0, 0];

/// Small limits so endless batches and kernels cost milliseconds, not seconds: the command and
/// instruction counts catch them whatever the host's load; the host-time limits are a backstop.
/// Waits are capped well above those limits: the simulated GPU runs on its own thread, so a
/// shorter cap would report a healthy dispatch as failed.
fn sim_config() -> sim::SimConfig {
    let time = Duration::from_millis(250);
    sim::SimConfig {
        budget: sim::cs::Budget {
            commands: 20_000,
            time,
        },
        walker: Arc::new(sim::dispatch::EuExecutor::new(sim::dispatch::EuBudget {
            instructions: 1 << 20,
            time,
        })),
        wait_limit: Some(Duration::from_secs(2)),
        command_log: None,
    }
}

/// Runs one input; every failure is an error value, dropped here.
pub fn dispatch(data: &[u8]) {
    let _ = run(data);
}

/// Runs one input: None when it fails before the dispatch (an error too), else the
/// dispatch's result.
pub fn run(data: &[u8]) -> Option<crate::Result<()>> {
    let h: [u8; HEADER] = data.get(..HEADER)?.try_into().ok()?;
    let bin = &data[HEADER..];
    let dims = ((h[0] & 3) as usize).min(2) + 1;
    let fallback = Platform::ALL[(h[0] as usize >> 2) % Platform::ALL.len()];
    let global = [
        u32::from(u16::from_le_bytes([h[1], h[2]]) & 0x3ff),
        u32::from(h[3]),
        u32::from(h[4]),
    ];
    let local = [u32::from(h[5]), u32::from(h[6]), u32::from(h[7])];
    let program = crate::program::parse(bin).ok()?;
    let names: Vec<&str> = program.kernels.iter().map(|k| k.name.as_str()).collect();
    let name = *names.get(h[14] as usize % names.len().max(1))?;
    let platform = program.platform.unwrap_or(fallback);
    let kernel = Kernel::from_ocloc(bin, Some(name), Some(platform)).ok()?;
    let required = match &kernel.description {
        crate::kernel::Description::Ocloc(k, _) => k.required_work_group_size,
        crate::kernel::Description::Raw => None,
    };
    let local = (h[0] & 0x10 != 0).then_some(&local[..dims]);
    let range = NdRange::new(&global[..dims], local, kernel.simd, required).ok()?;
    let kmd = (h[0] & 0x20 != 0).then_some(KmdChoice::Xe);
    let sim_kmd = match kmd {
        Some(KmdChoice::Xe) => sim::Kmd::Xe,
        _ => sim::Kmd::I915,
    };
    let file = sim::open_device(kernel.platform, sim_kmd, sim_config()).ok()?;
    let name = format!("sim:{}", kernel.platform.name());
    let device = Device::open_device_file(name, file, kmd).ok()?;
    let sig = kernel.signature().unwrap_or_default();
    let mut args = Vec::with_capacity(sig.len());
    for slot in sig {
        args.push(match slot {
            ArgSlot::Buffer => {
                let bytes = u16::from_le_bytes([h[8], h[9]]);
                ArgValue::Buffer(device.create_buffer(u64::from(bytes)).ok()?)
            }
            ArgSlot::Image => ArgValue::Image(
                device
                    .create_image(u32::from(h[11]), u32::from(h[12]), ImageFormat::R32ui)
                    .ok()?,
            ),
            ArgSlot::Value(n) => {
                let n = n as usize + usize::from(h[15] & 1);
                // The signature comes from the binary: a huge value is the driver's to refuse
                // (a wrong-size value), not ours to allocate.
                ArgValue::Value(vec![h[13]; n.min(4096)])
            }
            ArgSlot::Local => ArgValue::Local(u32::from(h[10]) * 16),
            // No value fits a sampler yet: dispatch must say so.
            ArgSlot::Sampler => ArgValue::Value(Vec::new()),
        });
    }
    Some(device.dispatch(&kernel, &range, &args).map(|_| ()))
}

/// Boundary values for a field: zeros, powers of two and their neighbours, the hardware
/// limits' neighbourhoods, and the extremes.
const BOUNDARY: [u32; 24] = [
    0,
    1,
    2,
    3,
    4,
    7,
    8,
    12,
    16,
    31,
    32,
    33,
    64,
    255,
    256,
    1024,
    1025,
    64 << 10,
    (64 << 10) + 1,
    1 << 17,
    (2 << 20) + 1,
    0x7fff_ffff,
    0x8000_0000,
    u32::MAX,
];

/// Overwrites one field of the binary after the header with a boundary value (or a random
/// one), keeping the length: a u32 of a patch token, or a number of zebin's `.ze_info` text
/// (right-aligned in the spaces ocloc pads values with). `seed` picks everything. False when
/// the input has no field to change.
pub fn mutate_field(data: &mut [u8], seed: u32) -> bool {
    let mut rng = seed as u64 | 1;
    let mut next = move || {
        // xorshift64: any fixed sequence per seed will do.
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let Some(bin) = data.get_mut(HEADER..) else {
        return false;
    };
    let r = next();
    let value = if r % 4 == 0 {
        (r >> 32) as u32
    } else {
        BOUNDARY[(r >> 8) as usize % BOUNDARY.len()]
    };
    let fields = token_fields(bin);
    if !fields.is_empty() {
        let at = fields[next() as usize % fields.len()];
        bin[at..at + 4].copy_from_slice(&value.to_le_bytes());
        return true;
    }
    let numbers = yaml_numbers(bin);
    if numbers.is_empty() {
        return false;
    }
    let (start, end) = numbers[next() as usize % numbers.len()];
    let text = value.to_string();
    let width = end - start;
    let text = &text[text.len().saturating_sub(width)..];
    bin[start..end].fill(b' ');
    bin[end - text.len()..end].copy_from_slice(text.as_bytes());
    true
}

/// File offsets of every u32 field of every patch token (program and kernel scope).
fn token_fields(bin: &[u8]) -> Vec<usize> {
    let Ok((dev, base)) = patchtokens::device_binary(bin) else {
        return Vec::new();
    };
    let Ok(program) = raw::parse(dev, base) else {
        return Vec::new();
    };
    let tokens = program
        .tokens
        .iter()
        .chain(program.kernels.iter().flat_map(|k| &k.tokens));
    tokens
        .flat_map(|t| {
            let body = t.offset + ITEM_HEADER_SIZE;
            (0..t.body.len() / 4).map(move |i| body + 4 * i)
        })
        .collect()
}

/// The `(start, end)` of each number that follows `": "` in the input (zebin's `.ze_info`),
/// with the padding spaces before it (at least one space stays after the colon).
fn yaml_numbers(bin: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 2 < bin.len() {
        if bin[i] == b':' && bin[i + 1] == b' ' {
            let start = i + 2;
            let mut j = start;
            while j < bin.len() && bin[j] == b' ' {
                j += 1;
            }
            let digits = j;
            while j < bin.len() && bin[j].is_ascii_digit() {
                j += 1;
            }
            if j > digits && (j == bin.len() || bin[j] == b'\n') {
                out.push((start, j));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}
