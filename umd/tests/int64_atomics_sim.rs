//! 64-bit integer atomics (cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics), compiled
//! by ocloc and run on every simulated platform and kernel driver. On global memory IGC sends
//! HDC A64 untyped atomics with QWord data (iga64: "untyped a64 atomic int64", on dg2 too); on
//! local memory it builds them from a 32-bit compare-and-swap lock. The expected values follow
//! from the OpenCL C definitions of `atom_*` (the old value returned; the update indivisible):
//! whatever order the work-items run in, the sums, bitwise results, extrema, counts and
//! compare-exchanges below are determined, and the values `atom_add` returned chain from the
//! initial value by each work-item's addend.

use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = include_str!("data/int64_atomics.cl");
const ITEMS: usize = 64;
const GROUP: usize = 16;
/// Counters 0..16, then 64 compare-exchange slots that match, then 64 that do not.
const SLOTS: usize = 16 + 2 * ITEMS;

fn longs(bytes: &[u8]) -> Vec<i64> {
    bytes
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn bytes(v: &[i64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn initial() -> Vec<i64> {
    let mut c = vec![0i64; SLOTS];
    c[0] = 0x1234_5678_9abc;
    c[1] = -0x10_0000_0000;
    c[2] = i64::MAX;
    c[3] = i64::MIN;
    c[4] = 0;
    c[5] = -1;
    c[6] = 0x5a5a_0000_0000;
    c[7] = 0xffff_fff0;
    c[8] = 0x1_0000_0008;
    c[9] = -1;
    c[10] = 0;
    for i in 0..ITEMS {
        c[16 + i] = i as i64;
        c[16 + ITEMS + i] = i as i64;
    }
    c
}

fn check_global(d: &Device, bin: &[u8], p: Platform, what: &str) {
    let kernel = Kernel::from_ocloc(bin, Some("global64"), Some(p)).unwrap();
    let range = NdRange::new(&[ITEMS as u32], Some(&[GROUP as u32]), kernel.simd, None).unwrap();
    let init = initial();
    let c = d.create_buffer((8 * SLOTS) as u64).unwrap();
    c.write(0, &bytes(&init)).unwrap();
    let ret = d.create_buffer((8 * ITEMS) as u64).unwrap();
    let args = [ArgValue::Buffer(c.clone()), ArgValue::Buffer(ret.clone())];
    if let Err(e) = d.dispatch(&kernel, &range, &args) {
        panic!("{what} global64: {e}");
    }
    let got = longs(&c.to_vec().unwrap());
    let ret = longs(&ret.to_vec().unwrap());
    let v = |i: usize| (i as i64 + 1).wrapping_mul(0x1_0000_0001);
    let w = |i: usize| (i as i64 - 32).wrapping_mul(0x1_0000_0001);
    let sum: i64 = (0..ITEMS).map(v).fold(0, i64::wrapping_add);
    let mut want = init.clone();
    want[0] = init[0].wrapping_add(sum);
    want[1] = init[1].wrapping_sub(sum);
    want[2] = (0..ITEMS).map(w).min().unwrap();
    want[3] = (0..ITEMS).map(w).max().unwrap();
    want[4] = (0..ITEMS).fold(0, |a, i| a | 1 << (i % 64));
    want[5] = (0..ITEMS).fold(-1, |a, i| a & !(1 << (i % 64)));
    want[6] = (0..ITEMS).fold(init[6], |a, i| a ^ ((i as i64 + 1) << 20));
    // Unsigned: the negative w are the largest.
    want[9] = (0..ITEMS).map(|i| w(i) as u64).min().unwrap() as i64;
    want[10] = (0..ITEMS).map(|i| w(i) as u64).max().unwrap() as i64;
    want[7] = init[7] + ITEMS as i64;
    want[8] = init[8] - ITEMS as i64;
    for i in 0..ITEMS {
        want[16 + i] = !(i as i64);
    }
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "{what} global64 slot {k}: {g:#x}, want {w:#x}");
    }
    // The old values atom_add returned: in the order the additions happened (the addends are
    // positive), each is the previous one plus the previous work-item's addend.
    let mut order: Vec<usize> = (0..ITEMS).collect();
    order.sort_by_key(|&i| ret[i]);
    let mut at = init[0];
    for &i in &order {
        assert_eq!(ret[i], at, "{what} atom_add returned to work-item {i}");
        at = at.wrapping_add(v(i));
    }
}

fn check_local(d: &Device, bin: &[u8], p: Platform, what: &str) {
    let kernel = Kernel::from_ocloc(bin, Some("local64"), Some(p)).unwrap();
    let range = NdRange::new(&[ITEMS as u32], Some(&[GROUP as u32]), kernel.simd, None).unwrap();
    let groups = ITEMS / GROUP;
    let out = d.create_buffer((8 * 4 * groups) as u64).unwrap();
    let args = [ArgValue::Buffer(out.clone()), ArgValue::Local(8 * 4)];
    if let Err(e) = d.dispatch(&kernel, &range, &args) {
        panic!("{what} local64: {e}");
    }
    let got = longs(&out.to_vec().unwrap());
    let l = 0..GROUP as i64;
    let want = [
        l.clone().map(|l| (l + 1) << 33).sum::<i64>(),
        0,
        l.clone().map(|l| -l * 0x100_0000_0000).min().unwrap(),
        l.fold(0, |a, l| a ^ ((l + 1) << 40)),
    ];
    for g in 0..groups {
        assert_eq!(got[4 * g..4 * g + 4], want, "{what} local64 group {g}");
    }
}

#[test]
fn int64_atomics_on_every_device() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    for p in Platform::ALL {
        let bin = oracles::ocloc::build(
            &ocloc,
            p,
            ("kernel.cl", SRC.as_bytes()),
            "",
            &[
                "-internal_options",
                "-cl-ext=+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics",
            ],
            "out",
        )
        .unwrap_or_else(|e| panic!("{p}: {e}"));
        for k in umd::device::sim_kmds(p) {
            let d = Device::open_sim(p, Some(k)).unwrap();
            let what = format!("{p} {k:?}");
            check_global(&d, &bin, p, &what);
            check_local(&d, &bin, p, &what);
        }
    }
}
