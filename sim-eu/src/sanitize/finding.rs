//! Findings: one per (kernel, instruction offset, check), counted.

use std::collections::BTreeMap;

use super::checks::Check;

/// What one finding says. The kernel's name and the instruction's disassembly are the
/// dispatcher's to add ([`Finding::kernel`], [`Finding::disassembly`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub check: Check,
    /// The kernel's name, or its address where the driver did not name it.
    pub kernel: String,
    /// Byte offset of the instruction in the kernel.
    pub offset: u32,
    /// The instruction's source file and line (the dispatcher's to add, where the binary has
    /// debug info).
    pub source: Option<(String, u32)>,
    pub disassembly: String,
    /// What is wrong, in a sentence (for alignment: the rule, with its spec).
    pub what: String,
    /// The first occurrence's work-group, hardware thread of the group (sub-group) and the
    /// lanes the message had enabled.
    pub group: [u32; 3],
    pub thread: u32,
    pub lanes: u32,
    /// The first occurrence's address (None where the finding has none).
    pub address: Option<u64>,
    /// The allocation the address falls in or is nearest to, described.
    pub allocation: Option<String>,
    /// Occurrences (accesses) of this finding.
    pub count: u64,
}

impl Finding {
    /// The human-readable report (several lines, no trailing newline).
    pub fn to_text(&self) -> String {
        let line = self
            .source
            .as_ref()
            .map_or(String::new(), |(file, line)| format!(" ({file}:{line})"));
        let mut s = format!(
            "sanitizer {}: {} in kernel {} at offset {:#x}{line}: {}",
            self.check, self.what, self.kernel, self.offset, self.disassembly
        );
        s += &format!(
            "\n  work-group ({}, {}, {}), sub-group {}, lanes {:#x}",
            self.group[0], self.group[1], self.group[2], self.thread, self.lanes
        );
        if let Some(a) = self.address {
            s += &format!(", address {a:#x}");
        }
        if let Some(a) = &self.allocation {
            s += &format!("\n  allocation: {a}");
        }
        s += &format!("\n  {} time(s)", self.count);
        s
    }

    /// One JSON object (one line): `check`, `kernel`, `offset`, `file` and `line` (both null
    /// where the binary has no line for the instruction), `disassembly`, `what`, `group`,
    /// `sub_group`, `lanes`, `address` (null where none), `allocation` (null where none),
    /// `count`.
    pub fn to_json(&self) -> String {
        let opt_str = |s: &Option<String>| s.as_deref().map_or("null".into(), json_string);
        format!(
            "{{\"check\":{},\"kernel\":{},\"offset\":{},\"file\":{},\"line\":{},\
             \"disassembly\":{},\"what\":{},\
             \"group\":[{},{},{}],\"sub_group\":{},\"lanes\":{},\"address\":{},\
             \"allocation\":{},\"count\":{}}}",
            json_string(self.check.name()),
            json_string(&self.kernel),
            self.offset,
            self.source
                .as_ref()
                .map_or("null".into(), |(f, _)| json_string(f)),
            self.source
                .as_ref()
                .map_or("null".into(), |(_, l)| l.to_string()),
            json_string(&self.disassembly),
            json_string(&self.what),
            self.group[0],
            self.group[1],
            self.group[2],
            self.thread,
            self.lanes,
            self.address.map_or("null".into(), |a| a.to_string()),
            opt_str(&self.allocation),
            self.count
        )
    }
}

/// A JSON string literal (also the OpenCL ICD's `api` findings').
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The findings of a dispatch (or of one host thread's share of it), keyed by instruction
/// offset and check: the first occurrence is kept, later ones only counted.
#[derive(Debug, Default)]
pub struct Findings {
    map: BTreeMap<(u32, Check), Finding>,
}

impl Findings {
    pub fn add(&mut self, f: Finding) {
        self.map
            .entry((f.offset, f.check))
            .and_modify(|old| old.count += f.count)
            .or_insert(f);
    }

    /// Adds another collector's findings (host threads' shares of one dispatch).
    pub fn merge(&mut self, other: Findings) {
        for f in other.map.into_values() {
            self.add(f);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The findings, by offset then check.
    pub fn into_vec(self) -> Vec<Finding> {
        self.map.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_count_and_json_escapes() {
        let f = Finding {
            check: Check::Memcheck,
            kernel: "k\"1".into(),
            offset: 0x40,
            source: None,
            disassembly: "send".into(),
            what: "out of bounds".into(),
            group: [1, 0, 0],
            thread: 2,
            lanes: 0xffff,
            address: None,
            allocation: None,
            count: 1,
        };
        let mut all = Findings::default();
        all.add(f.clone());
        all.add(f);
        let v = all.into_vec();
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].count, 2);
        let j = v[0].to_json();
        assert!(j.contains("\"kernel\":\"k\\\"1\""), "{j}");
        assert!(j.contains("\"address\":null"), "{j}");
        assert!(j.contains("\"count\":2"), "{j}");
        // No line: both fields null, the text without one.
        assert!(j.contains("\"file\":null,\"line\":null"), "{j}");
        assert!(v[0].to_text().contains("at offset 0x40: send"));
        let mut g = v[0].clone();
        g.source = Some(("dir/k\".cl".into(), 9));
        let j = g.to_json();
        assert!(j.contains("\"file\":\"dir/k\\\".cl\",\"line\":9"), "{j}");
        assert!(g.to_text().contains("at offset 0x40 (dir/k\".cl:9): send"));
    }
}
