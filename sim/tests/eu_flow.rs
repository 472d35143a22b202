//! Per-channel control flow (if/else/endif, while/break, jmpi), dispatch masks, channel
//! offsets and indirect register addressing, on programs assembled by iga64.
// Lanes index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::eu_support as support;

use sim_eu::{run, Status, Thread};
use support::*;

const FLOW: &str = "
        mov (16|M0) r10.0<1>:d 0x0:d
        mov (16|M0) r12.0<1>:d 0x0:d
        cmp (16|M0) (lt)f0.0 null<1>:d r2.0<8;8,1>:d 0x8:d
        (f0.0) if (16|M0) ELSE1 ENDIF1
        add (16|M0) r14.0<1>:d r2.0<8;8,1>:d 0x64:d
        else (16|M0) ENDIF1 ENDIF1
ELSE1:
        add (16|M0) r14.0<1>:d r2.0<8;8,1>:d 0xc8:d
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
";

#[test]
fn if_else_loops_break_jmpi_with_a_partial_dispatch_mask() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let a: Vec<u32> = (0..16).map(|i| (i * 5 % 13) as u32).collect();
    let n: Vec<u32> = (0..16).map(|i| (i % 9) as u32).collect();
    let mask = 0x3fffu32;
    for p in ALL {
        let prog = program(&iga, p, FLOW);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let mut t = Thread::new(mask);
        set_u32s(&mut t, 2, &a);
        set_u32s(&mut t, 4, &n);
        set_u32s(&mut t, 14, &[0xdead; 16]);
        set_u32s(&mut t, 16, &[0xbeef; 8]);
        assert_eq!(
            run(&mut t, &prog, &mut mem, 100_000).unwrap(),
            Status::Ended
        );
        for i in 0..16 {
            if mask >> i & 1 == 0 {
                assert_eq!(
                    t.grf_u32(14 + i / 8, i % 8),
                    0xdead,
                    "{p} lane {i} disabled"
                );
                continue;
            }
            let want = if a[i] < 8 { a[i] + 100 } else { a[i] + 200 };
            assert_eq!(t.grf_u32(14 + i / 8, i % 8), want, "{p} if/else lane {i}");
            // do { sum += cnt; cnt++; if (sum > 20) break; } while (cnt < n)
            let (mut cnt, mut sum) = (0u32, 0u32);
            loop {
                sum += cnt;
                cnt += 1;
                if sum > 20 || cnt >= n[i] {
                    break;
                }
            }
            assert_eq!(t.grf_u32(10 + i / 8, i % 8), cnt, "{p} loop count lane {i}");
            assert_eq!(
                t.grf_u32(12 + i / 8, i % 8),
                sum,
                "{p} jmpi skipped the clear, lane {i}"
            );
        }
        // (8|M8): lanes 8..13 are channels 8..13 and read r2.0.. as their region says.
        for i in 0..8 {
            let want = if 8 + i < 14 { a[i] + 1 } else { 0xbeef };
            assert_eq!(t.grf_u32(16, i), want, "{p} M8 lane {i}");
        }
    }
}

#[test]
fn indirect_addressing_one_address_and_vxh() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
        (W) mov (1|M0) a0.0<1>:uw 0x40:uw
        mov (8|M0) r20.0<1>:ud r[a0.0,4]<8;8,1>:ud
        (W) mov (8|M0) a0.0<1>:uw r6.0<8;8,1>:uw
        mov (8|M0) r21.0<1>:ud r[a0.0]<1,0>:ud
        (W) mov (1|M0) a0.0<1>:uw 0x2c0:uw
        mov (8|M0) r[a0.0,0x20]<1>:ud r2.0<8;8,1>:ud
        ";
    let a = values(16, 2);
    // Word lane i: the byte address of r2.(7 - i).
    let addrs: Vec<u32> = (0..4)
        .map(|k| (64 + 4 * (7 - 2 * k)) | ((64 + 4 * (6 - 2 * k)) << 16))
        .collect();
    for p in ALL {
        let prog = program(&iga, p, body);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let t = run_on(&prog, 8, &mut mem, |t| {
            set_u32s(t, 2, &a);
            set_u32s(t, 6, &addrs);
        })
        .unwrap();
        for i in 0..8 {
            assert_eq!(t.grf_u32(20, i), a[i + 1], "{p} 1x1 lane {i}");
            assert_eq!(t.grf_u32(21, i), a[7 - i], "{p} VxH lane {i}");
            assert_eq!(t.grf_u32(23, i), a[i], "{p} indirect dst lane {i}");
        }
    }
}

#[test]
fn an_endless_loop_returns_budget_and_resumes() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let body = "
LOOP:
        add (8|M0) r10.0<1>:d r10.0<8;8,1>:d 0x1:d
        (W) jmpi LOOP
        ";
    for p in ALL {
        let prog = program(&iga, p, body);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let mut t = Thread::new(0xff);
        assert_eq!(
            run(&mut t, &prog, &mut mem, 1000).unwrap(),
            Status::Budget,
            "{p}"
        );
        assert_eq!(
            run(&mut t, &prog, &mut mem, 1000).unwrap(),
            Status::Budget,
            "{p}"
        );
        // 2000 instructions: 1000 adds.
        assert_eq!(t.grf_u32(10, 0), 1000, "{p}");
        assert_eq!(t.instructions_executed(), 2000, "{p}");
    }
}

/// Bit-flipped kernels (from a valid one) decode and run to an end, a budget or an error,
/// never a panic.
#[test]
fn mutated_kernels_never_panic() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for p in ALL {
        let text = format!("{FLOW}\n{}", eot(p));
        let good = oracles::iga64::asm(&iga, p, &text, &[]).unwrap();
        let mut outcomes = [0usize; 3];
        for _ in 0..400 {
            let mut bytes = good.clone();
            for _ in 0..1 + next() % 6 {
                let bit = (next() % (bytes.len() as u64 * 8)) as usize;
                bytes[bit / 8] ^= 1 << (bit % 8);
            }
            let prog = sim_eu::Program::decode(p, &bytes);
            let mut mem = TestMem::new(0x1000, 0x1000);
            let mut t = Thread::new((next() as u32) | 1);
            for r in 2..40 {
                set_u32s(&mut t, r, &values(8, r as u32));
            }
            match run(&mut t, &prog, &mut mem, 5000) {
                Ok(Status::Ended) => outcomes[0] += 1,
                Ok(_) => outcomes[1] += 1,
                Err(e) => {
                    assert!(e.offset as usize <= bytes.len(), "{p}: {e}");
                    outcomes[2] += 1
                }
            }
        }
        eprintln!("{p}: ended/budget/error = {outcomes:?}");
    }
}

#[test]
fn illegal_instruction_is_an_error_at_its_offset() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in ALL {
        let prog = program(
            &iga,
            p,
            "add (8|M0) r10.0<1>:d r10.0<8;8,1>:d 0x1:d\nillegal",
        );
        let mut mem = TestMem::new(0x1000, 0x1000);
        let e = run_on(&prog, 8, &mut mem, |_| {}).err().expect("illegal");
        assert_eq!(e.offset, 16, "{p}: {e}");
        assert!(
            matches!(e.kind, sim_eu::EuErrorKind::Illegal(_)),
            "{p}: {e}"
        );
    }
}

#[test]
fn kernels_decode_once_per_address() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let p = platform::Platform::Tgllp;
    let bytes = oracles::iga64::asm(&iga, p, eot(p), &[]).unwrap();
    let mut cache = sim_eu::ProgramCache::new();
    let mut decodes = 0;
    for addr in [0x1000u64, 0x1000, 0x2000, 0x1000] {
        let prog = cache
            .get_or_decode(p, addr, 128, || {
                decodes += 1;
                Ok(bytes.clone())
            })
            .unwrap();
        assert_eq!(prog.insts.len(), 1);
    }
    assert_eq!(decodes, 2);
}

/// A thread that runs past its last instruction (no EOT) is an error at the kernel's end, which
/// iga64's compaction decides: the offset is the kernel's byte length, not last pc + 16.
#[test]
fn running_off_the_end_is_an_error_at_the_kernels_length() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for p in ALL {
        let text = "mov (8|M0) r10.0<1>:ud r11.0<8;8,1>:ud\nmov (8|M0) r12.0<1>:ud r13.0<8;8,1>:ud";
        let bytes = oracles::iga64::asm(&iga, p, text, &["-Xautocompact"]).unwrap();
        let prog = sim_eu::Program::decode(p, &bytes);
        let mut mem = TestMem::new(0x1000, 0x1000);
        let mut t = Thread::new(0xff);
        let e = run(&mut t, &prog, &mut mem, 100).expect_err("no EOT");
        assert!(matches!(e.kind, sim_eu::EuErrorKind::RanOffEnd), "{p}: {e}");
        assert_eq!(e.offset as usize, bytes.len(), "{p}: {e}");
    }
}
