//! printf end to end on every simulated platform, in both of ocloc's formats: a kernel's
//! records decoded into the text C99 / OpenCL C 3.0 §6.15.14 define (expected lines written
//! from those rules, not from our output).

use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

/// What work item `i` prints, by the C rules, given `v[i] = 7 - 3i`.
fn expected(i: i64) -> String {
    let v = 7 - 3 * i;
    let c = (200 + i) as u8 as i8;
    let f = format!("{:5.2}", 1.5 * i as f64);
    let x = format!("{:x}", v as i32 as u32);
    let mut s = format!(
        "item {i}: {v} {f} 2.500000e-01 1e-05 0x1p+0|str|{}|{c}|{x}\n",
        (b'A' + i as u8) as char
    );
    // On Xe-HPG IGC stores these with LSC D64 at DWord-aligned buffer offsets.
    s += &format!("long {} -1,1099511627776\n", v * 100_000_000_000);
    s += &format!(
        "v {i},{},3,4 ffff,{i:x} {i},{},-3 0.500000,{i}.000000,-2.000000,3.250000 %\n",
        -i,
        2 * i
    );
    s
}

#[test]
fn printf_records_decode_to_c_text_on_every_platform() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = include_str!("printf_support/printf_mix.cl");
    let n = 5u32;
    for p in Platform::ALL.iter().copied() {
        for format in [
            oracles::ocloc::Format::PatchTokens,
            oracles::ocloc::Format::Zebin,
        ] {
            let bin = oracles::ocloc::compile(&ocloc, p, src, "", format).unwrap();
            let kernel = Kernel::from_ocloc(&bin, Some("mix"), Some(p)).unwrap();
            let d = Device::open_sim(p, None).unwrap();
            let v = d.create_buffer(4 * n as u64).unwrap();
            let vals: Vec<u8> = (0..n as i32)
                .flat_map(|i| (7 - 3 * i).to_le_bytes())
                .collect();
            v.write(0, &vals).unwrap();
            let range = NdRange::new(&[n], Some(&[1]), kernel.simd, None).unwrap();
            let r = d
                .dispatch(&kernel, &range, &[ArgValue::Buffer(v)])
                .unwrap_or_else(|e| panic!("{p} {format:?}: {e}"));
            let out = r.printf.expect("a printf kernel has a printf buffer");
            let dec = out.decode().unwrap();
            assert_eq!(dec.error, None, "{p} {format:?}");
            let text = String::from_utf8(dec.text).unwrap();
            // Work items may print in any order; each item's lines are its own records.
            let mut got: Vec<&str> = text.lines().collect();
            let want_text: String = (0..n as i64).map(expected).collect();
            let mut want: Vec<&str> = want_text.lines().collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{p} {format:?}:\n{text}");
        }
    }
}
