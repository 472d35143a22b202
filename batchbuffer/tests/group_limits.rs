//! No value is packed into a field too narrow for it, and the largest work-group per
//! generation is exactly what the walker's fields can carry (genxml widths in
//! third_party/genxml; 64 threads per group on Gen9–Gen12LP GPGPU_WALKER compute).

use crate::common;

use batchbuffer::builder::*;
use batchbuffer::layout::low_mask;
use batchbuffer::value::{get_u64, put_u64, Problem};
use batchbuffer::WalkOrder;
use batchbuffer::*;
use platform::Platform;
use proptest::prelude::*;

/// Every integer-like field of every packet on every generation, as (packet, field, kind, loc).
fn int_fields() -> Vec<(PacketId, Platform, String, Kind, Loc)> {
    let mut out = Vec::new();
    for &id in PacketId::ALL {
        for p in Platform::ALL {
            if !id.exists_on(p) {
                continue;
            }
            for (name, kind, loc) in common::flat_fields(id.layout(), p, 0) {
                if matches!(
                    kind,
                    Kind::Uint | Kind::Int | Kind::Bool | Kind::Address | Kind::Offset
                ) {
                    out.push((id, p, name, kind, loc));
                }
            }
        }
    }
    out
}

/// The largest value the field holds: in-place addresses keep their low `lo` bits zero.
fn field_max(kind: Kind, loc: Loc) -> u64 {
    let raw = low_mask(loc.width());
    match kind {
        Kind::Address | Kind::Offset => raw.checked_shl(loc.lo as u32).unwrap_or(u64::MAX),
        _ => raw,
    }
}

proptest! {
    #[test]
    fn in_range_values_round_trip_and_out_of_range_values_error(pick in any::<u64>(), over in any::<u64>()) {
        for (id, p, name, kind, loc) in int_fields() {
            let max = field_max(kind, loc);
            let align_mask = match kind {
                Kind::Address | Kind::Offset => low_mask(loc.lo as u32),
                _ => 0,
            };
            let v = (pick % max.saturating_add(1).max(1)) & !align_mask;
            let v = if max == u64::MAX { pick & !align_mask } else { v };
            let mut dw = vec![0u32; 64];
            prop_assert_eq!(put_u64(v, kind, loc, &mut dw), Ok(()), "{} {} on {}", id.name(), name, p);
            prop_assert_eq!(get_u64(kind, loc, &dw), v, "{} {} on {}", id.name(), name, p);
            if let Some(first_bad) = max.checked_add(1) {
                let bad = first_bad.saturating_add(over % (u64::MAX - first_bad + 1).max(1)) & !align_mask;
                if bad > max {
                    let mut dw = vec![0u32; 64];
                    let got = put_u64(bad, kind, loc, &mut dw);
                    prop_assert!(
                        matches!(got, Err(Problem::OutOfRange(x, _)) if x == bad),
                        "{} {} on {}: {:#x} gave {:?}", id.name(), name, p, bad, got
                    );
                }
            }
        }
    }
}

#[test]
fn walker_thread_count_field_refuses_what_it_cannot_hold() {
    for p in [Platform::Skl, Platform::Icllp, Platform::Tgllp] {
        let mut out = [0u32; 15];
        let max = max_threads_per_group(p);
        assert_eq!(max, 64, "{p}");
        let fits = GpgpuWalker {
            thread_width_counter_maximum: max - 1,
            ..Default::default()
        };
        assert_eq!(fits.pack(p, &mut out), Ok(15));
        assert_eq!(GpgpuWalker::unpack(p, &out).unwrap(), fits);
        let over = GpgpuWalker {
            thread_width_counter_maximum: max,
            ..Default::default()
        };
        assert_eq!(
            over.pack(p, &mut out),
            Err(Error::OutOfRange {
                packet: "GPGPU_WALKER",
                field: "Thread Width Counter Maximum",
                value: max as u64,
                bits: 6,
            })
        );
    }
}

#[test]
fn descriptor_thread_count_field_refuses_what_it_cannot_hold() {
    for p in Platform::ALL {
        let mut out = [0u32; 8];
        let idd = |n| InterfaceDescriptorData {
            number_of_threads_in_gpgpu_thread_group: n,
            ..Default::default()
        };
        assert!(idd(1023).pack(p, &mut out).is_ok(), "{p}");
        assert_eq!(
            idd(1024).pack(p, &mut out),
            Err(Error::OutOfRange {
                packet: "INTERFACE_DESCRIPTOR_DATA",
                field: "Number of Threads in GPGPU Thread Group",
                value: 1024,
                bits: 10,
            }),
            "{p}"
        );
    }
}

fn dispatch(p: Platform, simd: Simd, items: u32) -> Result<Vec<u32>, BuildError> {
    let (mut s, mut dy, mut ind) = (vec![0; 64], vec![0; 64], vec![0; 1 << 15]);
    let mut heaps = Heaps {
        surface: Heap::new("surface", 0x20_0000, &mut s),
        dynamic: Heap::new("dynamic", 0x30_0000, &mut dy),
        indirect: Heap::new("indirect", 0x40_0000, &mut ind),
    };
    let d = DispatchDesc {
        kernel_offset: 0,
        simd,
        local_size: [items, 1, 1],
        group_count: [1, 1, 1],
        group_start: [0, 0, 0],
        cross_thread: &[],
        local_ids: LocalIds::Runtime {
            channels: 1,
            walk_order: WalkOrder::Walk012,
        },
        inline_data: false,
        slm_bytes: 0,
        barriers: 1,
        surfaces: &[],
        samplers: None,
    };
    Ok(prepare(p, &mut heaps, &d)?.commands().to_vec())
}

/// The thread count the packed walker carries, read back by the packet decoders.
fn packed_threads(p: Platform, cmds: &[u32]) -> u32 {
    let mut at = 0;
    while at < cmds.len() {
        let id = identify(p, &cmds[at..]).unwrap();
        match id.packet {
            PacketId::GpgpuWalker => {
                return GpgpuWalker::unpack(p, &cmds[at..])
                    .unwrap()
                    .thread_width_counter_maximum
                    + 1
            }
            PacketId::ComputeWalker => {
                return ComputeWalker::unpack(p, &cmds[at..])
                    .unwrap()
                    .body
                    .interface_descriptor
                    .number_of_threads_in_gpgpu_thread_group
            }
            _ => at += id.len,
        }
    }
    panic!("no walker in {cmds:x?}");
}

#[test]
fn largest_group_packs_and_one_more_item_is_refused_on_every_generation() {
    for p in Platform::ALL {
        let threads = max_threads_per_group(p);
        let expected = if p == Platform::Dg2 { 128 } else { 64 };
        assert_eq!(threads, expected, "{p}");
        for simd in [Simd::S8, Simd::S16, Simd::S32] {
            let max = max_local_total(p, simd);
            assert_eq!(
                max,
                (threads * simd.lanes()).min(1024),
                "{p} SIMD{}",
                simd.lanes()
            );
            let cmds = dispatch(p, simd, max).unwrap();
            assert_eq!(packed_threads(p, &cmds), max / simd.lanes(), "{p}");
            let err = dispatch(p, simd, max + 1).unwrap_err();
            let specific = match err {
                BuildError::GroupTooLarge {
                    threads: t, max: m, ..
                } => t == threads + 1 && m == threads,
                BuildError::BadLocalSize(_) => max == MAX_LOCAL_TOTAL,
                _ => false,
            };
            assert!(specific, "{p} SIMD{}: {err}", simd.lanes());
        }
    }
}
