//! sub_group_broadcast whose id is loaded from memory (`u[0] % get_sub_group_size()`), the form
//! big kernels use, on every scalar type the extensions give it, at SIMD 8, 16 and 32, on every
//! simulated platform. The reference is cl_khr_subgroups' text: every work-item of a subgroup
//! gets "the value of x for work item identified by sub_group_local_id". Groups of 2*SIMD+5
//! work-items make the last subgroup of each group partial.

use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

/// (OpenCL C type, bytes, the broadcast function).
const TYPES: [(&str, usize, &str); 8] = [
    ("uchar", 1, "intel_sub_group_broadcast"),
    ("half", 2, "sub_group_broadcast"),
    ("int", 4, "sub_group_broadcast"),
    ("uint", 4, "sub_group_broadcast"),
    ("float", 4, "sub_group_broadcast"),
    ("long", 8, "sub_group_broadcast"),
    ("ulong", 8, "sub_group_broadcast"),
    ("double", 8, "sub_group_broadcast"),
];

fn source(p: Platform, simd: u32) -> String {
    let mut s = String::from("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
    if p.has_fp64() {
        s.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    }
    for (t, _, f) in TYPES.iter().filter(|x| x.0 != "double" || p.has_fp64()) {
        s.push_str(&format!(
            "__attribute__((intel_reqd_sub_group_size({simd}))) kernel void bc_{t}(global const {t} *x, global const uint *u, global {t} *out) \
             {{ size_t i = get_global_id(0); out[i] = {f}(x[i], u[0] % get_sub_group_size()); }}\n"
        ));
    }
    s
}

/// IEEE binary16 bits of the integer `v` (1 <= v < 2048: exact).
fn half_bits(v: u64) -> u16 {
    let e = 63 - v.leading_zeros() as u64;
    (((e + 15) << 10) | ((v << (10 - e)) & 0x3ff)) as u16
}

#[test]
fn broadcast_with_an_id_from_memory_on_every_device() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let mut failed = Vec::new();
    for p in Platform::ALL {
        for simd in [8u32, 16, 32] {
            let src = source(p, simd);
            let bin =
                oracles::ocloc::compile(&ocloc, p, &src, "", oracles::ocloc::Format::PatchTokens)
                    .unwrap();
            let k = umd::device::sim_kmds(p)[0];
            let d = Device::open_sim(p, Some(k)).unwrap();
            let local = 2 * simd + 5;
            let global = 3 * local - 7;
            for (t, size, _) in TYPES.iter().filter(|x| x.0 != "double" || p.has_fp64()) {
                let kernel = Kernel::from_ocloc(&bin, Some(&format!("bc_{t}")), Some(p)).unwrap();
                let range = NdRange::new(&[global], Some(&[local]), kernel.simd, None).unwrap();
                // Distinct values per work-item (small integers for the floating types).
                let bytes: Vec<u8> = (0..global as usize)
                    .flat_map(|i| {
                        let v = i as u64 + 1;
                        match *t {
                            "half" => half_bits(v).to_le_bytes().to_vec(),
                            "float" => (v as f32).to_le_bytes().to_vec(),
                            "double" => (v as f64).to_le_bytes().to_vec(),
                            _ => (v.wrapping_mul(0x0101_0101_0101_0101) ^ 0x5a00_3c00_a5c3_0f00)
                                .to_le_bytes()[..*size]
                                .to_vec(),
                        }
                    })
                    .collect();
                for which in [0u32, 3, 7, 1_234_567, 0x8765_4321, 0xdead_beef, u32::MAX] {
                    let x = d.create_buffer(bytes.len() as u64).unwrap();
                    x.write(0, &bytes).unwrap();
                    let u = d.create_buffer(4).unwrap();
                    u.write(0, &which.to_le_bytes()).unwrap();
                    let out = d.create_buffer(bytes.len() as u64).unwrap();
                    out.write(0, &vec![0; bytes.len()]).unwrap();
                    let args = [
                        ArgValue::Buffer(x),
                        ArgValue::Buffer(u),
                        ArgValue::Buffer(out.clone()),
                    ];
                    let what = format!("{p} simd{simd} bc_{t} which={which}");
                    if let Err(e) = d.dispatch(&kernel, &range, &args) {
                        failed.push(format!("{what}: {e}"));
                        continue;
                    }
                    let got = out.to_vec().unwrap();
                    // Work-item i: group i / local, subgroup (i % local) / simd.
                    let mut bad = 0;
                    for i in 0..global as usize {
                        let (g, l) = (i / local as usize, i % local as usize);
                        let group_size = (global as usize - g * local as usize).min(local as usize);
                        let sg0 = l / simd as usize * simd as usize;
                        let sg_size = (group_size - sg0).min(simd as usize);
                        let src = g * local as usize + sg0 + which as usize % sg_size;
                        if got[i * size..(i + 1) * size] != bytes[src * size..(src + 1) * size] {
                            bad += 1;
                        }
                    }
                    if bad > 0 {
                        failed.push(format!("{what}: {bad} work-items wrong"));
                    }
                }
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
