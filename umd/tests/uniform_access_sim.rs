//! Kernels whose loads and stores are uniform (the same constant index in every work-item):
//! scalar and vector (widths 1..16) loads of every integer and floating type through `global`
//! and `constant` pointers, a kernel argument used only uniformly, and a loop whose bound is loaded from memory. Compiled by ocloc in
//! both formats and run on every simulated platform and kernel driver. Such kernels read no
//! local IDs; IGC then asks (patch tokens) for one unused per-thread GRF before the arguments,
//! which the dispatch must provide or the arguments are read one GRF early (a null buffer
//! address: a page fault at 0x0 on xe, wrong results from the scratch page on i915). IGC also lowers them to SIMD1/SIMD2 data-port messages
//! (whose payload keeps the SIMD8 layout) and to `:uv` immediates interleaved for DWord
//! destinations. On Xe-HPG (ocloc's `acm-g10`) a uniform `char`/`short` store is a `(1|M0)` LSC
//! A64 store whose address block is still two registers, with the data in src1 after them.
//!
//! References are the OpenCL C semantics: `vloadn(i, p)` reads the n elements at `p + i * n`,
//! `vstoren(v, i, p)` writes them there, integer `+` wraps in the element type (the usual
//! arithmetic conversions then the conversion back), floating `+` is IEEE round-to-nearest.

use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::memory::Buffer;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

/// (OpenCL C type, bytes, floating point).
const TYPES: [(&str, usize, bool); 10] = [
    ("char", 1, false),
    ("uchar", 1, false),
    ("short", 2, false),
    ("ushort", 2, false),
    ("int", 4, false),
    ("uint", 4, false),
    ("long", 8, false),
    ("ulong", 8, false),
    ("float", 4, true),
    ("double", 8, true),
];
const WIDTHS: [usize; 6] = [1, 2, 3, 4, 8, 16];
/// Work-items: all of them do the same uniform accesses.
const ITEMS: u32 = 16;
/// Elements in each buffer (room for index 3 of a 16-wide vector).
const ELEMS: usize = 64;

fn types(p: Platform) -> impl Iterator<Item = (&'static str, usize, bool)> {
    TYPES
        .into_iter()
        .filter(move |&(t, _, _)| t != "double" || p.has_fp64())
}

fn vec_name(t: &str, n: usize) -> String {
    if n == 1 {
        t.to_string()
    } else {
        format!("{t}{n}")
    }
}

/// One kernel per type and width: `out[3n..4n) = a[n..2n) + c[2n..3n)`, all at constant
/// indices, and `out[0] = k` from a by-value argument used only uniformly.
fn source(p: Platform) -> String {
    let mut s = String::new();
    if p.has_fp64() {
        s.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    }
    for (t, _, _) in types(p) {
        for n in WIDTHS {
            let v = vec_name(t, n);
            let body = if n == 1 {
                "out[3] = a[1] + c[2];".to_string()
            } else {
                format!("{v} x = vload{n}(1, a); {v} y = vload{n}(2, c); vstore{n}(x + y, 3, out);")
            };
            s.push_str(&format!(
                "kernel void u_{v}(global const {t}* a, constant {t}* c, global {t}* out, {t} k) \
                 {{ {body} out[0] = k; }}\n"
            ));
        }
    }
    // A uniform loop whose bound comes from memory, summing a prefix of `a`.
    s.push_str(
        "kernel void uniform_loop(global const int* a, global int* out) {\n\
         int n = a[0]; int s = 0;\n\
         for (int i = 0; i < n; i++) s += a[1 + i];\n\
         out[1] = s; out[2] = n; }\n",
    );
    s
}

/// Element `i` of the test data as `elem` little-endian bytes (`seed` varies the buffers);
/// floating values are small multiples of 1/4, so sums are exact and never NaN.
fn element(i: usize, elem: usize, float: bool, seed: usize) -> Vec<u8> {
    let k = (i * 37 + seed * 11 + 5) % 251;
    match (float, elem) {
        (true, 4) => (k as f32 * 0.25 - 20.0).to_le_bytes().to_vec(),
        (true, _) => (k as f64 * 0.25 - 20.0).to_le_bytes().to_vec(),
        _ => (0..elem)
            .map(|b| ((k * 131 + b * 71 + seed) % 256) as u8)
            .collect(),
    }
}

fn add(x: &[u8], y: &[u8], float: bool) -> Vec<u8> {
    match (float, x.len()) {
        (true, 4) => {
            let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
            (f(x) + f(y)).to_le_bytes().to_vec()
        }
        (true, _) => {
            let f = |b: &[u8]| f64::from_le_bytes(b.try_into().unwrap());
            (f(x) + f(y)).to_le_bytes().to_vec()
        }
        _ => {
            // Wrapping addition in the element's width (signedness does not change the bits).
            let mut carry = 0u16;
            x.iter()
                .zip(y)
                .map(|(&a, &b)| {
                    let s = u16::from(a) + u16::from(b) + carry;
                    carry = s >> 8;
                    s as u8
                })
                .collect()
        }
    }
}

fn filled(d: &Device, elem: usize, float: bool, seed: usize) -> (Buffer, Vec<u8>) {
    let bytes: Vec<u8> = (0..ELEMS)
        .flat_map(|i| element(i, elem, float, seed))
        .collect();
    let b = d.create_buffer(bytes.len() as u64).unwrap();
    b.write(0, &bytes).unwrap();
    (b, bytes)
}

fn run_typed(
    d: &Device,
    bin: &[u8],
    (p, _format): (Platform, oracles::ocloc::Format),
    what: &str,
    failed: &mut Vec<String>,
) {
    for (t, elem, float) in types(p) {
        for n in WIDTHS {
            let name = format!("u_{}", vec_name(t, n));
            let kernel = Kernel::from_ocloc(bin, Some(&name), Some(p)).unwrap();
            let range = NdRange::new(&[ITEMS], None, kernel.simd, None).unwrap();
            let (a, a_bytes) = filled(d, elem, float, 1);
            let (c, c_bytes) = filled(d, elem, float, 2);
            let (out, mut want) = filled(d, elem, float, 3);
            let k = element(200, elem, float, 4);
            let args = [
                ArgValue::Buffer(a),
                ArgValue::Buffer(c),
                ArgValue::Buffer(out.clone()),
                // ocloc gives char and short arguments a 4-byte slot; the kernel reads its low bytes.
                ArgValue::Value([k.clone(), vec![0; 4usize.saturating_sub(elem)]].concat()),
            ];
            if let Err(e) = d.dispatch(&kernel, &range, &args) {
                failed.push(format!("{what} {name}: {e}"));
                continue;
            }
            for j in 0..n {
                let at = |i: usize| i * elem..(i + 1) * elem;
                let sum = add(&a_bytes[at(n + j)], &c_bytes[at(2 * n + j)], float);
                want[at(3 * n + j)].copy_from_slice(&sum);
            }
            want[..elem].copy_from_slice(&k);
            let got = out.to_vec().unwrap();
            if got != want {
                let at = (0..want.len()).find(|&i| got[i] != want[i]).unwrap_or(0);
                failed.push(format!("{what} {name}: wrong data from byte {at}"));
            }
        }
    }
}

/// `uniform_loop` for several bounds: `out[1]` is the sum of `a[1..=n]`, `out[2]` is `n`.
fn run_loop(d: &Device, bin: &[u8], p: Platform, what: &str, failed: &mut Vec<String>) {
    let kernel = Kernel::from_ocloc(bin, Some("uniform_loop"), Some(p)).unwrap();
    let range = NdRange::new(&[ITEMS], None, kernel.simd, None).unwrap();
    for n in [0i32, 1, 7, 40] {
        let mut a: Vec<i32> = (0..ELEMS as i32).map(|i| i * 3 - 50).collect();
        a[0] = n;
        let a_buf = d.create_buffer(4 * ELEMS as u64).unwrap();
        let bytes: Vec<u8> = a.iter().flat_map(|v| v.to_le_bytes()).collect();
        a_buf.write(0, &bytes).unwrap();
        let out = d.create_buffer(16).unwrap();
        out.write(0, &[0u8; 16]).unwrap();
        let args = [ArgValue::Buffer(a_buf), ArgValue::Buffer(out.clone())];
        if let Err(e) = d.dispatch(&kernel, &range, &args) {
            failed.push(format!("{what} uniform_loop n={n}: {e}"));
            continue;
        }
        let sum: i32 = a[1..1 + n as usize].iter().sum();
        let got = out.to_vec().unwrap();
        let word = |i: usize| i32::from_le_bytes(got[4 * i..4 * i + 4].try_into().unwrap());
        if [word(0), word(1), word(2)] != [0, sum, n] {
            failed.push(format!(
                "{what} uniform_loop n={n}: got {:?}, want {:?}",
                [word(0), word(1), word(2)],
                [0, sum, n]
            ));
        }
    }
}

#[test]
fn uniform_loads_and_stores_on_every_device() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let mut failed = Vec::new();
    for p in Platform::ALL {
        let src = source(p);
        for format in [
            oracles::ocloc::Format::PatchTokens,
            oracles::ocloc::Format::Zebin,
        ] {
            let bin = oracles::ocloc::compile(&ocloc, p, &src, "", format).unwrap();
            for k in umd::device::sim_kmds(p) {
                let d = Device::open_sim(p, Some(k)).unwrap();
                let what = format!("{p} {k:?} {format:?}");
                run_typed(&d, &bin, (p, format), &what, &mut failed);
                run_loop(&d, &bin, p, &what, &mut failed);
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} failures:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
