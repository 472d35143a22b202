//! `jmpi` with a register operand (oneDNN's generated GEMM kernels on Xe-HPG jump into a table
//! through it): the register's first element is the byte offset from the `jmpi`, as the
//! immediate form's JIP. The program's bytes are `iga64 -a -p 12p71`'s for
//!
//! ```text
//! [0000] (W) mov (1|M0) r5.2<1>:ud 0x20:ud
//! [0010] (W) jmpi r5.2                         (to 0x10 + 0x20)
//! [0020]     mov (8|M0) r10.0<1>:ud 0x1:ud      (jumped over)
//! [0030]     mov (8|M0) r11.0<1>:ud 0x2:ud
//! [0040]     nop
//! ```

use platform::Platform;
use sim_eu::regfile::REG_BYTES;
use sim_eu::{run, EuErrorKind, NoMemory, Program, Thread};

const P: Platform = Platform::Dg2;
const CODE: &str = "6100008020424505000000002000000020000080000000004405000000000000610003002042050a0000000001000000610003002042050b000000000200000060000000000000000000000000000000";

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

fn dword(t: &Thread, reg: usize) -> u32 {
    u32::from_le_bytes(t.grf()[reg * REG_BYTES..][..4].try_into().unwrap())
}

#[test]
fn jmpi_through_a_register_jumps_by_its_offset() {
    let prog = Program::decode(P, &bytes(CODE));
    let mut t = Thread::new(0xff);
    // The program has no end-of-thread message: the thread runs off its end after the nop.
    let e = run(&mut t, &prog, &mut NoMemory, 100).unwrap_err();
    assert_eq!((e.offset, e.kind), (0x50, EuErrorKind::RanOffEnd));
    assert_eq!(dword(&t, 10), 0, "the jumped-over instruction ran");
    assert_eq!(dword(&t, 11), 2);
}

#[test]
fn jmpi_to_the_middle_of_an_instruction_is_a_bad_target() {
    let mut code = bytes(CODE);
    code[12] = 0x28; // the mov's immediate: 0x28, between two instructions
    let prog = Program::decode(P, &code);
    let mut t = Thread::new(0xff);
    let e = run(&mut t, &prog, &mut NoMemory, 3).unwrap_err();
    assert_eq!(e.offset, 0x10);
    assert!(
        matches!(e.kind, EuErrorKind::BadBranchTarget { target: 0x38 }),
        "{e:?}"
    );
}
