//! Issue 13: values a binary carries reach the driver's arithmetic and allocations. Each test
//! patches one field of a real ocloc output (both formats where the format can carry the
//! value) and runs it as `intel-gpu-run run` does: kernel, ND-range, dispatch on the
//! simulator. Each used to panic or to allocate without bound; each must be a specific error.

use crate::program_support;

use oracles::ocloc::Format;
use platform::Platform;
use umd::device::Device;
use umd::kernel::{ArgSlot, Description, Kernel, LoadError};
use umd::ndrange::NdRange;
use umd::payload::ArgValue;
use umd::program::patchtokens::{self, raw, tokens};
use umd::Error;

/// `out[i] = i * scale` through local memory, with a required work-group and subgroup size so
/// both formats carry those fields.
const SOURCE: &str = "
__attribute__((reqd_work_group_size(16, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void fill(global uint *out, uint scale, local uint *tmp) {
    size_t i = get_global_id(0);
    tmp[get_local_id(0)] = (uint)i * scale;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = tmp[get_local_id(0)];
}
";

/// The same with a kernel-scope `local` array, so the binary carries an inline SLM size.
const SOURCE_WITH_SLM: &str = "
__attribute__((reqd_work_group_size(16, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void fill(global uint *out, uint scale, local uint *tmp) {
    local uint own[16];
    size_t i = get_global_id(0);
    own[get_local_id(0)] = scale;
    tmp[get_local_id(0)] = (uint)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = tmp[get_local_id(0)] * own[get_local_id(0)];
}
";

const ITEMS: u32 = 64;
const SCALE: u32 = 3;

/// SOURCE compiled by ocloc; None (after a skip notice) when ocloc is absent and allowed to be.
fn compile(p: Platform, format: Format) -> Option<Vec<u8>> {
    compile_source(SOURCE, p, format)
}

fn compile_source(source: &str, p: Platform, format: Format) -> Option<Vec<u8>> {
    let ocloc = oracles::get(oracles::Oracle::Ocloc, "hostile_binaries")?;
    Some(program_support::compile_cached(&ocloc, p, source, format).unwrap())
}

/// Writes `value` over u32 field `field` of the kernel's first token `id`.
fn patch_token(bin: &mut [u8], id: u32, field: usize, value: u32) {
    let (dev, base) = patchtokens::device_binary(bin).unwrap();
    let program = raw::parse(dev, base).unwrap();
    let tok = program.kernels[0]
        .tokens
        .iter()
        .find(|t| t.id == id)
        .unwrap_or_else(|| panic!("no {}", tokens::name(id)));
    let at = tok.offset + tokens::ITEM_HEADER_SIZE + 4 * field;
    bin[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// Replaces every `from` in zebin's `.ze_info` text by `to` of the same length.
fn patch_text(bin: &mut [u8], from: &str, to: &str) {
    assert_eq!(from.len(), to.len());
    let mut found = 0;
    let mut i = 0;
    while let Some(at) = bin[i..]
        .windows(from.len())
        .position(|w| w == from.as_bytes())
    {
        bin[i + at..i + at + to.len()].copy_from_slice(to.as_bytes());
        i += at + to.len();
        found += 1;
    }
    assert!(found > 0, "`{from}` is not in the binary");
}

/// Loads and runs the binary as the CLI does (64 work-items, one buffer, `scale`, 64 bytes of
/// local memory); the output buffer's words when it ran.
fn run(bin: &[u8], p: Platform) -> Result<Vec<u32>, Error> {
    let kernel = match Kernel::from_ocloc(bin, None, Some(p)) {
        Ok(k) => k,
        Err(LoadError::Other(e)) => return Err(e),
        Err(other) => panic!("the patched binary should parse: {other}"),
    };
    let required = match kernel.description() {
        Description::Ocloc(k, _) => k.required_work_group_size,
        Description::Raw => None,
    };
    let range = NdRange::new(&[ITEMS], None, kernel.simd, required)?;
    let device = Device::open_sim(p, None)?;
    let out = device.create_buffer(u64::from(ITEMS) * 4)?;
    let args: Vec<ArgValue> = kernel
        .signature()
        .unwrap()
        .into_iter()
        .map(|s| match s {
            ArgSlot::Buffer => ArgValue::Buffer(out.clone()),
            ArgSlot::Value(_) => ArgValue::Value(SCALE.to_le_bytes().to_vec()),
            ArgSlot::Local => ArgValue::Local(64),
            other => panic!("fill takes no {other}"),
        })
        .collect();
    device.dispatch(&kernel, &range, &args)?;
    Ok(out
        .to_vec()?
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

/// The error must be the kernel check's, naming the value.
fn assert_bad_kernel(r: Result<Vec<u32>, Error>, names: &str) {
    match r {
        Err(Error::BadKernel { problem, .. }) => {
            assert!(problem.contains(names), "`{problem}` should name {names}")
        }
        other => panic!("expected a BadKernel error naming {names}, got {other:?}"),
    }
}

const PLATFORMS: [Platform; 2] = [Platform::Tgllp, Platform::Dg2];

/// The unpatched binaries run and compute what the OpenCL source says: the patches below are
/// what makes them fail.
#[test]
fn unpatched_binaries_run() {
    for p in PLATFORMS {
        for format in [Format::PatchTokens, Format::Zebin] {
            let Some(bin) = compile(p, format) else {
                return;
            };
            let want: Vec<u32> = (0..ITEMS).map(|i| i * SCALE).collect();
            assert_eq!(run(&bin, p).unwrap(), want, "{p} {format:?}");
        }
    }
}

/// The panic the issue names: a zero required work-group size divided by zero in
/// `NdRange::regions`. An oversized one is refused as well.
#[test]
fn required_work_group_size_must_be_a_work_group() {
    for p in PLATFORMS {
        let Some(pt) = compile(p, Format::PatchTokens) else {
            return;
        };
        for x in [0, 2048] {
            let mut bin = pt.clone();
            // EXECUTION_ENVIRONMENT: RequiredWorkGroupSizeX is field 0.
            patch_token(&mut bin, tokens::EXECUTION_ENVIRONMENT, 0, x);
            assert_bad_kernel(run(&bin, p), "required work-group size");
        }
        // 2^32 - 1 in every dimension: the product overflowed a u64 (found by the fuzzer).
        let mut bin = pt.clone();
        for field in 0..3 {
            patch_token(&mut bin, tokens::EXECUTION_ENVIRONMENT, field, u32::MAX);
        }
        assert_bad_kernel(run(&bin, p), "required work-group size");
        let mut zebin = compile(p, Format::Zebin).unwrap();
        patch_text(&mut zebin, "[ 16, 1, 1 ]", "[  0, 1, 1 ]");
        assert_bad_kernel(run(&zebin, p), "required work-group size");
    }
}

/// An argument index sized the signature: 2^26 arguments took minutes and a gigabyte.
#[test]
fn argument_index_is_bounded() {
    for p in PLATFORMS {
        let Some(mut pt) = compile(p, Format::PatchTokens) else {
            return;
        };
        // STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT: ArgumentNumber is field 0.
        patch_token(
            &mut pt,
            tokens::STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT,
            0,
            1 << 26,
        );
        assert_bad_kernel(run(&pt, p), "argument index");
        let mut zebin = compile(p, Format::Zebin).unwrap();
        patch_text(&mut zebin, "arg_index:       1", "arg_index: 9999999");
        assert_bad_kernel(run(&zebin, p), "argument index");
    }
}

/// A binding-table index sized the driver's surface list (4 million surface states).
#[test]
fn binding_table_index_is_bounded() {
    for p in PLATFORMS {
        let Some(mut zebin) = compile(p, Format::Zebin) else {
            return;
        };
        patch_text(&mut zebin, "bti_value:       0", "bti_value: 4000000");
        assert_bad_kernel(run(&zebin, p), "binding-table index");
    }
}

/// The cross-thread size sized a host allocation (4 GiB); slots outside it, and a by-value
/// piece whose end passes 4 GiB (an overflow in the argument's size), are refused.
#[test]
fn payload_fields_stay_inside_the_payload() {
    for p in PLATFORMS {
        let Some(pt) = compile(p, Format::PatchTokens) else {
            return;
        };
        let mut bin = pt.clone();
        // DATA_PARAMETER_STREAM: DataParameterStreamSize is field 0.
        patch_token(&mut bin, tokens::DATA_PARAMETER_STREAM, 0, u32::MAX);
        assert_bad_kernel(run(&bin, p), "cross-thread data");
        // The first DATA_PARAMETER_BUFFER: { Type, ArgumentNumber, Offset, DataSize,
        // SourceOffset, ... }.
        let mut bin = pt.clone();
        patch_token(&mut bin, tokens::DATA_PARAMETER_BUFFER, 2, 1 << 16);
        assert_bad_kernel(run(&bin, p), "outside");
        let mut zebin = compile(p, Format::Zebin).unwrap();
        patch_text(&mut zebin, "offset:          48", "offset:  4000000000");
        assert_bad_kernel(run(&zebin, p), "cross-thread data");
    }
    // The scalar's piece (DATA_PARAMETER_BUFFER of type KERNEL_ARGUMENT for argument 1).
    let Some(mut pt) = compile(Platform::Tgllp, Format::PatchTokens) else {
        return;
    };
    let (dev, base) = patchtokens::device_binary(&pt).unwrap();
    let at = raw::parse(dev, base).unwrap().kernels[0]
        .tokens
        .iter()
        .find(|t| {
            let f = |i: usize| u32::from_le_bytes(t.body[4 * i..4 * i + 4].try_into().unwrap());
            t.id == tokens::DATA_PARAMETER_BUFFER
                && f(0) == tokens::data::KERNEL_ARGUMENT
                && f(1) == 1
        })
        .expect("the scalar's DATA_PARAMETER_BUFFER")
        .offset
        + tokens::ITEM_HEADER_SIZE;
    pt[at + 16..at + 20].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_bad_kernel(run(&pt, Platform::Tgllp), "past 4 GiB");
}

/// SLM beyond a work-group's 64 KiB, and scratch beyond a thread's slice (rounding it up
/// overflowed on Xe-HPG), are the binary's error before anything is allocated.
#[test]
fn memory_sizes_are_bounded_by_the_hardware() {
    for p in PLATFORMS {
        let Some(pt) = compile_source(SOURCE_WITH_SLM, p, Format::PatchTokens) else {
            return;
        };
        let want: Vec<u32> = (0..ITEMS).map(|i| i * SCALE).collect();
        assert_eq!(run(&pt, p).unwrap(), want, "{p}");
        let mut bin = pt.clone();
        // ALLOCATE_LOCAL_SURFACE: { Offset, TotalInlineLocalMemorySize }.
        patch_token(&mut bin, tokens::ALLOCATE_LOCAL_SURFACE, 1, 1 << 20);
        assert_bad_kernel(run(&bin, p), "SLM");
    }
    // Kernels that spill: MEDIA_VFE_STATE { ScratchSpaceOffset, PerThreadScratchSpace } in
    // patch tokens, per_thread_memory_buffers in zebin (the Xe-HPG overflow).
    let spill = include_str!("data/scratch_spill.cl");
    let load = |bin: &[u8], p| Kernel::from_ocloc(bin, Some("spill8"), Some(p)).map(|_| ());
    let Some(mut pt) = compile_source(spill, Platform::Tgllp, Format::PatchTokens) else {
        return;
    };
    assert!(load(&pt, Platform::Tgllp).is_ok());
    patch_token(&mut pt, tokens::MEDIA_VFE_STATE, 1, u32::MAX);
    let mut zebin = compile_source(spill, Platform::Dg2, Format::Zebin).unwrap();
    assert!(load(&zebin, Platform::Dg2).is_ok());
    patch_text(
        &mut zebin,
        "size:            16384",
        "size:       4294967295",
    );
    for (bin, p) in [(pt, Platform::Tgllp), (zebin, Platform::Dg2)] {
        match load(&bin, p) {
            Err(LoadError::Other(Error::BadKernel { problem, .. })) => {
                assert!(problem.contains("scratch"), "{problem}")
            }
            other => panic!("{p}: expected a scratch error, got {other:?}"),
        }
    }
}

/// A relocation at the end of the address space overflowed computing its end.
#[test]
fn relocation_past_the_address_space_is_an_error() {
    let reloc = umd::program::IsaRelocation {
        offset: u64::MAX,
        kind: umd::program::RelocKind::Address64,
        symbol: "data".into(),
        segment: Some(umd::program::Segment::Constant),
        symbol_offset: 0,
        addend: 0,
        defined: true,
    };
    let mut isa = vec![0u8; 64];
    let placed = umd::segments::Placed::default();
    assert!(matches!(
        umd::segments::relocate(&mut isa, &[reloc], &placed),
        Err(Error::Argument(_))
    ));
}

/// Every kernel ocloc makes of the test corpus, for every platform and in both formats, passes
/// the checks: they refuse only what no real binary carries.
#[test]
fn every_corpus_kernel_passes_the_checks() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for c in program_support::corpus(&ocloc) {
        for bin in [&c.patch_tokens, &c.zebin] {
            for k in &umd::program::parse(bin).unwrap().kernels {
                umd::limits::check_kernel(k, c.platform)
                    .unwrap_or_else(|e| panic!("{} on {}: {e}", c.file, c.platform));
            }
        }
    }
}

/// The fuzz harness (`umd::fuzz`, the `dispatch` target) on real binaries with one field
/// patched by its structure-aware mutation: none may panic, and the unpatched input runs.
#[cfg(feature = "sim")]
#[test]
fn field_patched_binaries_never_panic() {
    for format in [Format::PatchTokens, Format::Zebin] {
        let Some(bin) = compile(Platform::Tgllp, format) else {
            return;
        };
        let input: Vec<u8> = umd::fuzz::SEED_HEADER.iter().chain(&bin).copied().collect();
        let r = umd::fuzz::run(&input);
        assert!(matches!(r, Some(Ok(()))), "{format:?}: {r:?}");
        for seed in 0..100 {
            let mut m = input.clone();
            assert!(umd::fuzz::mutate_field(&mut m, seed), "{format:?}");
            umd::fuzz::dispatch(&m);
        }
    }
    umd::fuzz::release_devices();
}

/// The fuzz seed header with 64 KiB buffers (so no corpus kernel reads past its buffer).
#[cfg(feature = "sim")]
fn big_buffers() -> [u8; umd::fuzz::HEADER] {
    let mut h = umd::fuzz::SEED_HEADER;
    h[8] = 0xff;
    h[9] = 0xff;
    h
}

/// The fuzz harness's watchdog (2^14 EU instructions per walker) is no shorter than a real
/// kernel: every kernel of the test corpus, for every platform and in both formats, run by
/// `umd::fuzz::run` on its seed header (64 work-items) with 64 KiB buffers and zeroed by-value
/// arguments (so no loop bound is huge), ends without the watchdog: every instruction it
/// reaches runs.
#[cfg(feature = "sim")]
#[test]
fn corpus_kernels_finish_within_the_fuzz_watchdog() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let (mut ran, mut finished) = (0, 0);
    for c in program_support::corpus(&ocloc) {
        for bin in [&c.patch_tokens, &c.zebin] {
            let kernels = umd::program::parse(bin).unwrap().kernels.len();
            for k in 0..kernels {
                let mut header = big_buffers();
                header[13] = 0;
                header[14] = k as u8;
                let input: Vec<u8> = header.iter().chain(bin.iter()).copied().collect();
                match umd::fuzz::run(&input) {
                    Some(Ok(())) => finished += 1,
                    Some(Err(e)) => {
                        let text = e.to_string();
                        assert!(
                            !text.to_lowercase().contains("watchdog"),
                            "{} kernel {k} on {}: {text}",
                            c.file,
                            c.platform
                        );
                    }
                    None => {}
                }
                ran += 1;
            }
        }
    }
    // Most run to their end; the others stop on what the seed header does not give them (a
    // printf buffer, a sampler, image coordinates in range), never on the watchdog.
    assert!(finished * 2 > ran, "{finished} of {ran} finished");
    // The check sees the watchdog: spill.cl's loops run its by-value `n` times, and the seed
    // header's fill byte makes that 0x03030303.
    let spill = program_support::corpus(&ocloc)
        .iter()
        .find(|c| c.file == "spill.cl")
        .expect("spill.cl in the corpus");
    let input: Vec<u8> = big_buffers().iter().chain(&spill.zebin).copied().collect();
    match umd::fuzz::run(&input) {
        Some(Err(e)) => assert!(e.to_string().to_lowercase().contains("watchdog"), "{e}"),
        other => panic!("spill.cl with n = 0x03030303: {other:?}"),
    }
    umd::fuzz::release_devices();
}
