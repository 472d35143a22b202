//! The fast path against the general path: random ALU instructions (assembled from IGA text),
//! random register files, masks and flags; one run with the fast forms, one with them
//! removed, and the whole register files must match byte for byte.

use platform::Platform;
use proptest::prelude::*;

use crate::convert::f16_to_f32;
use crate::program::fast::{FastOp, Num};
use crate::{run, NoMemory, Program, Status, Thread};

const INT_TYPES: [&str; 6] = ["b", "ub", "w", "uw", "d", "ud"];
const CONDS: [&str; 8] = ["eq", "ne", "lt", "gt", "le", "ge", "ov", "un"];
/// Binary-source regions: consecutive, scalar, strided, and row-repeating (a gather).
const REGIONS: [&str; 5] = ["<8;8,1>", "<1;1,0>", "<0;1,0>", "<16;8,2>", "<4;4,0>"];
/// `mad` src0/src1 and src2 regions (Align1 ternary forms).
const REGIONS3: [&str; 3] = ["<1;0>", "<0;0>", "<2;0>"];
const REGIONS3_SRC2: [&str; 3] = ["<1>", "<0>", "<2>"];
/// Predicate controls: per channel, and any/all over groups of channels.
const PRED_CTRLS: [&str; 7] = ["", "", ".any2h", ".all4h", ".any8h", ".all16h", ".any32h"];
const SIZES: [(u32, u32); 8] = [
    (1, 0),
    (2, 0),
    (4, 0),
    (8, 0),
    (8, 8),
    (16, 0),
    (16, 16),
    (32, 0),
];

#[derive(Debug, Clone)]
struct Case {
    text: String,
    file: Vec<u8>,
    active: u32,
    flags: u64,
}

fn reg(r: u32, sub: u32, region: &str, ty: &str) -> String {
    format!("r{r}.{sub}{region}:{ty}")
}

fn imm(bits: u32, ty: &str) -> String {
    let v = match ty {
        "b" | "w" => i64::from(bits as u16 as i16),
        "ub" | "uw" => i64::from(bits as u16),
        "d" => i64::from(bits as i32),
        _ => i64::from(bits),
    };
    let ty = match ty {
        "b" => "w",
        "ub" => "uw",
        t => t,
    };
    if ty == "f" {
        format!("0x{bits:x}:f")
    } else {
        format!("{v}:{ty}")
    }
}

prop_compose! {
    fn case()(
        float in any::<bool>(),
        op in 0usize..16,
        size in 0usize..SIZES.len(),
        tys in proptest::array::uniform4(0usize..INT_TYPES.len()),
        regs in proptest::array::uniform4(10u32..40),
        subs in proptest::array::uniform4(0u32..3),
        regions in proptest::array::uniform3(0usize..REGIONS.len()),
        dst_stride in 1u32..3,
        imm_src in 0usize..4,
        imm_bits in any::<u32>(),
        cond in proptest::option::of(0usize..CONDS.len()),
        pred in proptest::option::of(any::<bool>()),
        pred_ctrl in 0usize..PRED_CTRLS.len(),
        raw_ty in 0usize..3,
        flag in 0u32..4,
        no_mask in any::<bool>(),
        null_dst in any::<bool>(),
        dword in any::<bool>(),
        mods in proptest::array::uniform3(0usize..8),
        half in any::<bool>(),
        file in proptest::collection::vec(any::<u8>(), 4096),
        active in any::<u32>(),
        flags in any::<u64>(),
    ) -> Case {
        let (n, m) = SIZES[size];
        let ops = ["mov", "add", "mul", "mad", "and", "or", "xor", "not", "shl", "shr", "asr",
                   "cmp", "sel", "mach", "csel", "mac"];
        let opname = if float {
            ["mov", "add", "mul", "mad", "cmp", "cmpn", "sel", "csel", "mac"][op % 9]
        } else {
            ops[op]
        };
        let arity = match opname { "mov" | "not" => 1, "mad" | "csel" => 3, _ => 2 };
        // Raw moves of half-precision bit patterns.
        let raw = opname == "mov" && raw_ty > 0;
        // Half results of `:hf` and `:f` sources (no condition, no source modifier).
        let half = half && float && !raw && cond.is_none()
            && matches!(opname, "mov" | "add" | "mul" | "mad" | "mac");
        let ty = |k: usize| if raw {
            ["hf", "bf"][raw_ty - 1]
        } else if half {
            if k == 3 || tys[k] % 2 == 0 { "hf" } else { "f" }
        } else if float {
            "f"
        } else if dword {
            // 32-bit integers everywhere: the word form's operands (row, scalar, immediate).
            INT_TYPES[4 + tys[k] % 2]
        } else {
            INT_TYPES[tys[k]]
        };
        let mut dst_ty = if raw { ty(0) } else { ty(3) };
        if matches!(opname, "shr" | "asr") && !float {
            // src0 must be 32-bit for the fast path; the destination any integer.
            dst_ty = INT_TYPES[tys[3]];
        }
        let srcs: Vec<String> = (0..arity)
            .map(|k| {
                let t = if matches!(opname, "shr" | "asr") && k == 0 {
                    if tys[0] % 2 == 0 { "d" } else { "ud" }
                } else {
                    ty(k)
                };
                let is_imm = imm_src == k + 1
                    && (arity == 2 && k == 1 || arity == 3 && k != 1 || arity == 1);
                // No half-precision immediates (raw moves), no :f or :*d ternary immediates.
                let imm_ok = !(t == "hf" || t == "bf" || arity == 3 && (t == "f" || t.ends_with('d')));
                // `:f` register sources with a source modifier half the time; integer ones
                // negated a quarter of the time where only the result's low 32 bits matter
                // (arithmetic, moves and picks without a condition), but not signed bytes and
                // words, negated in the execution width by the general path alone.
                let int_neg = matches!(opname, "add" | "mul" | "mad" | "mov" | "sel")
                    && cond.is_none()
                    && !matches!(t, "b" | "w");
                let m = if float && !raw && !half {
                    ["", "-", "(abs)", "-(abs)"][mods[k] % 4]
                } else if !float && !raw && int_neg {
                    ["", "-", "", ""][mods[k] % 4]
                } else {
                    ""
                };
                let m = if mods[k] < 4 { "" } else { m };
                if is_imm && imm_ok {
                    imm(imm_bits, t)
                } else if arity == 3 {
                    let rg = if k == 2 {
                        REGIONS3_SRC2[regions[k] % 3]
                    } else {
                        REGIONS3[regions[k] % 3]
                    };
                    format!("{m}{}", reg(regs[k], subs[k], rg, t))
                } else {
                    format!("{m}{}", reg(regs[k], subs[k], REGIONS[regions[k]], t))
                }
            })
            .collect();
        let flag_reg = format!("f{}.{}", flag / 2, flag % 2);
        // A raw move with a condition computes the flags from values: the general path's.
        let has_cond =
            (cond.is_some() && !raw) || matches!(opname, "cmp" | "cmpn" | "csel");
        let cond_text = if has_cond {
            format!("({}){flag_reg} ", CONDS[cond.unwrap_or(0)])
        } else {
            String::new()
        };
        let ctrl = PRED_CTRLS[pred_ctrl];
        let pred_text = match (pred, no_mask) {
            (Some(inv), true) => format!("(W&{}{flag_reg}{ctrl}) ", if inv { "~" } else { "" }),
            (Some(inv), false) => format!("({}{flag_reg}{ctrl}) ", if inv { "~" } else { "" }),
            (None, true) => "(W) ".to_string(),
            (None, false) => String::new(),
        };
        let dst = if null_dst && has_cond {
            format!("null<1>:{dst_ty}")
        } else {
            reg(regs[3], subs[3], &format!("<{dst_stride}>"), dst_ty)
        };
        let text = format!(
            "{pred_text}{opname} ({n}|M{m}) {cond_text}{dst} {}\nnop\n",
            srcs.join(" ")
        );
        Case { text, file, active: active | 1, flags }
    }
}

fn thread(c: &Case) -> Thread {
    let mut t = Thread::new(c.active);
    t.grf_mut().copy_from_slice(&c.file);
    // Random accumulators too (`mac` adds to them): the file's last registers' bytes.
    let acc = crate::regfile::ACC..crate::regfile::ACC + 8 * 32;
    let len = acc.len();
    t.file[acc].copy_from_slice(&c.file[c.file.len() - len..]);
    t.set_flags(c.flags);
    t
}

/// Runs the case's first instruction through `prog` (the `nop` after it keeps the run loop
/// from running off the end); `None` when the general path refuses it.
fn one(prog: &Program, c: &Case) -> Option<Thread> {
    let mut t = thread(c);
    match run(&mut t, prog, &mut NoMemory, 1) {
        Ok(Status::Budget) => Some(t),
        _ => None,
    }
}

/// The case's program when its text assembles into one valid instruction and the `nop`.
fn decoded(c: &Case) -> Option<Program> {
    decoded_on(Platform::Tgllp, c)
}

/// [`decoded`] for `platform`'s encoding.
fn decoded_on(platform: Platform, c: &Case) -> Option<Program> {
    let bytes = isa_encoder::assemble(platform, &c.text).ok()?;
    let prog = Program::decode(platform, &bytes);
    (prog.insts.len() == 2 && prog.insts[0].invalid.is_none()).then_some(prog)
}

/// `c` run through `prog` with its first instruction's fast form removed (the general path),
/// then through `prog` as it is.
fn both_paths(prog: &Program, c: &Case) -> (Option<Thread>, Option<Thread>) {
    let mut general = prog.clone();
    general.fast[0] = None;
    (one(&general, c), one(prog, c))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, max_global_rejects: 100_000, ..ProptestConfig::default() })]

    #[test]
    fn fast_path_matches_general_path(c in case()) {
        let Some(fast) = decoded(&c) else {
            return Err(TestCaseError::reject("not one valid instruction"));
        };
        prop_assert!(fast.fast[0].is_some(), "not on the fast path: {}", c.text);
        let (g, f) = both_paths(&fast, &c);
        prop_assume!(g.is_some());
        let f = f.expect("fast path ran");
        let g = g.expect("general path ran");
        // The accumulator's wide values matter only to a `mach` with AccWrEn: the integer
        // writes to the accumulator that may reach one take the general path alone.
        let wide = crate::regfile::ACC_WIDE..crate::regfile::ZERO;
        for (at, (x, y)) in g.file.iter().zip(f.file.iter()).enumerate() {
            if wide.contains(&at) {
                continue;
            }
            prop_assert_eq!(x, y, "byte {} differs for {}", at, c.text);
        }
    }
}

prop_compose! {
    /// IGC's flag-dependency `csel`: both value sources are the destination's own region.
    fn keep_case()(
        size in 0usize..4,
        ty in 0usize..INT_TYPES.len(),
        reg in 10u32..40,
        sub in 0u32..3,
        z in 10u32..40,
        cond in 0usize..6,
        flag in 0u32..4,
        no_mask in any::<bool>(),
        file in proptest::collection::vec(any::<u8>(), 4096),
        active in any::<u32>(),
        flags in any::<u64>(),
    ) -> Case {
        let n = [1, 4, 8, 16][size];
        let ty = INT_TYPES[ty];
        let w = if no_mask { "(W) " } else { "" };
        let v = format!("r{reg}.{sub}");
        let text = format!(
            "{w}csel ({n}|M0) ({})f{}.{} {v}<1>:{ty} {v}<1;0>:{ty} {v}<1;0>:{ty} r{z}.0<1>:{ty}\nnop\n",
            CONDS[cond], flag / 2, flag % 2,
        );
        Case { text, file, active: active | 1, flags }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn csel_of_its_own_destination_matches_general_path(c in keep_case()) {
        let bytes = isa_encoder::assemble(Platform::Tgllp, &c.text).expect("assembles");
        let fast = Program::decode(Platform::Tgllp, &bytes);
        prop_assert_eq!(fast.fast[0].map(|f| f.op), Some(FastOp::Keep), "{}", c.text);
        let (g, f) = both_paths(&fast, &c);
        let (g, f) = (g.expect("general path ran"), f.expect("fast path ran"));
        prop_assert!(g.file == f.file, "{}", c.text);
    }
}

#[test]
fn modifiers_saturation_and_wide_types_stay_on_the_general_path() {
    for text in [
        // Integer modifiers other than a negation the result's low bits alone show: `(abs)`,
        // `-` read as `not` by a logic instruction, a negation compared or tested.
        "add (16|M0) r10.0<1>:d (abs)r12.0<8;8,1>:d r14.0<8;8,1>:d",
        "and (16|M0) r10.0<1>:d -r12.0<8;8,1>:d r14.0<8;8,1>:d",
        "add (16|M0) (lt)f0.0 r10.0<1>:d -r12.0<8;8,1>:d r14.0<8;8,1>:d",
        "cmp (16|M0) (lt)f0.0 null<1>:d -r12.0<8;8,1>:d r14.0<8;8,1>:d",
        "add (16|M0) (sat)r10.0<1>:ud r12.0<8;8,1>:ud r14.0<8;8,1>:ud",
        "add (8|M0) r10.0<1>:q r12.0<4;4,1>:q r14.0<4;4,1>:q",
        "mov (16|M0) r10.0<1>:f r12.0<8;8,1>:d",
        "add (16|M0) (lt)f0.0 r10.0<1>:hf r12.0<8;8,1>:hf r14.0<8;8,1>:hf",
        "add (16|M0) r10.0<1>:hf -r12.0<8;8,1>:hf r14.0<8;8,1>:hf",
        "mov (16|M0) r10.0<1>:d r[a0.0]<1,0>:d",
        "shr (16|M0) r10.0<1>:uw r12.0<8;8,1>:uw r14.0<8;8,1>:uw",
        // Changes the rounding mode: the fast path would not see it.
        "(W) xor (1|M0) cr0.0<1>:ud cr0.0<0;1,0>:ud 0x30:uw",
    ] {
        let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect(text);
        let prog = Program::decode(Platform::Tgllp, &bytes);
        assert_eq!(prog.fast[0], None, "{text}");
    }
}

#[test]
fn common_igc_forms_take_the_fast_path() {
    for text in [
        "mad (16|M0) r10.0<1>:f r10.0<1;0>:f r12.0<1;0>:f r14.0<1>:f",
        "add (16|M0) r16.0<1>:f r10.0<8;8,1>:f r12.0<8;8,1>:f",
        "mul (16|M0) r16.0<1>:d r10.0<8;8,1>:d r12.0<16;8,2>:w",
        "mov (16|M0) r10.0<1>:ud r2.0<8;8,1>:uw",
        "(W) mov (1|M0) r18.0<1>:uw f1.0<0;1,0>:uw",
        "cmp (16|M0) (lt)f0.0 null<1>:d r2.0<8;8,1>:d 0x8:d",
        "(f0.0) sel (16|M0) r12.0<1>:f r2.0<8;8,1>:f r4.0<8;8,1>:f",
        "shl (16|M0) r12.0<1>:d r2.0<8;8,1>:d 0x2:ud",
        "mach (8|M0) r16.0<1>:d r10.0<8;8,1>:d r3.1<0;1,0>:d",
        "(W) csel (4|M0) (eq)f0.0 r0.0<1>:w r0.0<4;1>:w r0.0<4;1>:w r0.0<1>:w",
        "(W) mov (1|M0) r3.8<1>:hf 0x1:hf",
        "(W&f0.0.any32h) shr (1|M0) r4.1<1>:d r4.0<0;1,0>:ud 1:w",
        "and (16|M0) (eq)f1.0 null<1>:d r10.0<8;8,1>:d r3.3<0;1,0>:d",
        "cmp (16|M0) (lt)f0.1 null<1>:d r3.1<0;1,0>:ud r12.0<8;8,1>:ud",
        "(f1.0) sel (16|M0) r14.0<1>:d r18.0<8;8,1>:d r16.0<8;8,1>:d",
        // `:f` source modifiers (a GEMM kernel's `alpha * -x`, a `fabs`).
        "mul (8|M0) r16.0<1>:f r10.0<8;8,1>:f -r12.0<8;8,1>:f",
        "mad (16|M0) r10.0<1>:f -r10.0<1;0>:f r12.0<1;0>:f (abs)r14.0<1>:f",
        "sel (16|M0) (ge)f0.0 r14.0<1>:f -(abs)r18.0<8;8,1>:f r16.0<8;8,1>:f",
        // Integer negation (IGC's `a - b`, a negated pick).
        "add (16|M0) r36.0<1>:d r11.0<8;8,1>:d -r36.0<8;8,1>:d",
        "(f0.0) sel (16|M0) r12.0<1>:d -r10.0<8;8,1>:d 0:w",
        "mad (16|M0) r23.0<1>:d r17.0<8;1>:d -r21.0<8;1>:d -3:w",
        // Half results (an f16 network's arithmetic, a conversion to half).
        "mad (16|M0) r10.0<1>:hf r10.0<1;0>:hf r12.0<1;0>:hf r14.0<1>:hf",
        "mul (16|M0) r10.0<1>:hf r12.0<8;8,1>:hf r14.0<8;8,1>:hf",
        "(W) mov (1|M0) r3.8<1>:hf r4.0<0;1,0>:f",
    ] {
        let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect(text);
        let prog = Program::decode(Platform::Tgllp, &bytes);
        assert!(prog.fast[0].is_some(), "{text}: {:?}", prog.insts[0]);
    }
}

#[test]
fn igc_loop_forms_get_a_pre_decoded_kernel() {
    #[cfg(target_arch = "x86_64")]
    let avx2 = super::kernel::has_avx2_fma();
    #[cfg(not(target_arch = "x86_64"))]
    let avx2 = false;
    for (text, kernel) in [
        (
            "mad (16|M0) r10.0<1>:f r10.0<1;0>:f r12.0<1;0>:f r14.0<1>:f",
            true,
        ),
        ("add (16|M0) r16.0<1>:f r10.0<8;8,1>:f r12.0<8;8,1>:f", true),
        // A strided word source.
        (
            "mul (16|M0) r16.0<1>:d r10.0<8;8,1>:d r12.0<16;8,2>:w",
            true,
        ),
        ("mov (16|M0) r10.0<1>:ud r2.0<8;8,1>:uw", true),
        ("(W) add (1|M0) r4.1<1>:d r4.0<0;1,0>:d 0x40:d", true),
        ("shl (32|M0) r12.0<1>:d r2.0<8;8,1>:d 0x2:ud", true),
        // IGC's loop forms: a condition to a flag, compares (a strided one too), a `sel` by
        // predicate, a predicated scalar, the high-multiply idiom, a Word-sized scalar `mov`.
        (
            "and (16|M0) (eq)f1.0 null<1>:d r10.0<8;8,1>:d r3.3<0;1,0>:d",
            true,
        ),
        ("cmp (16|M0) (lt)f0.0 null<1>:d r2.0<8;8,1>:d 0x8:d", true),
        ("cmp (16|M0) (eq)f0.0 null<1>:w r1.0<16;16,1>:w 0:w", true),
        (
            "(W) cmp (16|M16) (lt)f0.0 null<1>:d r4.0<0;1,0>:ud 0x4:uw",
            true,
        ),
        (
            "(f1.0) sel (16|M0) r14.0<1>:d r18.0<8;8,1>:d r16.0<8;8,1>:d",
            true,
        ),
        (
            "(f0.0) sel (16|M0) r12.0<1>:f r2.0<8;8,1>:f r4.0<8;8,1>:f",
            true,
        ),
        (
            "(W&f0.0.any32h) shr (1|M0) r4.1<1>:d r4.0<0;1,0>:ud 1:w",
            true,
        ),
        (
            "(W) mul (8|M8) acc0.0<1>:d r11.0<8;8,1>:d r3.2<0;1,0>:uw",
            true,
        ),
        ("mach (8|M8) r17.0<1>:d r11.0<8;8,1>:d r3.1<0;1,0>:d", true),
        ("(W) mov (1|M0) r3.8<1>:hf 0x1:hf", true),
        ("(W) mov (1|M0) r4.3<1>:ud f0.0<0;1,0>:ud", true),
        // saxpy's prologue and its local-id word row.
        ("(W) or (1|M0) cr0.0<1>:ud cr0.0<0;1,0>:ud 0x4C0:uw", true),
        ("add (16|M0) r5.0<1>:d r4.0<0;1,0>:d r1.0<16;16,1>:uw", true),
        // A strided `mad` source: read into lanes once, as any strided source.
        (
            "mad (16|M0) r10.0<1>:f r10.0<1;0>:f r12.0<1;0>:f r14.0<2>:f",
            true,
        ),
        // A conditional `sel`, compares of mixed signedness, a condition on a Word result,
        // narrow rows, 4 of 8 lanes: the fast path's loop.
        (
            "sel (16|M0) (ge)f0.0 r14.0<1>:f r18.0<8;8,1>:f 0x0:f",
            false,
        ),
        (
            "cmp (16|M0) (lt)f0.1 null<1>:d r3.1<0;1,0>:d r12.0<8;8,1>:ud",
            false,
        ),
        (
            "add (16|M0) (eq)f0.1 r20.0<1>:w r3.1<0;1,0>:w r12.0<16;16,1>:w",
            false,
        ),
        (
            "add (16|M0) r16.0<1>:w r10.0<16;16,1>:w r12.0<16;16,1>:w",
            false,
        ),
        ("add (4|M0) r16.0<1>:d r10.0<4;4,1>:d r12.0<4;4,1>:d", false),
    ] {
        let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect(text);
        let prog = Program::decode(Platform::Tgllp, &bytes);
        let f = prog.fast[0].expect(text);
        assert_eq!(f.kernel.is_some(), kernel && avx2, "{text}");
    }
}

#[test]
fn conditions_cmp_and_sel_on_dword_rows_take_the_word_form() {
    // The loop body of IGC's code for a divergent loop (umd's sim_kernels bench, `branchy`).
    for (text, word) in [
        (
            "and (16|M0) (eq)f1.0 null<1>:d r10.0<8;8,1>:d r3.3<0;1,0>:d",
            true,
        ),
        (
            "cmp (16|M0) (lt)f0.1 null<1>:d r3.1<0;1,0>:ud r12.0<8;8,1>:ud",
            true,
        ),
        (
            "(f1.0) sel (16|M0) r14.0<1>:d r18.0<8;8,1>:d r16.0<8;8,1>:d",
            true,
        ),
        ("sel (16|M0) (ge)f0.0 r14.0<1>:f r18.0<8;8,1>:f 0x0:f", true),
        (
            "cmp (16|M0) (lt)f0.1 r20.0<1>:d r3.1<0;1,0>:d r12.0<8;8,1>:ud",
            false,
        ),
        (
            "cmp (16|M0) (lt)f0.1 r20.0<1>:w r3.1<0;1,0>:d r12.0<8;8,1>:d",
            false,
        ),
    ] {
        let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect(text);
        let prog = Program::decode(Platform::Tgllp, &bytes);
        assert_eq!(prog.fast[0].map(|f| f.word), Some(word), "{text}");
    }
}

/// 2^24 + 3 lies between the singles 2^24 + 2 and 2^24 + 4: nearest-even gives 2^24 + 4,
/// toward zero 2^24 + 2 (IEEE 754 directed rounding; cr0.0 bits 5:4 = 11b).
fn add_after(prologue: &str, cr0: u32) -> (bool, f32) {
    let text = format!("{prologue}\nadd (16|M0) r10.0<1>:f r12.0<8;8,1>:f r14.0<8;8,1>:f\nnop\n");
    let bytes = isa_encoder::assemble(Platform::Tgllp, &text).expect("assembles");
    let prog = Program::decode(Platform::Tgllp, &bytes);
    let mut t = Thread::new(0xffff);
    for r in 0..16 {
        t.grf_mut()[12 * 32 + 4 * r..][..4].copy_from_slice(&16_777_216f32.to_le_bytes());
        t.grf_mut()[14 * 32 + 4 * r..][..4].copy_from_slice(&3f32.to_le_bytes());
    }
    t.file[crate::regfile::CR0..][..4].copy_from_slice(&cr0.to_le_bytes());
    let steps = prog.insts.len() as u64 - 1;
    assert!(matches!(
        run(&mut t, &prog, &mut NoMemory, steps),
        Ok(Status::Budget)
    ));
    (prog.sets_rounding, f32::from_bits(t.grf_u32(10, 15)))
}

#[test]
fn the_fast_path_follows_a_rounding_mode_the_program_or_the_thread_sets() {
    // IGC's prologue keeps the field: cr0 is not re-read, and the mode stays nearest-even.
    assert_eq!(
        add_after("(W) or (1|M0) cr0.0<1>:ud cr0.0<0;1,0>:ud 0x4C0:uw", 0),
        (false, 16_777_220.0)
    );
    // IGC's switch to toward-zero around its division emulation.
    assert_eq!(
        add_after("(W) xor (1|M0) cr0.0<1>:ud cr0.0<0;1,0>:ud 0x30:uw", 0),
        (true, 16_777_218.0)
    );
    assert_eq!(
        add_after(
            "(W) and (1|M0) cr0.0<1>:ud cr0.0<0;1,0>:ud 0xffffffcf:ud",
            0x30
        ),
        (true, 16_777_220.0)
    );
    // A thread that starts toward-zero, with a program that does not touch cr0.
    assert_eq!(add_after("nop", 0x30), (false, 16_777_218.0));
}

/// Runs `text` (one instruction and a `nop`) on 8 lanes with `srcs[k]` in r(12 + 2k), through
/// the fast path and with it removed; returns both results from r10.
fn f32_both_paths(text: &str, srcs: &[[u32; 8]]) -> ([u32; 8], [u32; 8]) {
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let fast = Program::decode(Platform::Tgllp, &bytes);
    assert!(fast.fast[0].is_some(), "not on the fast path: {text}");
    let mut general = fast.clone();
    general.fast[0] = None;
    let go = |prog: &Program| {
        let mut t = Thread::new(0xff);
        for (k, v) in srcs.iter().enumerate() {
            for (i, x) in v.iter().enumerate() {
                t.grf_mut()[(12 + 2 * k) * 32 + 4 * i..][..4].copy_from_slice(&x.to_le_bytes());
            }
        }
        assert!(matches!(
            run(&mut t, prog, &mut NoMemory, 1),
            Ok(Status::Budget)
        ));
        std::array::from_fn(|i| t.grf_u32(10, i))
    };
    (go(&fast), go(&general))
}

/// IEEE 754-2008 §6.2: an operation on a signaling NaN delivers a quiet NaN (§6.2.1: the
/// most significant trailing-significand bit set), and §6.2.3: a NaN result carries the
/// payload (and here the sign) of an input NaN. Which input when several are NaN is the
/// simulator's documented pick ([`super::super::alu::NanFirst`]): src0, then src1, then src2.
#[test]
fn nan_sources_of_add_mul_and_mad_give_the_first_nan_quieted() {
    const ONE: u32 = 0x3f80_0000;
    const INF: u32 = 0x7f80_0000;
    // Lanes: sNaN + 1, 1 + -sNaN, qNaN + -qNaN, sNaN + sNaN, 1 + 2, then numbers.
    let a = [
        0x7f80_0001,
        ONE,
        0x7fc0_0123,
        0x7fa0_0000,
        ONE,
        ONE,
        ONE,
        ONE,
    ];
    let b = [
        ONE,
        0xff80_0002,
        0xffc0_0456,
        0xff80_0003,
        0x4000_0000,
        ONE,
        ONE,
        ONE,
    ];
    // 1 + 2 = 3 and 1 + 1 = 2; 1 x 2 = 2 and 1 x 1 = 1.
    for (op, r, rest) in [("add", 0x4040_0000, 0x4000_0000), ("mul", 0x4000_0000, ONE)] {
        let text = format!("{op} (8|M0) r10.0<1>:f r12.0<8;8,1>:f r14.0<8;8,1>:f\nnop\n");
        let (f, g) = f32_both_paths(&text, &[a, b]);
        let want = [
            0x7fc0_0001,
            0xffc0_0002,
            0x7fc0_0123,
            0x7fe0_0000,
            r,
            rest,
            rest,
            rest,
        ];
        assert_eq!(f, want, "{op} fast path");
        assert_eq!(g, want, "{op} general path");
    }
    // mad dst = src0 + src1 * src2. Lanes: a NaN factor; NaN factors and no NaN addend (src1
    // first); a NaN addend beside NaN factors (src0 first); 0 x inf + qNaN (the NaN, not a
    // new one); -qNaN src2 only; 1 + 2 x 3 = 7; then 1 + 1 x 1.
    let s0 = [ONE, ONE, 0xffa0_0007, 0x7fc0_0042, ONE, ONE, ONE, ONE];
    let s1 = [
        0x7f81_2345,
        0x7f80_0011,
        0x7fc0_0001,
        0,
        ONE,
        0x4000_0000,
        ONE,
        ONE,
    ];
    let s2 = [
        ONE,
        0xffc0_0022,
        0x7fc0_0002,
        INF,
        0xffc0_0099,
        0x4040_0000,
        ONE,
        ONE,
    ];
    let want = [
        0x7fc1_2345,
        0x7fc0_0011,
        0xffe0_0007,
        0x7fc0_0042,
        0xffc0_0099,
        0x40e0_0000,
        0x4000_0000,
        0x4000_0000,
    ];
    let text = "mad (8|M0) r10.0<1>:f r12.0<1;0>:f r14.0<1;0>:f r16.0<1>:f\nnop\n";
    let (f, g) = f32_both_paths(text, &[s0, s1, s2]);
    assert_eq!(f, want, "mad fast path");
    assert_eq!(g, want, "mad general path");
}

/// Lane values the float forms must get right: quiet and signaling NaNs of both signs,
/// infinities, denormals, signed zeros, and ordinary numbers.
const SPECIAL: [u32; 12] = [
    0x7fc0_0000,
    0xffc0_1234,
    0x7f80_0001,
    0xff80_0042,
    0x7f80_0000,
    0xff80_0000,
    0x0000_0001,
    0x8000_0001,
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
];

/// IGC's loop and reduction forms (`branchy`, `group_sum`, `mad_loop` in umd's sim_kernels
/// bench), on 1, 8, 16 and 32 lanes: `$n`/`$m` are filled in by the generator.
const IGC_FORMS: [&str; 15] = [
    "{P}{OP} ($n|M$m) ({C})$f {D}:{T} r$a<8;8,1>:{T} r$b.$s<0;1,0>:{T}",
    "{P}{OP} ($n|M$m) ({C})$f {D}:{T} r$a.$s<0;1,0>:{T} r$b<8;8,1>:{T}",
    "{P}cmp ($n|M$m) ({C})$f {D}:{T} r$a.$s<0;1,0>:{T} r$b<8;8,1>:{T}",
    "{P}cmp ($n|M$m) ({C})$f null<1>:w r$a<16;16,1>:w $i:w",
    "{P}cmp ($n|M$m) ({C})$f {D}:f r$a<8;8,1>:f r$b<8;8,1>:f",
    "{P}cmpn ($n|M$m) ({C})$f {D}:f r$a.$s<0;1,0>:f r$b<8;8,1>:f",
    "{P}sel ($n|M$m) r$d<1>:{T} r$a<8;8,1>:{T} r$b<8;8,1>:{T}",
    "{P}sel ($n|M$m) r$d<1>:f r$a<8;8,1>:f r$b.$s<0;1,0>:f",
    "{P}mov (1|M0) r$d.$s<1>:hf r$a.$s<0;1,0>:hf",
    "{P}mov (1|M0) r$d.$s<1>:w $i:w",
    "{P}mov ($n|M$m) ({C})$f r$d<1>:f r$a<8;8,1>:f",
    "(W) mul ($n|M$m) acc0.0<1>:d r$a<8;8,1>:d r$b.$s<0;1,0>:uw\n{P}mach ($n|M$m) r$d<1>:d r$a<8;8,1>:d r$b.$s<0;1,0>:d",
    // IGC's prologue (cr0 keeps its rounding field) and the local ids as a packed word row.
    "(W) or (1|M0) cr0.0<1>:ud cr0.0<0;1,0>:ud 0x4C0:uw\n{P}{OP} ($n|M$m) r$d<1>:{T} r$a.$s<0;1,0>:{T} r$b<16;16,1>:{W}",
    "{P}{OP} ($n|M$m) r$d<1>:{T} r$a<8;8,1>:{T} r$b.$s<16;8,2>:{W}",
    // Waiting for a fence's response: nothing is written.
    "{P}mov ($n|M$m) null<1>:ud r$a<8;8,1>:ud",
];

prop_compose! {
    fn igc_case()(
        form in 0usize..IGC_FORMS.len(),
        op in 0usize..7,
        lanes in 0usize..4,
        second_half in any::<bool>(),
        cond in 0usize..6,
        regs in proptest::array::uniform3(10u32..40),
        sub in 0u32..8,
        flag in 0u32..4,
        pred in proptest::option::of(any::<bool>()),
        no_mask in any::<bool>(),
        null_dst in any::<bool>(),
        signed in any::<bool>(),
        imm_bits in any::<u16>(),
        words in proptest::collection::vec((any::<u32>(), 0usize..2 * SPECIAL.len()), 1024),
        active in any::<u32>(),
        flags in any::<u64>(),
    ) -> Case {
        let n = [1, 8, 16, 32][lanes];
        // M8/M16: the second half of a split SIMD16/SIMD32 instruction.
        let m = if second_half && n < 32 && n > 1 { n } else { 0 };
        let flag_reg = format!("f{}.{}", flag / 2, flag % 2);
        let p = match (pred, no_mask) {
            (Some(inv), true) => format!("(W&{}{flag_reg}) ", if inv { "~" } else { "" }),
            (Some(inv), false) => format!("({}{flag_reg}) ", if inv { "~" } else { "" }),
            (None, true) => "(W) ".to_string(),
            (None, false) => String::new(),
        };
        let dst = if null_dst { "null<1>".to_string() } else { format!("r{}<1>", regs[2]) };
        let mut text = IGC_FORMS[form]
            .replace("{P}", &p)
            .replace("{OP}", ["and", "or", "xor", "add", "shl", "shr", "asr"][op])
            .replace("{C}", ["eq", "ne", "lt", "gt", "le", "ge"][cond])
            .replace("{D}", &dst)
            .replace("{T}", if signed { "d" } else { "ud" })
            .replace("{W}", if signed { "w" } else { "uw" })
            .replace("$n", &n.to_string())
            .replace("$m", &m.to_string())
            .replace("$f", &flag_reg)
            .replace("$a", &regs[0].to_string())
            .replace("$b", &regs[1].to_string())
            .replace("$d", &regs[2].to_string())
            .replace("$s", &sub.to_string())
            .replace("$i", &(imm_bits as i16).to_string());
        if n == 1 {
            // One channel reads one value of each source.
            text = text.replace("<8;8,1>", "<0;1,0>").replace("<16;16,1>", "<0;1,0>");
        }
        let mut file = Vec::with_capacity(4096);
        for (bits, pick) in words {
            let v = SPECIAL.get(pick).copied().unwrap_or(bits);
            file.extend_from_slice(&v.to_le_bytes());
        }
        Case { text: format!("{text}\nnop\n"), file, active: active | 1, flags }
    }
}

/// Runs every instruction but the closing `nop` through `prog`; `None` when refused.
fn all_but_last(prog: &Program, c: &Case) -> Option<Thread> {
    let mut t = thread(c);
    let steps = prog.insts.len() as u64 - 1;
    match run(&mut t, prog, &mut NoMemory, steps) {
        Ok(Status::Budget) => Some(t),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, max_global_rejects: 100_000, ..ProptestConfig::default() })]

    /// The pre-decoded kernels of IGC's loop forms against the general path: the whole
    /// register file (flags and accumulator included) byte for byte.
    #[test]
    fn igc_loop_forms_match_general_path(c in igc_case()) {
        let bytes = isa_encoder::assemble(Platform::Tgllp, &c.text);
        prop_assume!(bytes.is_ok());
        let fast = Program::decode(Platform::Tgllp, &bytes.unwrap_or_default());
        prop_assume!(fast.insts.iter().all(|i| i.invalid.is_none()));
        let last = fast.insts.len() - 1;
        prop_assert!(fast.fast[..last].iter().all(Option::is_some), "not on the fast path: {}", c.text);
        let mut general = fast.clone();
        general.fast.iter_mut().for_each(|f| *f = None);
        let g = all_but_last(&general, &c);
        prop_assume!(g.is_some());
        let f = all_but_last(&fast, &c).expect("fast path ran");
        let g = g.expect("general path ran");
        // The accumulator's wide values matter only to a `mach` with AccWrEn: the integer
        // writes to the accumulator that may reach one take the general path alone.
        let wide = crate::regfile::ACC_WIDE..crate::regfile::ZERO;
        for (at, (x, y)) in g.file.iter().zip(f.file.iter()).enumerate() {
            if wide.contains(&at) {
                continue;
            }
            prop_assert_eq!(x, y, "byte {} differs for {}", at, c.text);
        }
    }
}

/// saxpy's tail in miniature: fast instructions, a fence, `sync.nop`, a `mov` to `null`, a
/// `nop` and the end-of-thread message all run in one block (no memory needed).
const BLOCK_TEXT: &str = "(W) or (1|M0) cr0.0<1>:ud cr0.0<0;1,0>:ud 0x4C0:uw
add (8|M0) r10.0<1>:d r11.0<8;8,1>:d r12.0<8;8,1>:d
(W) send.dc0 (8|M0) r23 r3 null 0x0 0x0219E000
sync.nop null
(W) mov (8|M0) null<1>:ud r23.0<8;8,1>:ud
nop
mul (8|M0) r13.0<1>:d r10.0<8;8,1>:d r12.0<8;8,1>:d
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

/// `prog` with every fast form and every send's classified form removed: the general path.
fn general_only(prog: &Program) -> Program {
    let mut g = prog.clone();
    g.fast.iter_mut().for_each(|f| *f = None);
    g.simple.iter_mut().for_each(|s| *s = None);
    for i in &mut g.insts {
        if let Some(plan) = &mut i.send {
            plan.quick = None;
        }
    }
    g
}

fn block_thread() -> Thread {
    let mut t = Thread::new(0xff);
    for (i, b) in t.grf_mut().iter_mut().enumerate() {
        *b = (i * 7 + 3) as u8;
    }
    t
}

#[test]
fn sends_and_no_ops_run_in_the_block_as_the_general_path_runs_them() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, BLOCK_TEXT).expect("assembles");
    let fast = Program::decode(Platform::Tgllp, &bytes);
    assert!(
        fast.fast
            .iter()
            .zip(&fast.simple)
            .all(|(f, s)| f.is_some() || s.is_some()),
        "not all in the block: {:?}",
        fast.fast
    );
    let general = general_only(&fast);
    let n = fast.insts.len() as u64;
    let (mut f, mut g) = (block_thread(), block_thread());
    assert_eq!(run(&mut f, &fast, &mut NoMemory, 100), Ok(Status::Ended));
    assert_eq!(run(&mut g, &general, &mut NoMemory, 100), Ok(Status::Ended));
    assert!(f.file == g.file);
    assert_eq!((f.executed, f.ip, f.ended), (n, g.ip, true));
    assert_eq!((g.executed, g.ended), (n, true));
    // One instruction per call: each counted once, the last one ends the thread.
    let mut s = block_thread();
    for k in 1..=n {
        let want = if k == n {
            Status::Ended
        } else {
            Status::Budget
        };
        assert_eq!(run(&mut s, &fast, &mut NoMemory, 1), Ok(want), "step {k}");
        assert_eq!(s.executed, k);
    }
    // tm0 is refreshed at each call: the rest must match.
    let tm0 = crate::regfile::TM0..crate::regfile::TM0 + 8;
    s.file[tm0.clone()].copy_from_slice(&g.file[tm0]);
    assert!(s.file == g.file);
    // An ended thread stays ended.
    assert_eq!(run(&mut s, &fast, &mut NoMemory, 1), Ok(Status::Ended));
    assert_eq!(s.executed, n);
}

#[test]
fn a_send_whose_quick_form_does_not_apply_falls_to_the_general_path() {
    // An untyped surface read: without memory the quick form declines, the general path
    // reports the fault at the send, after the `add` before it ran.
    let text = "add (16|M0) r5.0<1>:d r6.0<8;8,1>:d r8.0<8;8,1>:d
send.dc1 (16|M0) r11 r5 null 0x0 0x04205E00
nop
";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let fast = Program::decode(Platform::Tgllp, &bytes);
    assert!(fast.insts[1].send.is_some_and(|p| p.quick.is_some()));
    let general = general_only(&fast);
    let (mut f, mut g) = (block_thread(), block_thread());
    let fe = run(&mut f, &fast, &mut NoMemory, 100);
    let ge = run(&mut g, &general, &mut NoMemory, 100);
    assert!(ge.is_err());
    assert_eq!(fe, ge);
    assert_eq!(fe.map_err(|e| e.offset), Err(fast.insts[1].pc));
    assert!(f.file == g.file);
    assert_eq!((f.executed, f.ip), (g.executed, g.ip));
}

/// Channels that skip an `if` wait at a plain `add` in the middle of a run of fast
/// instructions: a run must stop there so that they rejoin before it executes.
const REJOIN_TEXT: &str = "mov (16|M0) r10.0<1>:d 0:w
cmp (16|M0) (lt)f0.0 null<1>:d r11.0<8;8,1>:d r12.0<8;8,1>:d
(f0.0) if (16|M0) L_JOIN L_JOIN
add (16|M0) r10.0<1>:d r10.0<8;8,1>:d 1:w
add (16|M0) r10.0<1>:d r10.0<8;8,1>:d 2:w
L_JOIN:
add (16|M0) r10.0<1>:d r10.0<8;8,1>:d 4:w
add (16|M0) r10.0<1>:d r10.0<8;8,1>:d 8:w
nop
";

#[test]
fn fast_runs_stop_where_waiting_channels_rejoin_and_within_the_budget() {
    let bytes = isa_encoder::assemble(Platform::Tgllp, REJOIN_TEXT).expect("assembles");
    let fast = Program::decode(Platform::Tgllp, &bytes);
    let general = general_only(&fast);
    let n = fast.insts.len() as u64;
    let want = {
        let mut g = block_thread();
        g.active = 0xffff;
        assert_eq!(
            run(&mut g, &general, &mut NoMemory, 100),
            Err(ran_off(&fast))
        );
        g
    };
    // Per channel: r11 < r12 took the `if` (+1 +2), every channel got +4 +8.
    let r10: Vec<u32> = (0..16).map(|c| want.grf_u32(10, c)).collect();
    assert!(r10.contains(&15) && r10.contains(&12), "{r10:?}");
    for budget in 1..=n + 1 {
        let mut f = block_thread();
        f.active = 0xffff;
        let mut calls = 0;
        let end = loop {
            calls += 1;
            match run(&mut f, &fast, &mut NoMemory, budget) {
                Ok(Status::Budget) => assert!(calls <= n, "budget {budget}: no progress"),
                other => break other,
            }
        };
        assert_eq!(end, Err(ran_off(&fast)), "budget {budget}");
        assert_eq!(f.executed, want.executed, "budget {budget}");
        let tm0 = crate::regfile::TM0..crate::regfile::TM0 + 8;
        f.file[tm0.clone()].copy_from_slice(&want.file[tm0]);
        assert!(f.file == want.file, "budget {budget}");
    }
}

/// The error a thread gets when it runs past the program's last instruction.
fn ran_off(prog: &Program) -> crate::EuError {
    crate::error::EuErrorKind::RanOffEnd.at(prog.end)
}

/// Halves rich in the values where rounding and NaN rules show: NaNs (quiet, signalling,
/// negative), infinities, zeros, subnormals, the largest finite half, and ordinary numbers.
fn half_value() -> impl Strategy<Value = u16> {
    prop_oneof![
        any::<u16>(),
        prop::sample::select(vec![
            0x7e00u16, 0x7c01, 0xfe01, 0x7d00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001, 0x03ff,
            0x8001, 0x7bff, 0xfbff, 0x3c00, 0x3c01, 0x0400,
        ]),
    ]
}

prop_compose! {
    /// A half-result `mov`, `add`, `mul`, `mad` or `sel` (with a condition, or picked by the
    /// predicate) of `:hf` and `:f` sources in r12, r14, r16 (16 lanes), with those registers'
    /// halves drawn from [`half_value`].
    fn half_case()(
        op in 0usize..7,
        flags in any::<u32>(),
        src_hf in proptest::array::uniform3(any::<bool>()),
        scalar in proptest::array::uniform3(any::<bool>()),
        n in prop::sample::select(vec![1u32, 8, 16]),
        halves in proptest::collection::vec(half_value(), 3 * 32),
        active in any::<u32>(),
    ) -> Case {
        let opname = ["mov", "add", "mul", "mad", "sel", "sel", "(f0.0) sel"][op];
        let cond = ["", "", "", "", "(ge)f0.0 ", "(lt)f0.0 ", ""][op];
        let arity = [1, 2, 2, 3, 2, 2, 2][op];
        let srcs: Vec<String> = (0..arity)
            .map(|k| {
                let ty = if src_hf[k] { "hf" } else { "f" };
                let r = 12 + 2 * k;
                match (arity, scalar[k]) {
                    (3, true) => format!("r{r}.1<0;0>:{ty}"),
                    (3, false) if k == 2 => format!("r{r}.0<1>:{ty}"),
                    (3, false) => format!("r{r}.0<1;0>:{ty}"),
                    (_, true) => format!("r{r}.1<0;1,0>:{ty}"),
                    (_, false) => format!("r{r}.0<8;8,1>:{ty}"),
                }
            })
            .collect();
        let text = format!("{opname} ({n}|M0) {cond}r10.0<1>:hf {}\nnop\n", srcs.join(" "));
        let mut file = vec![0u8; 4096];
        for (k, h) in halves.iter().enumerate() {
            // Each source register pair holds 32 halves (or 16 singles, each two halves).
            let at = (12 + 2 * (k / 32)) * 32 + 2 * (k % 32);
            file[at..at + 2].copy_from_slice(&h.to_le_bytes());
        }
        Case { text, file, active: active | 1, flags: u64::from(flags) }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn half_results_match_general_path(c in half_case()) {
        let bytes = isa_encoder::assemble(Platform::Tgllp, &c.text).expect("assembles");
        let fast = Program::decode(Platform::Tgllp, &bytes);
        prop_assert!(fast.insts[0].invalid.is_none(), "{}", c.text);
        // (`mov` of `:hf` to `:hf` copies bits: a raw move.)
        let raw = c.text.starts_with("mov") && !c.text.contains(":f");
        let num = if raw { Num::Int } else { Num::Half };
        prop_assert_eq!(fast.fast[0].map(|f| f.num), Some(num), "{}", c.text);
        let (g, f) = both_paths(&fast, &c);
        let (g, f) = (g.expect("general path ran"), f.expect("fast path ran"));
        prop_assert!(g.file == f.file, "{}", c.text);
    }
}

/// Every one of the 65,536 half bit patterns as each source of SIMD16 `add`, `mul`, `mad` and
/// `sel` with a condition (beside partners cycling through the special values and a spread of
/// finite halves, and beside itself and its negation), and f32 values at, around and between every pair of neighbouring halves
/// through the conversion: the fast path (eight lanes at a time on a CPU with F16C) gives the general
/// path's results.
#[test]
fn every_half_matches_general_path() {
    const SPECIAL: [u16; 16] = [
        0x7e00, 0xfd01, 0x7c01, 0xfe55, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001, 0x83ff, 0x0400,
        0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3555,
    ];
    // From a half widened to f32: on it, just below, on and just above the midpoint to
    // the next half, just below the next half.
    const NEAR: [u32; 6] = [0, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000];
    let partner = |i: u32| -> u16 {
        if i.is_multiple_of(3) {
            SPECIAL[(i as usize / 3) % SPECIAL.len()]
        } else {
            (i.wrapping_mul(0x9e37) as u16) & 0xfbff
        }
    };
    let texts = [
        "add (16|M0) r10.0<1>:hf r20.0<16;16,1>:hf r21.0<16;16,1>:hf",
        "mul (16|M0) r10.0<1>:hf r21.0<16;16,1>:hf r20.0<16;16,1>:hf",
        "mad (16|M0) r10.0<1>:hf r21.0<1;0>:hf r20.0<1;0>:hf r22.0<1>:hf",
        "mad (16|M0) r10.0<1>:hf r20.0<1;0>:hf r22.0<1;0>:hf r21.0<1>:hf",
        "mad (16|M0) r10.0<1>:hf r22.0<1;0>:hf r21.0<1;0>:hf r20.0<1>:hf",
        "mov (16|M0) r10.0<1>:hf r24.0<8;8,1>:f",
        "mul (16|M0) r10.0<1>:hf r24.0<8;8,1>:f r21.0<16;16,1>:hf",
        "sel (16|M0) (ge)f0.0 r10.0<1>:hf r20.0<16;16,1>:hf r21.0<16;16,1>:hf",
        "sel (16|M0) (lt)f0.0 r10.0<1>:hf r21.0<16;16,1>:hf r20.0<16;16,1>:hf",
        "sel (16|M0) (eq)f0.0 r10.0<1>:hf r20.0<16;16,1>:hf r22.0<16;16,1>:hf",
        "sel (16|M0) (ge)f0.0 r10.0<1>:hf r24.0<8;8,1>:f r21.0<16;16,1>:hf",
        // Against itself and its negation (both zeros equal): every condition.
        "sel (16|M0) (ge)f0.0 r10.0<1>:hf r20.0<16;16,1>:hf r23.0<16;16,1>:hf",
        "sel (16|M0) (gt)f0.0 r10.0<1>:hf r20.0<16;16,1>:hf r23.0<16;16,1>:hf",
        "sel (16|M0) (le)f0.0 r10.0<1>:hf r23.0<16;16,1>:hf r20.0<16;16,1>:hf",
        "sel (16|M0) (lt)f0.0 r10.0<1>:hf r20.0<16;16,1>:hf r23.0<16;16,1>:hf",
        "sel (16|M0) (eq)f0.0 r10.0<1>:hf r20.0<16;16,1>:hf r23.0<16;16,1>:hf",
        "sel (16|M0) (ne)f0.0 r10.0<1>:hf r23.0<16;16,1>:hf r20.0<16;16,1>:hf",
    ];
    let progs: Vec<Program> = texts
        .iter()
        .map(|t| {
            let bytes =
                isa_encoder::assemble(Platform::Tgllp, &format!("{t}\nnop\n")).expect("assembles");
            let prog = Program::decode(Platform::Tgllp, &bytes);
            assert_eq!(prog.fast[0].map(|f| f.num), Some(Num::Half), "{t}");
            prog
        })
        .collect();
    let mut failures = Vec::new();
    for batch in 0..4096u32 {
        let mut file = vec![0u8; 4096];
        for l in 0..16u32 {
            let h = batch * 16 + l;
            let put =
                |file: &mut Vec<u8>, at: usize, b: &[u8]| file[at..at + b.len()].copy_from_slice(b);
            let at = 2 * l as usize;
            put(&mut file, 20 * 32 + at, &(h as u16).to_le_bytes());
            put(&mut file, 21 * 32 + at, &partner(h).to_le_bytes());
            put(
                &mut file,
                22 * 32 + at,
                &partner(h.wrapping_add(7)).to_le_bytes(),
            );
            let same = if l % 2 == 0 { h } else { h ^ 0x8000 };
            put(&mut file, 23 * 32 + at, &(same as u16).to_le_bytes());
            let wide = f16_to_f32(h as u16).to_bits();
            let f = wide.wrapping_add(NEAR[(h % 6) as usize]);
            put(&mut file, 24 * 32 + 4 * l as usize, &f.to_le_bytes());
        }
        let c = Case {
            text: String::new(),
            file,
            active: 0xffff,
            flags: 0,
        };
        for (prog, text) in progs.iter().zip(texts) {
            let (g, f) = both_paths(prog, &c);
            let (g, f) = (g.expect("general path ran"), f.expect("fast path ran"));
            let (g, f) = (&g.grf()[320..352], &f.grf()[320..352]);
            if g != f && failures.len() < 10 {
                failures.push(format!(
                    "{text} halves {:#06x}..: {f:02x?} != {g:02x?}",
                    batch * 16
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A half `mad` rounds once (IEEE 754 fusedMultiplyAdd): 2^-24 + (1 + 2^-6)(1 + 2^-5) lies
/// just above the midpoint 1 + 2^-5 + 2^-6 + 2^-11 between two halves, so it rounds up to
/// 0x3C31; rounding the exact sum to f32 first lands on the midpoint itself and then rounds
/// to even, 0x3C30. The same below half's normal range: 2^-15 + (99 * 2^-20)(331 * 2^-20) is
/// 2^-40 above the subnormals' midpoint 512.5 * 2^-24 and rounds up to 0x0201, while its f32
/// rounding is the midpoint, which rounds to even, 0x0200.
#[test]
fn half_mad_rounds_once() {
    let text = "mad (8|M0) r10.0<1>:hf r12.0<1;0>:hf r14.0<1;0>:hf r16.0<1>:hf\nnop\n";
    let bytes = isa_encoder::assemble(Platform::Tgllp, text).expect("assembles");
    let fast = Program::decode(Platform::Tgllp, &bytes);
    assert_eq!(fast.fast[0].map(|f| f.num), Some(Num::Half));
    let mut general = fast.clone();
    general.fast[0] = None;
    // (addend, multiplicands, the exact sum rounded once)
    let cases = [
        ([0x0001u16, 0x3c10, 0x3c20], 0x3c31u16),
        ([0x0200, 0x0630, 0x0d2c], 0x0201),
    ];
    for (halves, want) in cases {
        for prog in [&fast, &general] {
            let mut t = Thread::new(0xff);
            for (r, h) in [12, 14, 16].into_iter().zip(halves) {
                for i in 0..8 {
                    t.grf_mut()[r * 32 + 2 * i..][..2].copy_from_slice(&h.to_le_bytes());
                }
            }
            assert!(matches!(
                run(&mut t, prog, &mut NoMemory, 1),
                Ok(Status::Budget)
            ));
            let r = u16::from_le_bytes([t.grf_mut()[320], t.grf_mut()[321]]);
            assert_eq!(r, want, "mad of {halves:04x?}");
        }
    }
}

/// IGC's 32-bit multiply (`mul acc0`, `mach {AccWrEn}`: the accumulator's wide integer value,
/// which only the general path keeps) in a kernel whose float arithmetic accumulates in acc0
/// (OpenVINO's convolutions).
const ACC_TEXT: &str = "(W) mul (8|M0) acc0.0<1>:d r10.0<8;8,1>:d r11.0<0;1,0>:uw
(W) mach (8|M0) r12.0<1>:d r10.0<8;8,1>:d r11.0<0;1,0>:d {AccWrEn}
mad (8|M0) acc0.0<1>:f r20.0<1;0>:f r21.0<1;0>:f r22.0<0;0>:f
mad (8|M0) r23.0<1>:f acc0.0<1;0>:f r21.0<1;0>:f r22.1<0;0>:f
add (8|M0) acc0.0<1>:f acc0.0<8;8,1>:f r24.0<8;8,1>:f
(W) mul (8|M0) acc0.0<1>:d r13.0<8;8,1>:d r11.0<0;1,0>:uw
(W) mach (8|M0) r14.0<1>:d r13.0<8;8,1>:d r11.0<0;1,0>:d {AccWrEn}
mov (8|M0) r25.0<1>:f acc0.0<8;8,1>:f
nop
";

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// There integer writes to the accumulator stay on the general path and float ones take
    /// the fast path; the whole program gives the general path's registers.
    #[test]
    fn float_accumulation_beside_mach_matches_general_path(
        words in proptest::collection::vec((any::<u32>(), 0usize..2 * SPECIAL.len()), 1024),
        active in any::<u32>(),
    ) {
        let bytes = isa_encoder::assemble(Platform::Tgllp, ACC_TEXT).expect("assembles");
        let fast = Program::decode(Platform::Tgllp, &bytes);
        let forms: Vec<bool> = fast.fast.iter().map(Option::is_some).collect();
        prop_assert_eq!(&forms[..8], &[false, false, true, true, true, false, false, true]);
        let mut file = Vec::with_capacity(4096);
        for (bits, pick) in words {
            file.extend_from_slice(&SPECIAL.get(pick).copied().unwrap_or(bits).to_le_bytes());
        }
        let c = Case { text: ACC_TEXT.into(), file, active: active | 1, flags: 0 };
        let mut general = fast.clone();
        general.fast.iter_mut().for_each(|f| *f = None);
        let g = all_but_last(&general, &c).expect("general path ran");
        let f = all_but_last(&fast, &c).expect("fast path ran");
        prop_assert!(g.file == f.file);
    }
}

/// IGC's Xe-HPG code for `size_t` arithmetic (from the OpenCL-CTS kernel
/// `test_wg_scan_local_work_group_size`, compiled by `ocloc -device dg2`): multiply-high pairs
/// beside other integer writes to the accumulator (`add3 acc2`, `mov acc0 acc0`).
const WIDE_PAIRS_TEXT: &str = "(W) mul (1|M0) acc0.0<1>:d r9.4<0;1,0>:d r115.2<0;1,0>:uw
(W) mach (1|M0) r10.0<1>:d r9.4<0;1,0>:d r115.1<0;1,0>:d
add3 (16|M0) r11.0<1>:d r10.0<0;0>:d r1.0<1;0>:uw r7.0<0>:d
subb (8|M0) r116.0<1>:ud r11.0<1;1,0>:ud r7.0<0;1,0>:ud {AccWrEn}
mov (8|M0) r15.0<1>:ud acc0.0<1;1,0>:ud
mov (8|M24) acc0.0<1>:ud acc0.0<1;1,0>:ud
mov (8|M24) r123.0<1>:ud -acc0.0<1;1,0>:ud
mul (8|M0) acc0.0<1>:ud r15.0<1;1,0>:ud r8.8<0;1,0>:uw
mach (8|M0) r27.0<1>:ud r15.0<1;1,0>:ud r8.4<0;1,0>:ud {AccWrEn}
mov (8|M0) r29.0<1>:ud acc0.0<1;1,0>:ud
mul (8|M8) acc0.0<1>:ud r16.0<1;1,0>:ud r8.8<0;1,0>:uw
mach (8|M8) r28.0<1>:ud r16.0<1;1,0>:ud r8.4<0;1,0>:ud {AccWrEn}
mov (8|M8) r30.0<1>:ud acc0.0<1;1,0>:ud
add3 (8|M0) acc2.0<1>:ud -r54.0<1;0>:ud r35.0<1;0>:ud 0x0:uw
add (8|M0) r67.0<1>:ud r66.0<1;1,0>:ud acc2.0<1;1,0>:ud
mul (8|M16) acc0.0<1>:ud r21.0<1;1,0>:ud r8.8<0;1,0>:uw
mach (8|M16) r37.0<1>:ud r21.0<1;1,0>:ud r8.4<0;1,0>:ud {AccWrEn}
add3 (8|M16) acc2.0<1>:ud -r60.0<1;0>:ud r45.0<1;0>:ud 0x0:uw
add (8|M16) r73.0<1>:ud r72.0<1;1,0>:ud acc2.0<1;1,0>:ud
nop
";

/// What may write or read the accumulator around a `mach` with AccWrEn: 0–3 integer writes
/// to it, 4 a multiply-high pair (`mul acc0`, `mach`) in the channels `m`, its `mul` without
/// a mask where `w`, 5 a `mach` without its `mul`, 6 a read of it.
fn wide_item((kind, m, w): (usize, u32, bool)) -> Vec<String> {
    let w = if w { "(W) " } else { "" };
    let line = match kind {
        0 => "add (8|M0) acc0.0<1>:ud r12.0<8;8,1>:ud r13.0<8;8,1>:ud".to_string(),
        1 => "add3 (8|M8) acc2.0<1>:ud -r54.0<1;0>:ud r35.0<1;0>:ud 0x0:uw".to_string(),
        2 => "mov (8|M0) acc0.0<1>:ud acc0.0<8;8,1>:ud".to_string(),
        3 => format!("mov (8|M{m}) acc0.0<1>:d r20.0<8;8,1>:d"),
        4 => {
            return vec![
                format!("{w}mul (8|M{m}) acc0.0<1>:ud r15.0<8;8,1>:ud r8.8<0;1,0>:uw"),
                format!("mach (8|M{m}) r27.0<1>:ud r15.0<8;8,1>:ud r8.4<0;1,0>:ud {{AccWrEn}}"),
            ]
        }
        5 => format!("mach (8|M{m}) r28.0<1>:ud r16.0<8;8,1>:ud r8.4<0;1,0>:ud {{AccWrEn}}"),
        _ => format!("add (8|M{m}) r40.0<1>:ud r41.0<8;8,1>:ud acc0.0<8;8,1>:ud"),
    };
    vec![line]
}

/// `prog`'s result without its fast forms and with them: every byte of the register file but
/// the accumulator's wide values (kept by the general path alone) must match.
fn same_but_wide(prog: &Program, c: &Case) -> Result<(), TestCaseError> {
    let mut general = prog.clone();
    general.fast.iter_mut().for_each(|f| *f = None);
    let g = all_but_last(&general, c).expect("general path ran");
    let f = all_but_last(prog, c).expect("fast path ran");
    let wide = crate::regfile::ACC_WIDE..crate::regfile::ZERO;
    for (at, (x, y)) in g.file.iter().zip(f.file.iter()).enumerate() {
        if !wide.contains(&at) {
            prop_assert_eq!(x, y, "byte {} differs for\n{}", at, c.text);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Where each `mach` with AccWrEn directly follows the `mul` that fills its accumulator
    /// DWords, only those `mul`s keep the wide values (the general path): other integer
    /// writes to the accumulator take the fast path. A `mach` after anything else reads what
    /// the instruction before left, so there every integer write stays general. Either way
    /// the program's registers are the general path's.
    #[test]
    fn accumulator_writes_beside_mach_match_general_path(
        items in proptest::collection::vec((0usize..7, prop::sample::select(vec![0u32, 8, 16]), any::<bool>()), 1..8),
        file in proptest::collection::vec(any::<u8>(), 4096),
        active in any::<u32>(),
    ) {
        let lines: Vec<String> = items.iter().copied().flat_map(wide_item).collect();
        let text = lines.join("\n") + "\nnop\n";
        let bytes = isa_encoder::assemble(Platform::Dg2, &text).expect("assembles");
        let prog = Program::decode(Platform::Dg2, &bytes);
        let lone_mach = items.iter().any(|&(kind, ..)| kind == 5);
        let mut k = 0;
        for &(kind, ..) in &items {
            let fast = prog.fast[k].is_some();
            match kind {
                0..=3 => prop_assert_eq!(fast, !lone_mach, "{}: {}", k, text),
                4 => prop_assert!(!fast && prog.fast[k + 1].is_none(), "{}: {}", k, text),
                _ => {}
            }
            k += if kind == 4 { 2 } else { 1 };
        }
        same_but_wide(&prog, &Case { text, file, active: active | 1, flags: 0 })?;
    }

    /// IGC's own code: its `add3` and `mov` to the accumulator are fast, the `mul`s that feed
    /// a `mach` are not, and the registers are the general path's.
    #[test]
    fn igc_wide_pairs_take_the_fast_path_beside_them(
        file in proptest::collection::vec(any::<u8>(), 4096),
        active in any::<u32>(),
    ) {
        let bytes = isa_encoder::assemble(Platform::Dg2, WIDE_PAIRS_TEXT).expect("assembles");
        let prog = Program::decode(Platform::Dg2, &bytes);
        let fast: Vec<usize> = (0..prog.fast.len()).filter(|&k| prog.fast[k].is_some()).collect();
        // The `mul`s at 7, 10 and 15, their `mach`s and the `subb` stay general (the first
        // pair's `mach` has no AccWrEn: a 32-bit `mul`, as is the `mul` before it).
        prop_assert_eq!(fast, vec![0, 1, 2, 4, 5, 6, 9, 12, 13, 14, 17, 18]);
        same_but_wide(&prog, &Case { text: WIDE_PAIRS_TEXT.into(), file, active: active | 1, flags: 0 })?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// The packed layout translated code passes (`:hf` sources two bytes a lane, `:f` four,
    /// results packed) gives what [`super::half_results`] gives on the same lanes, on the
    /// host's path and on the per-lane one.
    #[test]
    fn packed_half_results_match_the_lanes(
        op in prop::sample::select(vec![FastOp::Mov, FastOp::Add, FastOp::Mul, FastOp::Mad]),
        hf in proptest::array::uniform3(any::<bool>()),
        groups in 1usize..=4,
        halves in proptest::collection::vec(half_value(), 3 * 32),
        singles in proptest::collection::vec(any::<u32>(), 3 * 32),
    ) {
        let mut src = [[0u8; 128]; 3];
        let mut lanes = [[0u32; 32]; 3];
        for k in 0..3 {
            for i in 0..32 {
                if hf[k] {
                    let h = halves[32 * k + i];
                    lanes[k][i] = u32::from(h);
                    src[k][2 * i..2 * i + 2].copy_from_slice(&h.to_le_bytes());
                } else {
                    let f = singles[32 * k + i];
                    lanes[k][i] = f;
                    src[k][4 * i..4 * i + 4].copy_from_slice(&f.to_le_bytes());
                }
            }
        }
        let want = super::half_results::<32>(op, hf, [&lanes[0], &lanes[1], &lanes[2]]);
        let srcs = [&src[0][..], &src[1][..], &src[2][..]];
        // The host's path (F16C here) and the per-lane one of CPUs without it.
        type Packed = fn(FastOp, [bool; 3], usize, [&[u8]; 3], &mut [std::mem::MaybeUninit<u16>]) -> usize;
        let paths: [(&str, Packed); 2] = [
            ("host", super::half_results_packed),
            ("per lane", super::packed_by_lanes),
        ];
        for (path, packed) in paths {
            let mut out = [std::mem::MaybeUninit::new(0xdead_u16); 32];
            let written = packed(op, hf, groups, srcs, &mut out);
            prop_assert_eq!(written, groups, "{}", path);
            for i in 0..32 {
                // SAFETY: every element was initialized above.
                let got = unsafe { out[i].assume_init() };
                let w = if i < 8 * groups { want[i] as u16 } else { 0xdead };
                prop_assert_eq!(got, w, "{} lane {}", path, i);
            }
        }
    }
}

prop_compose! {
    /// `math.iqot` and `math.irem` of any integer types and regions, SIMD1 to SIMD32, over a
    /// file whose DWords are often 0, -1, 1 and `i32::MIN` (division by zero, the one signed
    /// overflow).
    fn div_case()(
        rem in any::<bool>(),
        size in 0usize..SIZES.len(),
        tys in proptest::array::uniform3(0usize..INT_TYPES.len()),
        regs in proptest::array::uniform3(10u32..40),
        regions in proptest::array::uniform2(0usize..REGIONS.len()),
        divisor in proptest::option::of(prop_oneof![Just(0u32), Just(u32::MAX), any::<u32>()]),
        words in proptest::collection::vec(
            prop_oneof![
                Just(0u32),
                Just(u32::MAX),
                Just(1),
                Just(0x8000_0000),
                any::<u32>(),
            ],
            1024,
        ),
        active in any::<u32>(),
        flags in any::<u64>(),
    ) -> Case {
        let (n, m) = SIZES[size];
        let ty = |k: usize| INT_TYPES[tys[k]];
        let src1 = match divisor {
            Some(bits) => imm(bits, ty(1)),
            None => reg(regs[2], 0, REGIONS[regions[1]], ty(1)),
        };
        let text = format!(
            "math.{} ({n}|M{m}) {} {} {src1}\nnop\n",
            if rem { "irem" } else { "iqot" },
            reg(regs[0], 0, "<1>", ty(2)),
            reg(regs[1], 0, REGIONS[regions[0]], ty(0)),
        );
        let file = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        Case { text, file, active: active | 1, flags }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, max_global_rejects: 100_000, ..ProptestConfig::default() })]

    /// Integer division on the fast path gives the general path's bytes.
    #[test]
    fn integer_division_matches_general_path(c in div_case()) {
        let Some(fast) = decoded(&c) else {
            return Err(TestCaseError::reject("not one valid instruction"));
        };
        prop_assert!(
            matches!(fast.fast[0], Some(ref f) if matches!(f.op, FastOp::IntDiv { .. })),
            "not on the fast path: {}",
            c.text
        );
        let (g, f) = both_paths(&fast, &c);
        prop_assume!(g.is_some());
        let f = f.expect("fast path ran");
        let g = g.expect("general path ran");
        prop_assert!(f.file == g.file, "{}", c.text);
    }
}

prop_compose! {
    /// Xe-HPG's `add3` (IGC's address arithmetic there): word and DWord sources of either
    /// signedness in the Align1 ternary regions, 16-bit immediates in src0 or src2, a
    /// negated source where the general path negates in 32 bits (not a signed word).
    fn add3_case()(
        size in 0usize..SIZES.len(),
        tys in proptest::array::uniform4(2usize..INT_TYPES.len()),
        regs in proptest::array::uniform4(10u32..40),
        subs in proptest::array::uniform4(0u32..3),
        regions in proptest::array::uniform3(0usize..3),
        dst_stride in 1u32..3,
        imm_src in 0usize..4,
        imm_bits in any::<u32>(),
        negs in proptest::array::uniform3(0usize..4),
        pred in proptest::option::of((any::<bool>(), 0u32..4)),
        no_mask in any::<bool>(),
        file in proptest::collection::vec(any::<u8>(), 4096),
        active in any::<u32>(),
        flags in any::<u64>(),
    ) -> Case {
        let (n, m) = SIZES[size];
        let srcs: Vec<String> = (0..3)
            .map(|k| {
                let t = INT_TYPES[tys[k]];
                if imm_src == k + 1 && k != 1 && matches!(t, "w" | "uw") {
                    return imm(imm_bits, t);
                }
                let neg = if negs[k] == 0 && t != "w" { "-" } else { "" };
                let rg = if k == 2 { REGIONS3_SRC2[regions[k]] } else { REGIONS3[regions[k]] };
                format!("{neg}{}", reg(regs[k], subs[k], rg, t))
            })
            .collect();
        let pred_text = match (pred, no_mask) {
            (Some((inv, f)), w) => format!(
                "({}{}f{}.{}) ",
                if w { "W&" } else { "" },
                if inv { "~" } else { "" },
                f / 2,
                f % 2
            ),
            (None, true) => "(W) ".to_string(),
            (None, false) => String::new(),
        };
        let dst = reg(regs[3], subs[3], &format!("<{dst_stride}>"), INT_TYPES[tys[3]]);
        let text = format!("{pred_text}add3 ({n}|M{m}) {dst} {}\nnop\n", srcs.join(" "));
        Case { text, file, active: active | 1, flags }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, max_global_rejects: 100_000, ..ProptestConfig::default() })]

    #[test]
    fn add3_fast_path_matches_general_path(c in add3_case()) {
        let Some(fast) = decoded_on(Platform::Dg2, &c) else {
            return Err(TestCaseError::reject("not one valid instruction"));
        };
        prop_assert_eq!(fast.fast[0].map(|f| f.op), Some(FastOp::Add3), "{}", c.text);
        let (g, f) = both_paths(&fast, &c);
        prop_assume!(g.is_some());
        let (g, f) = (g.expect("general path ran"), f.expect("fast path ran"));
        prop_assert!(g.file == f.file, "{}", c.text);
    }
}
