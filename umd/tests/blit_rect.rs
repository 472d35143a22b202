//! Rectangular buffer copies on the copy engine (`Queue::copy_buffer_rect`) on every simulated
//! platform and kernel driver, checked against a host copy that follows the OpenCL 3.0 text
//! of clEnqueueCopyBufferRect (byte `origin[0] + origin[1] * row_pitch + origin[2] *
//! slice_pitch`, `region[0]` bytes per row): odd origins and pitches, more rows than the
//! packet's 16-bit coordinates hold, rows wider than one blit, slices, and the refusals.
//! Whether a copy is the blitter's is the packet's pitch field: XY_BLOCK_COPY_BLT's is 18 bits
//! (genxml, pitch − 1), XY_SRC_COPY_BLT's a signed 16-bit byte count (Linux i915's `BLT`
//! users, IGT's `intel_bb_emit_blt_copy` asserts pitch < 1 << 15).

use batchbuffer::PacketId;
use platform::Platform;
use umd::device::{Device, KmdChoice};
use umd::memory::Buffer;
use umd::queue::RectSide;

fn combos() -> Vec<(Platform, KmdChoice)> {
    Platform::ALL
        .iter()
        .flat_map(|&p| umd::device::sim_kmds(p).into_iter().map(move |k| (p, k)))
        .collect()
}

/// The largest row pitch the copy packet of `p` holds.
fn max_pitch(p: Platform) -> u64 {
    if PacketId::XyBlockCopyBlt.exists_on(p) {
        1 << 18
    } else {
        (1 << 15) - 1
    }
}

fn side(origin: [u64; 3], row_pitch: u64, slice_pitch: u64) -> RectSide {
    RectSide {
        origin,
        row_pitch,
        slice_pitch,
    }
}

/// The host reference: the spec's addressing, one row at a time.
fn host_copy(src: &[u8], s: &RectSide, dst: &mut [u8], d: &RectSide, region: [u64; 3]) {
    let at = |r: &RectSide, y: u64, z: u64| {
        (r.origin[0] + (r.origin[1] + y) * r.row_pitch + (r.origin[2] + z) * r.slice_pitch) as usize
    };
    let w = region[0] as usize;
    for z in 0..region[2] {
        for y in 0..region[1] {
            let (a, b) = (at(s, y, z), at(d, y, z));
            dst[b..b + w].copy_from_slice(&src[a..a + w]);
        }
    }
}

const SIZE: u64 = 1 << 20;

fn bytes(len: usize, k: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + k * 7 + 3) as u8).collect()
}

struct Case {
    src: RectSide,
    dst: RectSide,
    region: [u64; 3],
}

fn cases() -> Vec<Case> {
    vec![
        // 2D, odd origins and pitches.
        Case {
            src: side([3, 5, 0], 101, 0),
            dst: side([7, 2, 0], 67, 0),
            region: [37, 19, 1],
        },
        // 3D, slice pitches that are not a whole number of rows.
        Case {
            src: side([1, 2, 1], 45, 45 * 9 + 3),
            dst: side([5, 0, 2], 33, 33 * 8 + 1),
            region: [29, 7, 5],
        },
        // Rows wider than one 16 KiB blit.
        Case {
            src: side([11, 1, 0], 20_001, 0),
            dst: side([0, 3, 0], 20_003, 0),
            region: [20_000, 4, 1],
        },
        // More rows than 16-bit coordinates hold.
        Case {
            src: side([0, 1, 0], 3, 0),
            dst: side([1, 0, 0], 5, 0),
            region: [2, 40_000, 1],
        },
        // A pitch past XY_SRC_COPY_BLT's field (Gen9/Gen11 leave it to the CPU).
        Case {
            src: side([9, 0, 0], 40_001, 0),
            dst: side([0, 1, 0], 17, 0),
            region: [13, 6, 1],
        },
    ]
}

#[test]
fn rect_copies_match_the_host_reference() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        for (i, c) in cases().iter().enumerate() {
            let src = d.create_buffer(SIZE).unwrap();
            let dst = d.create_buffer(SIZE).unwrap();
            let (sb, db) = (bytes(SIZE as usize, i), bytes(SIZE as usize, i + 100));
            src.write(0, &sb).unwrap();
            dst.write(0, &db).unwrap();
            let ok = c.src.row_pitch <= max_pitch(p) && c.dst.row_pitch <= max_pitch(p);
            let e = q
                .copy_buffer_rect((&src, c.src), (&dst, c.dst), c.region, &[])
                .unwrap();
            assert_eq!(e.is_some(), ok, "{p} {k:?} case {i}");
            assert_eq!(
                q.blitter_copies_rect(&c.src, &c.dst, c.region),
                ok,
                "{p} {k:?} case {i}"
            );
            let Some(e) = e else { continue };
            e.wait(None).unwrap();
            let mut want = db.clone();
            host_copy(&sb, &c.src, &mut want, &c.dst, c.region);
            let got: Vec<u8> = dst.to_vec().unwrap();
            let first_bad = got.iter().zip(&want).position(|(a, b)| a != b);
            assert_eq!(first_bad, None, "{p} {k:?} case {i}");
        }
    }
}

#[test]
fn bad_rect_copies_are_refused() {
    for (p, k) in combos() {
        let d = Device::open_sim(p, Some(k)).unwrap();
        let q = d.create_queue().unwrap();
        let a: Buffer = d.create_buffer(4096).unwrap();
        let b = d.create_buffer(4096).unwrap();
        let s = side([0, 0, 0], 64, 0);
        // An empty region.
        assert!(q
            .copy_buffer_rect((&a, s), (&b, s), [0, 4, 1], &[])
            .is_err());
        // The last row ends one byte past the buffer: 63 * 64 + 1 + 64 = 4097.
        let past = side([1, 0, 0], 64, 0);
        assert!(q
            .copy_buffer_rect((&a, past), (&b, s), [64, 64, 1], &[])
            .is_err());
        assert!(q
            .copy_buffer_rect((&a, s), (&b, past), [64, 64, 1], &[])
            .is_err());
        // Within one buffer, spans that overlap.
        let lower = side([0, 0, 0], 64, 0);
        let upper = side([0, 2, 0], 64, 0);
        assert!(
            q.copy_buffer_rect((&a, lower), (&a, upper), [64, 4, 1], &[])
                .is_err(),
            "{p} {k:?}"
        );
        // And spans that do not: rows 0-1 to rows 2-3.
        let e = q
            .copy_buffer_rect((&a, lower), (&a, upper), [64, 2, 1], &[])
            .unwrap();
        assert!(e.is_some(), "{p} {k:?}");
    }
}
