//! Double-precision arithmetic translated (`Op::Double`: `:df` `mov` (of any immediate too),
//! `add`, `mul`, `mad`, `sel` by the predicate or by a comparison, `cmp`/`cmpn` to `null`)
//! against the interpreter: random sequences
//! on register files of special doubles (NaNs of both kinds and signs with payloads,
//! infinities, zeros, denormals, the extremes), every channel count the encoding allows,
//! predicates, source modifiers, scalar sources, destinations that are sources and flags
//! read by later predicates; and IGC's own lines.

use platform::Platform;
use proptest::prelude::*;

use crate::common;

/// Doubles where NaN propagation, fused rounding and denormals show.
const SPECIAL: [u64; 16] = [
    0x7ff8_0000_0000_0000,
    0xfff8_0000_0000_1234,
    0x7ff0_0000_0000_0001,
    0xfff4_3210_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0,
    0x8000_0000_0000_0000,
    0x0000_0000_0000_0001,
    0x800f_ffff_ffff_ffff,
    0x7fef_ffff_ffff_ffff,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    // 1 + 2^-52 and 1 - 2^-53: their products round differently fused and unfused.
    0x3ff0_0000_0000_0001,
    0x3fef_ffff_ffff_ffff,
    0x3ca0_0000_0000_0000,
];

/// `selc`: `sel` by a comparison (`fmin` is `sel.l`, `fmax` `sel.ge`), without a predicate.
/// `widen`, `narrow`: a `mov` to `:df` from a DWord type ([`DWORD_TYPES`]) and back.
const OPS: [&str; 10] = [
    "mov", "add", "mul", "mad", "sel", "selc", "cmp", "cmpn", "widen", "narrow",
];
const DWORD_TYPES: [&str; 3] = ["f", "d", "ud"];
const CONDS: [&str; 8] = ["eq", "ne", "lt", "gt", "le", "ge", "ov", "un"];
/// Immediates of a `mov`: doubles whose low DWord is zero, and others (IGC's `0.1:df`, a
/// signalling NaN with a low payload bit, the smallest denormal).
const IMMS: [&str; 9] = [
    "0.0:df",
    "1.0:df",
    "-2.5:df",
    "0x7FF8000000000000:df",
    "0xFFF0000000000000:df",
    "0.1:df",
    "0xC00A666666666666:df",
    "0x7FF0000000000001:df",
    "0x0000000000000001:df",
];
/// The flag a `cmp` writes: the predicates read the first two.
const FLAGS: [&str; 3] = ["f0.0", "f1.1", "f0.1"];
const MODS: [&str; 5] = ["", "", "-", "(abs)", "-(abs)"];
const PREDS: [&str; 5] = ["", "", "(f0.0) ", "(~f1.1) ", "(W) "];
/// Channels and the first channel: SIMD8 `:df` spans two registers, the most an operand may.
const SIZES: [(u32, u32); 5] = [(1, 0), (2, 0), (4, 0), (8, 0), (8, 8)];

#[derive(Debug, Clone)]
struct Df {
    op: usize,
    size: usize,
    pred: usize,
    regs: [u32; 4],
    /// Per source: a row (else one element, `sub` its index; three-source rows only).
    row: [bool; 3],
    sub: [u32; 3],
    mods: [usize; 3],
    /// The destination is source 0's register (a destination that is a source).
    in_place: bool,
    /// Up to four channels: the destination and two-source rows start one element into
    /// their register (not at a row of the register file).
    off_row: bool,
    /// A `cmp`'s condition and flag register.
    cond: usize,
    flag: usize,
}

fn df() -> impl Strategy<Value = Df> {
    (
        (0usize..OPS.len(), 0usize..SIZES.len(), 0usize..PREDS.len()),
        (
            proptest::array::uniform4(10u32..24),
            proptest::array::uniform3(prop_oneof![3 => Just(true), 1 => Just(false)]),
            proptest::array::uniform3(0u32..4),
        ),
        (
            proptest::array::uniform3(0usize..MODS.len()),
            any::<bool>(),
            any::<bool>(),
        ),
        (0usize..CONDS.len(), 0usize..FLAGS.len()),
    )
        .prop_map(
            |((op, size, pred), (regs, row, sub), (mods, in_place, off_row), (cond, flag))| Df {
                op,
                size,
                pred,
                regs,
                row,
                sub,
                mods,
                in_place,
                off_row,
                cond,
                flag,
            },
        )
}

/// The instruction's IGA text for Gen9.
fn df_line(d: &Df) -> String {
    let (n, m) = SIZES[d.size];
    let op = OPS[d.op];
    let [r0, r1, r2, rd] = d.regs;
    let dst = if d.in_place { r0 } else { rd };
    let reg = [r0, r1, r2];
    let first = u32::from(d.off_row && n <= 4);
    let srcs: Vec<String> = if op == "mad" {
        // Three sources are Align16: rows only (IGC broadcasts a scalar with a `mov` first).
        (0..3)
            .map(|k| {
                let region = if k == 2 { "<1>" } else { "<2;1>" };
                format!("{}r{}.0{region}:df", MODS[d.mods[k]], reg[k])
            })
            .collect()
    } else {
        let nsrc = if op == "mov" { 1 } else { 2 };
        (0..nsrc)
            .map(|k| {
                if op == "mov" && !d.row[k] && d.sub[k] >= 2 {
                    // A `mov` may take an immediate (one whose low DWord is zero); iga64
                    // encodes no 64-bit immediate in two-source instructions for Gen9.
                    return IMMS[(d.cond + d.flag * CONDS.len()) % IMMS.len()].to_string();
                }
                let at = if d.row[k] && n > 1 {
                    format!("r{}.{first}<4;4,1>", reg[k])
                } else {
                    format!("r{}.{}<0;1,0>", reg[k], d.sub[k])
                };
                format!("{}{at}:df", MODS[d.mods[k]])
            })
            .collect()
    };
    if op == "widen" || op == "narrow" {
        let ty = DWORD_TYPES[d.cond % DWORD_TYPES.len()];
        let (dst_ty, src_ty, region) = if op == "widen" {
            (
                "df",
                ty,
                match n {
                    1 => "<0;1,0>",
                    2 => "<2;2,1>",
                    4 => "<4;4,1>",
                    _ => "<8;8,1>",
                },
            )
        } else {
            (ty, "df", if n == 1 { "<0;1,0>" } else { "<4;4,1>" })
        };
        let at = if d.row[0] || n == 1 {
            format!("r{r0}.{first}{region}")
        } else {
            format!("r{r0}.{}<0;1,0>", d.sub[0])
        };
        // DWords from doubles a QWord apart too (IGC's `<2>`).
        let dst_stride = if op == "narrow" && d.in_place == d.off_row {
            2
        } else {
            1
        };
        return format!(
            "{}mov ({n}|M{m}) r{dst}.{first}<{dst_stride}>:{dst_ty} {at}:{src_ty}",
            PREDS[d.pred]
        );
    }
    if op == "selc" {
        // Only the comparisons `sel` takes, and no predicate (which it would ignore).
        let pred = if PREDS[d.pred] == "(W) " { "(W) " } else { "" };
        return format!(
            "{pred}sel ({n}|M{m}) ({}){} r{dst}.{first}<1>:df {}",
            CONDS[d.cond % 6],
            FLAGS[d.flag],
            srcs.join(" ")
        );
    }
    if op.starts_with("cmp") {
        return format!(
            "{}{op} ({n}|M{m}) ({}){} null<1>:df {}",
            PREDS[d.pred],
            CONDS[d.cond],
            FLAGS[d.flag],
            srcs.join(" ")
        );
    }
    let dst_first = if op == "mad" { 0 } else { first };
    format!(
        "{}{op} ({n}|M{m}) r{dst}.{dst_first}<1>:df {}",
        PREDS[d.pred],
        srcs.join(" ")
    )
}

/// A register file of doubles: special ones, random bit patterns and small numbers.
fn doubles() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(
        prop_oneof![
            2 => proptest::sample::select(SPECIAL.to_vec()),
            1 => any::<u64>(),
            1 => (-8i32..8).prop_map(|v| (f64::from(v) * 0.75).to_bits()),
        ],
        512,
    )
    .prop_map(|q| {
        q.iter()
            .flat_map(|v| [*v as u32, (*v >> 32) as u32])
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn double_arithmetic_matches_the_interpreter(
        ds in proptest::collection::vec(df(), 1..6),
        file in doubles(),
        active in common::active(),
        flags in any::<u64>(),
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
        icl in any::<bool>(),
    ) {
        let platform = if icl { Platform::Icllp } else { Platform::Skl };
        let lines: Vec<String> = ds.iter().map(df_line).collect();
        common::lines_match_on(platform, &lines, &file, active, flags, &slices, true)?;
    }
}

/// A `mov` of each immediate that is not a double with a zero low DWord, on each channel
/// count, predicated and not, into a row and one element in: every bit lands.
#[test]
fn double_immediates_of_any_bits_translate() {
    let imms = [
        "0.1:df",
        "0xC00A666666666666:df",
        "0x7FF0000000000001:df",
        "0x0000000000000001:df",
    ];
    let mut lines = Vec::new();
    for (k, imm) in imms.iter().enumerate() {
        // Each line its own registers: a later one would hide an earlier one's result.
        for (j, (n, pred)) in [(1, "(W) "), (2, ""), (4, "(f0.0) "), (8, "")]
            .iter()
            .enumerate()
        {
            let first = usize::from(*n <= 2 && k % 2 == 1);
            let reg = 20 + 8 * k + 2 * j;
            lines.push(format!("{pred}mov ({n}|M0) r{reg}.{first}<1>:df {imm}"));
        }
    }
    let file: Vec<u32> = (0..1024u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    common::every_line_translates_and_matches_on(Platform::Skl, &lines, &file);
}

/// IGC's double-precision lines (`ocloc -device skl` of a kernel of `fma` and `*` on
/// `double`s, disassembled by iga64): the scalar argument broadcast by `mov`, the fused
/// multiply-adds on both halves of SIMD16; every one translates and matches.
#[test]
fn igc_double_lines_translate() {
    let lines = [
        "mov (8|M0) r101.0<1>:df r8.2<0;1,0>:df",
        "mov (8|M8) r99.0<1>:df r8.2<0;1,0>:df",
        "mad (8|M0) r77.0<1>:df r40.0<2;1>:df r48.0<2;1>:df r101.0<1>:df",
        "mad (8|M8) r56.0<1>:df r42.0<2;1>:df r50.0<2;1>:df r99.0<1>:df",
        "mad (8|M0) r40.0<1>:df r77.0<2;1>:df r93.0<2;1>:df r40.0<1>:df",
        "add (8|M0) r60.0<1>:df r40.0<4;4,1>:df -r77.0<4;4,1>:df",
        "mul (8|M8) r62.0<1>:df r56.0<4;4,1>:df r8.2<0;1,0>:df",
        // CLBlast's complex double kernels (`ocloc -device skl`): a negation picked by a flag.
        "(f1.0) sel (8|M0) r64.0<1>:df r60.0<4;4,1>:df -r62.0<4;4,1>:df",
        "(W) cmp (8|M0) (eq)f1.1 null<1>:df r8.2<0;1,0>:df r56.1<0;1,0>:df",
        "(W) cmp (1|M0) (eq)f0.0 null<1>:df r8.2<0;1,0>:df r8.2<0;1,0>:df",
        // Accumulators cleared.
        "(W) mov (2|M0) r4.0<1>:df 0.0:df",
        "mov (8|M0) r66.0<1>:df 0.0:df",
        // `x * 0.1`, `fmin(x, 2.5)` and a `?:` (`ocloc -device skl`): the constants put in a
        // register first, `fmin` a `sel.l`.
        "(W) mov (1|M0) r3.0<1>:df 0.1:df",
        "(W) mov (1|M0) r126.0<1>:df 3.3:df",
        "mul (8|M0) r68.0<1>:df r40.0<4;4,1>:df r3.0<0;1,0>:df",
        "cmp (8|M0) (gt)f0.0 null<1>:df r68.0<4;4,1>:df r40.0<4;4,1>:df",
        "(f0.0) sel (8|M0) r70.0<1>:df r68.0<4;4,1>:df r60.0<4;4,1>:df",
        "sel (8|M0) (lt)f0.0 r72.0<1>:df r70.0<4;4,1>:df r126.0<0;1,0>:df",
        "sel (8|M8) (ge)f0.0 r74.0<1>:df r56.0<4;4,1>:df r3.0<0;1,0>:df",
        // Conversions: `(double)f[i]`, and a double to `float` and `int`.
        "mov (8|M16) r22.0<1>:df r110.0<8;8,1>:f",
        "mov (8|M0) r76.0<1>:df r30.0<8;8,1>:d",
        "mov (8|M0) r78.0<1>:f r72.0<4;4,1>:df",
        "mov (8|M8) r79.0<1>:d r74.0<4;4,1>:df",
        "mov (8|M0) r80.0<1>:ud r72.0<4;4,1>:df",
        "mov (8|M0) r56.0<2>:d r7.0<4;4,1>:df",
        "mov (8|M24) r10.0<1>:d r56.0<2;1,0>:d",
    ]
    .map(String::from);
    let file: Vec<u32> = (0..1024u32)
        .map(|i| {
            let v = 1.0 + f64::from(i) / 3.0;
            let bits = v.to_bits();
            if i % 2 == 0 {
                bits as u32
            } else {
                (bits >> 32) as u32
            }
        })
        .collect();
    common::every_line_translates_and_matches_on(Platform::Skl, &lines, &file);
}
