//! Drives the whole path of a device binary — parse, kernel, ND-range, batch, dispatch on the
//! simulator — with arbitrary bytes: the cargo-fuzz target `dispatch` (umd/fuzz) and the tests
//! feed it inputs; whatever they hold, nothing may panic, and a kernel that never ends is a
//! reported GPU hang within milliseconds (the simulator's watchdogs count commands and
//! instructions, cut short).
//!
//! Input layout: a `HEADER`-byte run description, then the binary (either ocloc format).
//! - byte 0: bits 0–1 dimensions − 1 (3 counts as 3 dimensions), bits 2–3 the platform used
//!   when the binary names none, bit 4 an explicit local size, bit 5 the xe driver;
//! - bytes 1–2: global size x (little-endian, 10 bits); bytes 3, 4: global y, z;
//! - bytes 5–7: local size x, y, z;
//! - bytes 8–9: bytes of each buffer argument; byte 10: sixteenths of each `local` argument;
//! - bytes 11, 12: width and height of each image argument; byte 13: the by-value arguments'
//!   fill byte; byte 14: which kernel of the binary; byte 15: bit 0 gives every by-value
//!   argument one byte too many.
//!
//! `mutate_field` is the fuzzer's structure-aware mutation: it overwrites one field of the
//! binary with a boundary value, so inputs get past parsing into the driver.

use std::sync::{Arc, Mutex};
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

/// Small limits so endless batches and kernels cost well under a millisecond, not seconds:
/// the command and instruction counts catch them whatever the host's load; the host-time
/// limits are a backstop. Waits are capped well above those limits: the simulated GPU runs on
/// its own thread, so a shorter cap would report a healthy dispatch as failed.
///
/// 2^14 instructions per walker (each region of the ND-range is its own walker): every corpus
/// kernel runs to its end on 64 work-items within it (`corpus_kernels_finish_within_the_fuzz_
/// watchdog` in tests/hostile_binaries.rs), so every instruction a kernel reaches still runs,
/// and every range bigger than that, or endless, still ends in the watchdog's hang; the high
/// group IDs of a big range are still reached by the walkers of its partial groups, which
/// start there. One host thread per walker: results do not depend on the number
/// (`sim::dispatch`'s pool), and a pool started per input costs more than most kernels.
fn sim_config() -> sim::SimConfig {
    let time = Duration::from_millis(250);
    let eu = sim::dispatch::EuExecutor::new(sim::dispatch::EuBudget {
        instructions: 1 << 14,
        time,
    });
    sim::SimConfig {
        budget: sim::cs::Budget {
            commands: 20_000,
            time,
        },
        walker: Arc::new(eu.with_host_threads(1)),
        wait_limit: Some(Duration::from_secs(2)),
        command_log: None,
        part: None,
        // Fuzzing runs unsanitized whatever the environment says.
        sanitize: Some(sim::sanitize::Settings::default()),
    }
}

/// The simulated device files [`sim_file`] keeps.
type Files = Vec<((Platform, sim::Kmd), Arc<sim::SimDevice>)>;
static FILES: Mutex<Files> = Mutex::new(Vec::new());

/// The simulated device file for `platform` and `kmd`, opened once per process and shared by
/// every input (each input still opens its own [`Device`] on it: its own VM, context, queue,
/// buffers, scratch and kernel uploads, all released when the input ends). A new file per
/// input would create and delete its sysfs tree (dozens of files and directories), which cost
/// more than everything else an input does. What the file keeps between inputs is what a
/// kernel driver keeps between two programs on one render node: the error capture (rewritten
/// before a failed fence signals, so no input reads another's) and the decoded-kernel cache
/// (keyed by the kernel's bytes, so an input runs exactly its own code).
fn sim_file(platform: Platform, kmd: sim::Kmd) -> Option<Arc<sim::SimDevice>> {
    let mut files = FILES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, f)) = files.iter().find(|(k, _)| *k == (platform, kmd)) {
        return Some(f.clone());
    }
    let f = sim::open_device(platform, kmd, sim_config()).ok()?;
    files.push(((platform, kmd), f.clone()));
    Some(f)
}

/// Closes the shared device files, which deletes their sysfs trees (a process that ends with
/// them open leaves the trees in the temporary directory). Inputs run later open new ones.
pub fn release_devices() {
    let files: Files = std::mem::take(&mut *FILES.lock().unwrap_or_else(|e| e.into_inner()));
    drop(files);
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
    let kernel = Kernel::from_program(&program, Some(name), Some(platform)).ok()?;
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
    let file = sim_file(kernel.platform, sim_kmd)?;
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
    // Only `.ze_info` holds such numbers (scanning the whole file, mostly ISA, would cost more
    // than running the input); a file without one fails parsing whatever its numbers say.
    let Ok((text, at)) = crate::program::zebin::ze_info_text(bin) else {
        return false;
    };
    let numbers: Vec<(usize, usize)> = yaml_numbers(text.as_bytes())
        .into_iter()
        .map(|(s, e)| (at + s, at + e))
        .collect();
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
