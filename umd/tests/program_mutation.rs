//! Real ocloc binaries, mutated at random: the parser returns a program or an error, and
//! never panics.

use crate::program_support;

use std::sync::OnceLock;

use oracles::ocloc::Format;
use platform::Platform;
use program_support::*;
use proptest::prelude::*;

/// A few real binaries of both formats (compiled once, cached across runs).
fn seeds() -> Option<&'static [Vec<u8>]> {
    static SEEDS: OnceLock<Option<Vec<Vec<u8>>>> = OnceLock::new();
    SEEDS
        .get_or_init(|| {
            let ocloc = oracles::Oracle::Ocloc.locate()?;
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels");
            let mut out = Vec::new();
            for (file, platform) in [
                ("buffers.cl", Platform::Tgllp),
                ("images.cl", Platform::Skl),
                ("program_scope.cl", Platform::Dg2),
            ] {
                let source = std::fs::read_to_string(dir.join(file)).unwrap();
                for format in [Format::PatchTokens, Format::Zebin] {
                    out.push(compile_cached(&ocloc, platform, &source, format).unwrap());
                }
            }
            Some(out)
        })
        .as_deref()
}

#[derive(Debug, Clone)]
enum Mutation {
    /// Set byte (position as a fraction of the length) to a value.
    Byte(f64, u8),
    /// Overwrite an aligned u32 with a boundary value.
    Word(f64, u32),
    Truncate(f64),
    Insert(f64, Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let frac = 0.0..1.0f64;
    let word = prop_oneof![
        Just(0u32),
        Just(1),
        Just(7),
        Just(0x7fff_ffff),
        Just(u32::MAX),
        any::<u32>()
    ];
    prop_oneof![
        4 => (frac.clone(), any::<u8>()).prop_map(|(f, b)| Mutation::Byte(f, b)),
        4 => (frac.clone(), word).prop_map(|(f, w)| Mutation::Word(f, w)),
        1 => frac.clone().prop_map(Mutation::Truncate),
        1 => (frac, proptest::collection::vec(any::<u8>(), 1..16)).prop_map(|(f, v)| Mutation::Insert(f, v)),
    ]
}

fn apply(bin: &mut Vec<u8>, m: &Mutation) {
    let at = |f: f64, len: usize| ((f * len as f64) as usize).min(len.saturating_sub(1));
    match m {
        Mutation::Byte(f, b) => {
            // An earlier truncation may have emptied the binary.
            let i = at(*f, bin.len());
            if let Some(byte) = bin.get_mut(i) {
                *byte = *b;
            }
        }
        Mutation::Word(f, w) => {
            let i = at(*f, bin.len()) & !3;
            if i + 4 <= bin.len() {
                bin[i..i + 4].copy_from_slice(&w.to_le_bytes());
            }
        }
        Mutation::Truncate(f) => bin.truncate(at(*f, bin.len())),
        Mutation::Insert(f, v) => {
            let i = at(*f, bin.len());
            bin.splice(i..i, v.iter().copied());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn mutated_binaries_never_panic(seed in any::<prop::sample::Index>(),
                                    muts in proptest::collection::vec(mutation(), 1..6)) {
        let Some(seeds) = seeds() else {
            // Applies the oracle policy (fails under ORACLES=required, else prints SKIP).
            let _ = oracles::get(oracles::Oracle::Ocloc, "mutated_binaries_never_panic");
            return Ok(());
        };
        let mut bin = seed.get(seeds).clone();
        for m in &muts {
            apply(&mut bin, m);
        }
        if let Ok(p) = umd::program::parse(&bin) {
            for k in &p.kernels {
                let _ = k.sub_group_count_for_ndrange(&[k.simd_size as usize + 1]);
            }
        }
    }
}
