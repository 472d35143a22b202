//! What the sanitizer tests share: the findings a run logged, and iga64's listing of a kernel
//! of an ocloc binary (the oracle a finding's offset is checked against).

// Each test binary uses its own part of this module.
#![allow(dead_code)]

use std::path::Path;

use platform::Platform;
use serde_json::Value;

/// The JSON findings logged to `log` (none when the file is absent).
pub fn findings(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// iga64's listing (offset, text) of kernel `name` of the ocloc binary `bin`.
pub fn listing(
    ocloc: &Path,
    iga: &Path,
    bin: &[u8],
    name: &str,
    p: Platform,
) -> Vec<(u32, String)> {
    let heaps = oracles::ocloc::kernel_heaps(ocloc, bin).unwrap();
    let heap = heaps.iter().find(|h| h.name == name).expect(name);
    oracles::iga64::listing(iga, p, &heap.bytes).unwrap()
}

/// The offsets of the instructions of `listing` whose text satisfies `is`.
pub fn offsets(listing: &[(u32, String)], is: impl Fn(&str) -> bool) -> Vec<u32> {
    listing
        .iter()
        .filter(|(_, t)| is(t))
        .map(|(o, _)| *o)
        .collect()
}
