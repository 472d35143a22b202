//! The kernel-scope PROGRAM_SYMBOL_TABLE and PROGRAM_RELOCATION_TABLE tokens: what a kernel's
//! ISA defines for others (functions, global variables) and where its ISA needs another
//! symbol's address. Both are `SPatchFunctionTableInfo` (Token, Size, NumEntries) followed by
//! NumEntries fixed-size entries: vISA's `GenSymEntry` (s_type, s_offset, s_size, s_name) and
//! `GenRelocEntry` (r_type, r_offset, r_symbol), whose name arrays are MAX_SYMBOL_NAME_LENGTH
//! bytes (the length differs between IGC releases, so the entry size is taken from the token's
//! Size and NumEntries rather than assumed).

use super::raw::RawToken;
use super::tokens::{self, ITEM_HEADER_SIZE};
use crate::program::bytes::{c_string, Bytes};
use crate::program::error::{invalid, Result};

/// `GenSymType::S_UNDEF`: an entry naming a symbol the kernel needs but does not define.
const S_UNDEF: u32 = 1;

/// One relocation entry: patch the ISA at `offset` with `symbol`'s address, as `r_type` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelocEntry {
    pub r_type: u32,
    pub offset: u32,
    pub symbol: String,
}

/// The entries of a function-table token: each entry's bytes after its fixed fields (`fixed`
/// u32s), as (fields, name).
fn entries(tok: &RawToken<'_>, fixed: usize) -> Result<Vec<(Vec<u32>, String)>> {
    let count = tok.field(0)? as usize;
    let body = Bytes::new(tok.body, tok.offset + ITEM_HEADER_SIZE);
    let table = body.len().saturating_sub(4);
    if count == 0 {
        return Ok(Vec::new());
    }
    let stride = table / count;
    if stride <= fixed * 4 || stride * count != table {
        return Err(invalid(
            tokens::name(tok.id),
            tok.offset,
            format!("{table} bytes of entries do not divide into NumEntries {count} entries with a name"),
        ));
    }
    let what = || tokens::name(tok.id);
    (0..count)
        .map(|i| {
            let at = 4 + i * stride;
            let fields = (0..fixed)
                .map(|f| body.u32_at(at + 4 * f, &what))
                .collect::<Result<Vec<_>>>()?;
            let name = body.slice(at + 4 * fixed, stride - 4 * fixed, &what)?;
            Ok((fields, c_string(name.data)))
        })
        .collect()
}

/// The names a PROGRAM_SYMBOL_TABLE token defines (entries other than S_UNDEF).
pub fn defined_symbols(tok: &RawToken<'_>) -> Result<Vec<String>> {
    Ok(entries(tok, 3)?
        .into_iter()
        .filter(|(f, _)| f[0] != S_UNDEF)
        .map(|(_, name)| name)
        .collect())
}

/// The entries of a PROGRAM_RELOCATION_TABLE token.
pub fn relocations(tok: &RawToken<'_>) -> Result<Vec<RelocEntry>> {
    Ok(entries(tok, 2)?
        .into_iter()
        .map(|(f, symbol)| RelocEntry {
            r_type: f[0],
            offset: f[1],
            symbol,
        })
        .collect())
}
