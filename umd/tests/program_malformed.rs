//! Malformed binaries give a specific error (structure, offset, problem), never a panic.

use crate::program_support;

use program_support::*;
use umd::program::{self, ProgramError};

fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A token: number, size (header included) and body.
fn token(id: u32, body: &[u8]) -> Vec<u8> {
    [u32s(&[id, body.len() as u32 + 8]), body.to_vec()].concat()
}

/// Execution environment (token 23, 132-byte body) with LargestCompiledSIMDSize `simd`.
fn exec_env(simd: u32) -> Vec<u8> {
    let mut body = vec![0u8; 132];
    body[12..16].copy_from_slice(&simd.to_le_bytes());
    token(23, &body)
}

/// A bare patch-token program with one kernel `k` (16 bytes of ISA, `ssh` as its surface state
/// heap) and the given kernel patch list, laid out as patch_list.h describes.
fn program_with(tokens: &[u8], ssh: &[u8]) -> Vec<u8> {
    let header = u32s(&[0x494E_5443, 1081, 18, 8, 1, 0, 0]);
    let kernel_header = [
        u32s(&[0]),
        0u64.to_le_bytes().to_vec(),
        u32s(&[4, tokens.len() as u32, 16, 0, 0, ssh.len() as u32, 16]),
    ]
    .concat();
    [
        header,
        kernel_header,
        b"k\0\0\0".to_vec(),
        vec![0x11; 16],
        ssh.to_vec(),
        tokens.to_vec(),
    ]
    .concat()
}

fn good() -> Vec<u8> {
    program_with(&[exec_env(16), token(25, &u32s(&[64]))].concat(), &[])
}

fn invalid(e: ProgramError) -> (String, usize, String) {
    match e {
        ProgramError::Invalid {
            structure,
            offset,
            problem,
        } => (structure, offset, problem),
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn a_hand_built_program_parses() {
    let p = program::parse(&good()).unwrap();
    assert_eq!(p.kernels.len(), 1);
    let k = &p.kernels[0];
    assert_eq!(
        (k.name.as_str(), k.simd_size, k.cross_thread_size),
        ("k", 16, 64)
    );
    assert_eq!(k.isa, vec![0x11; 16]);
}

#[test]
fn bad_magic_names_the_header() {
    let mut b = good();
    b[0] = b'X';
    // Without the magic the bytes are not recognised at all.
    assert!(matches!(
        program::parse(&b),
        Err(ProgramError::UnknownFormat(_))
    ));
    let e = program::patchtokens::raw::parse(&b, 0).unwrap_err();
    let (s, off, why) = invalid(e);
    assert_eq!((s.as_str(), off), ("program binary header", 0));
    assert!(why.contains("magic"), "{why}");
}

#[test]
fn every_truncation_is_an_error_naming_where() {
    let b = good();
    for len in 0..b.len() {
        let e = program::patchtokens::raw::parse(&b[..len], 0)
            .map(|_| ())
            .and_then(|_| program::parse(&b[..len]).map(|_| ()));
        assert!(e.is_err(), "{len} bytes parsed");
    }
    // Cut inside the ISA: the kernel heap is what is missing.
    match program::parse(&b[..28 + 40 + 4 + 8]).unwrap_err() {
        ProgramError::Truncated {
            structure,
            offset,
            needed,
            available,
        } => {
            assert_eq!(structure, "kernel #0 kernel heap");
            assert_eq!((offset, needed, available), (72, 16, 8));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_token_smaller_than_its_header_is_named() {
    let b = program_with(&u32s(&[23, 4]), &[]);
    let (s, off, why) = invalid(program::parse(&b).unwrap_err());
    assert_eq!(s, "patch token 23 (EXECUTION_ENVIRONMENT)");
    assert_eq!(off, 28 + 40 + 4 + 16);
    assert!(why.contains("smaller than the 8-byte"), "{why}");
}

#[test]
fn a_token_too_short_for_its_structure_is_named() {
    let b = program_with(&token(23, &[0; 20]), &[]);
    let (s, _, why) = invalid(program::parse(&b).unwrap_err());
    assert_eq!(s, "patch token 23 (EXECUTION_ENVIRONMENT)");
    assert!(why.contains("needs 140"), "{why}");
}

#[test]
fn an_impossible_kernel_count_is_caught_before_allocating() {
    let mut b = good();
    b[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
    let (s, off, why) = invalid(program::parse(&b).unwrap_err());
    assert_eq!((s.as_str(), off), ("program binary header", 16));
    assert!(why.contains("NumberOfKernels 4294967295"), "{why}");
}

#[test]
fn a_kernel_without_execution_environment_has_no_simd_size() {
    let b = program_with(&token(25, &u32s(&[64])), &[]);
    let (s, _, why) = invalid(program::parse(&b).unwrap_err());
    assert_eq!(s, "execution environment of kernel `k`");
    assert!(why.contains("SIMD size 0"), "{why}");
}

#[test]
fn a_binding_table_past_the_surface_state_heap_is_named() {
    // Binding table at SSH offset 0x40 with 2 entries, but the heap has 64 bytes.
    let b = program_with(
        &[exec_env(8), token(8, &u32s(&[0x40, 2, 0]))].concat(),
        &[0; 64],
    );
    match program::parse(&b).unwrap_err() {
        ProgramError::Truncated {
            structure,
            needed,
            available,
            ..
        } => {
            assert_eq!(structure, "binding table at SSH offset 0x40 with 2 entries");
            assert_eq!((needed, available), (8, 0));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn argument_info_strings_past_their_token_are_named() {
    // ArgumentNumber 0, then an address qualifier of 100 bytes in a 4-byte tail.
    let body = [u32s(&[0, 100, 0, 0, 0, 0]), b"glob".to_vec()].concat();
    let b = program_with(&[exec_env(8), token(26, &body)].concat(), &[]);
    match program::parse(&b).unwrap_err() {
        ProgramError::Truncated {
            structure,
            needed,
            available,
            ..
        } => {
            assert_eq!(
                structure,
                "string 1 of patch token 26 (KERNEL_ARGUMENT_INFO)"
            );
            assert_eq!((needed, available), (100, 4));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn non_binaries_are_not_recognised() {
    assert!(matches!(
        program::parse(b"hello"),
        Err(ProgramError::UnknownFormat(_))
    ));
    assert!(matches!(
        program::parse(&[]),
        Err(ProgramError::UnknownFormat(_))
    ));
    // An ELF header cut short is an ELF error, not a panic.
    assert!(matches!(
        program::parse(b"\x7fELF\x02\x01\x01"),
        Err(ProgramError::Elf { .. })
    ));
}

/// The corpus's buffers.cl compiled for tgllp.
fn buffers(ocloc: &std::path::Path, format: oracles::ocloc::Format) -> Vec<u8> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels");
    let source = std::fs::read_to_string(dir.join("buffers.cl")).unwrap();
    compile_cached(ocloc, platform::Platform::Tgllp, &source, format).unwrap()
}

/// Replaces `from` with `to` (same length) in the first place it occurs.
fn patch(bin: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let at = bin
        .windows(from.len())
        .position(|w| w == from)
        .expect("pattern in binary");
    let mut out = bin.to_vec();
    out[at..at + to.len()].copy_from_slice(to);
    out
}

#[test]
fn corrupt_zebin_gives_specific_errors() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let zb = &buffers(&ocloc, oracles::ocloc::Format::Zebin);
    let (text, offset) = program::zebin::ze_info_text(zb).unwrap();
    let simd_line = text
        .lines()
        .find(|l| l.contains("simd_size:"))
        .unwrap()
        .to_string();
    let bad = simd_line.replace("simd_size:", "simd_sizz:");
    match program::parse(&patch(zb, simd_line.as_bytes(), bad.as_bytes())).unwrap_err() {
        ProgramError::ZeInfo {
            offset: at,
            message,
        } => {
            assert!(at > offset, "{at:#x}");
            assert!(message.contains("simd_size"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let digits: String = simd_line.chars().filter(|c| c.is_ascii_digit()).collect();
    let seven = simd_line.replacen(&digits, &"7".repeat(digits.len()), 1);
    let (s, _, why) =
        invalid(program::parse(&patch(zb, simd_line.as_bytes(), seven.as_bytes())).unwrap_err());
    assert!(s.starts_with(".ze_info kernel `"), "{s}");
    assert!(why.contains("simd_size 7"), "{why}");
    match program::parse(&patch(zb, b".text.copy\0", b".text.cOpy\0")).unwrap_err() {
        ProgramError::Elf { context, message } => {
            assert_eq!(context, "kernel `copy`");
            assert_eq!(message, "no .text.copy section");
        }
        other => panic!("{other:?}"),
    }
    let version = text
        .lines()
        .find(|l| l.starts_with("version:"))
        .unwrap()
        .to_string();
    let future = version.replacen("'1.", "'9.", 1);
    match program::parse(&patch(zb, version.as_bytes(), future.as_bytes())).unwrap_err() {
        ProgramError::ZeInfo {
            offset: at,
            message,
        } => {
            assert_eq!(at, offset);
            assert!(message.starts_with("zeinfo version 9."), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let garbage = patch(zb, b"kernels:", b"kernels{");
    assert!(matches!(
        program::parse(&garbage),
        Err(ProgramError::ZeInfo { .. })
    ));
}

#[test]
fn corrupt_container_gives_specific_errors() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let pt = &buffers(&ocloc, oracles::ocloc::Format::PatchTokens);
    // Section header table pointing past the file.
    let mut b = pt.clone();
    b[0x28..0x30].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
    assert!(matches!(program::parse(&b), Err(ProgramError::Elf { .. })));
    // The device binary's magic broken inside the container: the error has its file offset.
    let (_, base) = program::patchtokens::device_binary(pt).unwrap();
    let mut b = pt.clone();
    b[base] ^= 0xff;
    let (s, off, _) = invalid(program::parse(&b).unwrap_err());
    assert_eq!((s.as_str(), off), ("program binary header", base));
}
