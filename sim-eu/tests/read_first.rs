//! The registers a kernel may read before writing them (`Program::read_first`), which a
//! dispatcher handing one thread's register file on to the next clears, leaving the others as
//! the last thread left them. Directed cases from the ISA's channel rules (a write stores the
//! enabled channels of its region, none when predicated; a `(W)` write all of them), and a
//! property: for random straight-line programs, registers outside the set may hold anything
//! without changing a byte the program computes.

use platform::Platform;
use proptest::prelude::*;
use sim_eu::regfile::GrfSet;
use sim_eu::{run, NoMemory, Program, Status, Thread};

const REG: usize = 32;

fn regs(list: &[usize]) -> GrfSet {
    list.iter()
        .fold(GrfSet::EMPTY, |s, &r| s | GrfSet::range(r, 1))
}

/// `text` (plus an end of thread reading r127, which the kernel writes first) on tgllp: the
/// set for `simd`, restricted to r0-r30 and r127.
fn read_first(text: &str, simd: u32) -> GrfSet {
    let p = Platform::Tgllp;
    let text = format!(
        "(W) mov (8|M0) r127.0<1>:ud r0.0<8;8,1>:ud\n{text}\n\
         (W) send.ts (8|M0) null r127 null 0x0 0x02000010 {{EOT}}\n"
    );
    let code = isa_encoder::assemble(p, &text).expect(&text);
    Program::decode(p, &code).read_first(simd) & (GrfSet::range(0, 31) | GrfSet::range(127, 1))
}

#[test]
fn registers_written_whole_before_any_read_are_not_read_first() {
    let text = "mov (8|M0) r10.0<1>:d r20.0<8;8,1>:d\n\
                add (8|M0) r11.0<1>:d r10.0<8;8,1>:d r21.0<0;1,0>:d";
    assert_eq!(read_first(text, 8), regs(&[0, 20, 21]));
}

#[test]
fn a_masked_write_stores_only_the_channels_a_thread_has() {
    // SIMD8: channels 8-15 of a (16|M0) :d write (r11) are never enabled.
    let text = "mov (16|M0) r10.0<1>:d r20.0<8;8,1>:d\n\
                mov (16|M0) r12.0<1>:d r10.0<8;8,1>:d";
    assert_eq!(read_first(text, 8), regs(&[0, 11, 20, 21]));
    // SIMD16 has them; a (W) write stores them whatever the width.
    assert_eq!(read_first(text, 16), regs(&[0, 20, 21]));
    let text = "(W) mov (16|M0) r10.0<1>:d r20.0<8;8,1>:d\n\
                mov (16|M0) r12.0<1>:d r10.0<8;8,1>:d";
    assert_eq!(read_first(text, 8), regs(&[0, 20, 21]));
}

#[test]
fn a_predicated_write_stores_nothing_certain() {
    let text = "(f0.0) mov (8|M0) r10.0<1>:d r20.0<8;8,1>:d\n\
                mov (8|M0) r11.0<1>:d r10.0<8;8,1>:d";
    assert_eq!(read_first(text, 8), regs(&[0, 10, 20]));
}

#[test]
fn a_partly_written_register_is_read_first_where_the_read_passes_the_write() {
    // Four DWords written, the first four read: not read first; all eight read: read first.
    let text = "(W) mov (4|M0) r10.0<1>:d r20.0<4;4,1>:d\n\
                mov (4|M0) r11.0<1>:d r10.0<4;4,1>:d";
    assert_eq!(read_first(text, 8), regs(&[0, 20]));
    let text = "(W) mov (4|M0) r10.0<1>:d r20.0<4;4,1>:d\n\
                mov (8|M0) r11.0<1>:d r10.0<8;8,1>:d";
    assert_eq!(read_first(text, 8), regs(&[0, 10, 20]));
}

#[test]
fn a_discarded_move_reads_nothing_that_shows() {
    // IGC's wait on a response: `mov null, r`.
    let text = "mov (8|M0) null<1>:ud r19.0<8;8,1>:ud";
    assert_eq!(read_first(text, 8), regs(&[0]));
    // With a condition it sets flags from what it reads.
    let text = "mov (8|M0) (eq)f0.0 null<1>:ud r19.0<8;8,1>:ud";
    assert_eq!(read_first(text, 8), regs(&[0, 19]));
}

#[test]
fn past_control_flow_every_register_not_written_whole_counts() {
    let text = "mov (8|M0) r10.0<1>:d r20.0<8;8,1>:d\n\
                (W) mov (1|M0) r12.0<1>:d 0:d\n\
                jmpi (1|M0) L0\n\
                L0:\n\
                mov (8|M0) r11.0<1>:d r10.0<8;8,1>:d";
    let got = read_first(text, 8);
    assert!(!got.contains(10) && !got.contains(127), "{got:?}");
    for r in [0, 11, 12, 13, 20, 30] {
        assert!(got.contains(r), "r{r} in {got:?}");
    }
}

#[test]
fn an_indirect_operand_stops_the_walk() {
    let text = "mov (8|M0) r10.0<1>:d r20.0<8;8,1>:d\n\
                (W) mov (1|M0) a0.0<1>:uw 0x200:uw\n\
                mov (8|M0) r11.0<1>:d r[a0.0]<8,1>:d";
    let got = read_first(text, 8);
    assert!(got.contains(11) && got.contains(30) && !got.contains(10));
}

#[test]
fn a_send_reads_its_payload_and_a_read_message_writes_its_response() {
    // IGC's untyped surface read (SIMD16, one channel: addresses r5-r6, response r11-r12),
    // then a use of the response.
    let text = "mov (16|M0) r5.0<1>:d r20.0<8;8,1>:d\n\
                send.dc1 (16|M0) r11 r5 null 0x0 0x04205E00\n\
                add (16|M0) r13.0<1>:f r11.0<8;8,1>:f r22.0<8;8,1>:f";
    assert_eq!(read_first(text, 16), regs(&[0, 20, 21, 22, 23]));
    // A fence's response keeps the register's bytes: a use of it is a read first.
    let text = "(W) send.dc0 (8|M0) r19 r0 null 0x0 0x0219E000\n\
                mov (8|M0) r12.0<1>:ud r19.0<8;8,1>:ud";
    assert_eq!(read_first(text, 8), regs(&[0, 19]));
}

/// Random straight-line instructions over r10-r21 (so they overlap), any width and channel
/// offset, masked or `(W)`, predicated or not.
fn instruction() -> impl Strategy<Value = String> {
    (
        0usize..6,
        0usize..5,
        (10u32..20, 10u32..22, 10u32..22),
        (0usize..3, 0usize..3),
        any::<bool>(),
        0usize..5,
        any::<bool>(),
    )
        .prop_map(|(op, size, (d, a, b), (ra, rb), no_mask, pred, wide)| {
            let (n, m) = [(8, 0), (8, 8), (16, 0), (16, 16), (4, 0)][size];
            let ty = if wide { "d" } else { "w" };
            let region = |r: usize| ["<8;8,1>", "<0;1,0>", "<16;8,2>"][r];
            let src = |reg: u32, r: usize| format!("r{reg}.0{}:{ty}", region(r));
            let lead = match (no_mask, pred == 0) {
                (true, true) => "(W&f0.0) ",
                (true, false) => "(W) ",
                (false, true) => "(f0.0) ",
                (false, false) => "",
            };
            let dst = format!("r{d}.0<1>:{ty}");
            let body = match op {
                0 => format!("mov ({n}|M{m}) {dst} {}", src(a, ra)),
                1 => format!("add ({n}|M{m}) {dst} {} {}", src(a, ra), src(b, rb)),
                2 => format!("mul ({n}|M{m}) {dst} {} {}", src(a, ra), src(b, rb)),
                3 => format!("xor ({n}|M{m}) {dst} {} {}", src(a, ra), src(b, rb)),
                4 => format!(
                    "cmp ({n}|M{m}) (lt)f0.0 {dst} {} {}",
                    src(a, ra),
                    src(b, rb)
                ),
                _ => format!(
                    "sel ({n}|M{m}) (ge)f0.1 {dst} {} {}",
                    src(a, ra),
                    src(b, rb)
                ),
            };
            format!("{lead}{body}")
        })
}

/// Runs `prog` (`count` instructions) on a thread of `simd` channels whose GRF starts as
/// `grf`; the GRF and flags after.
fn run_from(prog: &Program, count: u64, simd: u32, grf: &[u8]) -> (Vec<u8>, u64) {
    let mask = if simd == 32 {
        u32::MAX
    } else {
        (1 << simd) - 1
    };
    let mut t = Thread::new(mask);
    t.grf_mut()[..grf.len()].copy_from_slice(grf);
    assert_eq!(run(&mut t, prog, &mut NoMemory, count), Ok(Status::Budget));
    (t.grf()[..grf.len()].to_vec(), t.flags())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn registers_outside_the_set_do_not_change_what_a_program_computes(
        insts in proptest::collection::vec(instruction(), 1..8),
        simd in prop_oneof![Just(8u32), Just(16), Just(32)],
        seeds in proptest::array::uniform2(proptest::collection::vec(any::<u8>(), 32 * REG)),
        platform in prop_oneof![Just(Platform::Skl), Just(Platform::Tgllp)],
    ) {
        let text = format!("{}\nnop\n", insts.join("\n"));
        let Ok(code) = isa_encoder::assemble(platform, &text) else {
            // (Forms the platform does not encode.)
            return Ok(());
        };
        let prog = Program::decode(platform, &code);
        prop_assume!(prog.insts.iter().all(|i| i.invalid.is_none()));
        let first = prog.read_first(simd);
        let count = insts.len() as u64;
        // Registers in the set start zero, as for a cleared thread; the others hold garbage.
        let start = |garbage: &[u8]| {
            let mut g = garbage.to_vec();
            for r in 0..32 {
                if first.contains(r) {
                    g[r * REG..(r + 1) * REG].fill(0);
                }
            }
            g
        };
        let (g1, g2) = (start(&seeds[0]), start(&seeds[1]));
        let (f0, flags0) = run_from(&prog, count, simd, &[0u8; 32 * REG]);
        let (f1, flags1) = run_from(&prog, count, simd, &g1);
        let (f2, flags2) = run_from(&prog, count, simd, &g2);
        prop_assert_eq!(flags0, flags1, "{}", text);
        prop_assert_eq!(flags0, flags2, "{}", text);
        for b in 0..32 * REG {
            // A byte the program computed is the same from any start; one it did not write
            // is what the start held.
            let computed = f1[b] == f0[b] && f2[b] == f0[b];
            let untouched = f0[b] == 0 && f1[b] == g1[b] && f2[b] == g2[b];
            prop_assert!(computed || untouched, "r{}.{}: {} / {} / {} in\n{}", b / REG, b % REG, f0[b], f1[b], f2[b], text);
        }
    }
}
