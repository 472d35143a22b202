//! The front end's Maximum Number of Threads and the scratch slice count from a GT topology,
//! full and with fused-off subslices and EUs. Expected numbers are worked out here by the
//! formulas the peers use, written next to each:
//! - NEO `GfxCoreHelper::getMaxThreadsForVfe`: EUCount × (threads per EU +
//!   extraQuantityThreadsPerEU), the extra thread being 1 on Gen11/Gen12LP (hw_info_icllp.cpp,
//!   hw_info_tgllp.cpp) and 0 on Gen9 and DG2;
//! - Mesa (anv/iris/blorp): MaximumNumberofThreads = max_cs_threads (one whole subslice's
//!   threads) × subslice_total;
//! - NEO `getComputeUnitsUsedForScratch`: MaxSubSlicesSupported × MaxEuPerSubSlice × threads per
//!   EU (× 8 forced on Gen11/Gen12LP), the maxima from the kernel's topology query header;
//!   Mesa's Gen9 rule of 4 subslices per slice for scratch.

use batchbuffer::builder::*;
use batchbuffer::*;
use platform::Platform;

fn limits(p: Platform, t: GtTopology) -> DeviceLimits {
    DeviceLimits::new(p, &t).unwrap()
}

#[test]
fn full_gt2_topologies() {
    // skl GT2 in the sim's shape (1 slice of 3 subslices of 8 EUs): NEO 24 EUs × 7 = 168,
    // Mesa 56 × 3 = 168; scratch by Mesa's Gen9 rule 4 subslices × 56 = 224.
    let skl = limits(Platform::Skl, GtTopology::full(1, 3, 8));
    assert_eq!((skl.front_end_threads, skl.scratch_slices), (168, 224));
    // icllp GT2, 8 subslices of 8 EUs: NEO 64 × (7 + 1) = 512; scratch NEO 8 × 8 × 8 = 512
    // (Mesa: 8 subslices × 8 × 8 scratch ids).
    let icl = limits(Platform::Icllp, GtTopology::full(1, 8, 8));
    assert_eq!((icl.front_end_threads, icl.scratch_slices), (512, 512));
    // tgllp GT2, 6 dual-subslices of 16 EUs: NEO 96 × (7 + 1) = 768; scratch NEO 6 × 16 × 8
    // = 768 (Mesa: 6 × 16 × 8).
    let tgl = limits(Platform::Tgllp, GtTopology::full(1, 6, 16));
    assert_eq!((tgl.front_end_threads, tgl.scratch_slices), (768, 768));
    // DG2-512, 32 Xe-cores of 16 EUs: NEO 512 × 8 = 4096, Mesa 128 × 32 = 4096; scratch
    // NEO 32 × 16 × 8 = 4096.
    let dg2 = limits(Platform::Dg2, GtTopology::full(1, 32, 16));
    assert_eq!((dg2.front_end_threads, dg2.scratch_slices), (4096, 4096));
}

#[test]
fn fused_off_parts_keep_their_thread_slots_for_scratch() {
    // skl GT2 as i915 describes it (gen9 sseu: at most 3 slices of 4 subslices of 8 EUs), one
    // slice of 3 subslices enabled with 23 EUs: front end Mesa 56 × 3 = 168; scratch NEO
    // 3 × 4 × 8 × 7 = 672.
    let skl = limits(
        Platform::Skl,
        GtTopology {
            max_slices: 3,
            max_subslices_per_slice: 4,
            max_eus_per_subslice: 8,
            subslices: 3,
            eus: 23,
        },
    );
    assert_eq!((skl.front_end_threads, skl.scratch_slices), (168, 672));
    // tgllp with 5 of 6 dual-subslices and 76 EUs: every enabled DSS whole, 5 × 16 × 8 = 640
    // (at least NEO's 76 × 8 = 608); scratch still covers the 6 × 16 × 8 = 768 slots.
    let tgl = limits(
        Platform::Tgllp,
        GtTopology {
            max_slices: 1,
            max_subslices_per_slice: 6,
            max_eus_per_subslice: 16,
            subslices: 5,
            eus: 76,
        },
    );
    assert_eq!((tgl.front_end_threads, tgl.scratch_slices), (640, 768));
    // DG2 with 28 of 32 Xe-cores (448 EUs): NEO 448 × 8 = 3584, Mesa 128 × 28 = 3584;
    // scratch 32 × 16 × 8 = 4096.
    let dg2 = limits(
        Platform::Dg2,
        GtTopology {
            max_slices: 1,
            max_subslices_per_slice: 32,
            max_eus_per_subslice: 16,
            subslices: 28,
            eus: 448,
        },
    );
    assert_eq!((dg2.front_end_threads, dg2.scratch_slices), (3584, 4096));
}

#[test]
fn impossible_topologies_are_refused() {
    let bad = |p, t| matches!(DeviceLimits::new(p, &t), Err(BuildError::BadTopology(_)));
    let tgl = GtTopology::full(1, 6, 16);
    assert!(bad(
        Platform::Tgllp,
        GtTopology {
            subslices: 0,
            eus: 0,
            ..tgl
        }
    ));
    assert!(bad(
        Platform::Tgllp,
        GtTopology {
            subslices: 7,
            ..tgl
        }
    ));
    assert!(bad(Platform::Tgllp, GtTopology { eus: 97, ..tgl }));
    // CFE_STATE's Maximum Number of Threads is 16 bits: 1024 Xe-cores × 16 × 8 do not fit.
    assert!(bad(Platform::Dg2, GtTopology::full(1, 1024, 16)));
    // A 16-bit field holding the count minus one takes 65,536 on MEDIA_VFE_STATE.
    assert!(DeviceLimits::new(Platform::Tgllp, &GtTopology::full(1, 512, 16)).is_ok());
    assert!(bad(Platform::Tgllp, GtTopology::full(1, 513, 16)));
}

/// A preamble for `limits` with a scratch buffer of `slices` slices (None: no scratch).
fn preamble(
    p: Platform,
    limits: DeviceLimits,
    slices: Option<u32>,
) -> Result<Vec<u32>, BuildError> {
    let (mut b, mut s, mut dy, mut ind) = (vec![0; 256], vec![0; 64], vec![0; 16], vec![0; 16]);
    let mut batch = Batch::new(&mut b);
    let mut heaps = Heaps {
        surface: Heap::new("surface", 0x20_0000, &mut s),
        dynamic: Heap::new("dynamic", 0x30_0000, &mut dy),
        indirect: Heap::new("indirect", 0x40_0000, &mut ind),
    };
    let scratch = slices.map(|slices| ScratchSpace {
        address: 0x100_0000,
        slice: scratch_slice_bytes(p, 1024).unwrap(),
        slices,
    });
    let fe = front_end(p, &mut heaps, 0, scratch.as_ref())?;
    Builder::with_limits(p, limits).preamble(&mut batch, &heaps, 0, (0x80_0000, 4096), fe)?;
    Ok(batch.as_slice().to_vec())
}

fn first(p: Platform, batch: &[u32], packet: PacketId) -> Vec<u32> {
    let mut at = 0;
    while at < batch.len() {
        let id = identify(p, &batch[at..]).unwrap();
        if id.packet == packet {
            return batch[at..at + id.len].to_vec();
        }
        at += id.len;
    }
    panic!("{packet:?} not in the batch");
}

#[test]
fn the_front_end_gets_the_topologys_thread_count() {
    let t = GtTopology {
        subslices: 5,
        eus: 80,
        ..GtTopology::full(1, 6, 16)
    };
    for p in [Platform::Tgllp, Platform::Dg2] {
        let l = limits(p, t);
        assert_eq!(l.front_end_threads, 5 * 16 * 8);
        let words = preamble(p, l, None).unwrap();
        if p == Platform::Dg2 {
            let c = CfeState::unpack(p, &first(p, &words, PacketId::CfeState)).unwrap();
            assert_eq!(
                c.maximum_number_of_threads, 640,
                "CFE_STATE holds the count"
            );
        } else {
            let v = MediaVfeState::unpack(p, &first(p, &words, PacketId::MediaVfeState)).unwrap();
            assert_eq!(
                v.maximum_number_of_threads, 639,
                "MEDIA_VFE_STATE holds it minus one"
            );
        }
        // Scratch must cover every thread slot of the topology, not only the enabled ones.
        assert!(preamble(p, l, Some(l.scratch_slices)).is_ok());
        assert!(matches!(
            preamble(p, l, Some(l.front_end_threads)),
            Err(BuildError::BadScratch(_))
        ));
    }
}
