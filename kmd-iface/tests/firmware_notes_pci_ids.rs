//! The PCI-id table in `firmware-notes/platforms.md` (section "PCI device ids") and
//! `kmd_iface::pci::PCI_IDS` must list exactly the same (platform, codename, device id) rows, so
//! the notes a person reads on real hardware never drift from the table the driver uses.
//!
//! Table format the notes keep: a header row naming the columns `platform` (our canonical short
//! name), `codename` and `PCI device ids` (comma-separated, each written `0xABCD`); other columns
//! are ignored.

use std::collections::BTreeSet;

use kmd_iface::pci::PCI_IDS;
use platform::Platform;

const NOTES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../firmware-notes/platforms.md"
);
const SECTION: &str = "## PCI device ids";

/// One (platform, codename, device id) row, ordered for readable set differences.
type Row = (Platform, String, u16);

/// Parses the "PCI device ids" section of the notes. Errors name the 1-based line.
fn parse_notes(text: &str) -> Result<BTreeSet<Row>, String> {
    let mut lines = text.lines().enumerate();
    lines
        .by_ref()
        .find(|(_, l)| l.trim() == SECTION)
        .ok_or_else(|| format!("no line `{SECTION}` in the notes"))?;

    let mut columns: Option<(usize, usize, usize)> = None;
    let mut rows = BTreeSet::new();
    let mut seen_ids = BTreeSet::new();
    for (i, line) in lines {
        let line_no = i + 1;
        let line = line.trim();
        if line.starts_with("## ") {
            break;
        }
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let Some((plat_col, code_col, ids_col)) = columns else {
            columns = Some(header_columns(&cells).map_err(|e| format!("line {line_no}: {e}"))?);
            continue;
        };
        if cells
            .iter()
            .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':')))
        {
            continue; // the |---|---| separator
        }
        let cell = |col: usize| {
            cells
                .get(col)
                .copied()
                .ok_or_else(|| format!("line {line_no}: row has no column {}", col + 1))
        };
        let platform =
            parse_platform(cell(plat_col)?).map_err(|e| format!("line {line_no}: {e}"))?;
        let codename = cell(code_col)?;
        if codename.is_empty() {
            return Err(format!("line {line_no}: empty codename"));
        }
        for id_text in cell(ids_col)?.split(',') {
            let id = parse_id(id_text.trim()).map_err(|e| format!("line {line_no}: {e}"))?;
            if !seen_ids.insert(id) {
                return Err(format!("line {line_no}: id {id:#06X} listed twice"));
            }
            rows.insert((platform, codename.to_string(), id));
        }
    }
    if columns.is_none() {
        return Err(format!("no table under `{SECTION}`"));
    }
    Ok(rows)
}

fn header_columns(cells: &[&str]) -> Result<(usize, usize, usize), String> {
    let find = |name: &str| {
        cells
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("table header has no `{name}` column: {cells:?}"))
    };
    Ok((
        find("platform")?,
        find("codename")?,
        find("PCI device ids")?,
    ))
}

/// Only the canonical short name is accepted, so the notes read the same everywhere.
fn parse_platform(text: &str) -> Result<Platform, String> {
    let p: Platform = text.parse().map_err(|e| format!("{e}"))?;
    if p.name() != text {
        return Err(format!("write platform `{text}` as `{}`", p.name()));
    }
    Ok(p)
}

/// Exactly `0x` and four upper-case hex digits.
fn parse_id(text: &str) -> Result<u16, String> {
    let digits = text
        .strip_prefix("0x")
        .filter(|d| d.len() == 4 && d.chars().all(|c| matches!(c, '0'..='9' | 'A'..='F')))
        .ok_or_else(|| format!("`{text}` is not written 0xABCD"))?;
    u16::from_str_radix(digits, 16).map_err(|e| format!("`{text}`: {e}"))
}

fn describe(rows: &BTreeSet<Row>) -> String {
    rows.iter()
        .map(|(p, c, id)| format!("  {p} {c} {id:#06X}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn notes_list_exactly_the_pci_ids_of_kmd_iface() {
    let text = std::fs::read_to_string(NOTES)
        .unwrap_or_else(|e| panic!("cannot read the firmware notes at {NOTES}: {e}"));
    let notes = parse_notes(&text).unwrap_or_else(|e| panic!("{NOTES}: {e}"));
    let code: BTreeSet<Row> = PCI_IDS
        .iter()
        .map(|p| (p.platform, p.codename.to_string(), p.device_id))
        .collect();
    assert_eq!(code.len(), PCI_IDS.len(), "PCI_IDS has duplicate rows");

    let missing: BTreeSet<Row> = code.difference(&notes).cloned().collect();
    let extra: BTreeSet<Row> = notes.difference(&code).cloned().collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "firmware-notes/platforms.md and kmd_iface::pci::PCI_IDS differ.\n\
         In PCI_IDS but not in the notes (platform codename id):\n{}\n\
         In the notes but not in PCI_IDS:\n{}",
        describe(&missing),
        describe(&extra)
    );
    for p in Platform::ALL {
        assert!(
            notes.iter().any(|(q, _, _)| *q == p),
            "the notes list no PCI id for {p}"
        );
    }
}

// The checks above are only as good as the parser: these show it rejects what it must.

const HEADER: &str =
    "## PCI device ids\n\n| platform | codename | x | PCI device ids |\n|---|---|---|---|\n";

#[test]
fn parser_reads_rows_and_stops_at_the_next_section() {
    let text = format!(
        "# t\n{HEADER}| skl | SKL | m | 0x1906, 0x1913 |\n| dg2 | ATS-M75 | m | 0x56C1 |\n\n## Next\n| tgllp | TGL | m | 0x9A49 |\n"
    );
    let rows = parse_notes(&text).unwrap();
    let expect: BTreeSet<Row> = [
        (Platform::Skl, "SKL".to_string(), 0x1906),
        (Platform::Skl, "SKL".to_string(), 0x1913),
        (Platform::Dg2, "ATS-M75".to_string(), 0x56C1),
    ]
    .into_iter()
    .collect();
    assert_eq!(rows, expect);
}

#[test]
fn parser_rejects_malformed_tables() {
    let bad = [
        ("no section", "| skl | SKL | m | 0x1906 |\n".to_string()),
        ("no table", "## PCI device ids\n\ntext only\n".to_string()),
        (
            "lower-case hex",
            format!("{HEADER}| skl | SKL | m | 0x190e |\n"),
        ),
        ("short id", format!("{HEADER}| skl | SKL | m | 0x190 |\n")),
        ("no 0x", format!("{HEADER}| skl | SKL | m | 1906 |\n")),
        (
            "alias platform",
            format!("{HEADER}| gen9 | SKL | m | 0x1906 |\n"),
        ),
        (
            "unknown platform",
            format!("{HEADER}| bdw | BDW | m | 0x1606 |\n"),
        ),
        (
            "duplicate id",
            format!("{HEADER}| skl | SKL | m | 0x1906, 0x1906 |\n"),
        ),
        ("missing column", format!("{HEADER}| skl | SKL |\n")),
        (
            "header lacks ids column",
            "## PCI device ids\n| platform | codename |\n|---|---|\n".to_string(),
        ),
    ];
    for (what, text) in bad {
        assert!(parse_notes(&text).is_err(), "{what} was accepted");
    }
}
