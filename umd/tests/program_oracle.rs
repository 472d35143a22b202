//! The program parsers against ocloc: every corpus kernel, every platform, both formats.

use crate::program_support;

use std::collections::BTreeSet;

use program_support::*;
use umd::program::{self, patchtokens, zebin, ArgKind, Format, ImplicitKind, Kernel};

/// Token-by-token: every header field and every token's number, size and bytes equal what
/// `ocloc disasm` prints in PTM.txt; every heap equals the file ocloc dumps for it.
#[test]
fn patch_tokens_match_ocloc_ptm_dump() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for c in corpus(&ocloc) {
        let ctx = format!("{} on {}", c.file, c.platform);
        let (text, dump) = ocloc_dump(&ocloc, &c.patch_tokens, c.platform);
        let ptm = parse_ptm(&text);
        let (bin, base) = patchtokens::device_binary(&c.patch_tokens).unwrap();
        let raw = patchtokens::raw::parse(bin, base).unwrap();
        let h = &raw.header;
        let ph = &ptm.program_header;
        assert_eq!(h.magic as u64, field(ph, "Magic"), "{ctx}");
        assert_eq!(h.version as u64, field(ph, "Version"), "{ctx}");
        assert_eq!(h.device as u64, field(ph, "Device"), "{ctx}");
        assert_eq!(
            h.gpu_pointer_size as u64,
            field(ph, "GPUPointerSizeInBytes"),
            "{ctx}"
        );
        assert_eq!(
            h.number_of_kernels as u64,
            field(ph, "NumberOfKernels"),
            "{ctx}"
        );
        assert_eq!(h.stepping_id as u64, field(ph, "SteppingId"), "{ctx}");
        assert_eq!(
            h.patch_list_size as u64,
            field(ph, "PatchListSize"),
            "{ctx}"
        );
        let ours = |t: &[patchtokens::raw::RawToken<'_>]| -> Vec<PtmToken> {
            t.iter()
                .map(|t| PtmToken {
                    id: t.id,
                    size: t.size,
                    bytes: [t.body, t.trailing].concat(),
                })
                .collect()
        };
        assert_eq!(
            ours(&raw.tokens),
            ptm.program_tokens,
            "{ctx}: program-scope tokens"
        );
        assert_eq!(raw.kernels.len(), ptm.kernels.len(), "{ctx}");
        for (k, pk) in raw.kernels.iter().zip(&ptm.kernels) {
            let kctx = format!("{ctx}, kernel {}", k.name);
            assert_eq!(k.name, pk.name, "{kctx}");
            let kh = &k.header;
            let f = |n| field(&pk.header, n);
            assert_eq!(kh.check_sum as u64, f("CheckSum"), "{kctx}");
            assert_eq!(kh.shader_hash_code, f("ShaderHashCode"), "{kctx}");
            assert_eq!(kh.kernel_name_size as u64, f("KernelNameSize"), "{kctx}");
            assert_eq!(kh.patch_list_size as u64, f("PatchListSize"), "{kctx}");
            assert_eq!(kh.kernel_heap_size as u64, f("KernelHeapSize"), "{kctx}");
            assert_eq!(
                kh.general_state_heap_size as u64,
                f("GeneralStateHeapSize"),
                "{kctx}"
            );
            assert_eq!(
                kh.dynamic_state_heap_size as u64,
                f("DynamicStateHeapSize"),
                "{kctx}"
            );
            assert_eq!(
                kh.surface_state_heap_size as u64,
                f("SurfaceStateHeapSize"),
                "{kctx}"
            );
            assert_eq!(
                kh.kernel_unpadded_size as u64,
                f("KernelUnpaddedSize"),
                "{kctx}"
            );
            assert_eq!(ours(&k.tokens), pk.tokens, "{kctx}: tokens");
            let heap = |suffix: &str| {
                std::fs::read(
                    dump.path()
                        .join("dump")
                        .join(format!("{}_{suffix}", k.name)),
                )
            };
            assert_eq!(
                Ok(k.kernel_heap.to_vec()),
                heap("KernelHeap.dat").map_err(|e| e.to_string()),
                "{kctx}"
            );
            assert_eq!(
                Ok(k.surface_state_heap.to_vec()),
                heap("SurfaceStateHeap.bin").map_err(|e| e.to_string()),
                "{kctx}"
            );
            if !k.dynamic_state_heap.is_empty() {
                assert_eq!(
                    Ok(k.dynamic_state_heap.to_vec()),
                    heap("DynamicStateHeap.bin").map_err(|e| e.to_string()),
                    "{kctx}"
                );
            }
        }
    }
}

/// The typed kernel's ISA is the heap `oracles::ocloc::kernel_heaps` extracts.
#[test]
fn kernel_heaps_equal_ocloc_extraction() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for c in corpus(&ocloc) {
        let prog = program::parse(&c.patch_tokens).unwrap();
        assert_eq!(prog.format, Format::PatchTokens);
        assert_eq!(prog.platform, Some(c.platform), "{}", c.file);
        let heaps = oracles::ocloc::kernel_heaps(&ocloc, &c.patch_tokens).unwrap();
        let mut names: Vec<_> = prog.kernels.iter().map(|k| k.name.clone()).collect();
        names.sort();
        assert_eq!(
            names,
            heaps.iter().map(|h| h.name.clone()).collect::<Vec<_>>(),
            "{}",
            c.file
        );
        for h in heaps {
            assert_eq!(
                prog.kernel(&h.name).unwrap().isa,
                h.bytes,
                "{} {} on {}",
                c.file,
                h.name,
                c.platform
            );
        }
    }
}

/// Each zebin kernel's facts equal the .ze_info text ocloc wrote, read line by line.
#[test]
fn zebin_matches_ze_info_text() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for c in corpus(&ocloc) {
        let prog = program::parse(&c.zebin).unwrap();
        assert_eq!(prog.format, Format::Zebin);
        assert_eq!(prog.platform, Some(c.platform), "{}", c.file);
        let (text, _) = zebin::ze_info_text(&c.zebin).unwrap();
        let mut texts = parse_ze_text(text);
        texts.retain(|t| t.name != "Intel_Symbol_Table_Void_Program");
        assert_eq!(texts.len(), prog.kernels.len(), "{}", c.file);
        for t in &texts {
            let ctx = format!("{} {} on {}", c.file, t.name, c.platform);
            let k = prog
                .kernel(&t.name)
                .unwrap_or_else(|| panic!("{ctx}: missing"));
            assert_eq!(Some(k.simd_size as u64), t.env("simd_size"), "{ctx}");
            assert_eq!(
                k.barrier_count as u64,
                t.env("barrier_count").unwrap_or(0),
                "{ctx}"
            );
            assert_eq!(k.slm_size as u64, t.env("slm_size").unwrap_or(0), "{ctx}");
            assert_eq!(k.grf_count.map(u64::from), t.env("grf_count"), "{ctx}");
            let pt = &k.per_thread;
            assert_eq!(
                pt.offset_to_skip_per_thread_data_load as u64,
                t.env("offset_to_skip_per_thread_data_load").unwrap_or(0),
                "{ctx}"
            );
            assert_eq!(
                pt.pass_inline_data,
                t.env("inline_data_payload_size").unwrap_or(0) > 0,
                "{ctx}"
            );
            let wg = t
                .env
                .iter()
                .find(|(k, _)| k == "required_work_group_size")
                .map(|(_, v)| {
                    v.trim_matches(['[', ']', ' '])
                        .split(',')
                        .map(|d| d.trim().parse().unwrap())
                        .collect::<Vec<u32>>()
                });
            assert_eq!(k.required_work_group_size.map(|w| w.to_vec()), wg, "{ctx}");
            let reqd = t.env("required_sub_group_size").or_else(|| {
                t.attributes
                    .iter()
                    .find(|(k, _)| k == "intel_reqd_sub_group_size")
                    .map(|(_, v)| parse_value(v))
            });
            assert_eq!(k.required_subgroup_size as u64, reqd.unwrap_or(0), "{ctx}");
            for p in &t.payload {
                check_payload_entry(k, p, &ctx);
            }
            for p in &t.per_thread {
                let size = parse_value(get(p, "size").unwrap()) as u32;
                assert_eq!(
                    k.per_thread.local_id_dims as u32 * k.per_thread.bytes_per_dim,
                    size,
                    "{ctx}"
                );
            }
            for b in &t.btis {
                let arg = parse_value(get(b, "arg_index").unwrap()) as u32;
                let bti = parse_value(get(b, "bti_value").unwrap()) as u32;
                let got = match &k.arg(arg).unwrap().kind {
                    ArgKind::Buffer { bti, .. } | ArgKind::Image { bti, .. } => *bti,
                    other => panic!("{ctx}: arg {arg} has a BTI but is {other:?}"),
                };
                assert_eq!(got, Some(bti), "{ctx}: arg {arg}");
            }
            for m in &t.memory_buffers {
                let size = parse_value(get(m, "size").unwrap()) as u32;
                match get(m, "type").unwrap() {
                    "scratch" => assert_eq!(k.memory.scratch, size, "{ctx}"),
                    "global" => assert_eq!(k.memory.private, size, "{ctx}"),
                    other => panic!("{ctx}: memory buffer type {other}"),
                }
            }
        }
    }
}

/// One `payload_arguments` entry of the text is reflected in the typed kernel.
fn check_payload_entry(k: &Kernel, p: &[(String, String)], ctx: &str) {
    let ty = get(p, "arg_type").unwrap();
    let offset = parse_value(get(p, "offset").unwrap_or("0")) as u32;
    let size = parse_value(get(p, "size").unwrap_or("0")) as u32;
    let implicit = match ty {
        "local_size" => Some(ImplicitKind::LocalSize),
        "global_size" => Some(ImplicitKind::GlobalSize),
        "group_count" => Some(ImplicitKind::NumGroups),
        "global_id_offset" => Some(ImplicitKind::GlobalOffset),
        "enqueued_local_size" => Some(ImplicitKind::EnqueuedLocalSize),
        "work_dimensions" => Some(ImplicitKind::WorkDim),
        "private_base_stateless" => Some(ImplicitKind::PrivateBase),
        "const_base" => Some(ImplicitKind::ConstantBase),
        "global_base" => Some(ImplicitKind::GlobalBase),
        "printf_buffer" => Some(ImplicitKind::PrintfBuffer),
        _ => None,
    };
    if let Some(kind) = implicit {
        let covered: u32 = k
            .implicit_of(kind)
            .filter(|i| i.offset >= offset && i.offset < offset + size)
            .map(|i| i.size)
            .sum();
        assert_eq!(covered, size, "{ctx}: {ty} at {offset}");
        return;
    }
    let index = parse_value(get(p, "arg_index").unwrap()) as u32;
    let arg = k
        .arg(index)
        .unwrap_or_else(|| panic!("{ctx}: no arg {index}"));
    match (ty, &arg.kind) {
        ("arg_byvalue", ArgKind::Value { pieces }) => {
            assert!(
                pieces
                    .iter()
                    .any(|pc| pc.offset == offset && pc.size == size),
                "{ctx}: arg {index}"
            );
        }
        ("buffer_address", ArgKind::Buffer { stateless, .. }) => {
            assert_eq!(
                stateless.map(|s| (s.offset, s.size)),
                Some((offset, size)),
                "{ctx}: arg {index}"
            )
        }
        ("buffer_offset", ArgKind::Buffer { buffer_offset, .. }) => {
            assert_eq!(
                buffer_offset.map(|s| (s.offset, s.size)),
                Some((offset, size)),
                "{ctx}: arg {index}"
            )
        }
        ("arg_bypointer", kind) => match (get(p, "addrspace").unwrap(), kind) {
            ("global", ArgKind::Buffer { .. }) | ("constant", ArgKind::Buffer { .. }) => {}
            (
                "local",
                ArgKind::Local {
                    slm_offset,
                    alignment,
                },
            ) => {
                assert_eq!(
                    (slm_offset.offset, slm_offset.size),
                    (offset, size),
                    "{ctx}"
                );
                assert_eq!(
                    Some(*alignment as u64),
                    get(p, "slm_alignment").map(parse_value),
                    "{ctx}"
                );
            }
            ("image", ArgKind::Image { writable, .. }) => {
                assert_eq!(
                    *writable,
                    get(p, "access_type") != Some("readonly"),
                    "{ctx}"
                )
            }
            ("sampler", ArgKind::Sampler { index: si, .. }) => {
                assert_eq!(
                    Some(*si as u64),
                    get(p, "sampler_index").map(parse_value),
                    "{ctx}"
                )
            }
            (space, kind) => panic!("{ctx}: arg {index} in {space} parsed as {kind:?}"),
        },
        (_, ArgKind::Image { params, .. }) | (_, ArgKind::Sampler { params, .. }) => {
            assert!(
                params
                    .iter()
                    .any(|(_, s)| s.offset == offset && s.size == size),
                "{ctx}: {ty} of arg {index}"
            );
        }
        (ty, kind) => panic!("{ctx}: {ty} for arg {index} parsed as {kind:?}"),
    }
}

/// The two formats are independent encodings of one compile: the facts must agree.
#[test]
fn both_formats_agree() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for c in corpus(&ocloc) {
        let pt = program::parse(&c.patch_tokens).unwrap();
        let zb = program::parse(&c.zebin).unwrap();
        let names = |p: &program::Program| {
            p.kernels
                .iter()
                .map(|k| k.name.clone())
                .collect::<BTreeSet<_>>()
        };
        assert_eq!(names(&pt), names(&zb), "{} on {}", c.file, c.platform);
        for a in &pt.kernels {
            let b = zb.kernel(&a.name).unwrap();
            let ctx = format!("{} {} on {}", c.file, a.name, c.platform);
            assert_eq!(a.simd_size, b.simd_size, "{ctx}: SIMD");
            assert_eq!(a.required_subgroup_size, b.required_subgroup_size, "{ctx}");
            assert_eq!(
                a.required_work_group_size, b.required_work_group_size,
                "{ctx}"
            );
            assert_eq!(a.has_barriers(), b.has_barriers(), "{ctx}: barriers");
            assert_eq!(a.slm_size, b.slm_size, "{ctx}: SLM");
            assert_eq!(a.grf_count, b.grf_count, "{ctx}: GRF");
            assert_eq!(a.memory, b.memory, "{ctx}: scratch/private");
            assert_eq!(a.args, b.args, "{ctx}: arguments");
            if b.isa_relocations.is_empty() {
                assert_eq!(a.implicit, b.implicit, "{ctx}: implicit arguments");
                assert_eq!(
                    a.cross_thread_size, b.cross_thread_size,
                    "{ctx}: cross-thread size"
                );
                let n = a.isa_unpadded_size as usize;
                assert_eq!(n, b.isa_unpadded_size as usize, "{ctx}: ISA size");
                assert_eq!(a.isa.get(..n), b.isa.get(..n), "{ctx}: ISA");
            } else {
                // zebin patches program-data addresses into the ISA; the patch-token kernel
                // gets them as base-pointer arguments instead, so the layouts differ there.
                let bases = [ImplicitKind::ConstantBase, ImplicitKind::GlobalBase];
                assert!(
                    a.implicit.iter().any(|i| bases.contains(&i.kind)),
                    "{ctx}: relocated data without base pointers"
                );
            }
            assert_eq!(
                a.per_thread.local_id_dims, b.per_thread.local_id_dims,
                "{ctx}"
            );
            assert_eq!(a.arg_info, b.arg_info, "{ctx}: arg info");
            // zebin lists only argument BTIs; patch tokens also bind the surfaces IGC adds itself.
            for e in &b.binding_table {
                assert!(
                    a.binding_table.contains(e),
                    "{ctx}: binding table entry {e:?}"
                );
            }
        }
        assert_eq!(pt.global_data, zb.global_data, "{}", c.file);
        assert!(
            pt.constant_data.starts_with(&zb.constant_data),
            "{}",
            c.file
        );
        // Both formats keep a pointer's offset into its target in place (REL semantics), so
        // each relocation's full addend is the same in both.
        let sorted = |p: &program::Program| {
            let mut v: Vec<_> = p
                .data_relocations
                .iter()
                .map(|r| (r.segment as u8, r.offset, r.target as u8, r.addend))
                .collect();
            v.sort();
            v
        };
        assert_eq!(sorted(&pt), sorted(&zb), "{}", c.file);
    }
}

/// The SIMD width is the source's `intel_reqd_sub_group_size` when given, and
/// CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL reports it (0 when not given).
#[test]
fn simd_follows_required_subgroup_size() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let mut seen = BTreeSet::new();
    for c in corpus(&ocloc) {
        for bin in [&c.patch_tokens, &c.zebin] {
            for k in program::parse(bin).unwrap().kernels {
                let want = reqd_sub_group_size_in_source(&c.source, &k.name);
                assert_eq!(
                    k.compile_sub_group_size(),
                    want.unwrap_or(0) as usize,
                    "{} on {}",
                    k.name,
                    c.platform
                );
                if let Some(n) = want {
                    assert_eq!(k.simd_size, n, "{} on {}", k.name, c.platform);
                    seen.insert(n);
                }
            }
        }
    }
    assert_eq!(
        seen,
        BTreeSet::from([8, 16, 32]),
        "the corpus covers every required size"
    );
}

/// zebin relocations (ISA and data) are the ones binutils' `readelf -r` lists, with the same
/// offsets, types and symbols; ISA relocations name the data segment of their symbol.
#[test]
fn zebin_relocations_match_readelf() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let Some(readelf) = ["/usr/bin/readelf", "/bin/readelf"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
    else {
        oracles::skip(
            "zebin_relocations_match_readelf",
            "binutils' readelf not installed",
        );
        return;
    };
    let mut seen = 0;
    for c in corpus(&ocloc) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("z.bin");
        std::fs::write(&path, &c.zebin).unwrap();
        let out = std::process::Command::new(readelf)
            .arg("-rW")
            .arg(&path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        // (section, offset, type, symbol) for every entry readelf prints.
        let mut theirs = Vec::new();
        let mut section = String::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("Relocation section '") {
                section = rest.split('\'').next().unwrap().to_string();
            } else if let Some(ty) = line.split("unrecognized: ").nth(1) {
                let words: Vec<&str> = line.split_whitespace().collect();
                let ty: u32 = ty.split_whitespace().next().unwrap().parse().unwrap();
                let offset = u64::from_str_radix(words[0], 16).unwrap();
                theirs.push((
                    section.clone(),
                    offset,
                    ty,
                    words.last().unwrap().to_string(),
                ));
            }
        }
        let prog = program::parse(&c.zebin).unwrap();
        let mut ours = Vec::new();
        for k in &prog.kernels {
            for r in &k.isa_relocations {
                let ty = match r.kind {
                    program::RelocKind::Address64 => 1,
                    program::RelocKind::Address32Lo => 2,
                    program::RelocKind::Address32Hi => 3,
                    program::RelocKind::PerThreadPayloadOffset => 4,
                    program::RelocKind::Other(t) => t,
                };
                assert!(
                    r.segment.is_some(),
                    "{}: {} relocates to {} outside the data",
                    c.file,
                    k.name,
                    r.symbol
                );
                ours.push((
                    format!(".rel.text.{}", k.name),
                    r.offset,
                    ty,
                    r.symbol.clone(),
                ));
            }
        }
        let data_rels = theirs
            .iter()
            .filter(|t| t.0.starts_with(".rel.data"))
            .count();
        theirs.retain(|t| {
            t.0.starts_with(".rel.text.") && t.0 != ".rel.text.Intel_Symbol_Table_Void_Program"
        });
        theirs.sort();
        ours.sort();
        assert_eq!(ours, theirs, "{} on {}", c.file, c.platform);
        assert_eq!(
            prog.data_relocations.len(),
            data_rels,
            "{} on {}",
            c.file,
            c.platform
        );
        seen += ours.len();
    }
    assert!(seen > 0, "the corpus has relocated kernels");
}

/// A zebin naming its target by GFXCORE_FAMILY alone (the `.note.intelgt.compat` note of
/// type 2, as binaries generated without IGC carry it: oneDNN's nGEN kernels) is for the
/// platform of that core. Made from ocloc's zebin by turning its PRODUCT_FAMILY note (type 1)
/// into a GFXCORE_FAMILY note whose value is the `Device` field ocloc writes in the same
/// source's patch-token binary (checked against `ocloc disasm` above).
#[test]
fn zebin_named_by_gfx_core_family_alone() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let mut seen = BTreeSet::new();
    for c in corpus(&ocloc) {
        if !seen.insert(c.platform) {
            continue;
        }
        let (bin, base) = patchtokens::device_binary(&c.patch_tokens).unwrap();
        let core = patchtokens::raw::parse(bin, base).unwrap().header.device;
        let mut head = Vec::new();
        for v in [8u32, 4, 1] {
            head.extend_from_slice(&v.to_le_bytes());
        }
        head.extend_from_slice(b"IntelGT\0");
        let at = c
            .zebin
            .windows(head.len())
            .position(|w| w == head)
            .unwrap_or_else(|| panic!("{}: no PRODUCT_FAMILY note", c.platform));
        let mut z = c.zebin.clone();
        z[at + 8..at + 12].copy_from_slice(&2u32.to_le_bytes());
        z[at + 20..at + 24].copy_from_slice(&core.to_le_bytes());
        assert_eq!(
            program::parse(&z).unwrap().platform,
            Some(c.platform),
            "{}",
            c.platform
        );
        // A core family no platform here has names none.
        z[at + 20..at + 24].copy_from_slice(&0xffffu32.to_le_bytes());
        assert_eq!(program::parse(&z).unwrap().platform, None, "{}", c.platform);
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
}
