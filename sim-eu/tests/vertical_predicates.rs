//! The vertical predicate modes `.anyv` and `.allv`: a lane is enabled when its bit is set in
//! f0 or (any) and (all) in f1, at the named subregister (f0.1 pairs with f1.1). Mesa's
//! `fs_inst::flags_read` ("the vertical predication modes combine corresponding bits from f0.0
//! and f1.0 on Gfx7+") and the PRM's predicate-control table say so. oneDNN's generated GEMM
//! kernels (run by OpenVINO's GPU plugin on Xe-HPG) branch to their unaligned path with
//! `(W&f0.0.anyv) jmpi` after setting f0.0 from a pointer's and f1.0 from a leading
//! dimension's low bits; read as a plain `f0.0` predicate, an odd leading dimension took the
//! aligned path and faulted on its block loads.

use platform::Platform;
use sim_eu::regfile::REG_BYTES;
use sim_eu::{run, NoMemory, Program, Status, Thread};

/// f0.0, f1.0, f0.1 and f1.1, then one predicated `mov` of 1 per mode into r20..r23.
const PROGRAM: &str = "
(W) mov (1|M0) f0.0<1>:uw 0x53:uw
(W) mov (1|M0) f1.0<1>:uw 0x36:uw
(W) mov (1|M0) f0.1<1>:uw 0x0F:uw
(W) mov (1|M0) f1.1<1>:uw 0xC0:uw
(W&f0.0.anyv) mov (8|M0) r20.0<1>:ud 0x1:ud
(W&f0.0.allv) mov (8|M0) r21.0<1>:ud 0x1:ud
(W&f0.1.anyv) mov (8|M0) r22.0<1>:ud 0x1:ud
(W&~f0.1.allv) mov (8|M0) r23.0<1>:ud 0x1:ud
(W&f0.0) mov (8|M0) r24.0<1>:ud 0x1:ud
nop
";

/// The lanes of register `r` holding 1, as a bit mask.
fn lanes(t: &Thread, r: usize) -> u32 {
    let g = &t.grf()[r * REG_BYTES..r * REG_BYTES + 32];
    (0..8).fold(0, |m, i| {
        let v = u32::from_le_bytes(g[i * 4..i * 4 + 4].try_into().unwrap());
        m | (u32::from(v == 1) << i)
    })
}

#[test]
fn vertical_modes_combine_f0_and_f1_per_lane() {
    for p in Platform::ALL {
        let code = isa_encoder::assemble(p, PROGRAM).unwrap();
        let prog = Program::decode(p, &code);
        let mut t = Thread::new(0xff);
        assert_eq!(
            run(&mut t, &prog, &mut NoMemory, 9),
            Ok(Status::Budget),
            "{p}"
        );
        let got: Vec<u32> = (20..25).map(|r| lanes(&t, r)).collect();
        assert_eq!(
            got,
            [
                0x53 | 0x36, // f0.0.anyv
                0x53 & 0x36, // f0.0.allv
                0x0F | 0xC0, // f0.1.anyv: f0.1 with f1.1
                0xff,        // ~f0.1.allv: f0.1 & f1.1 is 0
                0x53,        // plain f0.0
            ],
            "{p}"
        );
    }
}
