//! A kernel's required work-group walk order (`intel_reqd_workgroup_walk_order`, carried by
//! zebin as `work_group_walk_order_dimensions`, dimensions fastest first) decides how the
//! group's work items fill threads and lanes: walk position w = id[o0] + L[o0]·(id[o1] +
//! L[o1]·id[o2]) is lane w mod SIMD of sub-group w / SIMD (NEO's local-ID generation, and
//! the hardware's walk for the same order, NEO's `HwWalkOrderHelper` table). OpenCL C has no
//! spelling for the attribute: the kernels go through Debian's clang 15 to LLVM IR, get the
//! kernel metadata IGC reads (`!intel_reqd_workgroup_walk_order`), and ocloc compiles the IR
//! (`-llvm_input`) to zebin. Expected values come from those formulas and ocloc's .ze_info
//! text, never from umd. On Xe-HPG the walker generates the IDs when NEO's rule allows (the
//! order's two fastest extents powers of two) and the kernel starts past its per-thread-data
//! load (`offset_to_skip_per_thread_data_load`, non-zero in these binaries); the test checks
//! the walker fields too.

use std::path::Path;
use std::process::Command;

use batchbuffer::{identify, ComputeWalker, Packet, PacketId, WalkOrder};
use platform::Platform;
use umd::device::{sim_kmds, Device};
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

/// `walk` reads no sub-group ID; `walk_sg` does, and IGC then forces the order 0, 1, 2 on
/// platforms without hardware local thread IDs (skl, tgllp: IGC `PreBIImportAnalysis`).
const SOURCE: &str = r#"
#define OUT(extra) \
    uint lin = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)); \
    uint grp = get_group_id(0); \
    uint at = (grp * get_local_size(0) * get_local_size(1) * get_local_size(2) + lin) * 6; \
    out[at + 0] = get_local_id(0); \
    out[at + 1] = get_local_id(1); \
    out[at + 2] = get_local_id(2); \
    out[at + 3] = sub_group_broadcast(lin, 0); \
    out[at + 4] = get_sub_group_local_id(); \
    out[at + 5] = extra;
kernel void walk(global uint *out) { OUT(7u) }
kernel void walk_sg(global uint *out) { OUT(get_sub_group_id()) }
"#;

const ORDERS: [Option<[u8; 3]>; 7] = [
    None,
    Some([0, 1, 2]),
    Some([0, 2, 1]),
    Some([1, 0, 2]),
    Some([1, 2, 0]),
    Some([2, 0, 1]),
    Some([2, 1, 0]),
];

/// NEO's `compatibleDimensionOrders`, index = COMPUTE_WALKER Walk Order.
const HW_ORDERS: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [2, 0, 1],
    [1, 2, 0],
    [2, 1, 0],
];

fn run(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The IR clang makes of `SOURCE`, with `order` attached to both kernels.
fn ir_with_order(clang: &Path, dir: &Path, order: Option<[u8; 3]>) -> String {
    let cl = dir.join("k.cl");
    std::fs::write(&cl, SOURCE).unwrap();
    let ll = dir.join("k.ll");
    run(Command::new(clang)
        .args(["-cc1", "-triple", "spir64-unknown-unknown"])
        .args([
            "-cl-std=CL2.0",
            "-cl-ext=+cl_khr_subgroups",
            "-finclude-default-header",
            "-O2",
            "-disable-llvm-passes",
            "-no-opaque-pointers",
            "-emit-llvm",
            "-o",
        ])
        .arg(&ll)
        .arg(&cl));
    let mut ir = std::fs::read_to_string(&ll).unwrap();
    if let Some([a, b, c]) = order {
        let mut out = String::new();
        for line in ir.lines() {
            if line.starts_with("define ") && line.contains("spir_kernel") {
                let body = line.strip_suffix(" {").expect("a kernel definition line");
                out += &format!("{body} !intel_reqd_workgroup_walk_order !9000 {{\n");
            } else {
                out += line;
                out.push('\n');
            }
        }
        out += &format!("!9000 = !{{i32 {a}, i32 {b}, i32 {c}}}\n");
        ir = out;
    }
    ir
}

fn compile(clang: &Path, ocloc: &Path, p: Platform, order: Option<[u8; 3]>) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("w.ll");
    std::fs::write(&ll, ir_with_order(clang, dir.path(), order)).unwrap();
    let bc = dir.path().join("w.bc");
    run(Command::new(clang.with_file_name("llvm-as-15"))
        .arg(&ll)
        .arg("-o")
        .arg(&bc));
    let bc = std::fs::read(&bc).unwrap();
    oracles::ocloc::build(
        ocloc,
        p,
        ("w.bc", &bc),
        "",
        &["-llvm_input", "--format", "zebin"],
        "out",
    )
    .unwrap_or_else(|e| panic!("ocloc {p} {order:?}: {e}"))
}

/// The order ocloc states for `kernel` in the binary's .ze_info text (0, 1, 2 when absent).
fn ze_info_order(bin: &[u8], kernel: &str) -> [u8; 3] {
    let text = String::from_utf8_lossy(bin);
    let at = text
        .find(&format!("- name:            {kernel}\n"))
        .unwrap_or_else(|| panic!("no .ze_info entry for {kernel}"));
    let rest = &text[at + 1..];
    let end = rest.find("\n  - name:").unwrap_or(rest.len());
    let key = "work_group_walk_order_dimensions: [ ";
    let Some(k) = rest[..end].find(key) else {
        return [0, 1, 2];
    };
    let v: Vec<u8> = rest[k + key.len()..]
        .split(" ]")
        .next()
        .unwrap()
        .split(", ")
        .map(|d| d.trim().parse().unwrap())
        .collect();
    [v[0], v[1], v[2]]
}

/// What the kernel writes for the work item at `id` of a `local` group walked in `o` order.
fn expected(id: [u32; 3], local: [u32; 3], o: [u8; 3], simd: u32, sg: bool) -> [u32; 6] {
    let [a, b, c] = o.map(usize::from);
    let w = id[a] + local[a] * (id[b] + local[b] * id[c]);
    let w0 = w - w % simd;
    let mut id0 = [0u32; 3];
    id0[a] = w0 % local[a];
    id0[b] = (w0 / local[a]) % local[b];
    id0[c] = w0 / (local[a] * local[b]);
    let lin0 = id0[0] + local[0] * (id0[1] + local[1] * id0[2]);
    // This IGC computes get_sub_group_id() as the local linear ID over the SIMD width
    // (`__spirv_BuiltInSubgroupId` without hardware local thread IDs; the dg2 ISA divides
    // get_local_linear_id() by 32) whatever the walk order: it matches the lanes only for
    // the order 0, 1, 2, which IGC forces where it can (skl, tgllp).
    let lin = id[0] + local[0] * (id[1] + local[1] * id[2]);
    [
        id[0],
        id[1],
        id[2],
        lin0,
        w % simd,
        if sg { lin / simd } else { 7 },
    ]
}

/// The COMPUTE_WALKERs of a submitted batch: (Generate Local ID, Walk Order).
fn walkers(p: Platform, batch: &[u8]) -> Vec<(bool, WalkOrder)> {
    let dw: Vec<u32> = batch
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let (mut at, mut out) = (0, Vec::new());
    while at < dw.len() {
        let id = identify(p, &dw[at..]).unwrap();
        if id.packet == PacketId::ComputeWalker {
            let w = ComputeWalker::unpack(p, &dw[at..at + id.len]).unwrap().body;
            out.push((w.generate_local_id, w.walk_order));
        }
        if id.packet == PacketId::MiBatchBufferEnd {
            break;
        }
        at += id.len;
    }
    out
}

#[test]
fn lanes_follow_the_kernels_walk_order() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let clang = oracles::require!(oracles::Oracle::ClangLlvm);
    let (mut hardware, mut runtime) = (0, 0);
    for p in [Platform::Skl, Platform::Tgllp, Platform::Dg2] {
        let d = Device::open_sim(p, Some(sim_kmds(p)[0])).unwrap();
        for order in ORDERS {
            let bin = compile(&clang, &ocloc, p, order);
            for (name, sg) in [("walk", false), ("walk_sg", true)] {
                // What IGC states: the attribute's order, except the forced 0, 1, 2 above.
                let forced = sg && p != Platform::Dg2;
                let want = match order {
                    Some(o) if !forced => o,
                    _ => [0, 1, 2],
                };
                let o = ze_info_order(&bin, name);
                assert_eq!(o, want, "{p} {name} {order:?}: .ze_info order");
                let kernel = Kernel::from_ocloc(&bin, Some(name), Some(p)).unwrap();
                let simd = kernel.simd;
                for local in [[4u32, 4, 4], [3, 4, 4]] {
                    let groups = 2;
                    let items = (local[0] * local[1] * local[2]) as usize;
                    let out = d.create_buffer((groups * items * 6 * 4) as u64).unwrap();
                    let global = [local[0] * groups as u32, local[1], local[2]];
                    let range = NdRange::new(&global, Some(&local), simd, None).unwrap();
                    let report = d
                        .dispatch(&kernel, &range, &[ArgValue::Buffer(out.clone())])
                        .unwrap_or_else(|e| panic!("{p} {name} {order:?} {local:?}: {e}"));
                    let got: Vec<u32> = out
                        .to_vec()
                        .unwrap()
                        .chunks_exact(4)
                        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                        .collect();
                    for g in 0..groups {
                        for lin in 0..items as u32 {
                            let id = [
                                lin % local[0],
                                (lin / local[0]) % local[1],
                                lin / (local[0] * local[1]),
                            ];
                            let at = (g * items + lin as usize) * 6;
                            assert_eq!(
                                got[at..at + 6],
                                expected(id, local, o, simd, sg),
                                "{p} {name} order {order:?} local {local:?} simd {simd} group {g} item {id:?}"
                            );
                        }
                    }
                    if p == Platform::Dg2 {
                        // NEO's rule: hardware IDs when the two fastest extents are powers of
                        // two, with the table's Walk Order for the order.
                        let hw = o[..2].iter().all(|&d| local[d as usize].is_power_of_two());
                        let code = HW_ORDERS.iter().position(|h| *h == o).unwrap();
                        for (gen, walk) in walkers(p, &report.batch) {
                            assert_eq!(gen, hw, "{p} {name} {order:?} {local:?}");
                            if hw {
                                assert_eq!(walk as usize, code, "{p} {name} {order:?}");
                            }
                        }
                        if hw {
                            hardware += 1;
                        } else {
                            runtime += 1;
                        }
                    }
                }
            }
        }
    }
    // Both ways of delivering the IDs were exercised on Xe-HPG.
    assert!(hardware > 0 && runtime > 0, "{hardware} {runtime}");
}
