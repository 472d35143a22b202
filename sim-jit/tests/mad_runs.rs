//! Runs of f32 and f16 `mad`s, which translated code computes by one call (`sim_jit::mads`),
//! against the interpreter: random runs over overlapping registers
//! (a destination read by a later `mad`, or by the same one), scalar sources, the
//! accumulator, SIMD8/16/32, register files with NaNs, infinities and denormals (a NaN result
//! stops the call; the interpreter runs that `mad`; an f16 one the call computes by the
//! interpreter's routine), every execution mask (a thread that has diverged passes it to the
//! call), channels from M0 to M24 and `NoMask`, and budgets that cut the runs. The f16 runs
//! also take immediates and have `sync.nop`s among them, as IGC's f16 convolutions do.

use proptest::prelude::*;
use sim_jit::mads::Mad;
use sim_jit::select::select;
use sim_jit::Translated;

use crate::common;
use common::SPECIAL;

#[derive(Debug, Clone)]
struct M {
    width: u32,
    dst: u32,
    src: [u32; 3],
    /// Per source: one DWord (its subregister) for every lane instead of a row.
    scalar: [Option<u32>; 3],
    /// The destination and src0 the accumulator (a convolution's `mad acc0 acc0 ...`).
    acc: bool,
    /// Its first channel and `NoMask` ([`placed`]).
    place: (u32, bool),
}

/// Which of the first channels a `width`-channel instruction may start at it starts at (see
/// [`placed`]), and a `NoMask` bit.
fn place() -> impl Strategy<Value = (u32, bool)> {
    (0u32..4, proptest::bool::weighted(0.1))
}

/// The instruction's head for `width` channels placed at `place`: `(W) mad (8|M16)` and the
/// like.
fn placed(op: &str, width: u32, (pick, no_mask): (u32, bool)) -> String {
    let starts = (32 / width).min(4);
    let chan = width * (pick % starts);
    let w = if no_mask { "(W) " } else { "" };
    format!("{w}{op} ({width}|M{chan})")
}

fn mad() -> impl Strategy<Value = M> {
    (
        prop_oneof![1 => Just(8u32), 4 => Just(16u32), 1 => Just(32u32)],
        10u32..30,
        proptest::array::uniform3(10u32..30),
        proptest::array::uniform3(proptest::option::weighted(0.3, 0u32..8)),
        proptest::bool::weighted(0.15),
        place(),
    )
        .prop_map(|(width, dst, src, scalar, acc, place)| M {
            width,
            dst,
            src,
            scalar,
            acc,
            place,
        })
}

fn text(m: &M) -> String {
    let row = |k: usize| -> String {
        match (m.scalar[k], k) {
            (Some(s), 2) => format!("r{}.{s}<0>:f", m.src[k]),
            (Some(s), _) => format!("r{}.{s}<0;0>:f", m.src[k]),
            (None, 2) => format!("r{}.0<1>:f", m.src[k]),
            (None, _) => format!("r{}.0<1;0>:f", m.src[k]),
        }
    };
    let (dst, src0) = if m.acc {
        ("acc0.0<1>:f".to_string(), "acc0.0<1;0>:f".to_string())
    } else {
        (format!("r{}.0<1>:f", m.dst), row(0))
    };
    let head = placed("mad", m.width, m.place);
    format!("{head} {dst} {src0} {} {}", row(1), row(2))
}

/// Register files of ordinary floats with a special value now and then (NaNs, infinities,
/// zeros, denormals, the extremes).
fn floats() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(
        prop_oneof![
            40 => (-4.0f32..4.0).prop_map(f32::to_bits),
            1 => proptest::sample::select(SPECIAL.to_vec()),
        ],
        1024,
    )
}

/// A thread's execution mask (mostly one that has not diverged: the call's case) and the
/// budgets its runs get.
fn threads() -> impl Strategy<Value = (u32, Vec<u64>)> {
    (
        prop_oneof![3 => Just(u32::MAX), 2 => common::active()],
        proptest::collection::vec(prop_oneof![1 => 1u64..12, 3 => Just(1u64 << 20)], 1..4),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn mad_runs_match_the_interpreter(
        seq in proptest::collection::vec(mad(), 1..40),
        file in floats(),
        (active, slices) in threads(),
    ) {
        let lines: Vec<String> = seq.iter().map(text).collect();
        against_the_interpreter(&lines, &file, active, &slices)?;
    }

    #[test]
    fn half_mad_runs_match_the_interpreter(
        seq in proptest::collection::vec(half_mad(), 1..40),
        file in halves(),
        (active, slices) in threads(),
    ) {
        let lines: Vec<String> = seq.iter().map(half_text).collect();
        against_the_interpreter(&lines, &file, active, &slices)?;
    }
}

/// `lines` assembled (those that do), translated and run against the interpreter.
fn against_the_interpreter(
    lines: &[String],
    file: &[u32],
    active: u32,
    slices: &[u64],
) -> Result<(), TestCaseError> {
    let Some((prog, n)) = common::program(lines) else {
        return Err(TestCaseError::reject("nothing assembles"));
    };
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    common::same_as_interpreter(
        &prog,
        &tr,
        n,
        file,
        active | 1,
        0,
        slices,
        &lines.join("\n"),
    )
}

/// `lines` (IGC's, every one assembling) are all entries of the call but those at `not_steps`
/// (which have no fast form) and all translate; the runs, whole or cut by budgets, leave the
/// registers as the interpreter does, also with DWord `nan.0` of `file` made `nan.1`.
fn igc_lines_take_the_call(
    lines: &[&str],
    not_steps: &[usize],
    mut file: Vec<u32>,
    nan: (usize, u32),
) {
    let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let (prog, n) = common::program(&lines).expect("assembles");
    assert_eq!(n, lines.len());
    for (i, f) in prog.fast.iter().take(n).enumerate() {
        if not_steps.contains(&i) {
            continue;
        }
        let step = f.as_ref().and_then(select);
        assert!(
            step.as_ref().and_then(Mad::of).is_some(),
            "{}: {step:?}",
            lines[i]
        );
    }
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.translated(), n);
    let what = lines.join("\n");
    for slices in [&[1u64 << 20][..], &[3, 5], &[1]] {
        common::same_as_interpreter(&prog, &tr, n, &file, u32::MAX, 0, slices, &what)
            .expect("as the interpreter");
    }
    file[nan.0] = nan.1;
    common::same_as_interpreter(&prog, &tr, n, &file, u32::MAX, 0, &[1 << 20], &what)
        .expect("as the interpreter with a NaN weight");
}

/// A stretch of IGC's inner loop of OpenVINO's `convolution_gpu_bfyx_f16` for TGL (sixteen
/// of the `mad`s of its 128-long runs): the accumulator rows renamed from `mad` to `mad`, a
/// block-read row times one weight each. Every one is a `mad` the call computes, and the
/// run, whole or cut by budgets, leaves the registers as the interpreter does, also with a
/// NaN weight part-way (the call stops there; the interpreter runs that `mad`).
#[test]
fn igc_convolution_mads_take_the_call() {
    let lines = [
        "mad (16|M0) acc0.0<1>:f r68.0<8;1>:f r36.0<8;1>:f r3.0<0>:f",
        "mad (16|M0) r64.0<1>:f r60.0<8;1>:f r36.0<8;1>:f r5.0<0>:f",
        "mad (16|M0) r60.0<1>:f r72.0<8;1>:f r36.0<8;1>:f r7.0<0>:f",
        "mad (16|M0) r66.0<1>:f r76.0<8;1>:f r36.0<8;1>:f r9.0<0>:f",
        "mad (16|M0) r68.0<1>:f r80.0<8;1>:f r36.0<8;1>:f r11.0<0>:f",
        "mad (16|M0) r70.0<1>:f r82.0<8;1>:f r36.0<8;1>:f r13.0<0>:f",
        "mad (16|M0) r72.0<1>:f r84.0<8;1>:f r36.0<8;1>:f r15.0<0>:f",
        "mad (16|M0) r80.0<1>:f r74.0<8;1>:f r36.0<8;1>:f r17.0<0>:f",
        "mad (16|M0) acc0.0<1>:f acc0.0<8;1>:f r38.0<8;1>:f r3.1<0>:f",
        "mad (16|M0) r62.0<1>:f r64.0<8;1>:f r38.0<8;1>:f r5.1<0>:f",
        "mad (16|M0) r64.0<1>:f r60.0<8;1>:f r38.0<8;1>:f r7.1<0>:f",
        "mad (16|M0) r60.0<1>:f r66.0<8;1>:f r38.0<8;1>:f r9.1<0>:f",
        "mad (16|M0) r66.0<1>:f r68.0<8;1>:f r38.0<8;1>:f r11.1<0>:f",
        "mad (16|M0) r68.0<1>:f r70.0<8;1>:f r38.0<8;1>:f r13.1<0>:f",
        "mad (16|M0) r70.0<1>:f r72.0<8;1>:f r38.0<8;1>:f r15.1<0>:f",
        "mad (16|M0) r72.0<1>:f r80.0<8;1>:f r38.0<8;1>:f r17.1<0>:f",
    ];
    let file: Vec<u32> = (0..1024u32)
        .map(|i| (0.5 + (i % 97) as f32 / 64.0).to_bits())
        .collect();
    // r9.1 is the weight of the twelfth `mad`.
    igc_lines_take_the_call(&lines, &[], file, (9 * 8 + 1, 0x7fc0_0042));
}

/// An f16 `mad`: rows, a half of a register for every lane, an immediate addend, the
/// accumulator; or a `sync.nop`.
#[derive(Debug, Clone)]
enum H {
    Mad {
        width: u32,
        dst: u32,
        src: [u32; 3],
        /// Per source: one half (its subregister) for every lane instead of a row.
        scalar: [Option<u32>; 3],
        /// src0 this immediate half instead.
        imm: Option<u16>,
        acc: bool,
        place: (u32, bool),
    },
    Nop,
}

fn half_mad() -> impl Strategy<Value = H> {
    let m = (
        prop_oneof![1 => Just(8u32), 6 => Just(16u32), 1 => Just(32u32)],
        10u32..30,
        proptest::array::uniform3(10u32..30),
        proptest::array::uniform3(proptest::option::weighted(0.3, 0u32..16)),
        proptest::option::weighted(0.2, prop_oneof![Just(0u16), any::<u16>()]),
        proptest::bool::weighted(0.15),
        place(),
    )
        .prop_map(|(width, dst, src, scalar, imm, acc, place)| H::Mad {
            width,
            dst,
            src,
            scalar,
            imm,
            acc,
            place,
        });
    prop_oneof![8 => m, 1 => Just(H::Nop)]
}

fn half_text(h: &H) -> String {
    let H::Mad {
        width,
        dst,
        src,
        scalar,
        imm,
        acc,
        place,
    } = h
    else {
        return "sync.nop null".to_string();
    };
    let row = |k: usize| -> String {
        match scalar[k] {
            Some(s) => format!("r{}.{s}<0>:hf", src[k]),
            None => format!("r{}.0<8;1>:hf", src[k]),
        }
    };
    let (dst, src0) = if *acc {
        ("acc0.0<1>:hf".to_string(), "acc0.0<8;1>:hf".to_string())
    } else {
        (format!("r{dst}.0<1>:hf"), row(0))
    };
    let src0 = imm.map_or(src0, |v| format!("0x{v:x}:hf"));
    let head = placed("mad", *width, *place);
    format!("{head} {dst} {src0} {} {}", row(1), row(2))
}

/// Register files of halves: ordinary values with a special one now and then (NaNs,
/// infinities, zeros, subnormals, the extremes), two to a DWord.
fn halves() -> impl Strategy<Value = Vec<u32>> {
    let half = prop_oneof![
        40 => (-4.0f32..4.0).prop_map(sim_eu::convert::f32_to_f16),
        1 => proptest::sample::select(vec![
            0x7e00u16, 0xfe01, 0x7c01, 0x7c00, 0xfc00, 0, 0x8000, 1, 0x83ff, 0x7bff, 0x3c00,
        ]),
    ];
    proptest::collection::vec((half.clone(), half), 1024).prop_map(|v| {
        v.into_iter()
            .map(|(a, b)| u32::from(a) | u32::from(b) << 16)
            .collect()
    })
}

/// A stretch of IGC's inner loop of OpenVINO's `convolution_gpu_bfyx_f16` at f16 for TGL:
/// eight accumulators (two of them acc0 and acc1) started from an immediate zero, then added
/// to, a block-read row times one weight each, with a `sync.nop` inside a run. Every line is
/// an entry of the call, and the runs, whole or cut by budgets, leave the registers as the
/// interpreter does, also with a NaN weight part-way.
#[test]
fn igc_f16_convolution_mads_take_the_call() {
    let lines = [
        "mad (16|M0) acc0.0<1>:hf 0.0:hf r4.0<8;1>:hf r105.0<0>:hf",
        "mad (16|M0) acc1.0<1>:hf 0.0:hf r4.0<8;1>:hf r105.2<0>:hf",
        "mad (16|M0) r9.0<1>:hf 0.0:hf r4.0<8;1>:hf r105.4<0>:hf",
        "mad (16|M0) r19.0<1>:hf 0.0:hf r4.0<8;1>:hf r105.6<0>:hf",
        "mad (16|M0) r11.0<1>:hf 0.0:hf r4.0<8;1>:hf r105.8<0>:hf",
        "mad (16|M0) r21.0<1>:hf 0.0:hf r4.0<8;1>:hf r105.10<0>:hf",
        "mad (16|M0) r13.0<1>:hf 0.0:hf r4.0<8;1>:hf r105.12<0>:hf",
        "mad (16|M0) r23.0<1>:hf 0.0:hf r4.0<8;1>:hf r105.14<0>:hf",
        "mad (16|M0) acc0.0<1>:hf acc0.0<8;1>:hf r6.0<8;1>:hf r112.0<0>:hf",
        "mad (16|M0) acc1.0<1>:hf acc1.0<8;1>:hf r6.0<8;1>:hf r112.2<0>:hf",
        "sync.nop null",
        "mad (16|M0) r9.0<1>:hf r9.0<8;1>:hf r6.0<8;1>:hf r112.4<0>:hf",
        "mad (16|M0) r19.0<1>:hf r19.0<8;1>:hf r6.0<8;1>:hf r112.6<0>:hf",
        "mad (16|M0) r11.0<1>:hf r11.0<8;1>:hf r6.0<8;1>:hf r112.8<0>:hf",
        "mad (16|M0) r21.0<1>:hf r21.0<8;1>:hf r6.0<8;1>:hf r112.10<0>:hf",
        "mad (16|M0) r13.0<1>:hf r13.0<8;1>:hf r6.0<8;1>:hf r112.12<0>:hf",
        "mad (16|M0) r23.0<1>:hf r23.0<8;1>:hf r6.0<8;1>:hf r112.14<0>:hf",
    ];
    let half = |x: f32| u32::from(sim_eu::convert::f32_to_f16(x));
    let file: Vec<u32> = (0..1024u32)
        .map(|i| half(0.5 + (i % 97) as f32 / 64.0) | half(-0.25 + (i % 13) as f32 / 16.0) << 16)
        .collect();
    // The `sync.nop` (line 10) has no fast form: the translation makes it a step that changes
    // nothing. r112.8 (the low half of DWord 4) is the weight of the fourteenth line.
    let nan = file[112 * 8 + 4] & 0xffff_0000 | 0x7e00;
    igc_lines_take_the_call(&lines, &[10], file, (112 * 8 + 4, nan));
}
