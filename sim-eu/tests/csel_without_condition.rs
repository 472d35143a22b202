//! `csel` with no conditional modifier. The PRM defines `csel` by a comparison of src2 with
//! zero, so without one which source it picks is unknown; oneDNN's generated GEMM kernels
//! (which OpenVINO's GPU plugin runs on Xe-HPG) emit it anyway, with src0 and src1 the same
//! register, where any choice gives the same result. The simulator runs it where the sources
//! agree in every enabled lane and stops with an illegal-instruction error where the unknown
//! choice would decide the result.

use platform::Platform;
use sim_eu::regfile::REG_BYTES;
use sim_eu::{run, EuErrorKind, NoMemory, Program, Status, Thread};

const P: Platform = Platform::Dg2;

/// The two instructions as oneDNN's generator wrote them (bytes from its GEMM kernel, which
/// `iga64 -d -p 12p71` prints as
/// `(W) csel (4|M0) r10.0<1>:uw r10.0<4;1>:uw r10.0<4;1>:uw r10.0<1>:uw` and
/// `(W) csel (4|M0) r10.4<1>:f r10.4<4;1>:f r10.4<4;1>:f r10.4<1>:f`), then a `nop`.
const ONEDNN: &str = "720002801009040a050a0109050a050a72000280a00a840a850a020a850a850a";

/// `csel (8|M0) r12.0<1>:f r10.0<4;1>:f r11.0<4;1>:f r10.0<1>:f`, as `iga64 -a -p 12p71`
/// encodes it: two different sources.
const DIFFERENT: &str = "72000300a00a040c050a020a050b050a";

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

fn thread() -> Thread {
    let mut t = Thread::new(0xff);
    for (i, b) in t.grf_mut()[10 * REG_BYTES..12 * REG_BYTES]
        .iter_mut()
        .enumerate()
    {
        *b = (i * 7 + 3) as u8;
    }
    t
}

#[test]
fn onednns_csel_with_one_register_leaves_it_as_it_was() {
    let mut code = bytes(ONEDNN);
    code.extend(isa_encoder::assemble(P, "nop").unwrap());
    let prog = Program::decode(P, &code);
    let mut t = thread();
    let before = t.grf()[10 * REG_BYTES..11 * REG_BYTES].to_vec();
    assert_eq!(run(&mut t, &prog, &mut NoMemory, 2), Ok(Status::Budget));
    assert_eq!(&t.grf()[10 * REG_BYTES..11 * REG_BYTES], &before[..]);
}

#[test]
fn csel_without_condition_between_different_sources_is_illegal() {
    let mut code = bytes(DIFFERENT);
    code.extend(isa_encoder::assemble(P, "nop").unwrap());
    let prog = Program::decode(P, &code);
    let mut t = thread();
    let e = run(&mut t, &prog, &mut NoMemory, 1).unwrap_err();
    assert_eq!(e.offset, 0);
    assert!(
        matches!(&e.kind, EuErrorKind::Illegal(m) if m.contains("csel without a conditional modifier")),
        "{e:?}"
    );
    // Sources that agree in every lane (r11 a copy of r10): it runs, r12 gets that value.
    let mut t = thread();
    let r10 = t.grf()[10 * REG_BYTES..11 * REG_BYTES].to_vec();
    t.grf_mut()[11 * REG_BYTES..12 * REG_BYTES].copy_from_slice(&r10);
    assert_eq!(run(&mut t, &prog, &mut NoMemory, 1), Ok(Status::Budget));
    assert_eq!(&t.grf()[12 * REG_BYTES..12 * REG_BYTES + 32], &r10[..32]);
}
