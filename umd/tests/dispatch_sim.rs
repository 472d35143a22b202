//! Dispatches on the simulator through i915 and xe.
//!
//! - Walker programming (one walker per uniform/partial region, partial right masks) and the
//!   completion path are checked with a recording executor that captures each walker the
//!   command streamer reaches and lets the batch run on to its PIPE_CONTROL post-sync fence.
//! - End-to-end results run on the default simulator (its EU interpreter executes walkers);
//!   anything it cannot run is a test failure.

use std::sync::{Arc, Mutex};

use batchbuffer::{ComputeWalker, GpgpuWalker, Packet, PacketId};
use platform::Platform;
use sim::cs::{Walker, WalkerExecutor};
use umd::device::{Device, KmdChoice};
use umd::error::FaultAccess;
use umd::kernel::Kernel;
use umd::ndrange::NdRange;
use umd::payload::ArgValue;
use umd::Error;

/// A simulated device with a configuration of the test's, opened as any device file.
fn open_with(p: Platform, k: KmdChoice, cfg: sim::SimConfig) -> Device {
    let kmd = match k {
        KmdChoice::I915 => sim::Kmd::I915,
        KmdChoice::Xe => sim::Kmd::Xe,
    };
    let dev = sim::open_device(p, kmd, cfg).unwrap();
    Device::open_device_file(format!("sim:{}", p.name()), dev, Some(k)).unwrap()
}

fn combos() -> Vec<(Platform, KmdChoice)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| umd::device::sim_kmds(p).into_iter().map(move |k| (p, k)))
        .collect()
}

/// An end-of-thread kernel in IGA syntax for `p` (the spawner EOT message differs per
/// generation: SFID in ex_desc on Gen9/11, `.ts` on Gen12LP, the gateway on Xe-HPG).
fn eot_asm(p: Platform) -> &'static str {
    match p {
        Platform::Skl | Platform::Icllp => include_str!("data/eot_gen9.asm"),
        Platform::Tgllp => include_str!("data/eot_gen12lp.asm"),
        Platform::Dg2 => include_str!("data/eot_xehpg.asm"),
    }
}

/// One walker as the command streamer saw it: (start, end, right mask) for x, y.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen {
    start: [u32; 2],
    end: [u32; 2],
    mask: u32,
}

#[derive(Default)]
struct Recorder(Mutex<Vec<Seen>>);

impl WalkerExecutor for Recorder {
    fn dispatch(&self, w: &Walker<'_>) -> Result<(), sim::gpu::GpuErrorKind> {
        let seen = if w.packet == PacketId::GpgpuWalker {
            let g = GpgpuWalker::unpack(w.platform, w.dwords).unwrap();
            Seen {
                start: [g.thread_group_id_starting_x, g.thread_group_id_starting_y],
                end: [g.thread_group_id_x_dimension, g.thread_group_id_y_dimension],
                mask: g.right_execution_mask,
            }
        } else {
            let c = ComputeWalker::unpack(w.platform, w.dwords).unwrap().body;
            Seen {
                start: [c.thread_group_id_starting_x, c.thread_group_id_starting_y],
                end: [c.thread_group_id_x_dimension, c.thread_group_id_y_dimension],
                mask: c.execution_mask,
            }
        };
        self.0.lock().unwrap().push(seen);
        Ok(())
    }
}

/// Non-uniform 2D range: 10×7 in 4×3 groups is 2×2 full groups, a partial column (x: 2 wide),
/// a partial row (y: 1 high) and a partial corner; partial groups get a partial right mask.
#[test]
fn non_uniform_ranges_run_as_one_walker_per_region_and_complete() {
    for (p, k) in combos() {
        let rec = Arc::new(Recorder::default());
        let cfg = sim::SimConfig {
            walker: rec.clone(),
            ..Default::default()
        };
        let d = open_with(p, k, cfg);
        let kernel = Kernel::from_asm(p, eot_asm(p), 8, "eot").unwrap();
        let range = NdRange::new(&[10, 7], Some(&[4, 3]), kernel.simd, None).unwrap();
        let report = d
            .dispatch(&kernel, &range, &[])
            .unwrap_or_else(|e| panic!("{p} {k:?}: {e}"));
        assert_eq!(report.walkers, 4);
        let seen = rec.0.lock().unwrap().clone();
        // Group counts are 3×3: x groups 0..2 full, 2 partial; y groups 0..2 full, 2 partial.
        let lanes = |n: u32| (1u32 << n) - 1;
        let want = [
            // full: 12 items in 2 SIMD8 threads, last thread 4 lanes.
            ([0, 0], [2, 2], lanes(4)),
            // partial y: 4×1 = 4 items.
            ([0, 2], [2, 3], lanes(4)),
            // partial x: 2×3 = 6 items.
            ([2, 0], [3, 2], lanes(6)),
            // corner: 2×1 = 2 items.
            ([2, 2], [3, 3], lanes(2)),
        ];
        assert_eq!(seen.len(), 4, "{p} {k:?}");
        for (s, (start, end, mask)) in seen.iter().zip(want) {
            assert_eq!((s.start, s.end, s.mask), (start, end, mask), "{p} {k:?}");
        }
        // The same device runs the next dispatch.
        let uniform = NdRange::new(&[64], Some(&[16]), 8, None).unwrap();
        assert_eq!(d.dispatch(&kernel, &uniform, &[]).unwrap().walkers, 1);
    }
}

/// The primary batch reported is what was submitted: it decodes cleanly and holds the walkers.
#[test]
fn reported_batch_decodes_and_holds_the_walkers() {
    for (p, k) in combos() {
        let cfg = sim::SimConfig {
            walker: Arc::new(Recorder::default()),
            ..Default::default()
        };
        let d = open_with(p, k, cfg);
        let kernel = Kernel::from_asm(p, eot_asm(p), 16, "eot").unwrap();
        let range = NdRange::new(&[100], Some(&[16]), 16, None).unwrap();
        let r = d.dispatch(&kernel, &range, &[]).unwrap();
        let (text, stats) =
            batchbuffer::decode::decode_to_string(p, &r.batch, batchbuffer::decode::Mode::Summary);
        assert_eq!((stats.unknown, stats.truncated), (0, false), "{text}");
        let walker = if p == Platform::Dg2 {
            "COMPUTE_WALKER"
        } else {
            "GPGPU_WALKER"
        };
        assert_eq!(text.matches(walker).count(), 2, "{text}");
        assert!(text.contains("PIPE_CONTROL") && text.contains("MI_BATCH_BUFFER_END"));
        assert!(r.batch_address != 0 && r.batch_address.is_multiple_of(4096));
    }
}

/// End to end: `out[i] = i * scale` from an ocloc-compiled kernel in both of ocloc's formats,
/// on every simulated platform and uAPI, with a global size that leaves a partial last group.
/// Live once the simulator executes walkers.
#[test]
fn fill_kernel_end_to_end() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = include_str!("../../intel-gpu-run/examples/fill.cl");
    for (p, k) in combos() {
        for format in [
            oracles::ocloc::Format::PatchTokens,
            oracles::ocloc::Format::Zebin,
        ] {
            let bin = oracles::ocloc::compile(&ocloc, p, src, "", format).unwrap();
            let kernel = Kernel::from_ocloc(&bin, Some("fill"), Some(p)).unwrap();
            assert_eq!(kernel.simd, 16);
            let d = Device::open_sim(p, Some(k)).unwrap();
            let out = d.create_buffer(4 * 100).unwrap();
            let range = NdRange::new(&[100], Some(&[32]), kernel.simd, None).unwrap();
            let args = [
                ArgValue::Buffer(out.clone()),
                ArgValue::Value(3u32.to_le_bytes().to_vec()),
            ];
            match d.dispatch(&kernel, &range, &args) {
                Err(e) => panic!("{p} {k:?} {format:?}: {e}"),
                Ok(r) => assert_eq!(r.walkers, 2),
            }
            let bytes = out.to_vec().unwrap();
            for i in 0..100u32 {
                let v = u32::from_le_bytes(bytes[4 * i as usize..][..4].try_into().unwrap());
                assert_eq!(v, 3 * i, "{p} {k:?} {format:?} out[{i}]");
            }
        }
    }
}

/// A queue keeps what each arena's last batch was built from: the same dispatch again reuses
/// the batch and heaps already in the arena and rewrites only the fence value; a changed
/// argument (value or buffer) encodes them again. Each run's output is checked (the buffer is
/// overwritten first), and a repeated dispatch's batch differs from the one before it only in
/// the fence value (one or two dwords).
#[test]
fn repeated_dispatch_reuses_the_arena_and_changed_arguments_rebuild_it() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = include_str!("../../intel-gpu-run/examples/fill.cl");
    for (p, k) in combos() {
        let bin =
            oracles::ocloc::compile(&ocloc, p, src, "", oracles::ocloc::Format::Zebin).unwrap();
        let kernel = Kernel::from_ocloc(&bin, Some("fill"), Some(p)).unwrap();
        let d = Device::open_sim(p, Some(k)).unwrap();
        let bufs = [d.create_buffer(400).unwrap(), d.create_buffer(400).unwrap()];
        let range = NdRange::new(&[100], Some(&[32]), kernel.simd, None).unwrap();
        let mut last: Option<Vec<u8>> = None;
        // (buffer, scale, the same as the dispatch before)
        let runs = [
            (0, 3u32, false),
            (0, 3, true),
            (0, 5, false),
            (1, 5, false),
            (1, 5, true),
            (0, 3, false),
        ];
        for (b, scale, same) in runs {
            let out = &bufs[b];
            out.write(0, &[0xff; 400]).unwrap();
            let args = [
                ArgValue::Buffer(out.clone()),
                ArgValue::Value(scale.to_le_bytes().to_vec()),
            ];
            let r = d.dispatch(&kernel, &range, &args).unwrap();
            let bytes = out.to_vec().unwrap();
            for i in 0..100u32 {
                let v = u32::from_le_bytes(bytes[4 * i as usize..][..4].try_into().unwrap());
                assert_eq!(v, scale * i, "{p} {k:?} buffer {b} scale {scale} out[{i}]");
            }
            if let (true, Some(prev)) = (same, &last) {
                assert_eq!(prev.len(), r.batch.len(), "{p} {k:?}");
                let changed = prev
                    .chunks(4)
                    .zip(r.batch.chunks(4))
                    .filter(|(x, y)| x != y)
                    .count();
                assert!(
                    (1..=2).contains(&changed),
                    "{p} {k:?}: {changed} dwords differ"
                );
            }
            last = Some(r.batch);
        }
    }
}

/// A dispatch that differs from the arena's last one in buffer, scalar or group count (same
/// kernel and local size) has its batch patched in place: results are right, and the batch
/// equals the one a fresh device builds from scratch for that dispatch alone, but for the
/// fence value (unique per dispatch). A different local size builds it anew.
#[test]
fn changed_dispatch_patches_the_arena_as_a_fresh_build_writes_it() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = include_str!("../../intel-gpu-run/examples/fill.cl");
    // Patch-token kernels reach their buffer through a binding-table surface (so a changed
    // buffer changes a surface state), zebin kernels statelessly.
    let mut stateful = 0;
    let formats = [
        oracles::ocloc::Format::Zebin,
        oracles::ocloc::Format::PatchTokens,
    ];
    for ((p, k), format) in combos().into_iter().flat_map(|c| formats.map(|f| (c, f))) {
        let bin = oracles::ocloc::compile(&ocloc, p, src, "", format).unwrap();
        let kernel = Kernel::from_ocloc(&bin, Some("fill"), Some(p)).unwrap();
        if let umd::kernel::Description::Ocloc(d, _) = kernel.description() {
            stateful += d
                .args
                .iter()
                .filter(|a| matches!(a.kind, umd::program::ArgKind::Buffer { bti: Some(_), .. }))
                .count();
        }
        // The fence value's dwords: the finishing PIPE_CONTROL's Immediate Data, before
        // MI_BATCH_BUFFER_END.
        let pc = batchbuffer::PipeControl::default().packed_len(p).unwrap();
        let fence_at = batchbuffer::builder::Builder::new(p)
            .finish_value_at()
            .unwrap();
        let masked = |batch: &[u8]| -> Vec<u8> {
            let mut b = batch.to_vec();
            let at = 4 * (b.len() / 4 - 1 - pc + fence_at);
            b[at..at + 8].fill(0);
            b
        };
        // (buffer, scale, global size, local size): partial last groups of 4 in the first
        // three, then one walker, then back.
        let runs = [
            (0, 3u32, 100u32, 32u32),
            (1, 5, 164, 32),
            (0, 7, 68, 32),
            (0, 7, 96, 32),
            (1, 9, 100, 32),
            (1, 9, 100, 16),
        ];
        let open = || {
            let d = Device::open_sim(p, Some(k)).unwrap();
            let bufs = [
                d.create_buffer(1024).unwrap(),
                d.create_buffer(1024).unwrap(),
            ];
            (d, bufs)
        };
        let (d, bufs) = open();
        for (b, scale, global, local) in runs {
            let ctx = format!(
                "{p} {k:?} {format:?} buffer {b} scale {scale} global {global} local {local}"
            );
            let range = NdRange::new(&[global], Some(&[local]), kernel.simd, None).unwrap();
            let run = |d: &Device, out: &umd::memory::Buffer| {
                out.write(0, &[0xff; 1024]).unwrap();
                let args = [
                    ArgValue::Buffer(out.clone()),
                    ArgValue::Value(scale.to_le_bytes().to_vec()),
                ];
                let r = d.dispatch(&kernel, &range, &args).unwrap();
                let bytes = out.to_vec().unwrap();
                for (i, v) in bytes.chunks(4).enumerate() {
                    let v = u32::from_le_bytes(v.try_into().unwrap());
                    let want = if i < global as usize {
                        scale * i as u32
                    } else {
                        u32::MAX
                    };
                    assert_eq!(v, want, "{ctx}: out[{i}]");
                }
                r.batch
            };
            let patched = run(&d, &bufs[b]);
            let (fresh_dev, fresh_bufs) = open();
            let fresh = run(&fresh_dev, &fresh_bufs[b]);
            assert_eq!(masked(&patched), masked(&fresh), "{ctx}");
        }
    }
    assert!(stateful > 0, "no kernel bound its buffer through a surface");
}

/// The subgroup queries through the driver's kernel object, with the specs' definitions:
/// cl_intel_required_subgroup_size (the compile size, and the max size is it for any local
/// size) and cl_khr_subgroups (count = ceil(work-items / max size), local sizes that are not
/// multiples of the SIMD width included).
#[test]
fn queries_follow_the_specs() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let plain = "kernel void k(global uint *o) { o[get_global_id(0)] = get_sub_group_size(); }";
    for p in [Platform::Skl, Platform::Tgllp, Platform::Dg2] {
        let bin = oracles::ocloc::compile(
            &ocloc,
            p,
            include_str!("../../intel-gpu-run/examples/fill.cl"),
            "",
            oracles::ocloc::Format::PatchTokens,
        )
        .unwrap();
        let k = Kernel::from_ocloc(&bin, None, None).unwrap();
        assert_eq!(k.compile_sub_group_size(), 16);
        for local in [
            &[1usize][..],
            &[15],
            &[16],
            &[17],
            &[100],
            &[5, 5],
            &[7, 5, 3],
            &[16, 16],
        ] {
            let items: usize = local.iter().product();
            assert_eq!(
                k.max_sub_group_size_for_ndrange(local).unwrap(),
                16,
                "{local:?}"
            );
            assert_eq!(
                k.sub_group_count_for_ndrange(local).unwrap(),
                items.div_ceil(16),
                "{local:?}"
            );
        }
        assert!(k.sub_group_count_for_ndrange(&[0]).is_err());
        assert!(k.sub_group_count_for_ndrange(&[1, 1, 1, 1]).is_err());
        assert_eq!(k.spill_mem_size(), 0);
        // Without intel_reqd_sub_group_size the compile size is 0; the max is the SIMD chosen.
        let bin =
            oracles::ocloc::compile(&ocloc, p, plain, "", oracles::ocloc::Format::PatchTokens)
                .unwrap();
        let k = Kernel::from_ocloc(&bin, None, None).unwrap();
        assert_eq!(k.compile_sub_group_size(), 0);
        assert_eq!(
            k.max_sub_group_size_for_ndrange(&[64]).unwrap(),
            k.simd as usize
        );
        assert_eq!(
            k.sub_group_count_for_ndrange(&[13]).unwrap(),
            13usize.div_ceil(k.simd as usize)
        );
    }
    // Raw kernels: the SIMD width given is the subgroup size; nothing is required.
    let raw = Kernel::from_asm(Platform::Tgllp, eot_asm(Platform::Tgllp), 32, "eot").unwrap();
    assert_eq!(raw.compile_sub_group_size(), 0);
    assert_eq!(raw.sub_group_count_for_ndrange(&[33]).unwrap(), 2);
}

/// Image block IO end to end (cl_intel_subgroups media block read/write): each 64-byte row of
/// a 4-row image is read by one subgroup (one uint per work-item, no format conversion) and
/// written, plus one, to a second image; for every contract format (elements of 1 to 4 bytes).
#[test]
fn image_block_io_end_to_end() {
    use umd::image::ImageFormat;
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = "__attribute__((intel_reqd_sub_group_size(16)))
        kernel void copy(read_only image2d_t a, write_only image2d_t b) {
            int2 at = (int2)(get_group_id(0) * 64, get_global_id(1));
            uint v = intel_sub_group_block_read(a, at);
            intel_sub_group_block_write(b, at, v + 1);
        }";
    for (p, k) in combos() {
        let bin = oracles::ocloc::compile(&ocloc, p, src, "", oracles::ocloc::Format::PatchTokens)
            .unwrap();
        let kernel = Kernel::from_ocloc(&bin, None, Some(p)).unwrap();
        for fmt in [
            ImageFormat::R8ui,
            ImageFormat::R16ui,
            ImageFormat::R32ui,
            ImageFormat::Rgba8ui,
            ImageFormat::R32f,
        ] {
            let d = Device::open_sim(p, Some(k)).unwrap();
            let width = 64 / fmt.desc().bytes_per_element;
            let a = d.create_image(width, 4, fmt).unwrap();
            let b = d.create_image(width, 4, fmt).unwrap();
            a.check_block_io().unwrap();
            let input: Vec<u8> = (0..256u32).map(|i| (i * 7) as u8).collect();
            a.write_packed(&input).unwrap();
            let range = NdRange::new(&[16, 4], Some(&[16, 1]), 16, None).unwrap();
            let args = [ArgValue::Image(a), ArgValue::Image(b.clone())];
            if let Err(e) = d.dispatch(&kernel, &range, &args) {
                panic!("{p} {k:?} {fmt:?}: {e}");
            }
            let out = b.read_packed().unwrap();
            for (i, (o, w)) in out.chunks(4).zip(input.chunks(4)).enumerate() {
                let want = u32::from_le_bytes(w.try_into().unwrap()).wrapping_add(1);
                assert_eq!(
                    u32::from_le_bytes(o.try_into().unwrap()),
                    want,
                    "{p} {k:?} {fmt:?} element {i}"
                );
            }
        }
    }
}

/// A kernel that never ends is a hang reported by the EU watchdog; the device (its context or
/// exec queue replaced) then runs the next dispatch to completion.
#[test]
fn endless_kernel_is_a_hang_and_the_next_dispatch_runs() {
    let iga = oracles::require!(oracles::Oracle::Iga64);
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let looping =
            Kernel::from_asm(p, include_str!("data/endless_loop.asm"), 8, "loop").unwrap();
        let range = NdRange::new(&[8], None, 8, None).unwrap();
        let jmpi =
            oracles::iga64::offsets_of(&iga, p, looping.isa(), |t| t.contains("jmpi")).unwrap();
        assert_eq!(jmpi.len(), 1, "{p}");
        match d.dispatch(&looping, &range, &[]) {
            Err(e @ Error::GpuHang { at: Some(at), .. }) => {
                assert_eq!(at.offset, jmpi[0], "{p} {k:?}: {e}");
                let msg = e.to_string();
                assert!(msg.contains("hang"), "{msg}");
                assert!(
                    msg.contains(&format!("kernel offset {:#x}", jmpi[0])),
                    "{msg}"
                );
            }
            other => panic!("{p} {k:?}: {other:?}"),
        }
        let eot = Kernel::from_asm(p, eot_asm(p), 8, "eot").unwrap();
        d.dispatch(&eot, &range, &[])
            .unwrap_or_else(|e| panic!("{p} {k:?} after a hang: {e}"));
    }
}

/// A kernel storing outside every mapping: on xe (umd's VMs have no scratch page) a GPU page
/// fault naming the address, then the device runs the next dispatch; on i915 the store lands
/// in the PPGTT's scratch page (`gen8_init_scratch`) and the dispatch completes.
#[test]
fn kernel_page_fault_names_the_address_and_the_device_survives() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let iga = oracles::require!(oracles::Oracle::Iga64);
    let src = "__attribute__((intel_reqd_sub_group_size(16)))
        kernel void oob(global uint *o) { o[get_global_id(0) + (1u << 26)] = 1; }";
    for (p, k) in combos() {
        // Stateless (A64) addressing: a stateful access out of its surface would be dropped by
        // the bounds check instead of faulting.
        let bin = oracles::ocloc::compile(
            &ocloc,
            p,
            src,
            "-cl-intel-greater-than-4GB-buffer-required",
            oracles::ocloc::Format::PatchTokens,
        )
        .unwrap();
        let kernel = Kernel::from_ocloc(&bin, None, Some(p)).unwrap();
        let d = Device::open_sim(p, Some(k)).unwrap();
        let buf = d.create_buffer(64).unwrap();
        let range = NdRange::new(&[16], None, 16, None).unwrap();
        let args = [ArgValue::Buffer(buf.clone())];
        let bad = buf.gpu_address() + 4 * (1 << 26);
        // The store, found in the kernel heap as ocloc dumps it and iga64 lists it.
        let heap = &oracles::ocloc::kernel_heaps(&ocloc, &bin).unwrap()[0].bytes;
        let stores = oracles::iga64::offsets_of(&iga, p, heap, |t| {
            t.contains("send") && (t.contains("write") || t.contains("store"))
        })
        .unwrap();
        assert_eq!(stores.len(), 1, "{p}");
        match d.dispatch(&kernel, &range, &args) {
            Ok(_) if k == KmdChoice::I915 => {}
            Err(
                e @ Error::GpuFault {
                    address,
                    access: Some(FaultAccess::Write),
                    by: Some(by),
                    ..
                },
            ) if k == KmdChoice::Xe => {
                assert!(
                    (bad..bad + 64).contains(&address),
                    "{p} {k:?}: {address:#x} vs {bad:#x}"
                );
                assert_eq!(by.offset, stores[0], "{p} {k:?}: {e}");
                let msg = e.to_string();
                assert!(msg.contains(&format!("{address:#x} (write)")), "{msg}");
                assert!(
                    msg.contains(&format!("by instruction at kernel offset {:#x}", stores[0])),
                    "{msg}"
                );
            }
            other => panic!("{p} {k:?}: {other:?}"),
        }
        let fill = Kernel::from_ocloc(
            &oracles::ocloc::compile(
                &ocloc,
                p,
                include_str!("../../intel-gpu-run/examples/fill.cl"),
                "",
                oracles::ocloc::Format::PatchTokens,
            )
            .unwrap(),
            None,
            Some(p),
        )
        .unwrap();
        let args = [
            ArgValue::Buffer(buf.clone()),
            ArgValue::Value(2u32.to_le_bytes().to_vec()),
        ];
        d.dispatch(&fill, &range, &args)
            .unwrap_or_else(|e| panic!("{p} {k:?} after a fault: {e}"));
        let mut w = [0u8; 4];
        buf.read(60, &mut w).unwrap();
        assert_eq!(u32::from_le_bytes(w), 30);
    }
}

/// `local` pointer arguments get SLM after the kernel's own; a work-group reverses its slice
/// through local memory across a barrier.
#[test]
fn local_arguments_and_barriers_end_to_end() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = "__attribute__((intel_reqd_sub_group_size(16)))
        kernel void rev(global uint *o, local uint *tmp) {
            uint l = get_local_id(0), n = get_local_size(0);
            tmp[l] = (uint)get_global_id(0);
            barrier(CLK_LOCAL_MEM_FENCE);
            o[get_global_id(0)] = tmp[n - 1 - l];
        }";
    for (p, k) in combos() {
        let bin = oracles::ocloc::compile(&ocloc, p, src, "", oracles::ocloc::Format::PatchTokens)
            .unwrap();
        let kernel = Kernel::from_ocloc(&bin, None, Some(p)).unwrap();
        let d = Device::open_sim(p, Some(k)).unwrap();
        let out = d.create_buffer(4 * 64).unwrap();
        let range = NdRange::new(&[64], Some(&[32]), 16, None).unwrap();
        let args = [ArgValue::Buffer(out.clone()), ArgValue::Local(4 * 32)];
        if let Err(e) = d.dispatch(&kernel, &range, &args) {
            panic!("{p} {k:?}: {e}");
        }
        let bytes = out.to_vec().unwrap();
        for i in 0..64u32 {
            let v = u32::from_le_bytes(bytes[4 * i as usize..][..4].try_into().unwrap());
            let group = i / 32;
            assert_eq!(v, group * 32 + (31 - i % 32), "{p} {k:?} out[{i}]");
        }
        // Giving a buffer where the kernel takes a local pointer is a kind error.
        let wrong = [ArgValue::Buffer(out.clone()), ArgValue::Buffer(out.clone())];
        let e = d.dispatch(&kernel, &range, &wrong).unwrap_err();
        assert!(
            e.to_string().contains("is a local pointer, given a buffer"),
            "{e}"
        );
    }
}

/// Program-scope `global` variables are the program's, not each kernel's: kernels made with one
/// `ProgramData` read what another wrote, the values stay between dispatches, and a pointer
/// initialiser points where the source says (`&table[2]`, an offset ocloc stores in place).
#[test]
fn program_scope_globals_shared_between_kernels() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = "global int table[4] = {10, 20, 30, 40};
        global int* selected = &table[2];
        kernel void add(int v) { table[get_global_id(0)] += v; }
        kernel void read(global int *o) {
            for (int i = 0; i < 4; i++) o[i] = table[i];
            o[4] = *selected;
        }";
    for (p, k) in combos() {
        for format in [
            oracles::ocloc::Format::PatchTokens,
            oracles::ocloc::Format::Zebin,
        ] {
            let bin = oracles::ocloc::compile(&ocloc, p, src, "-cl-std=CL2.0", format).unwrap();
            let prog = umd::program::parse(&bin).unwrap();
            let data = umd::segments::ProgramData::of(&prog);
            let add = Kernel::from_shared(&prog, data.clone(), Some("add"), Some(p)).unwrap();
            let read = Kernel::from_shared(&prog, data, Some("read"), Some(p)).unwrap();
            let d = Device::open_sim(p, Some(k)).unwrap();
            let out = d.create_buffer(4 * 5).unwrap();
            let one = NdRange::new(&[1], None, 16, None).unwrap();
            let four = NdRange::new(&[4], None, 16, None).unwrap();
            let mut seen = Vec::new();
            for step in 0..3 {
                if step > 0 {
                    d.dispatch(&add, &four, &[ArgValue::Value(5i32.to_le_bytes().to_vec())])
                        .unwrap_or_else(|e| panic!("{p} {k:?} {format:?}: {e}"));
                }
                d.dispatch(&read, &one, &[ArgValue::Buffer(out.clone())])
                    .unwrap_or_else(|e| panic!("{p} {k:?} {format:?}: {e}"));
                let b = out.to_vec().unwrap();
                seen.push(
                    (0..5)
                        .map(|i| i32::from_le_bytes(b[4 * i..][..4].try_into().unwrap()))
                        .collect::<Vec<_>>(),
                );
            }
            assert_eq!(
                seen,
                [
                    vec![10, 20, 30, 40, 30],
                    vec![15, 25, 35, 45, 35],
                    vec![20, 30, 40, 50, 40]
                ],
                "{p} {k:?} {format:?}"
            );
        }
    }
}

/// Program-scope `constant` and `global` data: placed, pointed to, and (zebin) relocated.
#[test]
fn program_scope_data_end_to_end() {
    let ocloc = oracles::require!(oracles::Oracle::Ocloc);
    let src = "constant uint table[16] = {3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3};
        global uint counter = 40;
        __attribute__((intel_reqd_sub_group_size(16)))
        kernel void k(global uint *o) {
            uint i = get_global_id(0);
            o[i] = table[i % 16] + counter;
        }";
    let table = [3u32, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3];
    for (p, k) in combos() {
        for format in [
            oracles::ocloc::Format::PatchTokens,
            oracles::ocloc::Format::Zebin,
        ] {
            let bin = oracles::ocloc::compile(&ocloc, p, src, "-cl-std=CL2.0", format).unwrap();
            let kernel = Kernel::from_ocloc(&bin, None, Some(p)).unwrap();
            let d = Device::open_sim(p, Some(k)).unwrap();
            let out = d.create_buffer(4 * 32).unwrap();
            let range = NdRange::new(&[32], None, 16, None).unwrap();
            if let Err(e) = d.dispatch(&kernel, &range, &[ArgValue::Buffer(out.clone())]) {
                panic!("{p} {k:?} {format:?}: {e}");
            }
            let bytes = out.to_vec().unwrap();
            for i in 0..32usize {
                let v = u32::from_le_bytes(bytes[4 * i..][..4].try_into().unwrap());
                assert_eq!(v, table[i % 16] + 40, "{p} {k:?} {format:?} out[{i}]");
            }
        }
    }
}

/// A raw Gen12LP kernel (SIMD8, one buffer argument) that changes a register of its
/// cross-thread data in place: each work-item stores the global size it read from r4.0 (the
/// raw ABI's first cross-thread DWord, after r0 and three GRFs of local IDs), then adds one
/// to that register. Every thread must start from the cross-thread data as loaded, whatever
/// the thread that ran before it in the same register file did to it.
const CROSS_THREAD_CHANGED: &str = "
(W) mov (8|M0) r10.0<1>:ud r4.0<0;1,0>:ud
(W) add (1|M0) r4.0<1>:ud r4.0<0;1,0>:ud 0x1:ud
(W) mul (1|M0) r11.0<1>:ud r0.1<0;1,0>:ud r4.6<0;1,0>:uw
add (8|M0) r12.0<1>:ud r1.0<8;8,1>:uw r11.0<0;1,0>:ud
shl (8|M0) r12.0<1>:ud r12.0<8;8,1>:ud 0x2:ud
send.dc1 (8|M0) null r12 r10 0x40 0x02026E00
(W) mov (8|M0) r127.0<1>:ud r0.0<8;8,1>:ud
(W) send.ts (8|M0) null r127 null 0x0 0x02000010 {EOT}
";

#[test]
fn threads_sharing_a_register_file_start_from_the_loaded_cross_thread_data() {
    let p = Platform::Tgllp;
    let kernel = Kernel::from_asm(p, CROSS_THREAD_CHANGED, 8, "changed").unwrap();
    for k in umd::device::sim_kmds(p) {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let out = d.create_buffer(4 * 256).unwrap();
        // Four threads a group, eight groups: most threads run in a file another used.
        let range = NdRange::new(&[256], Some(&[32]), kernel.simd, None).unwrap();
        d.dispatch(&kernel, &range, &[ArgValue::Buffer(out.clone())])
            .unwrap_or_else(|e| panic!("{k:?}: {e}"));
        let bytes = out.to_vec().unwrap();
        for (i, v) in bytes.chunks_exact(4).enumerate() {
            let v = u32::from_le_bytes(v.try_into().unwrap());
            assert_eq!(v, 256, "{k:?} out[{i}]");
        }
    }
}
