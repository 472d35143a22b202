//! Source lines of a kernel: the table a driver reads from a `-g` binary's debug info (this
//! crate only looks lines up), so findings name the line of the faulty access.

use std::sync::Arc;

/// A kernel's line table: from each row's byte offset of the kernel binary up to the next
/// row's, the instructions belong to that row's line (none where the line is 0: DWARF's "no
/// source line", also the end of a sequence).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceLines {
    files: Vec<Arc<str>>,
    /// (offset, index in `files`, line), by offset; rows at one offset keep their order.
    rows: Vec<(u32, u32, u32)>,
}

impl SourceLines {
    /// A table of `rows` (offset, index in `files`, line) in any order.
    pub fn new(files: Vec<String>, rows: impl IntoIterator<Item = (u32, u32, u32)>) -> Self {
        let mut rows: Vec<(u32, u32, u32)> = rows.into_iter().collect();
        // Stable: of rows at one offset the last one is the instruction's (as DWARF's).
        rows.sort_by_key(|r| r.0);
        SourceLines {
            files: files.into_iter().map(Into::into).collect(),
            rows,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The file and line of the instruction at byte `offset` of the kernel binary.
    pub fn at(&self, offset: u32) -> Option<(Arc<str>, u32)> {
        let i = self
            .rows
            .partition_point(|r| r.0 <= offset)
            .checked_sub(1)?;
        let (_, file, line) = self.rows[i];
        let file = self.files.get(usize::try_from(file).ok()?)?;
        (line != 0).then(|| (file.clone(), line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_takes_the_last_row_at_or_before_it() {
        // The shape of ocloc's `-g` tables: rows out of line order, a row repeated at one
        // offset, an end-of-sequence row (line 0) past the last instruction.
        let t = SourceLines::new(
            vec!["k.cl".into(), "h.h".into()],
            [
                (0x38, 0, 8),
                (0, 0, 7),
                (0x20, 0, 8),
                (0x30, 0, 10),
                (0x68, 0, 9),
            ]
            .into_iter()
            .chain([(0x68, 1, 3), (0x128, 0, 0)]),
        );
        let at = |o| t.at(o).map(|(f, l)| (f.to_string(), l));
        assert_eq!(at(0), Some(("k.cl".into(), 7)));
        assert_eq!(at(0x1f), Some(("k.cl".into(), 7)));
        assert_eq!(at(0x30), Some(("k.cl".into(), 10)));
        assert_eq!(at(0x40), Some(("k.cl".into(), 8)));
        // The later of two rows at one offset.
        assert_eq!(at(0x70), Some(("h.h".into(), 3)));
        // Past the end, and a table with no rows: no line.
        assert_eq!(at(0x128), None);
        assert_eq!(SourceLines::default().at(0), None);
        // A row naming no file: no line.
        assert_eq!(SourceLines::new(vec![], [(0, 5, 1)]).at(4), None);
    }
}
