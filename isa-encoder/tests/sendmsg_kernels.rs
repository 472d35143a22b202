//! Every send in real ocloc-compiled kernels: describe() must print what `iga64 -d` prints.

use crate::sendmsg_support;

use oracles::ocloc::{compile, kernel_heaps, Format};
use oracles::{require, Oracle};
use platform::Platform;

/// Kernels exercising the messages the subgroup built-ins, images, atomics, barriers and SLM
/// lower to.
const SOURCE: &str = include_str!("sendmsg_kernels.cl");

#[test]
fn describe_matches_iga64_on_compiled_kernels() {
    let ocloc = require!(Oracle::Ocloc);
    let iga = require!(Oracle::Iga64);
    let mut bad = Vec::new();
    for p in Platform::ALL {
        let bin = compile(&ocloc, p, SOURCE, "-cl-std=CL2.0", Format::PatchTokens)
            .unwrap_or_else(|e| panic!("ocloc {p}: {e}"));
        let mut compared = 0;
        for heap in kernel_heaps(&ocloc, &bin).unwrap() {
            let listing = oracles::iga64::disasm(&iga, p, &heap.bytes, &[]).unwrap();
            let (b, n) = sendmsg_support::compare_listing(p, &listing);
            bad.extend(b);
            compared += n;
        }
        assert!(compared >= 20, "{p}: only {compared} sends compared");
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
