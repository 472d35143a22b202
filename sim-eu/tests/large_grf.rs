//! Xe-HPG's Large GRF Mode (STATE_COMPUTE_MODE): a thread of a program decoded for 256
//! registers reaches r128..r255; one decoded for the default 128 faults on the first
//! instruction that names them, with the out-of-range error and the byte it reached.

use platform::Platform;
use sim_eu::regfile::REG_BYTES;
use sim_eu::{run, EuErrorKind, NoMemory, Program, Status, Thread};

const P: Platform = Platform::Dg2;

/// Copies r10 through r200 and r255 (adding 100) into r11; the extra `nop` keeps the thread
/// running when the budget of 3 instructions ends.
const THROUGH_R200: &str = "
    mov (8|M0) r200.0<1>:ud r10.0<8;8,1>:ud
    add (8|M0) r255.0<1>:ud r200.0<8;8,1>:ud 0x64:ud
    mov (8|M0) r11.0<1>:ud r255.0<8;8,1>:ud
    nop
";

fn lane_input(i: usize) -> u32 {
    3 * i as u32 + 1
}

fn thread() -> Thread {
    let mut t = Thread::new(0xff);
    for i in 0..8 {
        t.grf_mut()[10 * REG_BYTES + 4 * i..][..4].copy_from_slice(&lane_input(i).to_le_bytes());
    }
    t
}

fn u32s(t: &Thread, reg: usize) -> Vec<u32> {
    (0..8)
        .map(|i| u32::from_le_bytes(t.grf()[reg * REG_BYTES + 4 * i..][..4].try_into().unwrap()))
        .collect()
}

#[test]
fn r200_runs_with_256_registers() {
    let regs = P.large_grf_regs().expect("dg2 has Large GRF Mode") as usize;
    assert_eq!(regs, 256);
    let bytes = isa_encoder::assemble(P, THROUGH_R200).unwrap();
    let prog = Program::decode_with_grf(P, regs, &bytes);
    let mut t = thread();
    assert_eq!(run(&mut t, &prog, &mut NoMemory, 3), Ok(Status::Budget));
    assert_eq!(t.grf_regs(), 256);
    assert_eq!(t.grf().len(), 256 * REG_BYTES);
    let want: Vec<u32> = (0..8).map(|i| lane_input(i) + 100).collect();
    assert_eq!(u32s(&t, 11), want);
    assert_eq!(u32s(&t, 255), want);
}

#[test]
fn r200_faults_with_128_registers() {
    let bytes = isa_encoder::assemble(P, THROUGH_R200).unwrap();
    let prog = Program::decode(P, &bytes);
    let mut t = thread();
    let e = run(&mut t, &prog, &mut NoMemory, 3).unwrap_err();
    assert_eq!(e.offset, 0, "the first instruction names r200");
    assert_eq!(
        e.kind,
        EuErrorKind::RegisterOutOfRange {
            file: "the GRF",
            byte: 200 * REG_BYTES as u32,
        }
    );
    assert_eq!(u32s(&t, 11), [0; 8], "nothing after the fault ran");
}

/// An indirect source decodes the thread's whole GRF: 0x1900 (r200) reads r200 with 256
/// registers; with 128 the address keeps its low 12 bits and reads r72 (0x900).
#[test]
fn indirect_address_spans_the_threads_grf() {
    let text = "
        (W) mov (1|M0) a0.0<1>:uw 0x1900:uw
        mov (8|M0) r11.0<1>:ud r[a0.0]<8;8,1>:ud
        nop
    ";
    let bytes = isa_encoder::assemble(P, text).unwrap();
    for (regs, want) in [(256usize, 1000u32), (128, 2000)] {
        let prog = Program::decode_with_grf(P, regs, &bytes);
        let mut t = Thread::new(0xff);
        t.set_grf_regs(regs);
        for (reg, base) in [(200usize, 1000u32), (72, 2000)]
            .into_iter()
            .filter(|&(r, _)| r < regs)
        {
            for i in 0..8 {
                t.grf_mut()[reg * REG_BYTES + 4 * i..][..4]
                    .copy_from_slice(&(base + i as u32).to_le_bytes());
            }
        }
        assert_eq!(run(&mut t, &prog, &mut NoMemory, 2), Ok(Status::Budget));
        let got = u32s(&t, 11);
        assert_eq!(
            got,
            (0..8).map(|i| want + i).collect::<Vec<_>>(),
            "{regs} registers"
        );
    }
}

/// Platforms without the mode keep 128 registers whatever is asked for.
#[test]
fn only_xe_hpg_has_the_mode() {
    for p in Platform::ALL {
        let large = p.grf_regs(true);
        assert_eq!(p.grf_regs(false), 128, "{p}");
        assert_eq!(large, if p == Platform::Dg2 { 256 } else { 128 }, "{p}");
    }
}
