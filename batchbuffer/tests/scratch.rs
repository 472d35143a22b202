//! Scratch space in the front end, per generation: MEDIA_VFE_STATE's Per Thread Scratch Space
//! and Scratch Space Base Pointer (Gen9–Gen12LP), CFE_STATE's Scratch Space Buffer and the
//! SURFTYPE_SCRATCH surface state it points at (Xe-HPG). The fields are read back from the
//! batch with bit ranges taken from Mesa's genxml text (`third_party/genxml`, not from our packet
//! layouts), and through the decoder's field lines.

use batchbuffer::builder::*;
use batchbuffer::decode::{decode_to_string, Mode};
use batchbuffer::*;
use platform::Platform;
use std::path::PathBuf;

const SURFACE_BASE: u64 = 0x20_0000;
const DYNAMIC_BASE: u64 = 0x30_0000;
const INDIRECT_BASE: u64 = 0x40_0000;
const GENERAL_BASE: u64 = 0x60_0000;
const SCRATCH_AT: u64 = 0x1234_5400;

struct Built {
    batch: Vec<u32>,
    surface: Vec<u32>,
    fe: FrontEnd,
    scratch: ScratchSpace,
}

/// A preamble with a scratch buffer for a kernel needing `need` bytes per thread.
fn build(p: Platform, need: u32) -> Result<Built, BuildError> {
    let (mut b, mut s, mut dy, mut ind) = (vec![0; 256], vec![0; 256], vec![0; 64], vec![0; 64]);
    let scratch = ScratchSpace {
        address: SCRATCH_AT,
        slice: scratch_slice_bytes(p, need)?,
        slices: DeviceLimits::representative(p).scratch_slices,
    };
    let fe;
    {
        let mut batch = Batch::new(&mut b);
        let mut heaps = Heaps {
            surface: Heap::new("surface", SURFACE_BASE, &mut s),
            dynamic: Heap::new("dynamic", DYNAMIC_BASE, &mut dy),
            indirect: Heap::new("indirect", INDIRECT_BASE, &mut ind),
        };
        fe = front_end(p, &mut heaps, GENERAL_BASE, Some(&scratch))?;
        Builder::new(p).preamble(&mut batch, &heaps, GENERAL_BASE, (0x80_0000, 4096), fe)?;
        let n = batch.len();
        b.truncate(n);
    }
    Ok(Built {
        batch: b,
        surface: s,
        fe,
        scratch,
    })
}

/// The dwords of the first `packet` in `batch`.
fn find(p: Platform, batch: &[u32], packet: PacketId) -> Vec<u32> {
    let mut at = 0;
    while at < batch.len() {
        let id = identify(p, &batch[at..]).unwrap();
        if id.packet == packet {
            return batch[at..at + id.len].to_vec();
        }
        at += id.len;
    }
    panic!("{} not in the batch on {p}", packet.name());
}

/// Mesa's flattened genxml for `p`, vendored with its licence (third_party/genxml/SOURCE.txt).
fn genxml(p: Platform) -> String {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../third_party/genxml")
        .join(format!("gen{}.xml", p.verx10()));
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// (start, end) bit of `field` in genxml's `<instruction|struct name="item">`.
fn xml_bits(xml: &str, item: &str, field: &str) -> (u32, u32) {
    let open = [
        format!("<instruction name=\"{item}\""),
        format!("<struct name=\"{item}\""),
    ];
    let start = open
        .iter()
        .find_map(|o| xml.find(o.as_str()))
        .unwrap_or_else(|| panic!("{item} not in genxml"));
    let body = &xml[start..];
    let body = &body[..body
        .find("</instruction>")
        .into_iter()
        .chain(body.find("</struct>"))
        .min()
        .unwrap()];
    let key = format!("<field name=\"{field}\" ");
    let line = body
        .lines()
        .find(|l| l.trim_start().starts_with(&key))
        .unwrap_or_else(|| panic!("{item}.{field} not in genxml"));
    let num = |attr: &str| -> u32 {
        let at = line.find(&format!("{attr}=\"")).unwrap() + attr.len() + 2;
        line[at..at + line[at..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    (num("start"), num("end"))
}

/// The raw bits `start..=end` (genxml numbering across dwords).
fn bits(dw: &[u32], (start, end): (u32, u32)) -> u64 {
    let mut v = 0u64;
    for b in (start..=end).rev() {
        v = v << 1 | u64::from(dw[(b / 32) as usize] >> (b % 32) & 1);
    }
    v
}

/// genxml's numeric value of enum `value` (e.g. SURFTYPE_SCRATCH).
fn xml_value(xml: &str, value: &str) -> u64 {
    let key = format!("<value name=\"{value}\" value=\"");
    let at = xml.find(&key).unwrap() + key.len();
    xml[at..at + xml[at..].find('"').unwrap()].parse().unwrap()
}

#[test]
fn slice_sizes_follow_each_generation() {
    for p in [Platform::Skl, Platform::Icllp, Platform::Tgllp] {
        // log2(bytes / 1 KiB): powers of two from 1 KiB.
        assert_eq!(scratch_slice_bytes(p, 1), Ok(1024));
        assert_eq!(scratch_slice_bytes(p, 4096), Ok(4096));
        assert_eq!(scratch_slice_bytes(p, 4097), Ok(8192));
        assert_eq!(scratch_slice_bytes(p, 2 << 20), Ok(2 << 20));
        assert!(scratch_slice_bytes(p, (2 << 20) + 1).is_err());
    }
    // Xe-HPG: 64-byte multiples (NEO's alignUp(size, 64)), bounded by the 18-bit pitch.
    assert_eq!(scratch_slice_bytes(Platform::Dg2, 1), Ok(64));
    assert_eq!(scratch_slice_bytes(Platform::Dg2, 4160), Ok(4160));
    assert_eq!(scratch_slice_bytes(Platform::Dg2, 4161), Ok(4224));
    assert!(scratch_slice_bytes(Platform::Dg2, (1 << 18) + 1).is_err());
    for p in Platform::ALL {
        assert_eq!(scratch_slice_bytes(p, 0), Ok(0));
        // A binary's hostile size is refused, not rounded past u32 (that overflowed on Xe-HPG).
        assert!(scratch_slice_bytes(p, u32::MAX).is_err(), "{p}");
    }
}

#[test]
fn vfe_scratch_fields_match_genxml() {
    for p in [Platform::Skl, Platform::Icllp, Platform::Tgllp] {
        let b = build(p, 5000).unwrap();
        assert_eq!(b.scratch.slice, 8192);
        assert_eq!(b.fe.scratch_offset, SCRATCH_AT - GENERAL_BASE);
        let vfe = find(p, &b.batch, PacketId::MediaVfeState);
        // Through our layouts...
        let v = MediaVfeState::unpack(p, &vfe).unwrap();
        assert_eq!(v.per_thread_scratch_space, 3, "{p}");
        assert_eq!(v.scratch_space_base_pointer, SCRATCH_AT - GENERAL_BASE);
        // ...and through genxml's bit ranges.
        let xml = genxml(p);
        let pts = xml_bits(&xml, "MEDIA_VFE_STATE", "Per Thread Scratch Space");
        assert_eq!(bits(&vfe, pts), 3, "{p}: log2(8 KiB / 1 KiB)");
        let base = xml_bits(&xml, "MEDIA_VFE_STATE", "Scratch Space Base Pointer");
        // An address field: its bits are the address's bits start..=end.
        let lo = base.0 % 32;
        assert_eq!(bits(&vfe, base) << lo, SCRATCH_AT - GENERAL_BASE, "{p}");
    }
}

#[test]
fn cfe_scratch_surface_matches_genxml() {
    let p = Platform::Dg2;
    let b = build(p, 5000).unwrap();
    assert_eq!(b.scratch.slice, 5056);
    let ss = b.fe.scratch_surface_state;
    assert!(
        ss.is_multiple_of(64) && ss != 0,
        "64-byte aligned, never 0: {ss:#x}"
    );
    let cfe = find(p, &b.batch, PacketId::CfeState);
    let c = CfeState::unpack(p, &cfe).unwrap();
    assert_eq!(c.scratch_space_buffer, ss >> 6);
    let at = (ss / 4) as usize;
    let rss = &b.surface[at..at + 16];
    let s = RenderSurfaceState::unpack(p, rss).unwrap();
    assert_eq!(s.surface_base_address, SCRATCH_AT);
    assert_eq!(s.surface_pitch, 5056 - 1);
    // Slice count rounded up to 4, minus one, split like a buffer size (NEO).
    let n = u64::from(s.width) | u64::from(s.height) << 7 | u64::from(s.depth) << 21;
    assert_eq!(
        n + 1,
        u64::from(DeviceLimits::representative(p).scratch_slices).div_ceil(4) * 4
    );
    let xml = genxml(p);
    let f = xml_bits(&xml, "CFE_STATE", "Scratch Space Buffer");
    assert_eq!(bits(&cfe, f), u64::from(ss >> 6));
    let ty = xml_bits(&xml, "RENDER_SURFACE_STATE", "Surface Type");
    assert_eq!(bits(rss, ty), xml_value(&xml, "SURFTYPE_SCRATCH"));
    let pitch = xml_bits(&xml, "RENDER_SURFACE_STATE", "Surface Pitch");
    assert_eq!(bits(rss, pitch), 5056 - 1);
    let base = xml_bits(&xml, "RENDER_SURFACE_STATE", "Surface Base Address");
    assert_eq!(bits(rss, base), SCRATCH_AT);
    // The flattened genxml has no SURFACE_FORMAT list: RAW comes from the one format table.
    let fmt = xml_bits(&xml, "RENDER_SURFACE_STATE", "Surface Format");
    assert_eq!(bits(rss, fmt), u64::from(format::RAW.number));
}

#[test]
fn no_scratch_leaves_the_fields_zero() {
    for p in Platform::ALL {
        let (mut b, mut s, mut dy, mut ind) = (vec![0; 256], vec![0; 64], vec![0; 64], vec![0; 64]);
        let mut batch = Batch::new(&mut b);
        let mut heaps = Heaps {
            surface: Heap::new("surface", SURFACE_BASE, &mut s),
            dynamic: Heap::new("dynamic", DYNAMIC_BASE, &mut dy),
            indirect: Heap::new("indirect", INDIRECT_BASE, &mut ind),
        };
        let fe = front_end(p, &mut heaps, 0, None).unwrap();
        assert_eq!(fe, FrontEnd::default());
        assert_eq!(
            heaps.surface.used(),
            0,
            "{p}: no surface state without scratch"
        );
        Builder::new(p)
            .preamble(&mut batch, &heaps, 0, (0x80_0000, 4096), fe)
            .unwrap();
        let words = batch.as_slice().to_vec();
        if p == Platform::Dg2 {
            let c = CfeState::unpack(p, &find(p, &words, PacketId::CfeState)).unwrap();
            assert_eq!(c.scratch_space_buffer, 0);
        } else {
            let v = MediaVfeState::unpack(p, &find(p, &words, PacketId::MediaVfeState)).unwrap();
            assert_eq!(
                (v.per_thread_scratch_space, v.scratch_space_base_pointer),
                (0, 0)
            );
        }
    }
}

#[test]
fn unusable_scratch_buffers_are_refused() {
    let mut s = vec![0; 64];
    let (mut dy, mut ind) = (vec![0; 16], vec![0; 16]);
    let mut heaps = Heaps {
        surface: Heap::new("surface", SURFACE_BASE, &mut s),
        dynamic: Heap::new("dynamic", DYNAMIC_BASE, &mut dy),
        indirect: Heap::new("indirect", INDIRECT_BASE, &mut ind),
    };
    let p = Platform::Tgllp;
    let ok = ScratchSpace {
        address: 0x10_0000,
        slice: 1024,
        slices: DeviceLimits::representative(p).scratch_slices,
    };
    let bad = |s: ScratchSpace, general: u64, heaps: &mut Heaps| {
        matches!(
            front_end(p, heaps, general, Some(&s)),
            Err(BuildError::BadScratch(_))
        )
    };
    assert!(front_end(p, &mut heaps, 0, Some(&ok)).is_ok());
    // Below General State Base, misaligned, not a power of two.
    assert!(bad(ok, 0x20_0000, &mut heaps));
    assert!(bad(
        ScratchSpace {
            address: 0x10_0200,
            ..ok
        },
        0,
        &mut heaps
    ));
    assert!(bad(ScratchSpace { slice: 3072, ..ok }, 0, &mut heaps));
    // Slice offsets reach threads in the 32 bits of r0.5: the buffer must end below 4 GiB.
    let high = ScratchSpace {
        address: (1 << 32) - 1024 * u64::from(ok.slices),
        ..ok
    };
    assert!(front_end(p, &mut heaps, 0, Some(&high)).is_ok());
    assert!(bad(
        ScratchSpace {
            address: high.address + 1024,
            ..ok
        },
        0,
        &mut heaps
    ));
    // Xe-HPG slices are 64-byte multiples.
    let dg2 = ScratchSpace {
        slice: 100,
        slices: DeviceLimits::representative(Platform::Dg2).scratch_slices,
        ..ok
    };
    assert!(matches!(
        front_end(Platform::Dg2, &mut heaps, 0, Some(&dg2)),
        Err(BuildError::BadScratch(_))
    ));
}

#[test]
fn decoder_names_the_scratch_fields() {
    for p in Platform::ALL {
        let b = build(p, 2048).unwrap();
        let bytes: Vec<u8> = b.batch.iter().flat_map(|d| d.to_le_bytes()).collect();
        let (text, stats) = decode_to_string(p, &bytes, Mode::Full);
        assert_eq!(stats.unknown, 0, "{p}");
        if p == Platform::Dg2 {
            let want = format!("Scratch Space Buffer: {}", b.fe.scratch_surface_state >> 6);
            assert!(text.contains("CFE_STATE"), "{p}");
            assert!(text.contains(&want), "{p}: {want} missing in\n{text}");
        } else {
            assert!(text.contains("MEDIA_VFE_STATE"), "{p}");
            assert!(text.contains("Per Thread Scratch Space: 1"), "{p}:\n{text}");
            let base = format!(
                "Scratch Space Base Pointer: {:#x}",
                SCRATCH_AT - GENERAL_BASE
            );
            assert!(text.contains(&base), "{p}: {base} missing in\n{text}");
        }
    }
}
