//! Checks every field of every packet on every generation against Mesa's flattened genxml
//! (`../../shared/reference/genxml/gen{90,110,120,125}.xml`): name, dword and bit range, header
//! values, DWord Length bias and default, packet length, and that fields and packets we say a
//! generation lacks are absent there too. Skips with a reason when the folder is missing.

use batchbuffer::{Kind, Layout, PacketId};
use platform::Platform;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Debug, Default)]
struct Item {
    attrs: HashMap<String, String>,
    /// name -> (start, end, type, default); groups become one entry spanning the whole group.
    fields: HashMap<String, (u32, u32, String, Option<String>)>,
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

/// Instructions and structs of one flattened genxml file, by name.
fn parse(text: &str) -> HashMap<String, Item> {
    let mut items = HashMap::new();
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
        } else if line.starts_with("<field ") {
            let Some((_, it)) = cur.as_mut() else {
                continue;
            };
            let a = attrs(line);
            let (mut s, mut e) = (
                a["start"].parse::<u32>().unwrap(),
                a["end"].parse().unwrap(),
            );
            if let Some((count, gstart, size)) = group {
                if count == 0 {
                    continue; // open-ended trailing group (MI_LOAD_REGISTER_IMM)
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
    items
}

fn genxml_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/genxml")
}

fn check_layout(l: &Layout, p: Platform, it: &Item, errors: &mut Vec<String>) -> usize {
    let mut checked = 0;
    let len = l.len_on(p).unwrap();
    let xml_len: usize = it.attrs["length"].parse().unwrap();
    if len != xml_len {
        errors.push(format!("{} on {p}: length {len}, genxml {xml_len}", l.name));
    }
    for f in l.fields {
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
        let dflt = default.as_deref().map(|d| d.parse::<u64>().unwrap());
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
            _ => {}
        }
    }
    checked
}

#[test]
fn every_field_matches_genxml() {
    let dir = genxml_dir();
    if !dir.is_dir() {
        oracles::skip(
            "genxml_crosscheck::every_field_matches_genxml",
            &format!("{} not present", dir.display()),
        );
        return;
    }
    let mut errors = Vec::new();
    let mut checked = 0;
    for p in Platform::ALL {
        let text = std::fs::read_to_string(dir.join(format!("gen{}.xml", p.verx10()))).unwrap();
        let items = parse(&text);
        for &id in PacketId::ALL {
            let l = id.layout();
            match (l.len_on(p), items.get(l.name)) {
                (Some(_), Some(it)) => checked += check_layout(l, p, it, &mut errors),
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
    eprintln!("genxml cross-check: {checked} field placements checked");
    assert!(checked > 500, "only {checked} fields checked");
}
