//! `dpas` on Xe-HPG against a reference written from the vISA DPAS pseudo code, not from the
//! interpreter: random register contents for every precision pair, systolic depth, repeat
//! count and accumulator, unpacked into matrices here and multiplied in a plain loop; hand-
//! computed cases for each precision; the refusals (other platforms, illegal types). `dpasw`
//! against the same reference, its src2 put together from the two threads of a fused EU pair
//! as vISA DPASW.md's pseudo code says.

use platform::Platform;
use proptest::prelude::*;
use sim_eu::{run, run_fused, EuErrorKind, NoMemory, Program, Status, Thread};

const DST: usize = 10;
const SRC0: usize = 20;
const SRC1: usize = 30;
const SRC2: usize = 50;
const N: usize = 8;
const REG: usize = 32;

/// (IGA spelling, bits, signed, float)
#[derive(Debug, Clone, Copy)]
struct Prec(&'static str, usize, bool, bool);

const INTS: [Prec; 6] = [
    Prec("ub", 8, false, false),
    Prec("b", 8, true, false),
    Prec("u4", 4, false, false),
    Prec("s4", 4, true, false),
    Prec("u2", 2, false, false),
    Prec("s2", 2, true, false),
];
const HF: Prec = Prec("hf", 16, false, true);
const BF: Prec = Prec("bf", 16, false, true);

fn half(bits: u16, p: Prec) -> f32 {
    if p.0 == "bf" {
        return f32::from_bits(u32::from(bits) << 16);
    }
    // IEEE binary16, written out: sign, 5-bit exponent (bias 15), 10-bit fraction.
    let s = if bits >> 15 != 0 { -1.0f64 } else { 1.0 };
    let e = i32::from(bits >> 10 & 31);
    let m = f64::from(bits & 1023);
    let v = match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    };
    (s * v) as f32
}

/// Bits `bit..bit + len` of `bytes` as an element of `p` (integer value, or raw float bits).
fn field(bytes: &[u8], bit: usize, p: Prec) -> i64 {
    let mut v = 0u64;
    for i in 0..p.1 {
        let b = bit + i;
        v |= u64::from(bytes[b / 8] >> (b % 8) & 1) << i;
    }
    if p.2 && v >> (p.1 - 1) & 1 != 0 {
        v as i64 - (1i64 << p.1)
    } else {
        v as i64
    }
}

/// vISA DPAS.md: OPS_PER_CHAN is 2 for bf/hf, 4 if either precision is 8 bits, else 8.
fn ops(p1: Prec, p2: Prec) -> usize {
    if p1.3 {
        2
    } else if p1.1 == 8 || p2.1 == 8 {
        4
    } else {
        8
    }
}

#[derive(Debug, Clone)]
struct Case {
    sd: usize,
    rc: usize,
    p1: Prec,
    p2: Prec,
    /// Destination and src0 types (`None`: null src0).
    dt: &'static str,
    acc: Option<&'static str>,
    grf: Vec<u8>,
}

impl Case {
    fn text(&self) -> String {
        let src0 = match self.acc {
            Some(t) => format!("r{SRC0}:{t}"),
            None => format!("null:{}", self.dt),
        };
        format!(
            "dpas.{}x{} (8|M0) r{DST}:{} {src0} r{SRC1}:{} r{SRC2}.0:{}\n",
            self.sd, self.rc, self.dt, self.p1.0, self.p2.0
        )
    }

    /// D = C + A x B in the vISA pseudo code's terms: for each repeat row r and depth d,
    /// channel i adds the dot product of Src1.R[m].DW[i] elements n.. with Src2's k-th
    /// elements, m = d / SRC1_OPERANDS_PER_CHAN, n = (d % SRC1_OPERANDS_PER_CHAN) * OPS.
    fn reference(&self) -> Vec<u8> {
        let (o, g) = (ops(self.p1, self.p2), &self.grf);
        let per_dw = 32 / (o * self.p1.1);
        let size = |t: &str| if t == "hf" || t == "bf" { 2 } else { 4 };
        let mut out = g.clone();
        let mut k = 0;
        for r in 0..self.rc {
            let mut temp = [(0i64, 0f32); N];
            if let Some(t) = self.acc {
                for (i, x) in temp.iter_mut().enumerate() {
                    let at = SRC0 * REG + (r * N + i) * size(t);
                    let w = u32::from_le_bytes(g[at..at + 4].try_into().unwrap());
                    *x = match t {
                        "hf" => (0, half(w as u16, HF)),
                        "bf" => (0, half(w as u16, BF)),
                        _ => (i64::from(w), f32::from_bits(w)),
                    };
                }
            }
            for d in 0..self.sd {
                let (m, n) = (d / per_dw, (d % per_dw) * o);
                for (i, x) in temp.iter_mut().enumerate() {
                    let dw = (SRC1 + m) * REG + i * 4;
                    for j in 0..o {
                        let b = field(&g[dw..dw + 4], (n + j) * self.p1.1, self.p1);
                        let a = field(&g[SRC2 * REG..], (k + j) * self.p2.1, self.p2);
                        if self.p1.3 {
                            x.1 += half(a as u16, self.p2) * half(b as u16, self.p1);
                        } else {
                            x.0 = (x.0 + a * b) & 0xffff_ffff;
                        }
                    }
                }
                k += o;
            }
            for (i, x) in temp.iter().enumerate() {
                let at = DST * REG + (r * N + i) * size(self.dt);
                let bytes = match self.dt {
                    "f" => x.1.to_bits().to_le_bytes().to_vec(),
                    "hf" | "bf" => to_half(x.1, self.dt).to_le_bytes().to_vec(),
                    _ => (x.0 as u32).to_le_bytes().to_vec(),
                };
                out[at..at + bytes.len()].copy_from_slice(&bytes);
            }
        }
        out
    }
}

/// f32 to hf/bf bits, round to nearest even: the largest magnitude at or below |x| (a
/// binary search over the ordered positive encodings) against the next one up, where the one
/// after the largest finite value is 2^16 (hf) or 2^128 (bf) and encodes infinity.
fn to_half(x: f32, t: &str) -> u16 {
    let (p, inf, top) = if t == "hf" {
        (HF, 0x7c00u16, 65536.0)
    } else {
        (BF, 0x7f80, 2f64.powi(128))
    };
    let value = |b: u16| if b == inf { top } else { f64::from(half(b, p)) };
    let (mag, sign) = (
        f64::from(x).abs(),
        if x.is_sign_negative() { 0x8000 } else { 0 },
    );
    let (mut lo, mut hi) = (0u16, inf);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if value(mid) <= mag {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let up = (lo + 1).min(inf);
    let (dl, du) = (mag - value(lo), value(up) - mag);
    let pick = if dl < du || (dl == du && lo % 2 == 0) {
        lo
    } else {
        up
    };
    sign | pick
}

/// Runs `text` (one instruction) on `p` from `grf`; the `nop` after it is where the budget of
/// one instruction stops.
fn execute(p: Platform, text: &str, grf: &[u8]) -> Result<Vec<u8>, EuErrorKind> {
    let bytes = isa_encoder::assemble(Platform::Dg2, &format!("{text}nop\n")).expect(text);
    let prog = Program::decode(p, &bytes);
    let mut t = Thread::new(0xff);
    t.grf_mut()[..grf.len()].copy_from_slice(grf);
    match run(&mut t, &prog, &mut NoMemory, 1) {
        Ok(Status::Budget) => Ok(t.grf()[..grf.len()].to_vec()),
        Ok(s) => panic!("{s:?}"),
        Err(e) => Err(e.kind),
    }
}

fn case() -> impl Strategy<Value = Case> {
    let ints = prop::sample::select(INTS.to_vec());
    let int = (ints.clone(), ints, prop::sample::select(vec!["d", "ud"]))
        .prop_map(|(p1, p2, t)| (p1, p2, t, t));
    let float = prop::sample::select(vec![
        (HF, HF, "f", "f"),
        (HF, HF, "f", "hf"),
        (HF, HF, "hf", "hf"),
        (HF, HF, "hf", "f"),
        (BF, BF, "f", "f"),
        (BF, BF, "f", "bf"),
        (BF, BF, "bf", "bf"),
        (BF, BF, "bf", "f"),
    ]);
    (
        prop_oneof![int, float],
        prop::sample::select(vec![1usize, 2, 4, 8]),
        1usize..=8,
        any::<bool>(),
        prop::collection::vec(any::<u8>(), 64 * REG),
    )
        .prop_map(|((p1, p2, dt, acc), sd, rc, null, mut grf)| {
            if p1.3 {
                // Keep float inputs finite and in a range where sums do not all overflow.
                for b in grf[SRC1 * REG..].chunks_mut(2) {
                    b[1] &= if p1.0 == "hf" { 0xbb } else { 0xc1 };
                }
                for b in grf[SRC0 * REG..SRC1 * REG].chunks_mut(2) {
                    b[1] &= 0xbb;
                }
            }
            Case {
                sd,
                rc,
                p1,
                p2,
                dt,
                acc: (!null).then_some(acc),
                grf,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(768))]
    #[test]
    fn dpas_matches_the_reference(c in case()) {
        let got = execute(Platform::Dg2, &c.text(), &c.grf).map_err(|e| e.to_string());
        prop_assert!(got.is_ok(), "{}: {:?}", c.text(), got);
        let (got, want) = (got.unwrap(), c.reference());
        for (i, (g, w)) in got.chunks(4).zip(want.chunks(4)).enumerate() {
            let nan = c.dt == "f" && f32::from_le_bytes(w.try_into().unwrap()).is_nan()
                && f32::from_le_bytes(g.try_into().unwrap()).is_nan();
            prop_assert!(g == w || nan, "{}dword {i} (r{}.{}): got {g:02x?} want {w:02x?}",
                c.text(), i / 8, i % 8);
        }
    }
}

/// The registers of src2 (vISA DPASW.md: `NGrf`) and how many of them EU0 gives (`NGrf_EU0`).
fn dpasw_split(c: &Case) -> (usize, usize) {
    let bytes = c.rc * c.sd * ops(c.p1, c.p2) * c.p2.1 / 8;
    let regs = bytes.div_ceil(REG);
    (regs, regs.div_ceil(2))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Two threads with their own src0/src1 and each half of src2 (EU1's half at its src2
    /// register), anything in the other half, each get the dpas of its own src0/src1 with the
    /// whole src2.
    #[test]
    fn dpasw_shares_src2_across_the_fused_pair(c0 in case(), other in prop::collection::vec(any::<u8>(), 64 * REG)) {
        let text = c0.text().replacen("dpas.", "dpasw.", 1);
        let (regs, from_eu0) = dpasw_split(&c0);
        let a = SRC2 * REG;
        // EU1: its own src0/src1 (the float ranges as case() keeps them), the src2 rows after
        // EU0's at its src2 register.
        let mut c1 = c0.clone();
        c1.grf[..SRC2 * REG].copy_from_slice(&other[..SRC2 * REG]);
        if c1.p1.3 {
            for b in c1.grf[SRC0 * REG..SRC2 * REG].chunks_mut(2) {
                b[1] &= 0xbb;
            }
        }
        let mut g0 = c0.grf.clone();
        let mut g1 = c1.grf.clone();
        g0[a + from_eu0 * REG..a + regs * REG].copy_from_slice(&other[a..a + (regs - from_eu0) * REG]);
        g1[a..a + (regs - from_eu0) * REG].copy_from_slice(&c0.grf[a + from_eu0 * REG..a + regs * REG]);
        g1[a + (regs - from_eu0) * REG..a + regs * REG].copy_from_slice(&other[a..a + from_eu0 * REG]);
        let bytes = isa_encoder::assemble(Platform::Dg2, &format!("{text}nop\n")).expect(&text);
        let prog = Program::decode(Platform::Dg2, &bytes);
        let mut t = [Thread::new(0xff), Thread::new(0xff)];
        for (t, g) in t.iter_mut().zip([&g0, &g1]) {
            t.grf_mut()[..g.len()].copy_from_slice(g);
            prop_assert_eq!(run(t, &prog, &mut NoMemory, 4), Ok(Status::Fused));
        }
        let [eu0, eu1] = &mut t;
        run_fused(eu0, eu1, &prog).map_err(|e| TestCaseError::fail(format!("{text}: {e:?}")))?;
        for (t, c) in t.iter().zip([&c0, &c1]) {
            let want = c.reference();
            for i in 0..N * c.rc {
                let at = DST * REG + i * 4;
                let (g, w) = (&t.grf()[at..at + 4], &want[at..at + 4]);
                let nan = c.dt == "f" && f32::from_le_bytes(w.try_into().unwrap()).is_nan()
                    && f32::from_le_bytes(g.try_into().unwrap()).is_nan();
                prop_assert!(g == w || nan, "{}dword {}: got {:02x?} want {:02x?}", text, i, g, w);
            }
        }
    }
}

/// A dpasw stops its thread until the fused pair runs it; a pair at different instructions
/// is an error.
#[test]
fn dpasw_waits_for_its_pair_and_refuses_a_diverged_one() {
    let text = "dpasw.8x8 (8|M0) r10:f r20:f r30:hf r50.0:hf\nnop\nnop\ndpasw.8x8 (8|M0) r10:f r20:f r30:hf r50.0:hf\nnop\n";
    let bytes = isa_encoder::assemble(Platform::Dg2, text).unwrap();
    let prog = Program::decode(Platform::Dg2, &bytes);
    let mut eu0 = Thread::new(0xff);
    let mut eu1 = Thread::new(0xff);
    assert_eq!(run(&mut eu0, &prog, &mut NoMemory, 8), Ok(Status::Fused));
    assert_eq!(run(&mut eu0, &prog, &mut NoMemory, 8), Ok(Status::Fused));
    assert_eq!(eu0.instructions_executed(), 0);
    assert_eq!(run(&mut eu1, &prog, &mut NoMemory, 8), Ok(Status::Fused));
    run_fused(&mut eu0, &mut eu1, &prog).unwrap();
    assert_eq!(eu0.instructions_executed(), 1);
    // eu0 goes on to the second dpasw; eu1 stops at the second nop.
    assert_eq!(run(&mut eu0, &prog, &mut NoMemory, 8), Ok(Status::Fused));
    assert_eq!(run(&mut eu1, &prog, &mut NoMemory, 1), Ok(Status::Budget));
    let e = run_fused(&mut eu0, &mut eu1, &prog).unwrap_err();
    assert!(format!("{e:?}").contains("diverged"), "{e:?}");
}

/// A register file with `fill` written over registers `reg..reg + n`.
fn fill(grf: &mut [u8], reg: usize, n: usize, byte: u8) {
    grf[reg * REG..(reg + n) * REG].fill(byte);
}

/// Dword `i` of register `reg`.
fn dw(grf: &[u8], reg: usize, i: usize) -> u32 {
    let at = reg * REG + i * 4;
    u32::from_le_bytes(grf[at..at + 4].try_into().unwrap())
}

/// Integer cases worked by hand: every channel of every row gets the same sum.
#[test]
fn integer_dot_products_by_hand() {
    // (text, src1 byte, src2 byte, src0 dword, want per dword, rows)
    type Hand = (&'static str, u8, u8, Option<u32>, u32, usize);
    let cases: [Hand; 6] = [
        // 32 products 1 x 1..32 are filled below: 528.
        (
            "dpas.8x1 (8|M0) r10:d null:d r30:ub r50.0:ub",
            1,
            0,
            None,
            528,
            1,
        ),
        // s8: -1 x 2, 32 times, plus 100.
        (
            "dpas.8x2 (8|M0) r10:d r20:d r30:b r50.0:b",
            2,
            0xff,
            Some(100),
            36,
            2,
        ),
        // u4 15 x s4 -8, K = 64: -7680.
        (
            "dpas.8x1 (8|M0) r10:d null:d r30:u4 r50.0:s4",
            0xff,
            0x88,
            None,
            -7680i32 as u32,
            1,
        ),
        // u2 3 x s2 -2, K = 64: -384.
        (
            "dpas.8x1 (8|M0) r10:ud null:ud r30:u2 r50.0:s2",
            0xff,
            0xaa,
            None,
            -384i32 as u32,
            1,
        ),
        // s8 -2 x u2 1, OPS_PER_CHAN 4 so K = 32: -64.
        (
            "dpas.8x3 (8|M0) r10:d null:d r30:b r50.0:u2",
            0xfe,
            0x55,
            None,
            -64i32 as u32,
            3,
        ),
        // u8 255 x 255, 32 times, on 0x7fffffff: the 32-bit sum wraps, no saturation.
        (
            "dpas.8x1 (8|M0) r10:d r20:d r30:ub r50.0:ub",
            0xff,
            0xff,
            Some(0x7fff_ffff),
            0x801f_c01f,
            1,
        ),
    ];
    for (k, (text, b, a, c, want, rows)) in cases.into_iter().enumerate() {
        let mut grf = vec![0u8; 64 * REG];
        fill(&mut grf, SRC1, 8, b);
        fill(&mut grf, SRC2, 8, a);
        if k == 0 {
            for (i, x) in grf[SRC2 * REG..SRC2 * REG + 32].iter_mut().enumerate() {
                *x = i as u8 + 1;
            }
        }
        if let Some(c) = c {
            for i in 0..8 * rows {
                grf[SRC0 * REG + i * 4..SRC0 * REG + i * 4 + 4].copy_from_slice(&c.to_le_bytes());
            }
        }
        let got = execute(Platform::Dg2, &format!("{text}\n"), &grf).expect(text);
        for r in 0..rows {
            for i in 0..8 {
                assert_eq!(dw(&got, DST + r, i), want, "{text}: r{}.{i}", DST + r);
            }
        }
        assert_eq!(dw(&got, DST + rows, 0), 0, "{text}: wrote past its rows");
    }
}

/// hf and bf: A = the identity's first rows, B[k][n] = 8k + n, so D = B's rows (hf: f32
/// destination; bf: bf destination and a bf src0 of 0.5 added).
#[test]
fn float_identity_by_hand() {
    for (t, one, dst, acc) in [
        ("hf", 0x3c00u16, "f", None),
        ("bf", 0x3f80, "bf", Some(0x3f00u16)),
    ] {
        let mut grf = vec![0u8; 64 * REG];
        for k in 0..16 {
            for n in 0..8 {
                let v = (8 * k + n) as f32;
                let bits = if t == "hf" {
                    to_half(v, "hf")
                } else {
                    (v.to_bits() >> 16) as u16
                };
                let at = (SRC1 + k / 2) * REG + n * 4 + (k % 2) * 2;
                grf[at..at + 2].copy_from_slice(&bits.to_le_bytes());
            }
        }
        for r in 0..8 {
            let at = SRC2 * REG + (r * 16 + r) * 2;
            grf[at..at + 2].copy_from_slice(&one.to_le_bytes());
        }
        let src0 = match acc {
            Some(c) => {
                for i in 0..64 {
                    grf[SRC0 * REG + i * 2..SRC0 * REG + i * 2 + 2]
                        .copy_from_slice(&c.to_le_bytes());
                }
                format!("r{SRC0}:{t}")
            }
            None => format!("null:{dst}"),
        };
        let text = format!("dpas.8x8 (8|M0) r{DST}:{dst} {src0} r{SRC1}:{t} r{SRC2}.0:{t}\n");
        let got = execute(Platform::Dg2, &text, &grf).expect(&text);
        for r in 0..8 {
            for n in 0..8 {
                let v = (8 * r + n) as f32 + if acc.is_some() { 0.5 } else { 0.0 };
                if dst == "f" {
                    assert_eq!(
                        f32::from_bits(dw(&got, DST + r, n)),
                        v,
                        "{text}: D[{r}][{n}]"
                    );
                } else {
                    let at = DST * REG + (r * 8 + n) * 2;
                    let g = u16::from_le_bytes([got[at], got[at + 1]]);
                    // Up to 63.5 needs 7 significant bits: every value is a bf exactly.
                    assert_eq!(g, (v.to_bits() >> 16) as u16, "{text}: D[{r}][{n}]");
                }
            }
        }
    }
}

/// The accumulation model (the ESIMD emulator's): 1.0 plus sixteen products of 2^-24, each
/// added and rounded to f32 in turn, stays 1.0 (every sum is a tie, to even); one rounding of
/// the exact sum would give 1 + 2^-20.
#[test]
fn float_sums_round_after_every_product() {
    let mut grf = vec![0u8; 64 * REG];
    let two_m12 = 0x0c00u16; // hf 2^-12
    for at in (SRC1 * REG..(SRC1 + 8) * REG).step_by(2) {
        grf[at..at + 2].copy_from_slice(&two_m12.to_le_bytes());
    }
    for at in (SRC2 * REG..SRC2 * REG + 32).step_by(2) {
        grf[at..at + 2].copy_from_slice(&two_m12.to_le_bytes());
    }
    for i in 0..8 {
        grf[SRC0 * REG + i * 4..SRC0 * REG + i * 4 + 4].copy_from_slice(&1f32.to_le_bytes());
    }
    let text = "dpas.8x1 (8|M0) r10:f r20:f r30:hf r50.0:hf\n";
    let got = execute(Platform::Dg2, text, &grf).unwrap();
    for i in 0..8 {
        assert_eq!(dw(&got, DST, i), 0x3f80_0000, "channel {i}");
    }
}

/// Disabled channels keep their destination.
#[test]
fn disabled_channels_are_not_written() {
    let mut grf = vec![0u8; 64 * REG];
    fill(&mut grf, SRC1, 8, 1);
    fill(&mut grf, SRC2, 8, 1);
    fill(&mut grf, DST, 1, 0xee);
    let bytes = isa_encoder::assemble(
        Platform::Dg2,
        "dpas.8x1 (8|M0) r10:d null:d r30:ub r50.0:ub\nnop\n",
    )
    .unwrap();
    let prog = Program::decode(Platform::Dg2, &bytes);
    let mut t = Thread::new(0x0f);
    t.grf_mut()[..grf.len()].copy_from_slice(&grf);
    assert_eq!(
        run(&mut t, &prog, &mut NoMemory, 1).unwrap(),
        Status::Budget
    );
    for i in 0..8 {
        let want = if i < 4 { 32 } else { 0xeeee_eeee };
        assert_eq!(dw(t.grf(), DST, i), want, "channel {i}");
    }
}

fn refusal(p: Platform, text: &str) -> String {
    let grf = vec![0u8; 64 * REG];
    match execute(p, text, &grf) {
        Ok(_) => panic!("{text} ran on {p}"),
        Err(e) => format!("{e:?}"),
    }
}

#[test]
fn refusals_name_their_reason() {
    // Opcode 0x59 is dpas on dg2 only (skl's 0x59 is `line`, whose Gen9 form these bytes are
    // not: the interpreter refuses it there for its own reasons).
    for p in [Platform::Icllp, Platform::Tgllp] {
        let e = refusal(p, "dpas.8x8 (8|M0) r10:f r20:f r30:hf r50.0:hf\n");
        assert!(
            e.starts_with("Illegal") && e.contains("dpas on dg2"),
            "{p}: {e}"
        );
    }
    refusal(
        Platform::Skl,
        "dpas.8x8 (8|M0) r10:f r20:f r30:hf r50.0:hf\n",
    );
    for (text, why) in [
        (
            "dpas.8x8 (8|M0) r10:f r20:f r30:hf r50.0:bf\n",
            "both be hf or both bf",
        ),
        (
            "dpas.8x8 (8|M0) r10:hf r20:f r30:bf r50.0:bf\n",
            "dst of type Hf",
        ),
        (
            "dpas.8x8 (8|M0) r10:f r20:bf r30:hf r50.0:hf\n",
            "src0 of type Bf",
        ),
        (
            "dpas.8x8 (16|M0) r10:f r20:f r30:hf r50.0:hf\n",
            "runs 8 channels",
        ),
        (
            "dpas.8x8 (8|M0) r10:f r20:f r30:hf r50.2:hf\n",
            "not 32-byte aligned",
        ),
        (
            "dpas.8x8 (8|M0) r124:f r20:f r30:hf r50.0:hf\n",
            "RegisterOutOfRange",
        ),
    ] {
        let e = refusal(Platform::Dg2, text);
        assert!(e.contains(why), "{text}: {e}");
    }
    // Xe-HPG has no tf32: iga64 refuses to encode it; if our codec encodes it, the
    // interpreter must refuse it.
    let tf32 = "dpas.8x8 (8|M0) r10:f r20:f r30:tf32 r50.0:tf32\n";
    if isa_encoder::assemble(Platform::Dg2, tf32).is_ok() {
        let e = refusal(Platform::Dg2, tf32);
        assert!(e.contains("tf32 is Xe-HPC"), "{e}");
    }
}

/// A reused thread clears the registers its program may write: all of dpas's rows.
#[test]
fn program_counts_every_destination_row() {
    for (text, regs) in [
        ("dpas.8x8 (8|M0) r10:f r20:f r30:hf r50.0:hf\n", 10..18),
        ("dpas.8x3 (8|M0) r10:hf r20:f r30:hf r50.0:hf\n", 10..12),
        ("dpas.8x1 (8|M0) r10:d null:d r30:ub r50.0:ub\n", 10..11),
    ] {
        let prog = Program::decode(
            Platform::Dg2,
            &isa_encoder::assemble(Platform::Dg2, text).unwrap(),
        );
        let want = sim_eu::regfile::GrfSet::range(regs.start, regs.len());
        assert_eq!(prog.grf_writes, want, "{text}");
    }
}
