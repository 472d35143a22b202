//! cl_intel_spirv_subgroups end to end. ocloc turns the corpus's shuffle and block IO files into
//! SPIR-V (`-spv_only`) per platform and SIMD width; each module must declare
//! SPV_INTEL_subgroups, the capabilities, and per kernel the SubgroupSize and the INTEL
//! instruction its built-in maps to. The modules are then compiled (`-spirv_input`) and the
//! cases run through umd on the simulator against the same CPU references as the direct path.

use conformance::compile::{self, Compiler, Route};
use conformance::corpus::{self, File, Instance};
use conformance::runner::{Runner, Umd};
use conformance::spirv::{self, IntelOp, Module};
use conformance::suite::{self, SIMD_WIDTHS};
use oracles::ocloc::Format;
use platform::Platform;
use umd::device::KmdChoice;

/// The files whose built-ins cl_intel_spirv_subgroups gives INTEL instructions.
const FILES: [&str; 3] = ["shuffle.cl", "block_buffer.cl", "block_image.cl"];

/// Capability Float64: without it a module holds no double kernels.
const CAPABILITY_FLOAT64: u32 = 10;

fn files() -> Vec<File> {
    let all = corpus::files().expect("the corpus parses");
    all.into_iter()
        .filter(|f| FILES.contains(&f.name))
        .collect()
}

/// What is wrong with `inst`'s entry point in `m`, which must reach `want`, if anything.
fn check_kernel(m: &Module, inst: &Instance, want: IntelOp, simd: u32) -> Result<(), String> {
    let e = |e: spirv::Error| e.to_string();
    let caps = m.capabilities().map_err(e)?;
    let Some(ep) = m
        .entry_points()
        .map_err(e)?
        .into_iter()
        .find(|ep| ep.name == inst.kernel())
    else {
        if inst.fp64 && !caps.contains(&CAPABILITY_FLOAT64) {
            return Ok(());
        }
        return Err("no OpEntryPoint".into());
    };
    if ep.model != spirv::EXECUTION_MODEL_KERNEL {
        return Err(format!("execution model {}, not Kernel", ep.model));
    }
    let modes = m.execution_modes(ep.function).map_err(e)?;
    if !modes.contains(&(spirv::EXECUTION_MODE_SUBGROUP_SIZE, vec![simd])) {
        return Err(format!("no OpExecutionMode SubgroupSize {simd}: {modes:?}"));
    }
    if !caps.contains(&want.capability.number) {
        return Err(format!("no OpCapability {}", want.capability.name));
    }
    let reached = m.reached_opcodes(ep.function).map_err(e)?;
    let intel: Vec<&str> = spirv::INTEL_OPS
        .iter()
        .filter(|o| reached.contains(&o.opcode))
        .map(|o| o.name)
        .collect();
    if intel != [want.name] {
        return Err(format!(
            "INTEL instructions {intel:?}, want [{}]",
            want.name
        ));
    }
    Ok(())
}

/// The module ocloc makes of the whole `file` at `simd`, checked; complaints out.
fn check_module(c: &Compiler, p: Platform, file: &File, simd: u32) -> Vec<String> {
    let all: Vec<&Instance> = file.instances.iter().collect();
    let at = format!("{} {} simd{simd}", p.name(), file.name);
    let module = c
        .spirv(p, &file.source(&all), &compile::options(simd))
        .and_then(|b| spirv::parse(&b).map_err(|e| e.to_string()));
    let m = match module {
        Ok(m) => m,
        Err(e) => return vec![format!("{at}: {e}")],
    };
    let mut bad = Vec::new();
    match m.extensions() {
        Ok(x) if x.iter().any(|x| x == spirv::SPV_INTEL_SUBGROUPS) => {}
        other => bad.push(format!("{at}: OpExtension {other:?}")),
    }
    for inst in &file.instances {
        let checked = spirv::corpus_op(&inst.kind)
            .ok_or_else(|| format!("no INTEL instruction for {}", inst.kind))
            .and_then(|want| check_kernel(&m, inst, want, simd));
        if let Err(e) = checked {
            bad.push(format!("{at} {}: {e}", inst.kernel()));
        }
    }
    bad
}

/// `-spirv_input` honours SubgroupSize: every kernel of the binaries has that SIMD width.
fn check_binaries(c: &Compiler, p: Platform, file: &File, simd: u32) -> Vec<String> {
    let mut bad = Vec::new();
    for (instances, bytes) in c.compile(p, file, simd, Format::PatchTokens).binaries {
        let prog = match umd::program::parse(&bytes) {
            Ok(prog) => prog,
            Err(e) => {
                bad.push(format!("{} {} simd{simd}: {e}", p.name(), file.name));
                continue;
            }
        };
        for inst in instances {
            if let Some(k) = prog.kernel(&inst.kernel()) {
                if (k.simd_size, k.required_subgroup_size) != (simd, simd) {
                    bad.push(format!(
                        "{} simd{simd}: binary says SIMD {} required {}",
                        inst.kernel(),
                        k.simd_size,
                        k.required_subgroup_size
                    ));
                }
            }
        }
    }
    bad
}

fn spirv_route(p: Platform, kmd: KmdChoice) {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let compiler = Compiler::shared(ocloc).with_route(Route::SpirV);
    let files = files();
    assert_eq!(files.len(), FILES.len());
    let mut bad = Vec::new();
    for file in &files {
        for simd in SIMD_WIDTHS {
            bad.extend(check_module(&compiler, p, file, simd));
            bad.extend(check_binaries(&compiler, p, file, simd));
        }
    }
    let work = tempfile::tempdir().unwrap();
    let report = suite::run_files(
        p,
        &compiler,
        Format::PatchTokens,
        1,
        work.path(),
        &files,
        &|| Umd::new(p, kmd).map(|u| Box::new(u) as Box<dyn Runner>),
    );
    for b in &bad {
        eprintln!("SPIR-V: {b}");
    }
    report.finish(&format!(
        "{} {} via SPIR-V (ocloc -spv_only, -spirv_input; patch tokens)",
        p.name(),
        kmd.name()
    ));
    assert!(bad.is_empty(), "SPIR-V modules:\n{}", bad.join("\n"));
}

/// Every `GENERATED_EVERY`-th instance of the generated corpus (and every big kernel) through
/// SPIR-V: the whole cross product runs through umd's direct route (`generated`).
const GENERATED_EVERY: usize = 16;

fn generated_slice(p: Platform, kmd: KmdChoice) {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let compiler = Compiler::shared(ocloc).with_route(Route::SpirV);
    let files = conformance::generate::slice(GENERATED_EVERY).expect("the generator's files");
    let work = tempfile::tempdir().unwrap();
    let report = suite::run_files(
        p,
        &compiler,
        Format::PatchTokens,
        1,
        work.path(),
        &files,
        &|| Umd::new(p, kmd).map(|u| Box::new(u) as Box<dyn Runner>),
    );
    report.finish(&format!(
        "generated slice {} {} via SPIR-V (patch tokens)",
        p.name(),
        kmd.name()
    ));
}

#[test]
fn generated_tgllp_xe() {
    generated_slice(Platform::Tgllp, KmdChoice::Xe);
}

#[test]
fn generated_icllp_i915() {
    generated_slice(Platform::Icllp, KmdChoice::I915);
}

#[test]
fn skl_i915() {
    spirv_route(Platform::Skl, KmdChoice::I915);
}

#[test]
fn tgllp_xe() {
    spirv_route(Platform::Tgllp, KmdChoice::Xe);
}

#[test]
fn dg2_xe() {
    spirv_route(Platform::Dg2, KmdChoice::Xe);
}

/// The module checks tell kernels apart: a shuffle kernel is not a shuffle_xor one, a block
/// read is not a block write, and SubgroupSize 16 is not 8.
#[test]
fn module_checks_reject_mismatches() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let compiler = Compiler::shared(ocloc).with_route(Route::SpirV);
    let p = Platform::Tgllp;
    for (file, kind, other) in [
        ("shuffle.cl", "SHUFFLE", "SHUFFLE_XOR"),
        ("block_buffer.cl", "BLOCK_READ", "BLOCK_WRITE"),
        ("block_image.cl", "IMAGE_WRITE", "IMAGE_READ"),
    ] {
        let file = files().into_iter().find(|f| f.name == file).unwrap();
        let inst = file.instances.iter().find(|i| i.kind == kind).unwrap();
        let src = file.source(&[inst]);
        let spv = compiler.spirv(p, &src, &compile::options(16)).unwrap();
        let m = spirv::parse(&spv).unwrap();
        let (want, wrong) = (spirv::corpus_op(kind), spirv::corpus_op(other));
        let (want, wrong) = (want.unwrap(), wrong.unwrap());
        assert_eq!(check_kernel(&m, inst, want, 16), Ok(()));
        assert!(
            check_kernel(&m, inst, want, 8).is_err(),
            "{kind}: SubgroupSize"
        );
        let e = check_kernel(&m, inst, wrong, 16).unwrap_err();
        assert!(e.contains("INTEL instructions"), "{kind} as {other}: {e}");
    }
}
