//! Must-show 2 (robustness half): random bytes never make a parser panic, and claimed counts far
//! beyond the blob are refused without allocating for them.

use kmd_iface::hwconfig::parse_hwconfig;
use kmd_iface::i915::query::{
    parse_engine_info, parse_guc_submission_version, parse_memory_regions, parse_topology,
};
use kmd_iface::xe::query::*;
use kmd_iface::Error;
use proptest::prelude::*;

fn run_all(bytes: &[u8]) {
    let _ = parse_engine_info(bytes);
    let _ = parse_memory_regions(bytes);
    let _ = parse_topology(bytes);
    let _ = parse_engines(bytes);
    let _ = parse_mem_regions(bytes);
    let _ = parse_config(bytes);
    let _ = parse_gt_list(bytes);
    let _ = parse_gt_topology(bytes);
    let _ = parse_engine_cycles(bytes);
    let _ = parse_hwconfig(bytes);
    let _ = parse_uc_fw_version(bytes);
    let _ = parse_guc_submission_version(bytes);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_give_values_or_errors(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        run_all(&bytes);
    }

    /// Plausible headers (small counts) with random bodies reach deeper than pure noise.
    #[test]
    fn small_counts_with_random_bodies(count in 0u32..8, body in proptest::collection::vec(any::<u8>(), 0..1024)) {
        let mut bytes = count.to_ne_bytes().to_vec();
        bytes.extend_from_slice(&body);
        run_all(&bytes);
    }
}

#[test]
fn huge_counts_are_errors_naming_the_offset() {
    let mut bytes = u32::MAX.to_ne_bytes().to_vec();
    bytes.extend_from_slice(&[0; 12]);
    match parse_engine_info(&bytes) {
        Err(Error::Malformed { what, offset, .. }) => {
            assert_eq!((what, offset), ("i915 engine info", 16))
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        parse_config(&bytes),
        Err(Error::Malformed { offset: 8, .. })
    ));
    let hw = [7u32.to_ne_bytes(), u32::MAX.to_ne_bytes()].concat();
    assert!(matches!(
        parse_hwconfig(&hw),
        Err(Error::Malformed { offset: 8, .. })
    ));
}

#[test]
fn empty_blobs_are_errors_except_for_record_lists() {
    assert!(parse_engine_info(&[]).is_err());
    assert!(parse_topology(&[]).is_err());
    assert!(parse_engine_cycles(&[]).is_err());
    assert_eq!(parse_gt_topology(&[]).unwrap(), vec![]);
    assert_eq!(parse_hwconfig(&[]).unwrap(), vec![]);
}
