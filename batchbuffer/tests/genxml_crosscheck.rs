//! Checks every field of every packet on every generation against Mesa's flattened genxml
//! (`third_party/genxml/gen{90,110,120,125}.xml`, vendored from Mesa): name, dword and bit
//! range, header values, DWord Length bias and default, packet length, and that fields and
//! packets we say a generation lacks are absent there too.

use batchbuffer::{FieldDesc, Kind, Layout, PacketId};
use platform::Platform;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Debug, Default)]
struct Item {
    attrs: HashMap<String, String>,
    /// name -> (start, end, type, default); groups become one entry spanning the whole group.
    fields: HashMap<String, (u32, u32, String, Option<String>)>,
    /// name -> the field's `<value>` list (name, value).
    values: HashMap<String, Vec<(String, u64)>>,
    /// The open-ended trailing group (`count="0"`): start, element size in bits, and its fields
    /// with start/end relative to the element.
    tail: Option<(u32, u32, GroupFields)>,
}

/// A group's fields: name -> (start, end, type) inside one element.
type GroupFields = HashMap<String, (u32, u32, String)>;

/// One flattened genxml file: instructions and structs, and top-level enums.
struct Gen {
    items: HashMap<String, Item>,
    enums: HashMap<String, Vec<(String, u64)>>,
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn attrs(line: &str) -> HashMap<String, String> {
    let mut m = HashMap::new();
    let mut rest = line;
    while let Some(eq) = rest.find("=\"") {
        let key = rest[..eq].rsplit(' ').next().unwrap_or("").to_string();
        let after = &rest[eq + 2..];
        let Some(close) = after.find('"') else { break };
        m.insert(key, unescape(&after[..close]));
        rest = &after[close + 1..];
    }
    m
}

/// Instructions, structs and enums of one flattened genxml file, by name.
fn parse(text: &str) -> Gen {
    let mut items = HashMap::new();
    let mut enums: HashMap<String, Vec<(String, u64)>> = HashMap::new();
    let mut cur_enum: Option<String> = None;
    let mut cur_field: Option<String> = None;
    let mut cur: Option<(String, Item)> = None;
    let mut group: Option<(u32, u32, u32)> = None; // count, start, size
    for line in text.lines().map(str::trim) {
        if line.starts_with("<instruction ") || line.starts_with("<struct ") {
            let a = attrs(line);
            cur = Some((
                a["name"].clone(),
                Item {
                    attrs: a,
                    ..Default::default()
                },
            ));
        } else if line.starts_with("</instruction>") || line.starts_with("</struct>") {
            if let Some((n, it)) = cur.take() {
                items.insert(n, it);
            }
        } else if line.starts_with("<group ") {
            let a = attrs(line);
            let n = |k: &str| a[k].parse::<u32>().unwrap();
            group = Some((n("count"), n("start"), n("size")));
        } else if line.starts_with("</group>") {
            group = None;
        } else if line.starts_with("<enum ") {
            cur_enum = Some(attrs(line)["name"].clone());
        } else if line.starts_with("</enum>") {
            cur_enum = None;
        } else if line.starts_with("<value ") {
            let a = attrs(line);
            let v = (a["name"].clone(), number(&a["value"]));
            match (cur.as_mut(), &cur_field, &cur_enum) {
                (Some((_, it)), Some(f), _) => it.values.entry(f.clone()).or_default().push(v),
                (None, _, Some(e)) => enums.entry(e.clone()).or_default().push(v),
                _ => {}
            }
        } else if line.starts_with("</field>") {
            cur_field = None;
        } else if line.starts_with("<field ") {
            let Some((_, it)) = cur.as_mut() else {
                continue;
            };
            let a = attrs(line);
            if !line.ends_with("/>") && group.is_none() {
                cur_field = Some(a["name"].clone());
            }
            let (mut s, mut e) = (
                a["start"].parse::<u32>().unwrap(),
                a["end"].parse().unwrap(),
            );
            if let Some((count, gstart, size)) = group {
                if count == 0 {
                    let (_, _, fields) = it.tail.get_or_insert((gstart, size, HashMap::new()));
                    let ty = a.get("type").cloned().unwrap_or_default();
                    fields.insert(a["name"].clone(), (s, e, ty));
                    continue;
                }
                s += gstart;
                e = gstart + count * size - 1;
            }
            it.fields.entry(a["name"].clone()).or_insert((
                s,
                e,
                a.get("type").cloned().unwrap_or_default(),
                a.get("default").cloned(),
            ));
        }
    }
    Gen { items, enums }
}

/// genxml numbers are decimal or 0x-prefixed hex.
fn number(s: &str) -> u64 {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

/// Mesa's flattened genxml, vendored with its licence (third_party/genxml/SOURCE.txt).
fn genxml_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../third_party/genxml")
}

/// Every value genxml lists for an enum field (inline, or through a top-level enum type) must be
/// in our list with the same number.
fn check_values(
    l: &Layout,
    f: &FieldDesc,
    p: Platform,
    it: &Item,
    g: &Gen,
    errors: &mut Vec<String>,
) -> usize {
    let ty = &it.fields[f.name].2;
    let Some(theirs) = it.values.get(f.name).or_else(|| g.enums.get(ty)) else {
        errors.push(format!(
            "{}.{} on {p}: enum without genxml values",
            l.name, f.name
        ));
        return 0;
    };
    for (name, v) in theirs {
        if f.value_name(*v) != Some(name.as_str()) {
            errors.push(format!(
                "{}.{} on {p}: genxml {name}={v}, ours {:?}",
                l.name,
                f.name,
                f.value_name(*v)
            ));
        }
    }
    theirs.len()
}

fn check_layout(
    l: &Layout,
    p: Platform,
    it: &Item,
    g: &Gen,
    errors: &mut Vec<String>,
    values: &mut usize,
) -> usize {
    let mut checked = 0;
    let len = l.len_on(p).unwrap();
    let xml_len: usize = it.attrs["length"].parse().unwrap();
    if len != xml_len {
        errors.push(format!("{} on {p}: length {len}, genxml {xml_len}", l.name));
    }
    for f in l.fields {
        if let (Kind::Repeated, Some(loc)) = (f.kind, f.loc(p)) {
            checked += check_tail(l, f, loc, p, it, errors);
            continue;
        }
        let Some(loc) = f.loc(p) else {
            // An "mbz" (must be zero) field is as good as absent.
            if it.fields.get(f.name).is_some_and(|x| x.2 != "mbz") {
                errors.push(format!(
                    "{}.{} on {p}: genxml has it, we say absent",
                    l.name, f.name
                ));
            }
            continue;
        };
        let Some((s, e, ty, default)) = it.fields.get(f.name) else {
            errors.push(format!("{}.{} on {p}: not in genxml", l.name, f.name));
            continue;
        };
        checked += 1;
        if (loc.start(), loc.end()) != (*s, *e) {
            errors.push(format!(
                "{}.{} on {p}: we say {}..{}, genxml {s}..{e}",
                l.name,
                f.name,
                loc.start(),
                loc.end()
            ));
        }
        let dflt = default.as_deref().map(number);
        match f.kind {
            Kind::Const(v) if dflt != Some(v) => errors.push(format!(
                "{}.{} on {p}: value {v}, genxml {dflt:?}",
                l.name, f.name
            )),
            Kind::Length(bias) => {
                let xb: u8 = it.attrs["bias"].parse().unwrap();
                if xb != bias || dflt != Some((len - bias as usize) as u64) {
                    errors.push(format!("{}.{} on {p}: bias/default", l.name, f.name));
                }
            }
            Kind::Struct if f.nested.map(|n| n.name) != Some(ty.as_str()) => {
                errors.push(format!("{}.{} on {p}: struct type {ty}", l.name, f.name))
            }
            Kind::Bool if ty != "bool" && loc.width() != 1 => {
                errors.push(format!("{}.{} on {p}: bool, genxml {ty}", l.name, f.name))
            }
            Kind::Address if ty != "address" => errors.push(format!(
                "{}.{} on {p}: address, genxml {ty}",
                l.name, f.name
            )),
            Kind::Offset if ty != "offset" => {
                errors.push(format!("{}.{} on {p}: offset, genxml {ty}", l.name, f.name))
            }
            Kind::Enum => *values += check_values(l, f, p, it, g, errors),
            _ => {}
        }
    }
    checked
}

/// A trailing group: same start and element size as genxml's `count="0"` group, and each
/// element field at genxml's place inside the element.
fn check_tail(
    l: &Layout,
    f: &FieldDesc,
    loc: batchbuffer::Loc,
    p: Platform,
    it: &Item,
    errors: &mut Vec<String>,
) -> usize {
    let Some((start, size, theirs)) = &it.tail else {
        errors.push(format!(
            "{}.{} on {p}: genxml has no open group",
            l.name, f.name
        ));
        return 0;
    };
    if (loc.start(), loc.width()) != (*start, *size) {
        errors.push(format!(
            "{}.{} on {p}: group at {} size {}, genxml {start} size {size}",
            l.name,
            f.name,
            loc.start(),
            loc.width()
        ));
    }
    let element = f.nested.expect("a group has an element layout");
    let mut checked = 1;
    for ef in element.fields {
        let Some(eloc) = ef.loc(p) else { continue };
        match theirs.get(ef.name) {
            Some((s, e, ty)) if (eloc.start(), eloc.end()) == (*s, *e) => {
                checked += 1;
                if ef.kind == Kind::Offset && ty != "offset" {
                    errors.push(format!(
                        "{}[].{} on {p}: offset, genxml {ty}",
                        l.name, ef.name
                    ));
                }
            }
            other => errors.push(format!(
                "{}[].{} on {p}: we say {}..{}, genxml {other:?}",
                l.name,
                ef.name,
                eloc.start(),
                eloc.end()
            )),
        }
    }
    if theirs.len() != element.fields.len() {
        errors.push(format!(
            "{}[] on {p}: genxml group fields {theirs:?}",
            l.name
        ));
    }
    checked
}

/// Packets the hardware has on a generation whose Mesa genxml lacks them, with the source of
/// our layout there (checked by `not_in_genxml_layouts_match_their_source`).
const NOT_IN_GENXML: &[(&str, Platform, &str)] = &[
    (
        "STATE_COMPUTE_MODE",
        Platform::Tgllp,
        "NEO 22.43 hw_cmds_generated_gen12lp.inl",
    ),
    ("XY_SRC_COPY_BLT", Platform::Skl, KERNEL_BLT),
    ("XY_SRC_COPY_BLT", Platform::Icllp, KERNEL_BLT),
    ("XY_SRC_COPY_BLT", Platform::Tgllp, KERNEL_BLT),
    ("XY_SRC_COPY_BLT", Platform::Dg2, KERNEL_BLT),
    ("XY_COLOR_BLT", Platform::Skl, KERNEL_BLT),
    ("XY_COLOR_BLT", Platform::Icllp, KERNEL_BLT),
    ("XY_COLOR_BLT", Platform::Tgllp, KERNEL_BLT),
    ("XY_COLOR_BLT", Platform::Dg2, KERNEL_BLT),
    ("XY_FAST_COPY_BLT", Platform::Skl, KERNEL_BLT),
    ("XY_FAST_COPY_BLT", Platform::Icllp, KERNEL_BLT),
    ("XY_FAST_COPY_BLT", Platform::Tgllp, KERNEL_BLT),
    ("XY_FAST_COPY_BLT", Platform::Dg2, KERNEL_BLT),
];

/// The legacy blitter's source: Linux i915's command macros and the dwords its blit users
/// emit; IGT's definitions are the second source (`legacy_blits_match_igt`). Which platforms
/// have them: IGT's `lib/intel_cmds_info.c` (`gen8_cmds_info` to `gen12_dg2_cmds_info`
/// list XY_SRC_COPY/XY_COLOR_BLT; `gen11_cmds_info` on adds XY_FAST_COPY, which i915's
/// `emit_copy` uses from Gen9), so every simulated platform.
const KERNEL_BLT: &str =
    "Linux i915 gt/intel_gpu_commands.h, gt/intel_migrate.c emit_copy/emit_clear";

#[test]
fn every_field_matches_genxml() {
    let dir = genxml_dir();
    let mut errors = Vec::new();
    let mut checked = 0;
    let mut values = 0;
    for p in Platform::ALL {
        let text = std::fs::read_to_string(dir.join(format!("gen{}.xml", p.verx10()))).unwrap();
        let g = parse(&text);
        let items = &g.items;
        for &id in PacketId::ALL {
            let l = id.layout();
            match (l.len_on(p), items.get(l.name)) {
                (Some(_), Some(it)) => {
                    checked += check_layout(l, p, it, &g, &mut errors, &mut values)
                }
                (Some(_), None) if NOT_IN_GENXML.iter().any(|e| (e.0, e.1) == (l.name, p)) => {}
                (Some(_), None) => errors.push(format!("{} on {p}: not in genxml", l.name)),
                (None, Some(_)) => errors.push(format!("{} on {p}: genxml has it", l.name)),
                (None, None) => {}
            }
        }
    }
    assert!(
        errors.is_empty(),
        "{} mismatches:\n{}",
        errors.len(),
        errors.join("\n")
    );
    eprintln!("genxml cross-check: {checked} field placements and {values} enum values checked");
    assert!(checked > 500, "only {checked} fields checked");
}

/// Gen12LP STATE_COMPUTE_MODE as NEO 22.43 defines it (DWORD 1: ForceNonCoherent 3-4,
/// BindingTableAlignment 10, CoherentAccessL1CacheDisable 12,
/// DisableL1InvalidateForNonL1CacheableWrites 13, Mask 16-31; DWordLength 0, sub-opcode 5,
/// opcode 1, subtype 0, type 3), NEO's header being the only machine-readable source.
#[test]
fn not_in_genxml_layouts_match_their_source() {
    let p = Platform::Tgllp;
    assert_eq!(
        NOT_IN_GENXML
            .iter()
            .filter(|e| e.0 == "STATE_COMPUTE_MODE")
            .count(),
        1
    );
    let l = PacketId::StateComputeMode.layout();
    assert_eq!(l.len_on(p), Some(2));
    let at = |name: &str| {
        let loc = l.field(name).and_then(|f| f.loc(p)).unwrap();
        (loc.dw, loc.lo, loc.hi)
    };
    assert_eq!(at("Force Non-Coherent DG2"), (1, 3, 4));
    assert_eq!(at("Binding Table Alignment"), (1, 10, 10));
    assert_eq!(at("Coherent Access L1 Cache Disable"), (1, 12, 12));
    assert_eq!(
        at("Disable L1 Invalidate for non-L1-cacheable Writes"),
        (1, 13, 13)
    );
    for (field, bit) in [
        ("Force Non-Coherent DG2 Mask", 19),
        ("Binding Table Alignment Mask", 26),
        ("Coherent Access L1 Cache Disable Mask", 28),
        ("Disable L1 Invalidate for non-L1-cacheable Writes Mask", 29),
    ] {
        assert_eq!(at(field).1, bit, "{field}");
    }
    // No other field exists on Gen12LP.
    let present = l.fields.iter().filter(|f| f.loc(p).is_some()).count();
    assert_eq!(
        present,
        4 + 1 + 8,
        "header (4), length (1), fields and masks (8)"
    );
    // NEO's initialised header.
    assert_eq!(
        batchbuffer::identify(p, &[0x6105_0000, 0]).map(|i| (i.packet, i.len)),
        Ok((PacketId::StateComputeMode, 2))
    );
}

/// Where a field of `id` sits on `p`: (dword, low bit, high bit).
fn at(id: PacketId, p: Platform, name: &str) -> (u16, u16, u16) {
    let loc = id
        .layout()
        .field(name)
        .and_then(|f| f.loc(p))
        .unwrap_or_else(|| panic!("{} has no {name} on {p}", id.name()));
    (loc.dw, loc.lo, loc.hi)
}

/// Every legacy blit listed in NOT_IN_GENXML is one of ours, on exactly the listed platforms.
#[test]
fn legacy_blits_are_listed_where_they_exist() {
    for id in [
        PacketId::XySrcCopyBlt,
        PacketId::XyColorBlt,
        PacketId::XyFastCopyBlt,
    ] {
        for p in Platform::ALL {
            let listed = NOT_IN_GENXML
                .iter()
                .any(|e| (e.0, e.1, e.2) == (id.name(), p, KERNEL_BLT));
            assert_eq!(id.exists_on(p), listed, "{} on {p}", id.name());
        }
    }
}

// Linux i915 gt/intel_gpu_commands.h.
const XY_COLOR_BLT_CMD: u32 = (2 << 29) | (0x50 << 22);
const XY_SRC_COPY_BLT_CMD: u32 = (2 << 29) | (0x53 << 22);
const GEN9_XY_FAST_COPY_BLT_CMD: u32 = (2 << 29) | (0x42 << 22);
const BLT_WRITE_RGBA: u32 = (1 << 20) | (2 << 20);
const BLT_DEPTH_32: u32 = 3 << 24;
const BLT_ROP_SRC_COPY: u32 = 0xcc << 16;
const BLT_ROP_COLOR_COPY: u32 = 0xf0 << 16;
const PAGE_SIZE: u32 = 4096;

/// Our packets, packed with the values the kernel's blit users program, give the kernel's
/// dwords: `emit_copy` (XY_FAST_COPY_BLT on Gen9+, XY_SRC_COPY_BLT on Gen8+) and
/// `emit_clear` (XY_COLOR_BLT on Gen8-11) of gt/intel_migrate.c, for a 3-page block at
/// 64-bit addresses.
#[test]
fn legacy_blits_pack_as_the_kernel_emits_them() {
    use batchbuffer::*;
    let (src, dst, pages) = (0x1_2345_6000u64, 0x7_89ab_c000u64, 3u32);
    let lo = |a: u64| a as u32;
    let hi = |a: u64| (a >> 32) as u32;
    let size_dw = (pages << 16) | (PAGE_SIZE / 4);
    for p in Platform::ALL {
        let mut out = [0u32; 10];
        let src_copy = XySrcCopyBlt {
            write_rgb: true,
            write_alpha: true,
            color_depth: XyLegacyColorDepth::Bpp32,
            raster_operation: 0xcc,
            destination_pitch: PAGE_SIZE as i32,
            destination_x2: (PAGE_SIZE / 4) as i32,
            destination_y2: pages as i32,
            destination_base_address: dst,
            source_pitch: PAGE_SIZE as i32,
            source_base_address: src,
            ..Default::default()
        };
        assert_eq!(src_copy.pack(p, &mut out), Ok(10));
        assert_eq!(
            out,
            [
                XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA | (10 - 2),
                BLT_DEPTH_32 | BLT_ROP_SRC_COPY | PAGE_SIZE,
                0,
                size_dw,
                lo(dst),
                hi(dst),
                0,
                PAGE_SIZE,
                lo(src),
                hi(src)
            ],
            "XY_SRC_COPY_BLT on {p}"
        );
        let fast = XyFastCopyBlt {
            color_depth: XyFastCopyColorDepth::Bpp32,
            destination_pitch: PAGE_SIZE,
            destination_x2: (PAGE_SIZE / 4) as i32,
            destination_y2: pages as i32,
            destination_base_address: dst,
            source_pitch: PAGE_SIZE,
            source_base_address: src,
            ..Default::default()
        };
        assert_eq!(fast.pack(p, &mut out), Ok(10));
        assert_eq!(
            out,
            [
                GEN9_XY_FAST_COPY_BLT_CMD | (10 - 2),
                BLT_DEPTH_32 | PAGE_SIZE,
                0,
                size_dw,
                lo(dst),
                hi(dst),
                0,
                PAGE_SIZE,
                lo(src),
                hi(src)
            ],
            "XY_FAST_COPY_BLT on {p}"
        );
        let colour = XyColorBlt {
            write_rgb: true,
            write_alpha: true,
            color_depth: XyLegacyColorDepth::Bpp32,
            raster_operation: 0xf0,
            destination_pitch: PAGE_SIZE as i32,
            destination_x2: (PAGE_SIZE / 4) as i32,
            destination_y2: pages as i32,
            destination_base_address: dst,
            solid_pattern_color: 0xdead_beef,
            ..Default::default()
        };
        let mut out7 = [0u32; 7];
        assert_eq!(colour.pack(p, &mut out7), Ok(7));
        assert_eq!(
            out7,
            [
                XY_COLOR_BLT_CMD | BLT_WRITE_RGBA | (7 - 2),
                BLT_DEPTH_32 | BLT_ROP_COLOR_COPY | PAGE_SIZE,
                0,
                size_dw,
                lo(dst),
                hi(dst),
                0xdead_beef
            ],
            "XY_COLOR_BLT on {p}"
        );
        // And the kernel's headers identify as ours.
        for (header, id) in [
            (XY_SRC_COPY_BLT_CMD | 8, PacketId::XySrcCopyBlt),
            (GEN9_XY_FAST_COPY_BLT_CMD | 8, PacketId::XyFastCopyBlt),
            (XY_COLOR_BLT_CMD | 5, PacketId::XyColorBlt),
        ] {
            let mut dw = [0u32; 10];
            dw[0] = header;
            assert_eq!(identify(p, &dw).map(|i| i.packet), Ok(id), "{header:#x}");
        }
    }
}

/// Field by field against IGT, the second source: `lib/intel_reg.h` and
/// `intel_bb_emit_blt_copy`/`src_copy_dword*` (XY_SRC_COPY_BLT), `igt_draw.c`'s blitter
/// rectangle (XY_COLOR_BLT), and `lib/intel_blt.c`'s `struct gen12_fast_copy_data` with
/// `fast_copy_dword0/1` and `__fast_color_depth` (XY_FAST_COPY_BLT).
#[test]
fn legacy_blits_match_igt() {
    for p in Platform::ALL {
        // XY_SRC_COPY_BLT: dword0 flags, BR13 (16 bpp = 1 << 24, 32 bpp = 3 << 24, copy ROP
        // 0xcc << 16, pitch in the low bits, checked < 1 << 15), dst x1/y1, x2/y2 as y << 16 | x,
        // the dst address, src x1/y1, src pitch, the src address (64-bit from gen 8).
        let id = PacketId::XySrcCopyBlt;
        assert_eq!(id.layout().len_on(p), Some(6 + 2 * 2));
        assert_eq!(at(id, p, "Destination Tiling Enable"), (0, 11, 11));
        assert_eq!(at(id, p, "Source Tiling Enable"), (0, 15, 15));
        assert_eq!(at(id, p, "Write RGB"), (0, 20, 20));
        assert_eq!(at(id, p, "Write Alpha"), (0, 21, 21));
        assert_eq!(at(id, p, "Destination Pitch"), (1, 0, 15));
        assert_eq!(at(id, p, "Raster Operation"), (1, 16, 23));
        assert_eq!(at(id, p, "Color Depth"), (1, 24, 25));
        assert_eq!(at(id, p, "Destination X1"), (2, 0, 15));
        assert_eq!(at(id, p, "Destination Y1"), (2, 16, 31));
        assert_eq!(at(id, p, "Destination X2"), (3, 0, 15));
        assert_eq!(at(id, p, "Destination Y2"), (3, 16, 31));
        assert_eq!(at(id, p, "Destination Base Address"), (4, 0, 63));
        assert_eq!(at(id, p, "Source X1"), (6, 0, 15));
        assert_eq!(at(id, p, "Source Y1"), (6, 16, 31));
        assert_eq!(at(id, p, "Source Pitch"), (7, 0, 15));
        assert_eq!(at(id, p, "Source Base Address"), (8, 0, 63));
        let depth = id.layout().field("Color Depth").unwrap();
        assert_eq!(depth.value_name(1), Some("16_BIT_565"));
        assert_eq!(depth.value_name(3), Some("32_BIT"));
        // XY_COLOR_BLT: length 5 + 2 from gen 8, XY_COLOR_BLT_TILED 1 << 11, write alpha/RGB
        // 21/20, depth as above, ROP 0xF0 << 16 | pitch, rectangle, address, colour.
        let id = PacketId::XyColorBlt;
        assert_eq!(id.layout().len_on(p), Some(5 + 2));
        assert_eq!(at(id, p, "Destination Tiling Enable"), (0, 11, 11));
        assert_eq!(at(id, p, "Write RGB"), (0, 20, 20));
        assert_eq!(at(id, p, "Write Alpha"), (0, 21, 21));
        assert_eq!(at(id, p, "Destination Pitch"), (1, 0, 15));
        assert_eq!(at(id, p, "Raster Operation"), (1, 16, 23));
        assert_eq!(at(id, p, "Color Depth"), (1, 24, 25));
        assert_eq!(at(id, p, "Destination X1"), (2, 0, 15));
        assert_eq!(at(id, p, "Destination Y2"), (3, 16, 31));
        assert_eq!(at(id, p, "Destination Base Address"), (4, 0, 63));
        assert_eq!(at(id, p, "Solid Pattern Color"), (6, 0, 31));
        // XY_FAST_COPY_BLT: dw00 length 0-7, dst_tiling 13-14, src_tiling 20-21, opcode
        // 22-28, client 29-31; dw01 dst_pitch 0-15, color_depth 24-26, the Yf bits 30 (dst)
        // and 31 (src); dw02/03 dst rectangle; dw04-05 dst address; dw06 src x1/y1; dw07
        // src_pitch 0-15; dw08-09 src address.
        let id = PacketId::XyFastCopyBlt;
        assert_eq!(id.layout().len_on(p), Some(10));
        assert_eq!(at(id, p, "DWord Length"), (0, 0, 7));
        assert_eq!(at(id, p, "Destination Tiling"), (0, 13, 14));
        assert_eq!(at(id, p, "Source Tiling"), (0, 20, 21));
        assert_eq!(at(id, p, "Opcode"), (0, 22, 28));
        assert_eq!(at(id, p, "Client"), (0, 29, 31));
        assert_eq!(at(id, p, "Destination Pitch"), (1, 0, 15));
        assert_eq!(at(id, p, "Color Depth"), (1, 24, 26));
        // Bits 30/31 are Yf on Gen9/Gen11 and "1-tile4" (`dst_type_y`/`src_type_y`, i915's
        // XY_FAST_COPY_BLT_D1_{DST,SRC}_TILE4, set by i915 from Xe-HP) on DG2; TGL has no
        // Tile-4 and no Yf, so neither field exists there.
        let tile4 = p >= Platform::Dg2;
        let yf = p <= Platform::Icllp;
        let (dst, src) = if tile4 {
            ("Destination Tile4", "Source Tile4")
        } else {
            ("Destination Tiling Yf", "Source Tiling Yf")
        };
        if tile4 || yf {
            assert_eq!(at(id, p, dst), (1, 30, 30));
            assert_eq!(at(id, p, src), (1, 31, 31));
        }
        for (name, has) in [
            ("Destination Tile4", tile4),
            ("Source Tile4", tile4),
            ("Destination Tiling Yf", yf),
            ("Source Tiling Yf", yf),
        ] {
            let f = id.layout().field(name).and_then(|f| f.loc(p));
            assert_eq!(f.is_some(), has, "{name} on {p}");
        }
        assert_eq!(at(id, p, "Destination X1"), (2, 0, 15));
        assert_eq!(at(id, p, "Destination Y1"), (2, 16, 31));
        assert_eq!(at(id, p, "Destination X2"), (3, 0, 15));
        assert_eq!(at(id, p, "Destination Y2"), (3, 16, 31));
        assert_eq!(at(id, p, "Destination Base Address"), (4, 0, 63));
        assert_eq!(at(id, p, "Source X1"), (6, 0, 15));
        assert_eq!(at(id, p, "Source Y1"), (6, 16, 31));
        assert_eq!(at(id, p, "Source Pitch"), (7, 0, 15));
        assert_eq!(at(id, p, "Source Base Address"), (8, 0, 63));
        let depth = id.layout().field("Color Depth").unwrap();
        for (bpp, v) in [(8, 0), (16, 1), (32, 3), (64, 4), (128, 5)] {
            assert_eq!(
                depth.value_name(v),
                Some(format!("{bpp}_BIT").as_str()),
                "{bpp} bpp"
            );
        }
        assert_eq!(depth.value_name(2), None);
    }
}
