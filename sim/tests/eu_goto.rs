//! `goto`'s jumping channels per generation, and the partial subgroup IGC's code derives from
//! them.
//!
//! IGC inverts a forward goto's predicate on BDW/SKL ("false condition will jump", its CFG
//! structurizer) and builds an unconditional forward goto there as `mov f0.0 = 0; (f0.0) goto`;
//! from Gen11 on it uses the predicate as written. ocloc's get_sub_group_size() code shows it:
//! the channels of the last, partial subgroup take the forward goto to the "work-items left"
//! value on skl with `(~f0.1)` and on icllp/tgllp with `(f0.0)` over the opposite compare. The
//! OpenCL 2.1 spec (get_sub_group_size): the number of work-items in the subgroup, which for
//! the last subgroup of a work-group whose size is not a multiple of it is the remainder.

use crate::eu_support as support;
use crate::zebin;

use platform::Platform;
use sim_eu::{run, Status, Thread};
use support::*;
use zebin::*;

/// Lanes 0..5 enabled (a partial SIMD8 thread); r2 holds 0..7.
const MASK: u32 = 0x3f;

fn run_partial(iga: &std::path::Path, p: Platform, text: &str) -> Vec<u32> {
    let prog = program(iga, p, text);
    let mut mem = TestMem::new(0x1000, 0x1000);
    let mut t = Thread::new(MASK);
    set_u32s(&mut t, 2, &(0..8).collect::<Vec<u32>>());
    set_u32s(&mut t, 10, &[0xdead; 8]);
    let st = run(&mut t, &prog, &mut mem, 100_000).unwrap_or_else(|e| panic!("{p}: {e}"));
    assert_eq!(st, Status::Ended, "{p}");
    u32s(&t, 10, 8)
}

/// `(f0.0) goto` forward over one `mov`, f0.0 = (lane < 4).
const FORWARD: &str = "
        mov (8|M0) r10.0<1>:d 0x0:d
        cmp (8|M0) (lt)f0.0 null<1>:d r2.0<8;8,1>:d 0x4:d
        (f0.0) goto (8|M0) JOIN1 JOIN1
        mov (8|M0) r10.0<1>:d 0x1:d
JOIN1:
        join (8|M0) END1
END1:
        add (8|M0) r10.0<1>:d r10.0<8;8,1>:d 0x10:d
";

#[test]
fn forward_goto_takes_the_false_channels_on_gen9_and_the_true_ones_later() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in ALL {
        let got = run_partial(&iga, p, FORWARD);
        let jumps_on_false = p == Platform::Skl;
        let want: Vec<u32> = (0..8u32)
            .map(|lane| {
                if MASK >> lane & 1 == 0 {
                    0xdead
                } else if (lane < 4) != jumps_on_false {
                    0x10 // jumped over the mov
                } else {
                    0x11
                }
            })
            .collect();
        assert_eq!(got, want, "{p}");
    }
}

/// A do-while made of a backward `goto` (IGC leaves backward gotos' predicates as written on
/// every generation): r10 = max(1, r2) per lane.
const BACKWARD: &str = "
        mov (8|M0) r10.0<1>:d 0x0:d
LOOP:
        add (8|M0) r10.0<1>:d r10.0<8;8,1>:d 0x1:d
        cmp (8|M0) (lt)f0.0 null<1>:d r10.0<8;8,1>:d r2.0<8;8,1>:d
        (f0.0) goto (8|M0) NEXT LOOP
NEXT:
        join (8|M0) END2
END2:
";

#[test]
fn backward_goto_takes_the_true_channels_on_every_generation() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in ALL {
        let got = run_partial(&iga, p, BACKWARD);
        let want: Vec<u32> = (0..8u32)
            .map(|l| if MASK >> l & 1 == 0 { 0xdead } else { l.max(1) })
            .collect();
        assert_eq!(got, want, "{p}");
    }
}

/// get_sub_group_size() and a broadcast from lane `which % size`, per work-item.
fn source(simd: u32) -> String {
    format!(
        "__attribute__((intel_reqd_sub_group_size({simd})))
        kernel void sg_size(global uint *out, uint which) {{
            uint i = get_global_id(0);
            out[2 * i] = get_sub_group_size();
            out[2 * i + 1] = sub_group_broadcast(get_sub_group_local_id() * 3 + 1,
                                                 which % get_sub_group_size());
        }}"
    )
}

#[test]
fn igc_partial_subgroup_size_and_broadcast_on_every_generation() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let which = 11u32;
    for p in ALL {
        for simd in [8u32, 16, 32] {
            let k = compile(&ocloc, p, &source(simd), "sg_size");
            assert_eq!(k.simd, simd, "{p}");
            // Two groups of local + 5 work-items: a full subgroup and a partial one of 5.
            let (groups, local) = (2u32, simd + 5);
            let n = (groups * local) as usize;
            let out = BASE;
            let mut mem = TestMem::new(BASE, 0x8000);
            mem.put_u32s(out, &vec![0xdead; 2 * n]);
            dispatch(
                p,
                &k,
                &mut mem,
                groups,
                local,
                &[(out, 8 * n as u64), (u64::from(which), 4)],
            );
            for i in 0..n as u32 {
                let l = i % local;
                let size = simd.min(local - l / simd * simd);
                let got = [
                    mem.u32_at(out + 8 * u64::from(i)),
                    mem.u32_at(out + 8 * u64::from(i) + 4),
                ];
                assert_eq!(
                    got,
                    [size, which % size * 3 + 1],
                    "{p} SIMD{simd} item {i} (size, broadcast)"
                );
            }
        }
    }
}
