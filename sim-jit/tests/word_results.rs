//! Word destinations on the translated path against the interpreter: raw `:hf` moves and
//! `:w`/`:uw` integer results (whole rows of words, or one word), mixed with half
//! arithmetic (`:hf` results of `:hf` and `:f` sources) and with f32 and DWord instructions that read the same
//! registers; registers rich in half values (NaNs with payloads, infinities, subnormals, the
//! largest finite values, f32 values at and around the midpoints between halves).

use platform::Platform;
use proptest::prelude::*;
use sim_eu::convert::f16_to_f32;
use sim_eu::Program;
use sim_jit::Translated;

use crate::common;
use common::program;

/// Halves where conversions and rounding show: NaNs (quiet, signalling, payloads, both
/// signs), infinities, zeros, subnormals at both ends, the smallest normal, the largest
/// finite values, ones and a value with an odd last bit.
const SPECIAL: [u16; 16] = [
    0x7e00, 0xfd01, 0x7c01, 0xfe55, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x7bff,
    0xfbff, 0x3c00, 0xbc00, 0x3555,
];

/// Offsets from a half widened to f32 that land on and around the midpoint to the next
/// half (a half's last bit is the f32's bit 13) and on the next half itself.
const NEAR: [u32; 6] = [0, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000];

fn half() -> impl Strategy<Value = u16> {
    prop_oneof![
        2 => any::<u16>(),
        2 => proptest::sample::select(SPECIAL.to_vec()),
        // Small magnitudes: sums and products that stay finite.
        1 => (0u16..0x800).prop_map(|m| 0x3000 + m),
    ]
}

/// A DWord of the register file: two halves, an f32 near a half's rounding boundary, or
/// any bits.
fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => (half(), half()).prop_map(|(a, b)| u32::from(a) | u32::from(b) << 16),
        2 => (half(), proptest::sample::select(NEAR.to_vec()))
            .prop_map(|(h, o)| f16_to_f32(h).to_bits().wrapping_add(o)),
        1 => any::<u32>(),
    ]
}

/// Sizes and first channels.
const SIZES: [(u32, u32); 7] = [(1, 0), (8, 0), (8, 8), (16, 0), (16, 16), (32, 0), (4, 0)];
/// Two-source regions of halves: packed, scalar, a 4-byte step.
const HF_REGIONS: [&str; 3] = ["<16;16,1>", "<0;1,0>", "<16;8,2>"];
/// Three-source regions for src0/src1 and src2: packed, scalar, a 2-element step.
const REGIONS3: [&str; 3] = ["<1;0>", "<0;0>", "<2;0>"];
const REGIONS3_SRC2: [&str; 3] = ["<1>", "<0>", "<2>"];
/// `sel`'s conditions the translated path computes.
const SEL_CONDS: [&str; 6] = [
    "(ge)f0.0 ",
    "(lt)f0.0 ",
    "(eq)f1.0 ",
    "(ne)f0.1 ",
    "(gt)f0.0 ",
    "(le)f1.1 ",
];
const PREDS: [&str; 5] = ["", "", "(f0.0) ", "(~f1.1) ", "(W) "];

#[derive(Debug, Clone)]
struct Ins {
    /// 0..4: `mov`, `add`, `mul`, `mad` to `:hf`; 4: a raw `:hf` move; 5..8: `:w`/`:uw`
    /// `add`, `mul`, `mov`; 8: an f32 `add`; 9: a DWord `add`; 10: a DWord `add` of `:uw`
    /// or `:w` sources; 11: `mac` to `:hf` (adding to the accumulator); 12..18: `sel` to
    /// `:hf` under each ordering ([`SEL_CONDS`]: `ge` a ReLU's, `lt` and `ge` a pooling's).
    kind: usize,
    size: usize,
    /// Per source: `:f` instead of `:hf`.
    f: [bool; 3],
    regs: [u32; 4],
    /// Sources' and destination's subregisters, in elements.
    subs: [u32; 4],
    regions: [usize; 3],
    dst_stride: u32,
    /// Source 1 (or the only source) an immediate of these bits.
    imm: Option<u32>,
    pred: usize,
}

fn ins() -> impl Strategy<Value = Ins> {
    (
        (0usize..18, 0usize..SIZES.len(), any::<[bool; 3]>()),
        (
            proptest::array::uniform4(10u32..18),
            proptest::array::uniform4(proptest::sample::select(vec![0u32, 0, 1, 4, 8])),
        ),
        (
            proptest::array::uniform3(0usize..3),
            prop_oneof![4 => Just(1u32), 1 => Just(2u32)],
        ),
        (
            // Special halves too: a `sel` of a register's +0 and an immediate -0 (or the
            // reverse) tells an ordering that takes the zeros for different values.
            proptest::option::weighted(
                0.2,
                prop_oneof![
                    2 => any::<u32>(),
                    1 => proptest::sample::select(SPECIAL.to_vec()).prop_map(u32::from),
                ],
            ),
            0usize..PREDS.len(),
        ),
    )
        .prop_map(
            |((kind, size, f), (regs, subs), (regions, dst_stride), (imm, pred))| Ins {
                kind,
                size,
                f,
                regs,
                subs,
                regions,
                dst_stride,
                imm,
                pred,
            },
        )
}

fn text(i: &Ins) -> String {
    let (n, m) = SIZES[i.size];
    let (op, arity, dst_ty) = match i.kind {
        0 => ("mov", 1, "hf"),
        1 => ("add", 2, "hf"),
        2 => ("mul", 2, "hf"),
        3 => ("mad", 3, "hf"),
        11 => ("mac", 2, "hf"),
        12..=17 => ("sel", 2, "hf"),
        4 => ("mov", 1, "hf"),
        5 => ("add", 2, "w"),
        6 => ("mul", 2, "uw"),
        7 => ("mov", 1, "w"),
        8 => ("add", 2, "f"),
        _ => ("add", 2, "d"),
    };
    let word_src = |k: usize| if i.f[k] { "uw" } else { "w" };
    let src_ty = |k: usize| match i.kind {
        0 if !i.f[0] => "f",
        0..=3 | 11..=17 if i.f[k] => "f",
        0..=4 | 11..=17 => "hf",
        10 => word_src(k),
        _ => dst_ty,
    };
    let srcs: Vec<String> = (0..arity)
        .map(|k| {
            let t = src_ty(k);
            match i.imm {
                Some(bits) if arity != 3 && k == arity - 1 => match t {
                    "hf" => format!("0x{:x}:hf", bits as u16),
                    "f" => format!("0x{bits:x}:f"),
                    "d" => format!("{}:d", bits as i32),
                    "uw" => format!("{}:uw", bits as u16),
                    _ => format!("{}:w", bits as u16 as i16),
                },
                _ => {
                    let rg = match (arity, k, t) {
                        (3, 2, _) => REGIONS3_SRC2[i.regions[k]],
                        (3, _, _) => REGIONS3[i.regions[k]],
                        (_, _, "f" | "d") => ["<8;8,1>", "<0;1,0>", "<16;8,2>"][i.regions[k]],
                        (_, _, "uw" | "w") if i.kind == 10 => {
                            ["<16;16,1>", "<0;1,0>", "<16;8,2>"][i.regions[k]]
                        }
                        _ => HF_REGIONS[i.regions[k]],
                    };
                    format!("r{}.{}{rg}:{t}", i.regs[k], i.subs[k])
                }
            }
        })
        .collect();
    let sub = if i.dst_stride == 1 { 0 } else { i.subs[3] };
    let sub = if matches!(dst_ty, "hf" | "w" | "uw") && i.dst_stride == 1 {
        i.subs[3]
    } else {
        sub
    };
    let cond = match i.kind {
        12..=17 => SEL_CONDS[i.kind - 12],
        _ => "",
    };
    format!(
        "{}{op} ({n}|M{m}) {cond}r{}.{sub}<{}>:{dst_ty} {}",
        PREDS[i.pred],
        i.regs[3],
        i.dst_stride,
        srcs.join(" ")
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn word_results_match_the_interpreter(
        seq in proptest::collection::vec(ins(), 1..10),
        file in proptest::collection::vec(word(), 1024),
        active in common::active(),
        flags in any::<u64>(),
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
    ) {
        let lines: Vec<String> = seq.iter().map(text).collect();
        let Some((prog, n)) = program(&lines) else {
            return Err(TestCaseError::reject("nothing assembles"));
        };
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        common::same_as_interpreter(
            &prog, &tr, n, &file, active | 1, flags, &slices, &lines.join("\n"),
        )?;
    }
}

/// Of the forms IGC emits for an f16 convolution's inner loop (from `ocloc` output for TGL:
/// `mad` into rows of halves with a broadcast weight, raw `:hf` moves and zeroing, a
/// conversion from f32; Gen11's `mac`, the same `mad` adding to the accumulator; the ReLU's
/// `sel.ge` with 0.0; halves spread to every other word for a byte scattered write, and into
/// the high words for a DWord write), everything translates but a `:hf` destination that
/// starts inside a row.
#[test]
fn the_convolution_forms_translate() {
    let text = "mad (16|M0) r26.0<1>:hf r7.0<8;1>:hf r14.0<8;1>:hf r24.0<0>:hf\n\
                mov (16|M0) r32.0<1>:hf r5.0<16;16,1>:hf\n\
                mov (16|M0) r5.0<1>:hf 0.0:hf\n\
                mov (16|M0) r6.0<1>:hf r40.0<8;8,1>:f\n\
                add (16|M0) r8.0<1>:hf r5.0<16;16,1>:hf r6.0<16;16,1>:hf\n\
                mul (8|M0) r9.0<1>:hf r5.0<8;8,1>:hf 0x3c00:hf\n\
                (W) mov (1|M0) r9.3<1>:hf r5.2<0;1,0>:hf\n\
                add (16|M0) r11.0<1>:w r12.0<16;16,1>:w r13.0<16;16,1>:w\n\
                mov (8|M0) r15.4<1>:hf r5.0<8;8,1>:hf\n\
                mac (16|M0) r28.0<1>:hf r7.0<16;16,1>:hf r24.0<0;1,0>:hf\n\
                sel (16|M0) (ge)f0.0 r30.0<1>:hf r26.0<16;16,1>:hf 0.0:hf\n\
                mov (16|M0) r34.0<2>:hf r30.0<16;16,1>:hf\n\
                mov (16|M0) r34.1<2>:hf r31.0<16;16,1>:hf\n\
                nop\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.instructions(), 14);
    assert_eq!(
        tr.translated(),
        13,
        "the half arithmetic, the five raw moves, the word add, the ReLU's `sel` and the nop"
    );
}

/// `sel` of two halves under each ordering, on every pair of [`SPECIAL`] halves (both
/// zeros against each other, NaNs against numbers and each other), translated against the
/// interpreter: picks that random halves meet only rarely.
#[test]
fn sel_orders_every_pair_of_special_halves() {
    // Row 10 + j holds SPECIAL[j] in every lane, row 30 + j SPECIAL in lane order: the pair
    // (SPECIAL[j], SPECIAL[l]) is lane l of `sel` row 10 + j against row 30 + j.
    let mut file = vec![0u32; 1024];
    for (j, &a) in SPECIAL.iter().enumerate() {
        for l in 0..8 {
            file[(10 + j) * 8 + l] = u32::from(a) * 0x1_0001;
            file[(30 + j) * 8 + l] =
                u32::from(SPECIAL[2 * l]) | u32::from(SPECIAL[2 * l + 1]) << 16;
        }
    }
    for cond in SEL_CONDS {
        let lines: Vec<String> = (0..SPECIAL.len())
            .map(|j| {
                format!(
                    "sel (16|M0) {cond}r{}.0<1>:hf r{}.0<16;16,1>:hf r{}.0<16;16,1>:hf",
                    50 + j,
                    10 + j,
                    30 + j
                )
            })
            .collect();
        let (prog, n) = program(&lines).expect("assembles");
        assert_eq!(n, SPECIAL.len(), "every line assembles");
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        assert_eq!(tr.translated(), n, "{cond}: every `sel` translates");
        let r = common::same_as_interpreter(&prog, &tr, n, &file, u32::MAX, 0, &[1 << 20], cond);
        assert!(r.is_ok(), "{cond}: {r:?}");
    }
}
