//! The translated path against the interpreter: random sequences of ALU instructions
//! (assembled from IGA text, translatable ones mixed with ones that stay interpreted), random
//! register files rich in special f32 values and equal lanes, masks and flags; one run through the
//! interpreter, one through `sim_jit::run` (in random budget slices), and the whole register
//! files (the `tm0` clock aside), the instruction pointer and the executed count must match.

use platform::Platform;
use proptest::prelude::*;
use sim_eu::regfile::TM0;
use sim_eu::{NoMemory, Program, Status};
use sim_jit::{Translated, MIN_RUN};

use crate::common;
use common::{program, thread, SPECIAL};

/// `add3` assembles only for Xe-HPG: the Gen12LP sequences leave it out.
const INT_OPS: [&str; 15] = [
    "mov",
    "add",
    "mul",
    "mad",
    "and",
    "or",
    "xor",
    "not",
    "shl",
    "shr",
    "asr",
    "mac",
    "math.iqot",
    "math.irem",
    "add3",
];
const F_OPS: [&str; 5] = ["mov", "add", "mul", "mad", "mac"];
/// Binary-source regions: consecutive, scalar, strided (stays interpreted).
const REGIONS: [&str; 4] = ["<8;8,1>", "<0;1,0>", "<8;8,1>", "<16;8,2>"];
const REGIONS3: [&str; 3] = ["<1;0>", "<0;0>", "<2;0>"];
const REGIONS3_SRC2: [&str; 3] = ["<1>", "<0>", "<2>"];
const SIZES: [(u32, u32); 7] = [(1, 0), (8, 0), (8, 8), (16, 0), (16, 16), (32, 0), (4, 0)];
const CONDS: [&str; 8] = ["eq", "ne", "lt", "gt", "le", "ge", "ov", "un"];
const FLAGS: [&str; 3] = ["f0.0", "f1.1", "f0.1"];
const PREDS: [&str; 11] = [
    "",
    "",
    "(f0.0) ",
    "(~f1.1) ",
    "(W) ",
    "(f0.1.any4h) ",
    // Horizontal groups: IGC's scalar block-read set-up, and the other widths.
    "(W&f0.0.any16h) ",
    "(~f1.0.all8h) ",
    "(f0.1.any2h) ",
    "(f1.1.all32h) ",
    "(~f0.0.any32h) ",
];
/// Instructions that change nothing (IGC's `csel` of a register with itself, a `mov` to
/// `null` waiting for a fence, `sync.nop`, `nop`), placed before an instruction.
const KEEPS: [&str; 4] = [
    "(W) csel (4|M0) (eq)f0.0 r11.0<1>:w r11.0<4;1>:w r11.0<4;1>:w r11.0<1>:w",
    "mov (8|M0) null<1>:ud r12.0<8;8,1>:ud",
    "sync.nop null",
    "nop",
];

#[derive(Debug, Clone)]
struct Ins {
    float: bool,
    op: usize,
    size: usize,
    ty: [usize; 4],
    regs: [u32; 4],
    subs: [u32; 4],
    regions: [usize; 3],
    dst_stride: u32,
    imm: Option<(usize, u32)>,
    pred: usize,
    /// A `cmp`, `cmpn` (condition `cond`: flags a later predicate reads), a `sel` by the
    /// predicate or a `sel` by the condition (`min`, `max`) instead; or (4) the instruction
    /// itself with a condition modifier (IGC's `and (eq)f1.0 null:d` bit test).
    cmp: Option<(usize, usize)>,
    /// One of [`KEEPS`] before it.
    keep: Option<usize>,
    /// Per source: a modifier on a register source when below 4 (`:f`: `-`, `(abs)`,
    /// `-(abs)`; integers: `-` alone, which translates where only the result's low 32 bits
    /// matter and is `not` to a logic instruction).
    mods: [usize; 3],
}

fn ins() -> impl Strategy<Value = Ins> {
    ins_in(10..18)
}

/// [`ins`] with its registers from `regs`.
fn ins_in(regs: std::ops::Range<u32>) -> impl Strategy<Value = Ins> {
    (
        (
            any::<bool>(),
            0usize..INT_OPS.len(),
            0usize..SIZES.len(),
            proptest::array::uniform4(0usize..8),
        ),
        (
            proptest::array::uniform4(regs),
            proptest::array::uniform4(0u32..3),
        ),
        (
            proptest::array::uniform3(0usize..4),
            prop_oneof![4 => Just(1u32), 1 => Just(2u32)],
            proptest::array::uniform3(0usize..8),
        ),
        (
            proptest::option::of((0usize..3, any::<u32>())),
            0usize..PREDS.len(),
            proptest::option::weighted(0.3, (0usize..5, 0usize..CONDS.len())),
            proptest::option::weighted(0.2, 0usize..KEEPS.len()),
        ),
    )
        .prop_map(
            |(
                (float, op, size, ty),
                (regs, subs),
                (regions, dst_stride, mods),
                (imm, pred, cmp, keep),
            )| Ins {
                float,
                op,
                size,
                ty,
                regs,
                subs,
                regions,
                dst_stride,
                imm,
                pred,
                cmp,
                keep,
                mods,
            },
        )
}

/// Mostly 32-bit integers (the translated form), sometimes 8/16-bit ones (interpreted).
fn int_ty(k: usize) -> &'static str {
    ["d", "ud", "d", "ud", "d", "ud", "w", "ub"][k]
}

fn text(i: &Ins) -> String {
    let (n, m) = SIZES[i.size];
    let opname = if let Some((k @ 0..4, _)) = i.cmp {
        ["cmp", "cmpn", "sel", "sel"][k]
    } else if i.float {
        F_OPS[i.op % F_OPS.len()]
    } else {
        INT_OPS[i.op]
    };
    let arity = match opname {
        "mov" | "not" => 1,
        "mad" | "add3" => 3,
        _ => 2,
    };
    let ty = |k: usize| if i.float { "f" } else { int_ty(i.ty[k]) };
    let srcs: Vec<String> = (0..arity)
        .map(|k| {
            let t = if matches!(opname, "shr" | "asr") && k == 0 {
                "d"
            } else {
                ty(k)
            };
            match i.imm {
                Some((at, bits)) if at == k && arity != 3 && (arity == 1 || k == 1) => {
                    if t == "f" {
                        format!("0x{bits:x}:f")
                    } else if t == "d" {
                        format!("{}:d", bits as i32)
                    } else if t == "ud" {
                        format!("{bits}:ud")
                    } else {
                        format!("{}:w", bits as u16 as i16)
                    }
                }
                _ => {
                    let rg = if arity == 3 && k == 2 {
                        REGIONS3_SRC2[i.regions[k] % 3]
                    } else if arity == 3 {
                        REGIONS3[i.regions[k] % 3]
                    } else {
                        REGIONS[i.regions[k]]
                    };
                    let m = match i.mods[k] {
                        1 => "-",
                        2 if t == "f" => "(abs)",
                        3 if t == "f" => "-(abs)",
                        _ => "",
                    };
                    format!("{m}r{}.{}{rg}:{t}", i.regs[k], i.subs[k])
                }
            }
        })
        .collect();
    let cond = match i.cmp {
        Some((k, c)) if k != 2 => format!("({}){} ", CONDS[c], FLAGS[c % 3]),
        _ => String::new(),
    };
    // Comparisons may write only the flags.
    if !cond.is_empty() && opname != "sel" && i.dst_stride == 2 {
        return format!(
            "{}{opname} ({n}|M{m}) {cond}null<1>:{} {}",
            PREDS[i.pred],
            ty(3),
            srcs.join(" ")
        );
    }
    let sub = if i.dst_stride == 1 { 0 } else { i.subs[3] };
    format!(
        "{}{opname} ({n}|M{m}) {cond}r{}.{sub}<{}>:{} {}",
        PREDS[i.pred],
        i.regs[3],
        i.dst_stride,
        ty(3),
        srcs.join(" ")
    )
}

fn words() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(
        prop_oneof![
            2 => any::<u32>(),
            1 => proptest::sample::select(SPECIAL.to_vec()),
            // Small integers: equal lanes for comparisons.
            1 => 0u32..3,
        ],
        1024,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn translated_runs_match_the_interpreter(
        seq in proptest::collection::vec(ins(), 1..10),
        file in words(),
        active in common::active(),
        flags in any::<u64>(),
        // Short slices cut runs (which then run interpreted), long ones let them run whole.
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
    ) {
        let lines: Vec<String> = seq
            .iter()
            .flat_map(|i| i.keep.map(|k| KEEPS[k].to_string()).into_iter().chain([text(i)]))
            .collect();
        let Some((prog, n)) = program(&lines) else {
            return Err(TestCaseError::reject("nothing assembles"));
        };
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        let active = active | 1;

        common::same_as_interpreter(&prog, &tr, n, &file, active, flags, &slices, &lines.join("\n"))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// The same sequences on Xe-HPG, where IGC's address arithmetic is `add3`: one in every
    /// sequence, among the other integer operations.
    #[test]
    fn translated_runs_with_add3_match_the_interpreter_on_xe_hpg(
        seq in proptest::collection::vec(ins(), 1..8),
        add3 in ins(),
        at in any::<prop::sample::Index>(),
        file in words(),
        active in common::active(),
        flags in any::<u64>(),
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
    ) {
        let add3 = Ins { float: false, op: INT_OPS.len() - 1, cmp: None, ..add3 };
        let mut seq = seq;
        seq.insert(at.index(seq.len() + 1), add3);
        let lines: Vec<String> = seq
            .iter()
            .flat_map(|i| i.keep.map(|k| KEEPS[k].to_string()).into_iter().chain([text(i)]))
            .collect();
        let Some((prog, n)) = common::program_on(Platform::Dg2, &lines) else {
            return Err(TestCaseError::reject("nothing assembles"));
        };
        prop_assume!(lines.iter().any(|l| l.contains("add3")) && prog.insts.iter().any(|i| i.opcode == isa_encoder::model::Opcode::Add3));
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        let active = active | 1;

        common::same_as_interpreter(&prog, &tr, n, &file, active, flags, &slices, &lines.join("\n"))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Longer runs over more registers than a run holds in host values at once: rows leave
    /// and come back, written ones stored on the way.
    #[test]
    fn runs_over_many_registers_match_the_interpreter(
        seq in proptest::collection::vec(ins_in(10..50), 20..40),
        file in words(),
        active in common::active(),
        flags in any::<u64>(),
    ) {
        let lines: Vec<String> = seq.iter().map(text).collect();
        let Some((prog, n)) = program(&lines) else {
            return Err(TestCaseError::reject("nothing assembles"));
        };
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        common::same_as_interpreter(&prog, &tr, n, &file, active | 1, flags, &[1 << 20], &lines.join("\n"))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Integer compares where the orders differ: values at the sign boundary and equal lanes,
    /// every condition, both signednesses, row and uniform sources, flags and a destination.
    #[test]
    fn integer_compares_match_the_interpreter(
        file in proptest::collection::vec(
            proptest::sample::select(vec![0u32, 1, 2, 0x7fff_ffff, 0x8000_0000, 0x8000_0001, 0xffff_ffff]),
            1024,
        ),
        cond in proptest::sample::select(vec!["eq", "ne", "lt", "gt", "le", "ge"]),
        ty in proptest::sample::select(vec!["ud", "d"]),
        uniform in any::<bool>(),
        active in common::active(),
    ) {
        let b = if uniform { "r20.3<0;1,0>" } else { "r20.0<8;8,1>" };
        let lines = vec![
            format!("cmp (16|M0) ({cond})f0.0 null<1>:{ty} r10.0<8;8,1>:{ty} {b}:{ty}"),
            format!("cmp (16|M0) ({cond})f1.0 r30.0<1>:{ty} {b}:{ty} r12.0<8;8,1>:{ty}"),
        ];
        let (prog, n) = program(&lines).expect("assembles");
        let tr = Translated::with_min_run(&prog, 1).expect("translates");
        prop_assert_eq!(tr.translated(), 2);
        common::same_as_interpreter(&prog, &tr, n, &file, active | 1, 0, &[1 << 20], &lines.join("\n"))?;
    }
}

/// A DWord held on its own, then its row held (read by a vector instruction), written as a
/// scalar lane of that row, the row pushed out of the held rows by twenty others, and the DWord
/// read again: it comes from the file, as the row left it.
#[test]
fn a_dword_whose_row_was_held_is_read_as_the_row_left_it() {
    let mut lines = vec![
        "add (1|M0) r5.0<1>:d r3.1<0;1,0>:d 0x1:d".to_string(),
        "add (8|M0) r10.0<1>:d r3.0<8;8,1>:d 0x1:d".to_string(),
        "mov (1|M0) r3.1<1>:d 0x7:d".to_string(),
    ];
    for r in (20..60).step_by(2) {
        lines.push(format!(
            "add (16|M0) r{r}.0<1>:d r{}.0<8;8,1>:d 0x2:d",
            r + 40
        ));
    }
    lines.push("add (1|M0) r6.0<1>:d r3.1<0;1,0>:d 0x0:d".to_string());
    let file: Vec<u32> = (0..1024u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    every_line_translates_and_matches(&lines, &file);
}

/// [`common::every_line_translates_and_matches_on`] for Gen12LP.
fn every_line_translates_and_matches(lines: &[String], file: &[u32]) {
    common::every_line_translates_and_matches_on(Platform::Tgllp, lines, file);
}

/// An f32 `mad` whose addend row is read from the file (not held as a row) right after a
/// scalar write into that row, which is held as a single DWord: the addend has the new
/// DWord.
#[test]
fn a_mad_addend_read_from_the_file_has_the_held_dwords_of_its_row() {
    let lines = [
        "mov (1|M0) r20.1<1>:f 0x40400000:f",
        "mad (8|M0) r30.0<1>:f r20.0<8;1>:f r22.0<8;1>:f r24.0<8;1>:f",
        "nop",
    ]
    .map(String::from);
    // Small floats everywhere: no NaN test leaves the run.
    let file: Vec<u32> = (0..1024u32)
        .map(|i| (1.0 + i as f32 / 64.0).to_bits())
        .collect();
    every_line_translates_and_matches(&lines, &file);
}

/// The generator reaches the translated form: a SIMD16 f32 `mad`, `add`, `cmp`, `max` (an f32
/// ReLU's `sel.ge`, from `ocloc` output for ICL), i32 `mul`, a predicated shift and a `nop`
/// translate; a `cmp` of mixed signedness and a strided-DWord `add` do not.
#[test]
fn the_common_forms_translate() {
    let text = "mad (16|M0) r10.0<1>:f r20.0<1;0>:f r30.0<1;0>:f r40.0<1>:f\n\
                add (16|M0) r11.0<1>:f r21.0<8;8,1>:f r31.0<0;1,0>:f\n\
                mul (16|M0) r12.0<1>:d r22.0<8;8,1>:d r32.0<8;8,1>:d\n\
                (f0.0) shl (8|M0) r13.0<1>:ud r23.0<8;8,1>:ud 3:ud\n\
                cmp (16|M0) (lt)f0.0 r14.0<1>:f r24.0<8;8,1>:f r34.0<8;8,1>:f\n\
                cmp (8|M0) (lt)f0.0 r14.0<1>:d r24.0<8;8,1>:d r34.0<8;8,1>:ud\n\
                add (8|M0) r15.0<1>:d r25.0<16;8,2>:d r35.0<8;8,1>:d\n\
                sel (16|M0) (ge)f0.0 r16.0<1>:f r26.0<8;8,1>:f 0.0:f\n\
                nop\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.instructions(), 9);
    assert_eq!(
        tr.translated(),
        7,
        "mad, add, mul, shl, the f32 cmp, the max, the nop"
    );
    // By default a run of fewer translated instructions than `MIN_RUN` stays interpreted:
    // the `mad` alone, before an indirect `mov` (which leaves runs).
    const { assert!(1 < MIN_RUN) };
    let text = "mad (16|M0) r10.0<1>:f r20.0<1;0>:f r30.0<1;0>:f r40.0<1>:f\n\
                mov (1|M0) r[a0.0]<1>:ud 0x0:ud\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    assert_eq!(
        Translated::new(&prog, true)
            .expect("translates")
            .translated(),
        0
    );
    assert_eq!(
        Translated::with_min_run(&prog, 1)
            .expect("translates")
            .translated(),
        1
    );
}

/// IGC's integer division (`math.iqot` / `math.irem` on both halves of a SIMD16 index, from
/// `ocloc` output for TGL: the convolutions' index arithmetic), signed and unsigned, by a
/// row and by a scalar, translates and matches the interpreter, divisors of 0 and -1 and the
/// dividend `i32::MIN` among the lanes.
#[test]
fn integer_division_translates() {
    let lines: Vec<String> = [
        "math.iqot (8|M0) r20.0<1>:d r10.0<8;8,1>:d r12.0<0;1,0>:d",
        "math.irem (8|M8) r21.0<1>:d r11.0<8;8,1>:d r12.0<0;1,0>:d",
        "math.iqot (8|M0) r22.0<1>:ud r13.0<8;8,1>:ud r14.0<8;8,1>:ud",
        "math.irem (8|M0) r23.0<1>:ud r13.0<8;8,1>:ud r14.0<8;8,1>:ud",
        "math.iqot (16|M0) r24.0<1>:d r15.0<8;8,1>:d r17.0<8;8,1>:d",
        "math.irem (1|M0) r26.0<1>:d r15.0<0;1,0>:d r17.1<0;1,0>:d",
    ]
    .map(String::from)
    .to_vec();
    let mut file = vec![0u32; 128 * 8];
    for (k, w) in file.iter_mut().enumerate() {
        *w = [7, 0x8000_0000, u32::MAX, 0, 1_000_003, 3, 0xffff_fff9, 16][k % 8]
            .wrapping_mul(1 + (k as u32 / 8) % 3);
    }
    // `i32::MIN / -1`: by the scalar r12.0 in lane 1 of r10, and lane 1 of r15 by r17's.
    file[12 * 8] = u32::MAX;
    file[17 * 8 + 1] = u32::MAX;
    every_line_translates_and_matches(&lines, &file);
}

/// Source modifiers translate as the fast path has them: IGC's `a - b` as an `add` of a
/// negated integer, a negated pick, `:f` sign operations. A negated integer compared, or under
/// a logic instruction (where `-` is `not`), stays interpreted.
#[test]
fn negated_sources_translate() {
    let text = "add (16|M0) r36.0<1>:d r11.0<8;8,1>:d -r36.0<8;8,1>:d\n\
                (f0.0) sel (16|M0) r12.0<1>:d -r10.0<8;8,1>:d 0:w\n\
                mad (16|M0) r23.0<1>:d r17.0<8;1>:d -r21.0<8;1>:d -3:w\n\
                mul (16|M0) r16.0<1>:f r10.0<8;8,1>:f -(abs)r12.0<8;8,1>:f\n\
                cmp (16|M0) (lt)f0.0 null<1>:d -r12.0<8;8,1>:d r14.0<8;8,1>:d\n\
                and (16|M0) r10.0<1>:d -r12.0<8;8,1>:d r14.0<8;8,1>:d\n\
                nop\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.translated(), 5, "add, sel, mad, mul, nop");
}

/// IGC's set-up of a sub-group block read in Gen12 convolution loops (from `ocloc` output for
/// TGL: OpenVINO's `convolution_gpu_bfyx_f16`): a `csel` of r0 with itself, scalar address
/// moves predicated on any channel being on (`.any16h`), the read, and `sync.nop`. All but
/// the send translate, so the send is the only call out of the run.
#[test]
fn block_read_set_up_translates() {
    let text = "(W) mov (1|M0) f0.0<1>:uw 0x0:uw\n\
                cmp (16|M0) (eq)f0.0 null<1>:uw r2.0<0;1,0>:uw r2.0<0;1,0>:uw\n\
                (W&f0.0.any16h) add (1|M0) r35.2<1>:ud r20.0<0;1,0>:ud 256:w\n\
                (W&f0.0.any16h) mov (1|M0) r24.2<1>:f r35.2<0;1,0>:f\n\
                (W) csel (4|M0) (eq)f0.0 r0.0<1>:w r0.0<4;1>:w r0.0<4;1>:w r0.0<1>:w\n\
                (W&f0.0.any16h) send.dc0 (16|M0) r3 r24 null 0x0 0x02484400\n\
                sync.nop null\n\
                (W&f0.0.any16h) mov (1|M0) r2.2<1>:f r35.2<0;1,0>:f\n\
                add (16|M0) r22.0<1>:d r20.0<8;8,1>:d 512:w\n\
                nop\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.instructions(), 10);
    assert_eq!(tr.translated(), 9, "all but the send");
    let runs: Vec<_> = tr.runs().collect();
    assert_eq!(runs, [(0, 10)], "one run with the send inside");
}

/// Divergent control flow around translated runs: `if`/`else`, a loop with `break`, `jmpi`
/// and a partial dispatch mask, and an `if` whose channels rejoin inside a stretch of
/// translatable instructions (the join, a branch target, starts a new run, which sees the
/// new execution mask).
const FLOW: &str = "
        mov (16|M0) r10.0<1>:d 0x0:d
        mov (16|M0) r12.0<1>:d 0x0:d
        cmp (16|M0) (lt)f0.0 null<1>:d r2.0<8;8,1>:d 0x8:d
        (f0.0) if (16|M0) ELSE1 ENDIF1
        add (16|M0) r14.0<1>:d r2.0<8;8,1>:d 0x64:d
        mul (16|M0) r18.0<1>:d r14.0<8;8,1>:d r4.0<8;8,1>:d
        else (16|M0) ENDIF1 ENDIF1
ELSE1:
        add (16|M0) r14.0<1>:d r2.0<8;8,1>:d 0xc8:d
        xor (16|M0) r20.0<1>:d r14.0<8;8,1>:d r2.0<8;8,1>:d
ENDIF1:
        endif (16|M0) LOOP
LOOP:
        add (16|M0) r12.0<1>:d r12.0<8;8,1>:d r10.0<8;8,1>:d
        add (16|M0) r10.0<1>:d r10.0<8;8,1>:d 0x1:d
        cmp (16|M0) (gt)f0.1 null<1>:d r12.0<8;8,1>:d 0x14:d
        (f0.1) break (16|M0) WHILE1 ENDLOOP
        cmp (16|M0) (lt)f0.1 null<1>:d r10.0<8;8,1>:d r4.0<8;8,1>:d
WHILE1:
        (f0.1) while (16|M0) LOOP
ENDLOOP:
        (W) jmpi SKIP
        mov (16|M0) r12.0<1>:d 0x0:d
SKIP:
        add (8|M8) r16.0<1>:d r2.0<8;8,1>:d 0x1:d
        shl (16|M0) r22.0<1>:d r12.0<8;8,1>:d 0x2:d
        cmp (16|M0) (gt)f0.0 null<1>:d r4.0<8;8,1>:d 0x4:d
        (f0.0) if (16|M0) JOIN2 JOIN2
        add (16|M0) r24.0<1>:d r2.0<8;8,1>:d 0x3:d
        mul (16|M0) r26.0<1>:d r24.0<8;8,1>:d r2.0<8;8,1>:d
JOIN2:
        add (16|M0) r28.0<1>:d r24.0<8;8,1>:d r26.0<8;8,1>:d
        or (16|M0) r30.0<1>:d r28.0<8;8,1>:d 0x1:d
        send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn divergent_flow_matches_the_interpreter(
        a in proptest::array::uniform16(0u32..16),
        n in proptest::array::uniform16(0u32..10),
        mask in 1u32..0x1_0000,
        slices in proptest::collection::vec(prop_oneof![1u64..8, Just(1u64 << 20)], 1..4),
    ) {
        let (prog, tr) = translated_flow(FLOW);
        prop_assert!(tr.translated() >= 10, "{} translated", tr.translated());
        let mut words = vec![0u32; 1024];
        words[16..32].copy_from_slice(&a);
        words[32..48].copy_from_slice(&n);
        let counts = flow_same_as_interpreter(&prog, &tr, &words, mask, &slices)?;
        // Channels that part ways at a branch go on in the run.
        if slices == [1 << 20] {
            one_slice_runs_two_entries(&prog, &words, mask, counts)?;
        }
    }
}

/// A program of branches and loops (`text`) for TGL, decoded and translated with runs of any
/// length.
fn translated_flow(text: &str) -> (Program, Translated) {
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    (prog, tr)
}

/// With one whole slice, `FLOW` enters its first run and, after the `jmpi`, its second, and
/// runs all but the `jmpi` and the thread's end in translated code (`counts`).
fn one_slice_runs_two_entries(
    prog: &Program,
    words: &[u32],
    mask: u32,
    counts: sim_jit::Counts,
) -> Result<(), TestCaseError> {
    let mut t = thread(words, mask, 0);
    sim_eu::run(&mut t, prog, &mut NoMemory, 100_000).expect("runs");
    prop_assert_eq!(counts.translated, t.instructions_executed() - 2);
    prop_assert_eq!(counts.entered, 2);
    Ok(())
}

/// Runs `prog` to its end on a thread of `words` and `mask` through the interpreter and
/// through `sim_jit::run_counted` in budget slices taken in turn from `slices`: the executed
/// counts and register files must match. Returns what translated code ran and how often a
/// run was entered.
fn flow_same_as_interpreter(
    prog: &Program,
    tr: &Translated,
    words: &[u32],
    mask: u32,
    slices: &[u64],
) -> Result<sim_jit::Counts, TestCaseError> {
    let mut want = thread(words, mask, 0);
    let st = sim_eu::run(&mut want, prog, &mut NoMemory, 100_000);
    prop_assert_eq!(st, Ok(Status::Ended));

    let mut got = thread(words, mask, 0);
    let mut counts = sim_jit::Counts::default();
    let mut k = 0;
    loop {
        let before = got.instructions_executed();
        let slice = slices[k % slices.len()];
        let st = sim_jit::run_counting(&mut got, prog, tr, &mut NoMemory, slice, &mut counts);
        // A run never goes past its budget.
        prop_assert!(got.instructions_executed() - before <= slice);
        k += 1;
        match st {
            Ok(Status::Budget) if k < 100_000 => continue,
            st => {
                prop_assert_eq!(st, Ok(Status::Ended));
                break;
            }
        }
    }
    prop_assert_eq!(got.instructions_executed(), want.instructions_executed());
    let (g, w) = (got.file(), want.file());
    for at in (0..w.len()).filter(|a| !(TM0..TM0 + 16).contains(a)) {
        prop_assert_eq!(g[at], w[at], "byte {} differs", at);
    }
    Ok(counts)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Every channel taking the same way through `if`/`else`, the loop and its `break`: the
    /// branches run in translated code (all but the `jmpi` and the thread's end, when no
    /// budget cuts a run short), with budgets ending anywhere, loops included.
    #[test]
    fn uniform_flow_stays_in_translated_code(
        a in 0u32..16,
        n in 0u32..30,
        mask in prop_oneof![Just(0xffffu32), Just(0xff), 1u32..0x1_0000],
        slices in proptest::collection::vec(prop_oneof![1u64..40, Just(1u64 << 20)], 1..4),
    ) {
        let (prog, tr) = translated_flow(FLOW);
        let mut words = vec![0u32; 1024];
        words[16..32].fill(a);
        words[32..48].fill(n);
        let counts = flow_same_as_interpreter(&prog, &tr, &words, mask, &slices)?;
        if slices == [1 << 20] {
            one_slice_runs_two_entries(&prog, &words, mask, counts)?;
        }
    }
}

/// Loops of one block each, their channels leaving at different passes, as IGC makes a
/// `for` with a per-channel trip count. The first has f32 multiplies in its body: a channel
/// whose product overflows to infinity (after four passes, by 2^32 each) makes a NaN (times
/// zero), whose test leaves the run for the interpreter, maybe after other channels left
/// the loop. The second sits inside an `if`, so that channels wait after
/// it from before it was entered; it counts with a scalar (IGC's loop counter) and
/// per-channel DWords, ends at each channel's own count, sets its `while` flag in every
/// channel first (channels that left must not take it), and uses more rows than translated
/// code holds (a value carried around the loop is stored when it must make room). The third
/// is IGC's `while (a && b)`: two `break`s to the unconditional `while` (the channels that
/// break resume after it), so three blocks.
const LOOPS: &str = "
        mov (16|M0) r10.0<1>:d 0x0:d
        mov (16|M0) r12.0<1>:d 0x0:d
        mov (16|M0) r14.0<1>:f 0x3f800000:f
        mov (16|M0) r22.0<1>:d r4.0<8;8,1>:d
LOOP2:
        mul (16|M0) r14.0<1>:f r14.0<8;8,1>:f r6.0<8;8,1>:f
        mul (16|M0) r24.0<1>:f r14.0<8;8,1>:f r8.0<8;8,1>:f
        add (16|M0) r22.0<1>:d r22.0<8;8,1>:d -1:d
        cmp (16|M0) (gt)f0.1 null<1>:d r22.0<8;8,1>:d r2.0<8;8,1>:d
        (f0.1) while (16|M0) LOOP2
        (W) mov (1|M0) r3.1<1>:d 0x0:d
        cmp (16|M0) (lt)f0.0 null<1>:d r2.0<8;8,1>:d 0xc:d
        (f0.0) if (16|M0) ENDIF1 ENDIF1
LOOP1:
        (W) mov (1|M0) f0.1<1>:uw 0xffff:uw
        (W) add (1|M0) r3.1<1>:d r3.1<0;1,0>:d 0x1:d
        add (16|M0) r12.0<1>:d r12.0<8;8,1>:d r10.0<8;8,1>:d
        xor (16|M0) r16.0<1>:d r12.0<8;8,1>:d r2.0<8;8,1>:d
        add (16|M0) r18.0<1>:d r16.0<8;8,1>:d r4.0<8;8,1>:d
        add (16|M0) r10.0<1>:d r10.0<8;8,1>:d r3.1<0;1,0>:d
        cmp (16|M0) (lt)f0.1 null<1>:d r3.1<0;1,0>:d r4.0<8;8,1>:d
        (f0.1) while (16|M0) LOOP1
ENDIF1:
        endif (16|M0) LOOP3
LOOP3:
        add (16|M0) r26.0<1>:d r26.0<8;8,1>:d 0x1:d
        cmp (16|M0) (ge)f0.0 null<1>:d r26.0<8;8,1>:d r4.0<8;8,1>:d
        (f0.0) break (16|M0) WHILE3 WHILE3
        add (16|M0) r28.0<1>:d r28.0<8;8,1>:d r26.0<8;8,1>:d
        cmp (16|M0) (gt)f0.0 null<1>:d r28.0<8;8,1>:d r2.0<8;8,1>:d
        (f0.0) break (16|M0) WHILE3 WHILE3
        xor (16|M0) r30.0<1>:d r30.0<8;8,1>:d r28.0<8;8,1>:d
WHILE3:
        while (16|M0) LOOP3
        add (16|M0) r20.0<1>:d r16.0<8;8,1>:d r12.0<8;8,1>:d
        send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Channels leaving loops of one block at different passes (those parted by the loop's
    /// own code and told to the thread only when the run leaves from inside it), with
    /// budgets ending runs anywhere, loops included: as the interpreter leaves them.
    #[test]
    fn loops_whose_channels_leave_at_different_passes_match_the_interpreter(
        a in proptest::array::uniform16(0u32..16),
        n in proptest::array::uniform16(0u32..12),
        f in proptest::array::uniform16(prop_oneof![3 => Just(1.0f32), 1 => Just(4294967296.0f32)]),
        mask in prop_oneof![Just(0xffffu32), 1u32..0x1_0000],
        slices in proptest::collection::vec(prop_oneof![1u64..64, Just(1u64 << 20)], 1..4),
    ) {
        let (prog, tr) = translated_flow(LOOPS);
        prop_assert!(tr.translated() >= 23, "{} translated", tr.translated());
        let mut words = vec![0u32; 1024];
        words[16..32].copy_from_slice(&a);
        words[32..48].copy_from_slice(&n);
        for (w, x) in words[48..64].iter_mut().zip(f) {
            *w = x.to_bits();
        }
        flow_same_as_interpreter(&prog, &tr, &words, mask, &slices)?;
    }
}

/// `lines` translated in runs from one instruction on, against the interpreter
/// ([`common::same_as_interpreter`], channel 0 always executing); rejected when nothing
/// assembles.
fn lines_match(
    lines: &[String],
    file: &[u32],
    active: u32,
    flags: u64,
    slices: &[u64],
) -> Result<(), TestCaseError> {
    common::lines_match_on(Platform::Tgllp, lines, file, active, flags, slices, false)
}

/// IGC's multiply-high pair (`mul (n) acc0:ud x:ud y:uw`, then `mach (n) dst x y {AccWrEn}`:
/// a division by a constant, a 32x32 -> 64 multiply) and what else may feed its accumulator.
#[derive(Debug, Clone)]
struct Pair {
    size: usize,
    /// The accumulator's and destination's type is `:d` (else `:ud`); src0's likewise.
    signed: [bool; 2],
    regs: [u32; 3],
    subs: [u32; 2],
    /// src0 one element (else consecutive DWords).
    scalar: bool,
    mul_src: usize,
    mach_src: usize,
    imm: u32,
    pred: usize,
    /// 0: `mul` then `mach`; 1: an `add` to the accumulator (the interpreter's, with its
    /// wide value) then `mach`; 2: `mul`, that `add`, `mach`; 3: `mul`, another instruction,
    /// `mach`; 4: `mach` alone (on the accumulator as the thread has it).
    feed: usize,
    between: Ins,
    /// The `mach` in the other half of the channels (IGC's `(8|M8)` after an `(8|M0)` mul).
    mach_m8: bool,
}

fn pair() -> impl Strategy<Value = Pair> {
    (
        (
            0usize..5,
            any::<[bool; 2]>(),
            proptest::array::uniform3(10u32..18),
        ),
        (proptest::array::uniform2(0u32..4), any::<bool>()),
        (0usize..5, 0usize..5, any::<u32>(), 0usize..PREDS.len()),
        (0usize..5, ins(), any::<bool>()),
    )
        .prop_map(
            |(
                (size, signed, regs),
                (subs, scalar),
                (mul_src, mach_src, imm, pred),
                (feed, between, mach_m8),
            )| Pair {
                size,
                signed,
                regs,
                subs,
                scalar,
                mul_src,
                mach_src,
                imm,
                pred,
                feed,
                between,
                mach_m8,
            },
        )
}

fn pair_lines(p: &Pair) -> Vec<String> {
    let (n, m) = [(1, 0), (8, 0), (8, 8), (16, 0), (16, 16)][p.size];
    let mach_m = if p.mach_m8 && n == 8 { 8 } else { m };
    let t = if p.signed[0] { "d" } else { "ud" };
    let t0 = if p.signed[1] { "d" } else { "ud" };
    let [x, y, d] = p.regs;
    let row = |ty: &str| match (n, ty) {
        (1, _) => "<0;1,0>".to_string(),
        (_, "uw" | "w") => format!("<{n};{n},1>"),
        _ => "<8;8,1>".to_string(),
    };
    let src0 = if p.scalar || n == 1 {
        format!("r{x}.{}<0;1,0>:{t0}", p.subs[0])
    } else {
        format!("r{x}.0{}:{t0}", row(t0))
    };
    let mul_src = match p.mul_src {
        0 => format!("r{y}.{}<0;1,0>:uw", p.subs[1]),
        1 => format!("r{y}.0{}:uw", row("uw")),
        2 => format!("0x{:x}:uw", p.imm & 0xffff),
        3 => format!("{}:w", p.imm as u16 as i16),
        _ => format!("r{y}.{}<0;1,0>:w", p.subs[1]),
    };
    let mach_src = match p.mach_src {
        0 => format!("r{y}.{}<0;1,0>:ud", p.subs[1]),
        1 => format!("r{y}.0{}:d", row("d")),
        2 => format!("0x{:x}:ud", p.imm),
        3 => "0x0:ud".to_string(),
        _ => format!("{}:d", p.imm as i32),
    };
    let pred = PREDS[p.pred];
    let mul = format!("{pred}mul ({n}|M{m}) acc0.0<1>:{t} {src0} {mul_src}");
    let add = format!(
        "add ({n}|M{m}) acc0.0<1>:{t} r12.0{}:{t} r13.0{}:{t}",
        row(t),
        row(t)
    );
    let mach = format!("mach ({n}|M{mach_m}) r{d}.0<1>:{t} {src0} {mach_src} {{AccWrEn}}");
    match p.feed {
        0 => vec![mul, mach],
        1 => vec![add, mach],
        2 => vec![mul, add, mach],
        3 => vec![mul, text(&p.between), mach],
        _ => vec![mach],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    /// The multiply-high pair, translated, against the interpreter: the destination, the
    /// accumulator and its wide values (the register file's) must match, whatever fed the
    /// accumulator.
    #[test]
    fn multiply_high_pairs_match_the_interpreter(
        pairs in proptest::collection::vec(pair(), 1..4),
        file in words(),
        active in common::active(),
        flags in any::<u64>(),
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
    ) {
        let lines: Vec<String> = pairs.iter().flat_map(pair_lines).collect();
        lines_match(&lines, &file, active, flags, &slices)?;
    }
}

/// IGC's pairs as `ocloc` writes them for TGL (OpenVINO's `convolution_gpu_bfyx_f16`: an index
/// divided by 7 through its magic number; a 32-bit product's high half) translate, `mul` and
/// `mach` both.
#[test]
fn igc_multiply_high_pairs_translate() {
    let text = "(W&f0.0.any16h) mul (8|M0) acc0.0<1>:ud r7.0<8;8,1>:ud 0x2493:uw\n\
                mach (8|M8) r11.0<1>:ud r7.0<8;8,1>:ud 0x92492493:ud {AccWrEn}\n\
                (W) mul (1|M0) acc0.0<1>:d r8.4<0;1,0>:d r5.2<0;1,0>:uw\n\
                (W) mach (1|M0) r6.0<1>:d r8.4<0;1,0>:d r5.1<0;1,0>:d {AccWrEn}\n\
                nop\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.translated(), 5, "both pairs and the nop");
}

/// A conversion from integers to the accumulator (IGC's `mov (16|M0) acc0.0<1>:f r22.0:d`
/// before a `sel` that reads it, in an image kernel's coordinates), then what reads it: the
/// interpreter computes it in its integer domain, so each lane's integer becomes the DWord's
/// wide value too, which a `mach` reads where the DWord still holds its low 32 bits.
#[derive(Debug, Clone)]
struct ToAcc {
    size: usize,
    /// 0 `:d`, 1 `:ud`, 2 `:w` (words), 3 `:uw`, 4 one `:d` element.
    src: usize,
    reg: u32,
    sub: u32,
    pred: usize,
    /// 0: a `mov` reads the floats back; 1: a `mach` reads the accumulator; 2: an
    /// instruction between, then the `mov`; 3: the conversion alone.
    then: usize,
    between: Ins,
}

fn to_acc() -> impl Strategy<Value = ToAcc> {
    (
        (0usize..5, 0usize..5, 10u32..18, 0u32..8),
        (0usize..PREDS.len(), 0usize..4, ins()),
    )
        .prop_map(|((size, src, reg, sub), (pred, then, between))| ToAcc {
            size,
            src,
            reg,
            sub,
            pred,
            then,
            between,
        })
}

fn to_acc_lines(c: &ToAcc) -> Vec<String> {
    let (n, m) = [(1, 0), (8, 0), (8, 8), (16, 0), (16, 16)][c.size];
    let r = c.reg;
    let rows = |words: bool| match (n, words) {
        (1, _) => "<0;1,0>".to_string(),
        (_, true) => format!("<{n};{n},1>"),
        _ => "<8;8,1>".to_string(),
    };
    let src = match c.src {
        0 => format!("r{r}.0{}:d", rows(false)),
        1 => format!("r{r}.0{}:ud", rows(false)),
        2 => format!("r{r}.0{}:w", rows(true)),
        3 => format!("r{r}.0{}:uw", rows(true)),
        _ => format!("r{r}.{}<0;1,0>:d", c.sub),
    };
    let pred = PREDS[c.pred];
    let conv = format!("{pred}mov ({n}|M{m}) acc0.0<1>:f {src}");
    let back = format!("mov ({n}|M{m}) r14.0<1>:f acc0.0{}:f", rows(false));
    let mach = format!(
        "mach ({n}|M{m}) r15.0<1>:d r16.0{}:d 0x3:d {{AccWrEn}}",
        rows(false)
    );
    match c.then {
        0 => vec![conv, back],
        1 => vec![conv, mach],
        2 => vec![conv, text(&c.between), back],
        _ => vec![conv],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    /// Conversions to the accumulator, translated, against the interpreter: the accumulator's
    /// DWords and wide values (the register file's) and whatever read them must match.
    #[test]
    fn conversions_to_the_accumulator_match_the_interpreter(
        convs in proptest::collection::vec(to_acc(), 1..4),
        file in words(),
        active in common::active(),
        flags in any::<u64>(),
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
    ) {
        let lines: Vec<String> = convs.iter().flat_map(to_acc_lines).collect();
        lines_match(&lines, &file, active, flags, &slices)?;
    }
}

/// IGC's conversion to the accumulator as `ocloc` writes it for TGL (an image copy's
/// coordinates, `read_imagef` with a sampler) translates, and so does the `sel` reading it.
#[test]
fn igc_conversion_to_the_accumulator_translates() {
    let text = "mov (16|M0) acc0.0<1>:f r22.0<8;8,1>:d\n\
                (~f1.0) sel (16|M0) r38.0<1>:f acc0.0<8;8,1>:f -1.0:f\n\
                nop\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.translated(), 3);
}

/// IGC's 64-bit addition without 64-bit integer units: `addc` of the low DWords (its carries
/// to the accumulator), then the high DWords added with the accumulator; or `subb` (borrows).
#[derive(Debug, Clone)]
struct Carry {
    size: usize,
    sub: bool,
    /// Each source: 0 consecutive `:ud` DWords, 1 one `:ud` element, 2 an immediate, 3
    /// consecutive `:uw` words, 4 one `:d` element.
    src: [usize; 2],
    regs: [u32; 3],
    sub_reg: u32,
    imm: u32,
    pred: usize,
    /// 0: the carries read from the accumulator (IGC's `mov`, or an `add` with the high
    /// DWords), 1: an `add3` reads them, 2: another instruction between, 3: the carry alone;
    /// 4: the destination is a source.
    then: usize,
    between: Ins,
}

fn carry() -> impl Strategy<Value = Carry> {
    (
        (
            0usize..5,
            any::<bool>(),
            proptest::array::uniform2(0usize..5),
        ),
        (proptest::array::uniform3(10u32..18), 0u32..8, any::<u32>()),
        (0usize..PREDS.len(), 0usize..5, ins()),
    )
        .prop_map(
            |((size, sub, src), (regs, sub_reg, imm), (pred, then, between))| Carry {
                size,
                sub,
                src,
                regs,
                sub_reg,
                imm,
                pred,
                then,
                between,
            },
        )
}

fn carry_lines(c: &Carry) -> Vec<String> {
    let (n, m) = [(1, 0), (8, 0), (8, 8), (16, 0), (4, 0)][c.size];
    let [x, y, d] = c.regs;
    let region = |ty: &str| match (n, ty) {
        (1, _) => "<0;1,0>".to_string(),
        (_, "uw") => format!("<{n};{n},1>"),
        (4, _) => "<4;4,1>".to_string(),
        _ => "<8;8,1>".to_string(),
    };
    let source = |k: usize, r: u32| match c.src[k] {
        0 => format!("r{r}.0{}:ud", region("ud")),
        1 => format!("r{r}.{}<0;1,0>:ud", c.sub_reg),
        2 => format!("0x{:x}:ud", c.imm),
        3 => format!("r{r}.0{}:uw", region("uw")),
        _ => format!("r{r}.{}<0;1,0>:d", c.sub_reg),
    };
    let op = if c.sub { "subb" } else { "addc" };
    let dst = if c.then == 4 { x } else { d };
    let low = format!(
        "{}{op} ({n}|M{m}) r{dst}.0<1>:ud {} {} {{AccWrEn}}",
        PREDS[c.pred],
        source(0, x),
        source(1, y)
    );
    let acc = format!("acc0.0{}:ud", region("ud"));
    let high = if c.imm.is_multiple_of(2) {
        format!("mov ({n}|M{m}) r{}.0<1>:ud {acc}", d + 1)
    } else {
        format!(
            "add ({n}|M{m}) r{}.0<1>:ud {acc} r{y}.0{}:ud",
            d + 1,
            region("ud")
        )
    };
    match c.then {
        0 | 4 => vec![low, high],
        1 => vec![
            low,
            format!(
                "add3 ({n}|M{m}) r{}.0<1>:d {acc} r{x}.0{}:d r{y}.0{}:d",
                d + 1,
                region("ud"),
                region("ud")
            ),
        ],
        2 => vec![low, text(&c.between), high],
        _ => vec![low],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// `addc` and `subb`, translated, against the interpreter: their results, the carries in
    /// the accumulator (its DWords and the wide values they leave alone) and what reads them.
    #[test]
    fn additions_with_carry_match_the_interpreter(
        carries in proptest::collection::vec(carry(), 1..4),
        file in words(),
        active in common::active(),
        flags in any::<u64>(),
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
    ) {
        let lines: Vec<String> = carries.iter().flat_map(carry_lines).collect();
        lines_match(&lines, &file, active, flags, &slices)?;
    }
}

/// A conversion `mov` between single precision and integers: the source type (`:d`, `:ud`,
/// `:w`, `:uw`, `:b`, `:ub` to `:f`, or `:f` to `:d`/`:ud`) and its region, the channels, the
/// predicate, the registers; with another instruction after it that reads its result.
#[derive(Debug, Clone)]
struct Conversion {
    size: usize,
    /// Index into [`CONVERSIONS`].
    kind: usize,
    /// 0: a row, 1: one element, 2: an immediate.
    form: usize,
    regs: [u32; 2],
    sub: u32,
    imm: u32,
    pred: usize,
    then: Option<Ins>,
}

/// (destination type, source type, the source's row region as IGA writes it for 16 lanes).
const CONVERSIONS: [(&str, &str, &str); 12] = [
    ("f", "d", "<8;8,1>"),
    ("f", "ud", "<8;8,1>"),
    ("f", "w", "<16;16,1>"),
    ("f", "uw", "<16;16,1>"),
    ("f", "uw", "<2;1,0>"),
    ("f", "w", "<2;1,0>"),
    ("f", "ub", "<4;1,0>"),
    ("f", "b", "<4;1,0>"),
    ("d", "f", "<8;8,1>"),
    ("ud", "f", "<8;8,1>"),
    ("d", "f", "<8;8,1>"),
    ("ud", "f", "<8;8,1>"),
];

fn conversion() -> impl Strategy<Value = Conversion> {
    (
        (
            0usize..5,
            0usize..CONVERSIONS.len(),
            prop_oneof![3 => Just(0usize), 1 => 1usize..3],
        ),
        (proptest::array::uniform2(10u32..18), 0u32..8, any::<u32>()),
        (0usize..PREDS.len(), proptest::option::of(ins())),
    )
        .prop_map(
            |((size, kind, form), (regs, sub, imm), (pred, then))| Conversion {
                size,
                kind,
                form,
                regs,
                sub,
                imm,
                pred,
                then,
            },
        )
}

fn conversion_lines(c: &Conversion) -> Vec<String> {
    let (n, m) = [(1, 0), (8, 0), (8, 8), (16, 0), (16, 16)][c.size];
    let (dt, st, row) = CONVERSIONS[c.kind];
    let [d, x] = c.regs;
    let src = match (c.form, n) {
        (2, _) if st != "b" && st != "ub" => match st {
            "f" => format!("{:e}:f", f32::from_bits(c.imm)),
            "w" | "uw" => format!("0x{:x}:{st}", c.imm & 0xffff),
            _ => format!("0x{:x}:{st}", c.imm),
        },
        (0, 1) | (1, _) | (2, _) => format!("r{x}.{}<0;1,0>:{st}", c.sub),
        // A row of eight DWords or words spans the region IGA writes for 8 lanes.
        (_, 8) if row == "<8;8,1>" || row == "<16;16,1>" => format!("r{x}.0<8;8,1>:{st}"),
        _ => format!("r{x}.0{row}:{st}"),
    };
    let mut lines = vec![format!(
        "{}mov ({n}|M{m}) r{d}.0<1>:{dt} {src}",
        PREDS[c.pred]
    )];
    if let Some(i) = &c.then {
        lines.push(text(i));
    }
    lines
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Conversions between single precision and integers, translated, against the
    /// interpreter: every source type and region the translation takes, NaNs, infinities
    /// and values past the integer range included.
    #[test]
    fn conversions_match_the_interpreter(
        convs in proptest::collection::vec(conversion(), 1..4),
        file in words(),
        active in common::active(),
        flags in any::<u64>(),
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
    ) {
        let lines: Vec<String> = convs.iter().flat_map(conversion_lines).collect();
        lines_match(&lines, &file, active, flags, &slices)?;
    }
}

/// Conversions as `ocloc` writes them for TGL (the CTS' basic suite: `(float)` of an int, a
/// uchar read at a 4-byte step, a ushort at a 2-byte step; `(int)` of a float) translate.
#[test]
fn igc_conversions_translate() {
    let text = "mov (16|M0) r12.0<1>:f r10.0<8;8,1>:d\n\
                mov (16|M16) r14.0<1>:f r20.0<4;1,0>:ub\n\
                mov (16|M0) r16.0<1>:f r22.0<2;1,0>:uw\n\
                mov (16|M0) r18.0<1>:d r12.0<8;8,1>:f\n\
                mov (16|M0) r24.0<1>:ud r12.0<8;8,1>:f\n\
                nop\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.translated(), 6, "every instruction");
}

/// A conversion or an `addc` whose destination is cr0 (whose rounding mode translated code
/// does not follow) stays interpreted, and so does a conversion from `:f` to accumulator
/// DWords (integers to the accumulator translate: `conversions_to_the_accumulator_...`).
#[test]
fn conversions_and_additions_to_control_registers_stay_interpreted() {
    let text = "mov (1|M0) cr0.0<1>:ud r5.0<0;1,0>:f\n\
                mov (8|M0) acc0.0<1>:d r10.0<8;8,1>:f\n\
                addc (1|M0) cr0.0<1>:ud r5.0<0;1,0>:ud r5.1<0;1,0>:ud {AccWrEn}\n\
                nop\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.translated(), 1, "the nop alone");
}

/// IGC's 64-bit additions as `ocloc` writes them for TGL (the CTS' asynchronous copies: a
/// global pointer plus a byte offset, SIMD16 in two halves, each half's carries moved out of
/// the accumulator) translate, every instruction.
#[test]
fn igc_additions_with_carry_translate() {
    let text = "addc (8|M0) r45.0<1>:ud r28.0<8;8,1>:ud r25.0<0;1,0>:ud {AccWrEn}\n\
                add (16|M0) r32.0<1>:d r5.4<0;1,0>:d r32.0<8;8,1>:d\n\
                mov (8|M0) r47.0<1>:ud acc0.0<8;8,1>:ud\n\
                addc (8|M8) r46.0<1>:ud r29.0<8;8,1>:ud r25.0<0;1,0>:ud {AccWrEn}\n\
                add (8|M0) r30.0<1>:ud r47.0<8;8,1>:ud r30.0<8;8,1>:ud\n\
                mov (8|M8) r48.0<1>:ud acc0.0<8;8,1>:ud\n\
                nop\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.translated(), 7, "every instruction");
}

/// An integer `mov` of DWords 8 bytes apart: IGC's halves of 64-bit values taken apart (`mov
/// (8|M0) r23.0<1>:ud r14.0<2;1,0>:ud`, `r14.1<2;1,0>` the high ones) and put together (`mov
/// (8|M0) r33.0<2>:ud r27.0<8;8,1>:ud`, `r33.1<2>:d` the high ones), with IGC's negation of
/// a half (`mov r120.0<1>:ud -r15.0<1;1,0>:ud`), between other instructions.
#[derive(Debug, Clone)]
struct Halves {
    size: usize,
    /// 0: the source steps by 8 bytes, the destination by 4; 1: the other way round; 2: both.
    form: usize,
    regs: [u32; 2],
    subs: [u32; 2],
    signed: bool,
    neg: bool,
    pred: usize,
    /// An instruction after it.
    then: Option<Ins>,
}

fn halves() -> impl Strategy<Value = Halves> {
    (
        (
            1usize..SIZES.len(),
            0usize..3,
            proptest::array::uniform2(10u32..18),
        ),
        (
            proptest::array::uniform2(0u32..2),
            any::<bool>(),
            any::<bool>(),
        ),
        (0usize..PREDS.len(), proptest::option::of(ins())),
    )
        .prop_map(
            |((size, form, regs), (subs, signed, neg), (pred, then))| Halves {
                size,
                form,
                regs,
                subs,
                signed,
                neg,
                pred,
                then,
            },
        )
}

fn halves_lines(h: &Halves) -> Vec<String> {
    let (n, m) = SIZES[h.size];
    let t = if h.signed { "d" } else { "ud" };
    let [d, s] = h.regs;
    let (dst, src) = match h.form {
        0 => (format!("r{d}.0<1>"), format!("r{s}.{}<2;1,0>", h.subs[1])),
        1 => (format!("r{d}.{}<2>", h.subs[0]), format!("r{s}.0<8;8,1>")),
        _ => (
            format!("r{d}.{}<2>", h.subs[0]),
            format!("r{s}.{}<2;1,0>", h.subs[1]),
        ),
    };
    let neg = if h.neg { "-" } else { "" };
    let mut lines = vec![format!(
        "{}mov ({n}|M{m}) {dst}:{t} {neg}{src}:{t}",
        PREDS[h.pred]
    )];
    lines.extend(h.then.as_ref().map(text));
    lines
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    /// DWords 8 bytes apart, translated, against the interpreter: the whole register file.
    #[test]
    fn halves_of_64_bit_values_match_the_interpreter(
        moves in proptest::collection::vec(halves(), 1..5),
        file in words(),
        active in common::active(),
        flags in any::<u64>(),
        slices in proptest::collection::vec(prop_oneof![1u64..6, Just(1u64 << 20)], 1..4),
    ) {
        let lines: Vec<String> = moves.iter().flat_map(halves_lines).collect();
        lines_match(&lines, &file, active, flags, &slices)?;
    }
}

/// IGC's Gen9 code taking `:q` values apart and putting them together translates.
#[test]
fn igc_halves_of_64_bit_values_translate() {
    let text = "mov (8|M0) r23.0<1>:ud r14.0<2;1,0>:ud\n\
                mov (8|M8) r25.0<1>:ud r16.1<2;1,0>:ud\n\
                mov (8|M0) r33.0<2>:ud r27.0<8;8,1>:ud\n\
                mov (8|M0) r33.1<2>:d r29.0<8;8,1>:d\n\
                mov (8|M0) r120.0<1>:ud -r15.0<2;1,0>:ud\n\
                nop\n";
    let bytes = isa_encoder::assemble(Platform::Skl, text).expect("assembles");
    let prog = Program::decode(Platform::Skl, &bytes);
    let tr = Translated::with_min_run(&prog, 1).expect("translates");
    assert_eq!(tr.translated(), 6, "the five moves and the nop");
}
