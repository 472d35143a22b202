//! `cl_intel_subgroup_matrix_multiply_accumulate` as ocloc compiles it for dg2 (a `dpas.8x8`
//! per call), run on the simulator and compared with the extension's formula computed here:
//! every integer precision pair IGC offers (8-, 4- and 2-bit, signed and unsigned) and fp16 and
//! bf16 with an f32 accumulator, on random data; and the split (`dpasw`) form of
//! `cl_intel_subgroup_split_matrix_multiply_accumulate` over pairs of sub-groups.
//!
//! Debian's IGC (1.0.12504) declares these functions only when the extension is named in a
//! `-cl-ext=-all,+…` list (as the OpenCL runtimes name a device's extensions); ocloc run
//! plainly names none, so the source declares the ones it calls.

use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};

use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

/// (A precision, B precision) as the function names spell them; signedness from the letter.
const INT_PAIRS: [(&str, &str); 36] = {
    const P: [&str; 6] = ["i8", "u8", "i4", "u4", "i2", "u2"];
    let mut out = [("", ""); 36];
    let mut k = 0;
    while k < 36 {
        out[k] = (P[k / 6], P[k % 6]);
        k += 1;
    }
    out
};

fn bits(p: &str) -> usize {
    match &p[1..] {
        "8" => 8,
        "4" => 4,
        "2" => 2,
        _ => 16,
    }
}

/// K: 32 when either matrix is 8-bit, else 64 (the function names); 16 for fp16/bf16.
fn k_of(a: &str, b: &str) -> usize {
    match (bits(a), bits(b)) {
        (16, _) => 16,
        (8, _) | (_, 8) => 32,
        _ => 64,
    }
}

/// The OpenCL vector type of `bytes` bytes per row (A) or per work item (B).
fn vec_type(bytes: usize, unsigned: bool, rows: bool) -> String {
    let u = if unsigned { "u" } else { "" };
    match (bytes, rows) {
        (1, true) => format!("{u}char8"),
        (2, true) => format!("{u}short8"),
        (4, true) => format!("{u}int8"),
        (b, _) => format!("{u}int{}", b / 4),
    }
}

struct Func {
    name: String,
    a: &'static str,
    b: &'static str,
    k: usize,
    /// Bytes per row of A a work item holds, and bytes of B a work item holds.
    a_bytes: usize,
    b_bytes: usize,
}

fn funcs() -> Vec<Func> {
    let mut v: Vec<(&'static str, &'static str)> = INT_PAIRS.to_vec();
    v.extend([("f16", "f16"), ("bf16", "bf16")]);
    v.into_iter()
        .map(|(a, b)| {
            let k = k_of(a, b);
            Func {
                name: format!("{a}_{b}_matrix_mad_k{k}"),
                a,
                b,
                k,
                a_bytes: k * bits(a) / 8 / 8,
                b_bytes: k * bits(b) / 8,
            }
        })
        .collect()
}

fn source(fs: &[Func]) -> String {
    let mut s = String::new();
    for f in fs {
        let float = f.a.ends_with("16");
        let (acc, aty, bty) = if float {
            ("float8".to_string(), "int8".to_string(), "int8".to_string())
        } else {
            (
                "int8".to_string(),
                vec_type(f.a_bytes, f.a.starts_with('u'), true),
                vec_type(f.b_bytes, f.b.starts_with('u'), false),
            )
        };
        s += &format!(
            "{acc} __attribute__((overloadable)) intel_sub_group_{n}({aty} a, {bty} b, {acc} acc);
__attribute__((intel_reqd_sub_group_size(8)))
kernel void k_{n}(global const {aty} *a, global const {bty} *b, global const {acc} *c,
                  global {acc} *d)
{{ uint i = get_sub_group_local_id(); d[i] = intel_sub_group_{n}(a[i], b[i], c[i]); }}
",
            n = f.name
        );
    }
    s
}

/// Element `k` of `bits` bits from `bytes` (little-endian, packed), sign-extended if `signed`.
fn elem(bytes: &[u8], k: usize, bits: usize, signed: bool) -> i64 {
    let mut v = 0i64;
    for i in 0..bits {
        let b = k * bits + i;
        v |= i64::from(bytes[b / 8] >> (b % 8) & 1) << i;
    }
    if signed && v >> (bits - 1) != 0 {
        v - (1 << bits)
    } else {
        v
    }
}

fn float_of(raw: i64, p: &str) -> f32 {
    if p == "bf16" {
        f32::from_bits((raw as u32) << 16)
    } else {
        // IEEE binary16: sign, 5-bit exponent (bias 15), 10-bit fraction.
        let (h, s) = (raw as u16, if raw & 0x8000 != 0 { -1.0 } else { 1.0 });
        let (e, m) = (i32::from(h >> 10 & 31), f64::from(h & 1023));
        let v = match e {
            0 => m * 2f64.powi(-24),
            _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
        };
        (s * v) as f32
    }
}

/// The extension's result: d[m][n] = acc[m][n] + sum over k of A[m][k] * B[k][n], where work
/// item j holds A's elements j*K/8.. of each row and work item n holds B's column n. Integers
/// in wrapping 32-bit arithmetic; floats added to the f32 accumulator one product at a time in
/// k order (the model the simulator documents; the extension leaves rounding open).
fn expected(f: &Func, a: &[u8], b: &[u8], c: &[u8]) -> Vec<u8> {
    let per_item = f.k / 8;
    let mut out = vec![0u8; 8 * 8 * 4];
    for m in 0..8 {
        for n in 0..8 {
            let at = (n * 8 + m) * 4;
            let cw = u32::from_le_bytes(c[at..at + 4].try_into().unwrap());
            let (mut int, mut fl) = (cw, f32::from_bits(cw));
            for k in 0..f.k {
                let (j, e) = (k / per_item, k % per_item);
                let row = &a[(j * 8 + m) * f.a_bytes..][..f.a_bytes];
                let col = &b[n * f.b_bytes..][..f.b_bytes];
                let s = |p: &str| p.starts_with('i');
                let av = elem(row, e, bits(f.a), s(f.a));
                let bv = elem(col, k, bits(f.b), s(f.b));
                if f.a.ends_with("16") {
                    fl += float_of(av, f.a) * float_of(bv, f.b);
                } else {
                    int = int.wrapping_add((av * bv) as u32);
                }
            }
            let w = if f.a.ends_with("16") {
                fl.to_bits()
            } else {
                int
            };
            out[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    out
}

fn random(rng: &mut TestRng, n: usize, float: Option<&str>) -> Vec<u8> {
    let mut v: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
    if let Some(p) = float {
        // Finite halves of moderate size (hf: below 2; bf: 2^-7 to 2).
        for h in v.chunks_mut(2) {
            if p == "f16" {
                h[1] &= 0xbb;
            } else {
                h[1] = (h[1] & 0x80) | (0x3c + (h[1] & 0x03));
            }
        }
    }
    v
}

/// One work-group of one sub-group of 8 ([`dispatch_groups`] with 256 bytes of output).
fn dispatch(d: &Device, k: &Kernel, bufs: [&[u8]; 3], out_len: usize) -> Result<Vec<u8>, String> {
    dispatch_groups(d, k, bufs, out_len, 8)
}

#[test]
fn matrix_mad_matches_the_formula_for_every_precision_pair() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let p = Platform::Dg2;
    let fs = funcs();
    let bin = oracles::ocloc::compile(
        &ocloc,
        p,
        &source(&fs),
        "",
        oracles::ocloc::Format::PatchTokens,
    )
    .unwrap();
    let d = Device::open_sim(p, Some(umd::device::sim_kmds(p)[0])).unwrap();
    let mut rng = TestRng::from_seed(RngAlgorithm::XorShift, &[7; 16]);
    let mut bad = Vec::new();
    for f in &fs {
        let k = Kernel::from_ocloc(&bin, Some(&format!("k_{}", f.name)), Some(p)).unwrap();
        let float = f.a.ends_with("16").then_some(f.a);
        for round in 0..4 {
            let a = random(&mut rng, 8 * 8 * f.a_bytes, float);
            let b = random(&mut rng, 8 * f.b_bytes, float);
            let mut c = random(&mut rng, 8 * 8 * 4, None);
            if float.is_some() {
                for w in c.chunks_mut(4) {
                    w[3] &= 0xbf; // |acc| < 2
                }
            }
            let got = match dispatch(&d, &k, [&a, &b, &c], 8 * 8 * 4) {
                Ok(g) => g,
                Err(e) => {
                    bad.push(format!("{}: {e}", f.name));
                    break;
                }
            };
            let want = expected(f, &a, &b, &c);
            if got != want {
                bad.push(format!(
                    "{} round {round}:\n got {got:02x?}\nwant {want:02x?}",
                    f.name
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// `cl_intel_subgroup_split_matrix_multiply_accumulate`: the split functions compile to
/// `dpasw`, whose A rows (src2) come half from each thread of a fused EU pair. Work-groups of
/// two sub-groups, several groups: sub-group 2j of a group gives rows 0..M/2 and sub-group
/// 2j + 1 rows M/2..M (the simulator pairs threads 2j and 2j + 1, the first as EU0; see
/// `run_fused_pairs` in sim's dispatch), and each sub-group gets acc + A x its own b.
#[test]
fn split_matrix_mad_shares_a_across_the_sub_group_pair() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let p = Platform::Dg2;
    let fs: Vec<Func> = funcs()
        .into_iter()
        .filter(|f| {
            ["i8_i8", "u8_i8", "i8_u8", "u8_u8", "f16_f16", "bf16_bf16"]
                .iter()
                .any(|n| f.name.starts_with(&format!("{n}_")))
        })
        .collect();
    let mut src = String::new();
    for f in &fs {
        let float = f.a.ends_with("16");
        let u = |p: &str| if p.starts_with('u') { "u" } else { "" };
        let (acc, aty, bty) = if float {
            ("float8".to_string(), "int4".to_string(), "int8".to_string())
        } else {
            (
                "int8".to_string(),
                format!("{}int4", u(f.a)),
                format!("{}int8", u(f.b)),
            )
        };
        let n = f.name.replace("_matrix_mad", "_split_matrix_mad");
        src += &format!(
            "{acc} __attribute__((overloadable)) intel_sub_group_{n}({aty} a, {bty} b, {acc} acc);
__attribute__((intel_reqd_sub_group_size(8)))
kernel void k_{n}(global const {aty} *a, global const {bty} *b, global const {acc} *c,
                  global {acc} *d)
{{ uint i = get_global_id(0); d[i] = intel_sub_group_{n}(a[i], b[i], c[i]); }}
__attribute__((intel_reqd_sub_group_size(8)))
kernel void k2_{n}(global const {aty} *a, global const {bty} *b, global const {acc} *c,
                   global {acc} *d)
{{ uint i = get_global_id(0);
   d[i] = intel_sub_group_{n}(a[i], b[i], intel_sub_group_{n}(a[i], b[i], c[i])); }}
"
        );
    }
    let bin =
        oracles::ocloc::compile(&ocloc, p, &src, "", oracles::ocloc::Format::PatchTokens).unwrap();
    let d = Device::open_sim(p, Some(umd::device::sim_kmds(p)[0])).unwrap();
    let mut rng = TestRng::from_seed(RngAlgorithm::XorShift, &[9; 16]);
    let mut bad = Vec::new();
    const GROUPS: usize = 2;
    const SUB_GROUPS: usize = 2 * GROUPS;
    // `k2_`: two split mads in a row, which IGC issues as back-to-back dpasw (a fused pair goes
    // through a run of them together).
    for (f, twice) in fs.iter().flat_map(|f| [(f, false), (f, true)]) {
        let prefix = if twice { "k2" } else { "k" };
        let name = format!(
            "{prefix}_{}",
            f.name.replace("_matrix_mad", "_split_matrix_mad")
        );
        let k = Kernel::from_ocloc(&bin, Some(&name), Some(p)).unwrap();
        let float = f.a.ends_with("16").then_some(f.a);
        // Per sub-group: 8 work items x 4 rows x 4 bytes of A, 8 x 32 bytes of B, 8 x 8 acc.
        let a = random(&mut rng, SUB_GROUPS * 128, float);
        let b = random(&mut rng, SUB_GROUPS * 256, float);
        let mut c = random(&mut rng, SUB_GROUPS * 256, None);
        if float.is_some() {
            for w in c.chunks_mut(4) {
                w[3] &= 0xbf;
            }
        }
        let got = match dispatch_groups(&d, &k, [&a, &b, &c], SUB_GROUPS * 256, 16) {
            Ok(g) => g,
            Err(e) => {
                bad.push(format!("{name}: {e}"));
                continue;
            }
        };
        for s in 0..SUB_GROUPS {
            // The whole A of the pair in matrix_mad's layout: work item j's row m.
            let pair = s & !1;
            let mut whole = vec![0u8; 8 * 8 * 4];
            for j in 0..8 {
                for m in 0..8 {
                    let from = (pair + m / 4) * 128 + (j * 4 + m % 4) * 4;
                    whole[(j * 8 + m) * 4..][..4].copy_from_slice(&a[from..from + 4]);
                }
            }
            let mut want = expected(f, &whole, &b[s * 256..][..256], &c[s * 256..][..256]);
            if twice {
                want = expected(f, &whole, &b[s * 256..][..256], &want);
            }
            if got[s * 256..][..256] != want[..] {
                bad.push(format!(
                    "{name} sub-group {s}:\n got {:02x?}\nwant {want:02x?}",
                    &got[s * 256..][..256]
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The kernel over `out_len / 256` sub-groups of 8 in work-groups of `local`, buffers `bufs`
/// and an output of `out_len` bytes, which it returns.
fn dispatch_groups(
    d: &Device,
    k: &Kernel,
    bufs: [&[u8]; 3],
    out_len: usize,
    local: u32,
) -> Result<Vec<u8>, String> {
    let mut args = Vec::new();
    for b in bufs {
        let buf = d.create_buffer(b.len() as u64).unwrap();
        buf.write(0, b).unwrap();
        args.push(ArgValue::Buffer(buf));
    }
    let o = d.create_buffer(out_len as u64).unwrap();
    args.push(ArgValue::Buffer(o.clone()));
    let global = (out_len / 256 * 8) as u32;
    let range = NdRange::new(&[global], Some(&[local]), k.simd, None).map_err(|e| e.to_string())?;
    d.dispatch(k, &range, &args).map_err(|e| e.to_string())?;
    Ok(o.to_vec().unwrap())
}
