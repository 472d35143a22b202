//! `vloadn`/`vstoren` of char, short and int data through local memory (a `local` argument and
//! a kernel-scope `local` array) at every element offset, and SLM atomics, compiled by ocloc
//! and run on every simulated platform and kernel driver. IGC tags these `local` pointers with
//! its non-null marker `0x10000000` and sends the tagged offsets in byte scattered, untyped
//! surface and atomic messages to SLM (HDC binding-table index 0xFE; LSC `*.slm` on Xe-HPG);
//! the data port does not take the tag as an address bit (`sim/src/eu/dataport/slm.rs`). The reference is the OpenCL C
//! spec's definition: `vloadn(i, p)` reads the n elements at `p + i * n`, `vstoren(v, i, p)`
//! writes them there; a barrier makes a group's local stores visible to the whole group.

use crate::byte_addressed_support;

use byte_addressed_support::{listing, Buffers, Tools, OFFSETS, TYPES, WIDTHS};
use platform::Platform;
use umd::device::Device;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;

const SRC: &str = include_str!("data/vload_vstore_local.cl");
/// Work-items per dispatch, in groups of `GROUP` (the kernels' `GROUP`).
const ITEMS: usize = 32;
const GROUP: usize = 16;
/// Elements of a group's local buffer (the kernels' `tmp` array): the widest vector of the
/// last work-item at the largest offset.
const LOCAL_ELEMS: usize = GROUP * 16 + 4;
/// IGC's non-null tag of `local` pointers as iga64 prints the immediate.
const TAG: &str = "268435456:d";

/// The bytes a copy kernel leaves in `b`: work-item `g` (local id `l`) writes what the
/// mirrored work-item of its group, `g - l + GROUP - 1 - l`, stored in local memory:
/// `vloadn(that item, a + off) ^ 0x5a` (the xor flips each element's low byte).
fn reference(a: &[u8], b: &[u8], elem: usize, n: usize, off: usize) -> Vec<u8> {
    let mut out = b.to_vec();
    for g in 0..ITEMS {
        let l = g % GROUP;
        let src = g - l + GROUP - 1 - l;
        for k in 0..n {
            let to = (off + g * n + k) * elem;
            let from = (off + src * n + k) * elem;
            out[to..to + elem].copy_from_slice(&a[from..from + elem]);
            out[to] ^= 0x5a;
        }
    }
    out
}

/// Whether a send writes SLM with byte addresses (HDC byte scattered write to binding-table
/// index 0xFE, the descriptor's low byte; LSC `store.slm`) or is an SLM atomic (HDC untyped
/// atomic to 0xFE; LSC `atomic_*.slm`), as iga64 prints it.
fn slm_send(t: &str, p: Platform, atomic: bool) -> bool {
    if !t.contains("send") {
        return false;
    }
    if p == Platform::Dg2 {
        return if atomic {
            t.contains("; atomic_") && t.contains(".slm.")
        } else {
            t.contains("store.slm.")
        };
    }
    let to_slm = t
        .split_whitespace()
        .any(|w| w.len() == 10 && w.starts_with("0x") && w.ends_with("FE"));
    to_slm
        && t.contains(if atomic {
            "untyped atomic"
        } else {
            "byte scattering write"
        })
}

/// The kernels have the shape of the issue on every platform: some copy kernel sends a
/// tagged offset in a byte-addressed write to SLM, and the atomics kernel tags the offsets of
/// its SLM atomics.
fn assert_tagged_slm(tools: &Tools, bin: &[u8], p: Platform) {
    let tagged = |name: &str, atomic: bool| {
        let lines = listing(tools, bin, name, p);
        lines.iter().any(|t| t.contains(TAG)) && lines.iter().any(|t| slm_send(t, p, atomic))
    };
    let copy = TYPES.iter().any(|(ty, _)| {
        WIDTHS.iter().any(|n| {
            ["slm_arg", "slm_array"]
                .iter()
                .any(|kind| tagged(&format!("{kind}_{ty}{n}"), false))
        })
    });
    assert!(copy, "{p}: no tagged byte-addressed SLM write");
    assert!(tagged("slm_atomics", true), "{p}: no tagged SLM atomic");
}

fn check_atomics(d: &Device, bin: &[u8], p: Platform, what: &str) {
    let kernel = Kernel::from_ocloc(bin, Some("slm_atomics"), Some(p)).unwrap();
    let range = NdRange::new(&[ITEMS as u32], Some(&[GROUP as u32]), kernel.simd, None).unwrap();
    let out = d.create_buffer(4 * ITEMS as u64).unwrap();
    let args = [ArgValue::Buffer(out.clone()), ArgValue::Local(4 * 4)];
    if let Err(e) = d.dispatch(&kernel, &range, &args) {
        panic!("{what} slm_atomics: {e}");
    }
    let got = out.to_vec().unwrap();
    for g in 0..ITEMS {
        let slot = g % GROUP % 4;
        let members = (0..GROUP).filter(|l| l % 4 == slot);
        let want = 1000 * members.clone().count() + members.sum::<usize>();
        let v = u32::from_le_bytes(got[4 * g..][..4].try_into().unwrap());
        assert_eq!(v as usize, want, "{what} slm_atomics out[{g}]");
    }
}

#[test]
fn vload_vstore_through_local_memory_on_every_device() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let tools = Tools { ocloc, iga };
    for p in Platform::ALL {
        let bin = oracles::ocloc::compile(
            &tools.ocloc,
            p,
            SRC,
            "",
            oracles::ocloc::Format::PatchTokens,
        )
        .unwrap();
        assert_tagged_slm(&tools, &bin, p);
        for k in umd::device::sim_kmds(p) {
            let d = Device::open_sim(p, Some(k)).unwrap();
            check_atomics(&d, &bin, p, &format!("{p} {k:?}"));
            for (ty, elem) in TYPES {
                let bufs = Buffers::new(&d, ITEMS, elem);
                let local = [ArgValue::Local((LOCAL_ELEMS * elem) as u32)];
                for n in WIDTHS {
                    for (kind, extra) in [("slm_arg", &local[..]), ("slm_array", &[])] {
                        let name = format!("{kind}_{ty}{n}");
                        let kernel = Kernel::from_ocloc(&bin, Some(&name), Some(p)).unwrap();
                        let range =
                            NdRange::new(&[ITEMS as u32], Some(&[GROUP as u32]), kernel.simd, None)
                                .unwrap();
                        for off in OFFSETS {
                            let want = reference(&bufs.a_init, &bufs.b_init, elem, n, off);
                            let what = format!("{p} {k:?} {name} offset {off}");
                            bufs.run(&d, (&kernel, &range), off, extra, &want, &what);
                        }
                    }
                }
            }
        }
    }
}
