//! The corpus files and their instance lines.
//!
//! Each `.cl` file under `tests/conformance/` (after `common.cl`, which the harness puts first)
//! is a prelude of macros that define one kernel per
//! instantiation, then, after a line `// @instances`, one instantiation per line:
//! `SHUFFLE(int4)`, `COLLECTIVE(half, sub_group_reduce_add)`, `FP64(SHUFFLE(double))` (only
//! where the compiler defines `cl_khr_fp64`). A file is compiled whole per platform and SIMD
//! width; an instance the compiler rejects is found by compiling parts (see `compile`).

/// What every file starts with (extensions, `FP64(...)`, `SG` = the required subgroup size).
pub const COMMON: &str = include_str!("../conformance/common.cl");

/// (file name, text), embedded so the suite runs from any directory.
pub const FILES: [(&str, &str); 5] = [
    ("shuffle.cl", include_str!("../conformance/shuffle.cl")),
    (
        "collective.cl",
        include_str!("../conformance/collective.cl"),
    ),
    (
        "block_buffer.cl",
        include_str!("../conformance/block_buffer.cl"),
    ),
    (
        "block_image.cl",
        include_str!("../conformance/block_image.cl"),
    ),
    ("queries.cl", include_str!("../conformance/queries.cl")),
];

const MARKER: &str = "// @instances";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    pub file: &'static str,
    /// The line as written.
    pub line: String,
    /// The macro: `SHUFFLE`, `COLLECTIVE`, ...
    pub kind: String,
    pub params: Vec<String>,
    /// Wrapped in `FP64(...)`.
    pub fp64: bool,
}

impl Instance {
    /// The kernel the macro defines: the macro's name in lower case, then its parameters,
    /// joined by `_` (the corpus's macros follow this rule).
    pub fn kernel(&self) -> String {
        let mut s = self.kind.to_ascii_lowercase();
        for p in &self.params {
            s.push('_');
            s.push_str(p);
        }
        s
    }
}

/// A corpus file: the prelude and its instances.
#[derive(Debug, Clone)]
pub struct File {
    pub name: &'static str,
    pub prelude: String,
    pub instances: Vec<Instance>,
}

impl File {
    /// The source holding the prelude and these instances only.
    pub fn source(&self, instances: &[&Instance]) -> String {
        let mut s = String::from(COMMON);
        s.push_str(&self.prelude);
        s.push_str(MARKER);
        s.push('\n');
        for i in instances {
            s.push_str(&i.line);
            s.push('\n');
        }
        s
    }
}

fn parse_call(s: &str) -> Option<(String, Vec<String>)> {
    let open = s.find('(')?;
    let inner = s.strip_suffix(')')?.get(open + 1..)?;
    let name = s[..open].trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
    {
        return None;
    }
    let params = inner
        .split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    Some((name.to_string(), params))
}

pub fn parse(name: &'static str, text: &str) -> Result<File, String> {
    let (prelude, rest) = text
        .split_once(MARKER)
        .ok_or_else(|| format!("{name}: no `{MARKER}` line"))?;
    let mut instances = Vec::new();
    for (n, raw) in rest.lines().enumerate().skip(1) {
        let line = raw.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let bad = || format!("{name}: instance line {}: `{line}`", n);
        let (mut kind, mut params) = parse_call(line).ok_or_else(bad)?;
        let fp64 = kind == "FP64";
        if fp64 {
            let inner = line["FP64(".len()..line.len() - 1].trim();
            (kind, params) = parse_call(inner).ok_or_else(bad)?;
        }
        instances.push(Instance {
            file: name,
            line: line.to_string(),
            kind,
            params,
            fp64,
        });
    }
    Ok(File {
        name,
        prelude: prelude.to_string(),
        instances,
    })
}

pub fn files() -> Result<Vec<File>, String> {
    FILES.iter().map(|(n, t)| parse(n, t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_parses_and_kernel_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for f in files().unwrap() {
            assert!(!f.instances.is_empty(), "{}", f.name);
            for i in &f.instances {
                assert!(names.insert(i.kernel()), "duplicate {}", i.kernel());
            }
        }
    }

    #[test]
    fn instance_lines_name_their_kernel() {
        let f = parse(
            "x.cl",
            "#define A\n// @instances\nFP64(SHUFFLE(double))\nQUERIES()\n",
        )
        .unwrap();
        assert_eq!(f.instances[0].kernel(), "shuffle_double");
        assert!(f.instances[0].fp64);
        assert_eq!(f.instances[1].kernel(), "queries");
        assert!(parse("x.cl", "// @instances\nshuffle(int)\n").is_err());
    }
}
