//! Field-by-field comparison of two walkers (their commands, the state in effect and their
//! dispatch records) and of the commands around them.
//!
//! What counts as the same: equal values, except where values are addresses chosen by each
//! runtime's allocator. Heap offsets (`Kind::Offset`: kernel start, binding table and sampler
//! pointers, indirect data start) are shown but not compared; graphics addresses
//! (`Kind::Address`: state bases, scratch, post-sync destinations) are compared only as set or
//! zero; a pointer in the payload or a surface's base address is compared as its offset in the
//! buffer object it points into (the dispatch record gives it).

use std::collections::BTreeMap;

use batchbuffer::decode::{flatten, FlatField};
use batchbuffer::{
    InterfaceDescriptorData, Kind, Layout, MiLoadRegisterImm, Packet, PacketId, PipelineSelect,
    RenderSurfaceState, SamplerState, StateBaseAddress,
};
use platform::Platform;
use serde_json::Value;

/// How a field's two values were judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Same,
    Differ,
    /// Shown (with `--all`) but not compared: a heap offset.
    NotCompared,
}

/// One compared field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// What the field belongs to: a packet or struct name, `kernel`, `local IDs`, ...
    pub scope: String,
    pub field: String,
    pub a: String,
    pub b: String,
    pub verdict: Verdict,
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.verdict {
            Verdict::Same => write!(f, "{}: {}: {}", self.scope, self.field, self.a),
            Verdict::Differ => write!(f, "{}: {}: {} | {}", self.scope, self.field, self.a, self.b),
            Verdict::NotCompared => write!(
                f,
                "{}: {}: {} | {} (heap offset, not compared)",
                self.scope, self.field, self.a, self.b
            ),
        }
    }
}

/// The lines of one comparison.
#[derive(Debug, Default)]
pub struct Diff {
    pub lines: Vec<Line>,
}

const ABSENT: &str = "-";

fn u32s(v: &Value) -> Option<Vec<u32>> {
    v.as_array()?
        .iter()
        .map(|x| x.as_u64().and_then(|n| u32::try_from(n).ok()))
        .collect()
}

fn text(v: &Value) -> String {
    match v {
        Value::Null => ABSENT.to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Diff {
    pub fn push(&mut self, scope: &str, field: &str, a: String, b: String, verdict: Verdict) {
        self.lines.push(Line {
            scope: scope.to_string(),
            field: field.to_string(),
            a,
            b,
            verdict,
        });
    }

    /// Compares two values by their text.
    pub fn value(&mut self, scope: &str, field: &str, a: String, b: String) {
        let v = if a == b {
            Verdict::Same
        } else {
            Verdict::Differ
        };
        self.push(scope, field, a, b, v);
    }

    /// Compares a JSON value of the two records.
    fn json(&mut self, scope: &str, field: &str, a: &Value, b: &Value) {
        self.value(scope, field, text(a), text(b));
    }

    /// Compares two instances of `layout` field by field; `None`: not programmed / absent.
    /// `skip`: fields compared elsewhere (by name prefix).
    pub fn packet(
        &mut self,
        p: Platform,
        scope: &str,
        layout: &Layout,
        a: Option<&[u32]>,
        b: Option<&[u32]>,
        skip: &[&str],
    ) {
        let (a, b) = match (a, b) {
            (None, None) => return,
            (Some(a), Some(b)) => (a, b),
            (a, b) => {
                let says = |x: Option<&[u32]>| {
                    if x.is_some() {
                        "programmed"
                    } else {
                        "not programmed"
                    }
                };
                self.value(scope, "(instance)", says(a).into(), says(b).into());
                return;
            }
        };
        let fa = flatten(p, layout, a);
        let fb = flatten(p, layout, b);
        for (x, y) in fa.iter().zip(&fb) {
            if skip.iter().any(|s| x.name.starts_with(s)) {
                continue;
            }
            self.field(scope, x, y);
        }
    }

    fn field(&mut self, scope: &str, x: &FlatField, y: &FlatField) {
        let verdict = match x.kind {
            Kind::Offset => Verdict::NotCompared,
            Kind::Address if (x.value == 0) == (y.value == 0) => Verdict::Same,
            Kind::Address => Verdict::Differ,
            _ if x.value == y.value => Verdict::Same,
            _ => Verdict::Differ,
        };
        let (a, b) = (x.text.clone(), y.text.clone());
        // Equal addresses print as one value; different but both set ones print both.
        let a = if x.kind == Kind::Address && verdict == Verdict::Same && a != b {
            format!("{a} (set in both)")
        } else {
            a
        };
        self.push(scope, &x.name, a, b, verdict);
    }

    /// Compares payload dwords (`{dwords, pointers}` objects of the records): a qword both
    /// runs hold a pointer in is compared as the pointer's offset in its buffer object.
    pub fn data(&mut self, scope: &str, a: &Value, b: &Value) {
        if a.is_null() && b.is_null() {
            return;
        }
        let dw = |v: &Value| u32s(&v["dwords"]).unwrap_or_default();
        let ptrs = |v: &Value| -> BTreeMap<usize, u64> {
            v["pointers"]
                .as_array()
                .map(|ps| {
                    ps.iter()
                        .filter_map(|p| {
                            Some((p["dword"].as_u64()? as usize, p["bo_offset"].as_u64()?))
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let (da, db) = (dw(a), dw(b));
        let (pa, pb) = (ptrs(a), ptrs(b));
        self.value(scope, "dwords", da.len().to_string(), db.len().to_string());
        let mut i = 0;
        while i < da.len().max(db.len()) {
            match (pa.get(&i), pb.get(&i)) {
                (Some(x), Some(y)) => {
                    self.value(
                        scope,
                        &format!("dword {i}-{} (pointer)", i + 1),
                        format!("buffer+0x{x:x}"),
                        format!("buffer+0x{y:x}"),
                    );
                    i += 2;
                    continue;
                }
                (Some(_), None) | (None, Some(_)) => {
                    let q = |d: &[u32], p: &BTreeMap<usize, u64>| match p.get(&i) {
                        Some(o) => format!("buffer+0x{o:x}"),
                        None => format!(
                            "0x{:08x}_{:08x}",
                            d.get(i + 1).copied().unwrap_or(0),
                            d.get(i).copied().unwrap_or(0)
                        ),
                    };
                    self.push(
                        scope,
                        &format!("dword {i}-{}", i + 1),
                        q(&da, &pa),
                        q(&db, &pb),
                        Verdict::Differ,
                    );
                    i += 2;
                    continue;
                }
                (None, None) => {}
            }
            let h = |d: &[u32]| {
                d.get(i)
                    .map_or(ABSENT.to_string(), |v| format!("0x{v:08x}"))
            };
            self.value(scope, &format!("dword {i}"), h(&da), h(&db));
            i += 1;
        }
    }

    /// Compares the local IDs each thread of a group gets. Lanes the last thread's execution
    /// mask (`masks`, from the records) disables run no work-item: they show as `_`.
    pub fn local_ids(&mut self, a: &Value, b: &Value, masks: (Option<u64>, Option<u64>)) {
        let s = "local IDs";
        self.json(s, "source", &a["source"], &b["source"]);
        self.json(s, "channels", &a["channels"], &b["channels"]);
        let threads = |v: &Value| v["threads"].as_array().cloned().unwrap_or_default();
        let (ta, tb) = (threads(a), threads(b));
        self.value(s, "threads", ta.len().to_string(), tb.len().to_string());
        let list = |v: Option<&Value>, mask: Option<u64>| match v.and_then(Value::as_array) {
            Some(ids) => ids
                .iter()
                .enumerate()
                .map(|(lane, x)| match mask {
                    Some(m) if lane < 64 && m >> lane & 1 == 0 => "_".to_string(),
                    _ => x.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" "),
            None => ABSENT.to_string(),
        };
        for t in 0..ta.len().max(tb.len()) {
            let mask = |n: usize, m: Option<u64>| if t + 1 == n { m } else { None };
            for (c, name) in ["x", "y", "z"].iter().enumerate() {
                let x = ta.get(t).and_then(|v| v.get(c));
                let y = tb.get(t).and_then(|v| v.get(c));
                if x.is_none() && y.is_none() {
                    continue;
                }
                self.value(
                    s,
                    &format!("thread {t} {name}"),
                    list(x, mask(ta.len(), masks.0)),
                    list(y, mask(tb.len(), masks.1)),
                );
            }
        }
    }

    /// Compares the dispatch records of two walkers.
    pub fn records(&mut self, p: Platform, a: &Value, b: &Value) {
        if a.get("error").is_some() || b.get("error").is_some() {
            self.json("dispatch record", "error", &a["error"], &b["error"]);
            return;
        }
        let d = "dispatch";
        for key in [
            "simd",
            "threads_per_group",
            "slm_bytes",
            "front_end_threads",
        ] {
            self.json(d, key, &a[key], &b[key]);
        }
        self.json(
            d,
            "thread group start",
            &a["groups"]["start"],
            &b["groups"]["start"],
        );
        self.json(
            d,
            "thread group end",
            &a["groups"]["end"],
            &b["groups"]["end"],
        );
        let mask = |v: &Value| v.as_u64().map_or(ABSENT.into(), |m| format!("0x{m:x}"));
        self.value(
            d,
            "last thread's mask",
            mask(&a["last_mask"]),
            mask(&b["last_mask"]),
        );
        self.json(
            d,
            "scratch size code",
            &a["scratch"]["size_code"],
            &b["scratch"]["size_code"],
        );
        self.json(
            d,
            "scratch slice stride",
            &a["scratch"]["stride"],
            &b["scratch"]["stride"],
        );
        let k = "kernel";
        self.json(k, "bytes", &a[k]["bytes"], &b[k]["bytes"]);
        self.json(k, "hash (FNV-1a)", &a[k]["fnv1a64"], &b[k]["fnv1a64"]);
        self.push(
            k,
            "start offset",
            text(&a[k]["offset"]),
            text(&b[k]["offset"]),
            Verdict::NotCompared,
        );
        let idd = |v: &Value| u32s(&v["idd"]["dwords"]);
        let (ia, ib) = (idd(a), idd(b));
        self.packet(
            p,
            "INTERFACE_DESCRIPTOR_DATA",
            InterfaceDescriptorData::LAYOUT,
            ia.as_deref(),
            ib.as_deref(),
            &[],
        );
        let sba = |v: &Value| u32s(&v["sba"]);
        let (sa, sb) = (sba(a), sba(b));
        self.packet(
            p,
            "STATE_BASE_ADDRESS",
            StateBaseAddress::LAYOUT,
            sa.as_deref(),
            sb.as_deref(),
            &[],
        );
        self.front_end(p, &a["front_end"], &b["front_end"]);
        let masks = (a["last_mask"].as_u64(), b["last_mask"].as_u64());
        self.local_ids(&a["local_ids"], &b["local_ids"], masks);
        let (xa, xb) = (&a["indirect"], &b["indirect"]);
        self.json(
            "indirect data",
            "length (walker field)",
            &xa["length"],
            &xb["length"],
        );
        self.data(
            "cross-thread data",
            &xa["cross_thread"],
            &xb["cross_thread"],
        );
        self.data("indirect data", &xa["data"], &xb["data"]);
        self.data("inline data", &a["inline"], &b["inline"]);
        self.binding_table(p, &a["binding_table"], &b["binding_table"]);
        self.samplers(p, &a["samplers"], &b["samplers"]);
    }

    fn front_end(&mut self, p: Platform, a: &Value, b: &Value) {
        let name = |v: &Value| v["packet"].as_str().map(str::to_string);
        let (na, nb) = (name(a), name(b));
        if na != nb {
            let t = |n: Option<String>| n.unwrap_or_else(|| "not programmed".into());
            self.value("front end", "packet", t(na), t(nb));
            return;
        }
        let Some(id) = na.and_then(|n| PacketId::ALL.iter().copied().find(|i| i.name() == n))
        else {
            return;
        };
        let (da, db) = (u32s(&a["dwords"]), u32s(&b["dwords"]));
        self.packet(p, id.name(), id.layout(), da.as_deref(), db.as_deref(), &[]);
    }

    fn binding_table(&mut self, p: Platform, a: &Value, b: &Value) {
        let s = "binding table";
        let entries = |v: &Value| v["entries"].as_array().cloned().unwrap_or_default();
        let (ea, eb) = (entries(a), entries(b));
        self.value(s, "entries", ea.len().to_string(), eb.len().to_string());
        for (i, (x, y)) in ea.iter().zip(&eb).enumerate() {
            let scope = format!("RENDER_SURFACE_STATE (BTI {i})");
            if x.get("error").is_some() || y.get("error").is_some() {
                self.json(&scope, "error", &x["error"], &y["error"]);
                continue;
            }
            let (da, db) = (u32s(&x["dwords"]), u32s(&y["dwords"]));
            self.packet(
                p,
                &scope,
                RenderSurfaceState::LAYOUT,
                da.as_deref(),
                db.as_deref(),
                &[],
            );
            let at = |v: &Value| {
                v["base_bo_offset"]
                    .as_u64()
                    .map_or("not a mapped address".into(), |o| format!("buffer+0x{o:x}"))
            };
            self.value(&scope, "Surface Base Address in its buffer", at(x), at(y));
        }
    }

    fn samplers(&mut self, p: Platform, a: &Value, b: &Value) {
        let states = |v: &Value| v["states"].as_array().cloned().unwrap_or_default();
        let (sa, sb) = (states(a), states(b));
        for (i, (x, y)) in sa.iter().zip(&sb).enumerate() {
            let (da, db) = (u32s(x), u32s(y));
            let scope = format!("SAMPLER_STATE {i}");
            self.packet(
                p,
                &scope,
                SamplerState::LAYOUT,
                da.as_deref(),
                db.as_deref(),
                &[],
            );
        }
        if sa.len() != sb.len() {
            self.value(
                "samplers",
                "states",
                sa.len().to_string(),
                sb.len().to_string(),
            );
        }
    }

    /// Compares runs of commands (those between two walkers) by kind: how many of each, the
    /// registers MI_LOAD_REGISTER_IMM writes, the flags PIPE_CONTROLs set and the pipelines
    /// PIPELINE_SELECT picks, in order.
    pub fn commands(&mut self, p: Platform, scope: &str, a: &[&[u32]], b: &[&[u32]]) {
        let by_kind = |cmds: &[&[u32]]| {
            let mut m: BTreeMap<String, Vec<Vec<u32>>> = BTreeMap::new();
            for c in cmds {
                let name = batchbuffer::identify(p, c)
                    .map(|i| i.packet.name().to_string())
                    .unwrap_or_else(|_| {
                        format!("unknown 0x{:08x}", c.first().copied().unwrap_or(0))
                    });
                m.entry(name).or_default().push(c.to_vec());
            }
            m
        };
        let (ka, kb) = (by_kind(a), by_kind(b));
        let names: std::collections::BTreeSet<&String> = ka.keys().chain(kb.keys()).collect();
        let none = Vec::new();
        for n in names {
            let (xa, xb) = (ka.get(n).unwrap_or(&none), kb.get(n).unwrap_or(&none));
            self.value(
                scope,
                &format!("{n} commands"),
                xa.len().to_string(),
                xb.len().to_string(),
            );
        }
        self.registers(p, scope, &ka, &kb);
        self.pipe_controls(p, scope, &ka, &kb);
        let selects = |m: &BTreeMap<String, Vec<Vec<u32>>>| {
            let v: Vec<String> = m
                .get(PacketId::PipelineSelect.name())
                .into_iter()
                .flatten()
                .filter_map(|c| {
                    flatten(p, PipelineSelect::LAYOUT, c)
                        .into_iter()
                        .find(|f| f.name == "Pipeline Selection")
                        .map(|f| f.text)
                })
                .collect();
            if v.is_empty() {
                ABSENT.to_string()
            } else {
                v.join(", ")
            }
        };
        self.value(
            scope,
            "PIPELINE_SELECT sequence",
            selects(&ka),
            selects(&kb),
        );
    }

    fn registers(
        &mut self,
        p: Platform,
        scope: &str,
        a: &BTreeMap<String, Vec<Vec<u32>>>,
        b: &BTreeMap<String, Vec<Vec<u32>>>,
    ) {
        let writes = |m: &BTreeMap<String, Vec<Vec<u32>>>| {
            let mut w: BTreeMap<u32, Vec<String>> = BTreeMap::new();
            for c in m
                .get(PacketId::MiLoadRegisterImm.name())
                .into_iter()
                .flatten()
            {
                if let Ok(l) = MiLoadRegisterImm::unpack(p, c) {
                    for (r, v) in l.pairs() {
                        w.entry(r).or_default().push(format!("0x{v:08x}"));
                    }
                }
            }
            w
        };
        let (wa, wb) = (writes(a), writes(b));
        let regs: std::collections::BTreeSet<&u32> = wa.keys().chain(wb.keys()).collect();
        for r in regs {
            let t = |w: &BTreeMap<u32, Vec<String>>| {
                w.get(r).map_or(ABSENT.to_string(), |v| v.join(", "))
            };
            self.value(
                scope,
                &format!("MI_LOAD_REGISTER_IMM 0x{r:04x}{}", register_name(*r)),
                t(&wa),
                t(&wb),
            );
        }
    }

    fn pipe_controls(
        &mut self,
        p: Platform,
        scope: &str,
        a: &BTreeMap<String, Vec<Vec<u32>>>,
        b: &BTreeMap<String, Vec<Vec<u32>>>,
    ) {
        // Per flag (or post-sync operation), how many of the PIPE_CONTROLs set it.
        let flags = |m: &BTreeMap<String, Vec<Vec<u32>>>| {
            let pcs = m
                .get(PacketId::PipeControl.name())
                .cloned()
                .unwrap_or_default();
            let mut f: BTreeMap<String, usize> = BTreeMap::new();
            for c in &pcs {
                for x in flatten(p, PacketId::PipeControl.layout(), c) {
                    match x.kind {
                        Kind::Bool if x.value != 0 => *f.entry(x.name).or_default() += 1,
                        Kind::Enum if x.value != 0 => {
                            *f.entry(format!("{} {}", x.name, x.text)).or_default() += 1
                        }
                        _ => {}
                    }
                }
            }
            (f, pcs.len())
        };
        let ((fa, na), (fb, nb)) = (flags(a), flags(b));
        let names: std::collections::BTreeSet<&String> = fa.keys().chain(fb.keys()).collect();
        for n in names {
            let (x, y) = (
                fa.get(n).copied().unwrap_or(0),
                fb.get(n).copied().unwrap_or(0),
            );
            let verdict = if (x > 0) == (y > 0) {
                Verdict::Same
            } else {
                Verdict::Differ
            };
            self.push(
                scope,
                &format!("PIPE_CONTROL {n}"),
                format!("{x} of {na}"),
                format!("{y} of {nb}"),
                verdict,
            );
        }
    }
}

/// Names of the registers the runtimes' MI_LOAD_REGISTER_IMMs write, for the listing (Linux's
/// `i915_reg.h` / `intel_gt_regs.h` names).
fn register_name(r: u32) -> &'static str {
    match r {
        0x2580 => " (CS_CHICKEN1)",
        0x7010 => " (CACHE_MODE_0_GEN7)",
        0x7300 => " (GEN8_L3CNTLREG)",
        0xe184 => " (GEN8_HDC_CHICKEN1)",
        0xe4f0 => " (GEN7_COMMON_SLICE_CHICKEN1)",
        0xb118 => " (GEN9_L3SQCREG4)",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchbuffer::{MediaVfeState, PipeControl, PipelineSelection};
    use serde_json::json;

    const P: Platform = Platform::Tgllp;

    fn packed<T: Packet>(x: &T) -> Vec<u32> {
        let mut dw = vec![0; 64];
        let n = x.pack(P, &mut dw).unwrap();
        dw.truncate(n);
        dw
    }

    fn differing(d: &Diff) -> Vec<String> {
        d.lines
            .iter()
            .filter(|l| l.verdict == Verdict::Differ)
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn equal_packets_have_no_differences_and_differing_fields_are_named() {
        let vfe = |threads| MediaVfeState {
            maximum_number_of_threads: threads,
            number_of_urb_entries: 1,
            ..Default::default()
        };
        let mut d = Diff::default();
        let (a, b) = (packed(&vfe(767)), packed(&vfe(767)));
        d.packet(
            P,
            "MEDIA_VFE_STATE",
            MediaVfeState::LAYOUT,
            Some(&a),
            Some(&b),
            &[],
        );
        assert!(differing(&d).is_empty(), "{:?}", differing(&d));
        let c = packed(&vfe(671));
        d.packet(
            P,
            "MEDIA_VFE_STATE",
            MediaVfeState::LAYOUT,
            Some(&a),
            Some(&c),
            &[],
        );
        assert_eq!(
            differing(&d),
            ["MEDIA_VFE_STATE: Maximum Number of Threads: 767 | 671"]
        );
    }

    #[test]
    fn addresses_compare_as_set_or_zero_and_offsets_not_at_all() {
        let sba = |base, size| StateBaseAddress {
            surface_state_base_address_modify_enable: true,
            surface_state_base_address: base,
            general_state_buffer_size: size,
            ..Default::default()
        };
        let (a, b) = (
            packed(&sba(0x7f9b_0000_0000, 1)),
            packed(&sba(0x20_3000, 1)),
        );
        let mut d = Diff::default();
        d.packet(P, "SBA", StateBaseAddress::LAYOUT, Some(&a), Some(&b), &[]);
        assert!(differing(&d).is_empty(), "{:?}", differing(&d));
        let c = packed(&sba(0, 2));
        d.packet(P, "SBA", StateBaseAddress::LAYOUT, Some(&a), Some(&c), &[]);
        let got = differing(&d);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].starts_with("SBA: Surface State Base Address: 0x7f9b00000000 | 0x"));
        assert_eq!(got[1], "SBA: General State Buffer Size: 1 | 2");
        let idd = |k| InterfaceDescriptorData {
            kernel_start_pointer: k,
            ..Default::default()
        };
        let mut d = Diff::default();
        let (x, y) = (packed(&idd(0x40)), packed(&idd(0x1000)));
        d.packet(
            P,
            "IDD",
            InterfaceDescriptorData::LAYOUT,
            Some(&x),
            Some(&y),
            &[],
        );
        assert!(differing(&d).is_empty());
        assert!(d
            .lines
            .iter()
            .any(|l| l.field == "Kernel Start Pointer" && l.verdict == Verdict::NotCompared));
    }

    #[test]
    fn a_packet_only_one_run_programs_is_a_difference() {
        let mut d = Diff::default();
        let a = packed(&MediaVfeState::default());
        d.packet(
            P,
            "MEDIA_VFE_STATE",
            MediaVfeState::LAYOUT,
            Some(&a),
            None,
            &[],
        );
        assert_eq!(
            differing(&d),
            ["MEDIA_VFE_STATE: (instance): programmed | not programmed"]
        );
    }

    #[test]
    fn pointers_compare_by_their_offset_in_the_buffer() {
        let a =
            json!({"dwords": [0x1000, 0x7f9b, 67, 5], "pointers": [{"dword": 0, "bo_offset": 0}]});
        let b = json!({"dwords": [0x2000, 0x0, 67, 5], "pointers": [{"dword": 0, "bo_offset": 0}]});
        let mut d = Diff::default();
        d.data("cross-thread data", &a, &b);
        assert!(differing(&d).is_empty(), "{:?}", differing(&d));
        let c =
            json!({"dwords": [0x2040, 0x0, 68, 5], "pointers": [{"dword": 0, "bo_offset": 64}]});
        d.data("cross-thread data", &a, &c);
        assert_eq!(
            differing(&d),
            [
                "cross-thread data: dword 0-1 (pointer): buffer+0x0 | buffer+0x40",
                "cross-thread data: dword 2: 0x00000043 | 0x00000044"
            ]
        );
        // A pointer in one run where the other holds a plain value.
        let e = json!({"dwords": [0x0, 0x0, 67, 5], "pointers": []});
        let mut d = Diff::default();
        d.data("cross-thread data", &a, &e);
        assert_eq!(
            differing(&d),
            ["cross-thread data: dword 0-1: buffer+0x0 | 0x00000000_00000000"]
        );
    }

    #[test]
    fn local_ids_are_compared_per_thread_and_channel() {
        let a = json!({"source": "payload", "channels": 1, "threads": [[[0, 1, 2, 3]], [[4, 5, 6, 7]]]});
        let b = json!({"source": "payload", "channels": 1, "threads": [[[0, 1, 2, 3]], [[4, 5, 7, 6]]]});
        let all = (None, None);
        let mut d = Diff::default();
        d.local_ids(&a, &a, all);
        assert!(differing(&d).is_empty());
        d.local_ids(&a, &b, all);
        assert_eq!(differing(&d), ["local IDs: thread 1 x: 4 5 6 7 | 4 5 7 6"]);
        // The last thread's disabled lanes run nothing: their IDs do not matter.
        let mut d = Diff::default();
        d.local_ids(&a, &b, (Some(0x3), Some(0x3)));
        assert!(differing(&d).is_empty(), "{:?}", differing(&d));
        d.local_ids(&a, &b, (Some(0x7), Some(0x7)));
        assert_eq!(differing(&d), ["local IDs: thread 1 x: 4 5 6 _ | 4 5 7 _"]);
        let hw = json!({"source": "hardware", "channels": 1, "threads": [[[0, 1, 2, 3]], [[4, 5, 6, 7]]]});
        let mut d = Diff::default();
        d.local_ids(&a, &hw, all);
        assert_eq!(differing(&d), ["local IDs: source: payload | hardware"]);
    }

    #[test]
    fn commands_are_compared_by_kind_registers_and_flags() {
        let lri = packed(&MiLoadRegisterImm::from_pairs(&[(0x2580, 0x0006_0004)]).unwrap());
        let pc = |cs, dc| {
            packed(&PipeControl {
                command_streamer_stall_enable: cs,
                dc_flush_enable: dc,
                ..Default::default()
            })
        };
        let select = |s| {
            packed(&PipelineSelect {
                pipeline_selection: s,
                mask_bits: 3,
                ..Default::default()
            })
        };
        let (pa1, pa2) = (pc(true, true), pc(true, false));
        let gpgpu = select(PipelineSelection::Gpgpu);
        let threed = select(PipelineSelection::Pipeline3d);
        let a: Vec<&[u32]> = vec![&pa1, &threed, &gpgpu, &lri, &pa2];
        let pb = pc(true, false);
        let b: Vec<&[u32]> = vec![&pb, &gpgpu];
        let mut d = Diff::default();
        d.commands(P, "before", &a, &a);
        assert!(differing(&d).is_empty(), "{:?}", differing(&d));
        d.commands(P, "before", &a, &b);
        let got = differing(&d);
        assert!(
            got.contains(&"before: MI_LOAD_REGISTER_IMM commands: 1 | 0".to_string()),
            "{got:?}"
        );
        assert!(
            got.contains(&"before: PIPE_CONTROL commands: 2 | 1".to_string()),
            "{got:?}"
        );
        assert!(
            got.contains(&"before: PIPELINE_SELECT commands: 2 | 1".to_string()),
            "{got:?}"
        );
        assert!(
            got.contains(
                &"before: MI_LOAD_REGISTER_IMM 0x2580 (CS_CHICKEN1): 0x00060004 | -".to_string()
            ),
            "{got:?}"
        );
        assert!(
            got.contains(&"before: PIPE_CONTROL DC Flush Enable: 1 of 2 | 0 of 1".to_string()),
            "{got:?}"
        );
        assert!(
            got.iter()
                .any(|l| l == "before: PIPELINE_SELECT sequence: 0 (3D), 2 (GPGPU) | 2 (GPGPU)"),
            "{got:?}"
        );
        // CS stall is set by some PIPE_CONTROL in both: not a difference.
        assert!(
            !got.iter().any(|l| l.contains("Command Streamer Stall")),
            "{got:?}"
        );
    }
}
