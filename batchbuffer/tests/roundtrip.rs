//! pack -> unpack round trips for every packet on every generation it exists on.

use crate::common;

use batchbuffer::layout::read_bits;
use batchbuffer::{Kind, Loc, PacketId};
use platform::Platform;
use proptest::prelude::*;

fn check_one(id: PacketId, p: Platform, raw: &[u32]) -> Result<(), TestCaseError> {
    let l = id.layout();
    let mut canon = [0u32; 64];
    common::canonicalize(l, p, raw, &mut canon);
    let mut packed = [0u32; 64];
    let n = id
        .repack(p, &canon, &mut packed)
        .map_err(|e| TestCaseError::fail(format!("{} on {p}: {e}", id.name())))?;
    // Every field reads back the value it was packed from.
    for (name, kind, loc) in common::flat_fields(l, p, 0) {
        if matches!(kind, Kind::Length(_)) {
            continue;
        }
        let words = if kind == Kind::Dwords {
            loc.width() / 32
        } else {
            1
        };
        for i in 0..words as u16 {
            let at = if kind == Kind::Dwords {
                Loc::new(loc.dw + i, 0, 31)
            } else {
                loc
            };
            prop_assert_eq!(
                read_bits(&packed[..n], at),
                read_bits(&canon[..l.len_on(p).unwrap()], at),
                "{} on {}: field {}",
                id.name(),
                p,
                name
            );
        }
    }
    // And packing is a fixed point: unpack(pack(x)) packs to the same dwords.
    let mut again = [0u32; 64];
    let m = id.repack(p, &packed[..n], &mut again).unwrap();
    prop_assert_eq!(&again[..m], &packed[..n]);
    Ok(())
}

proptest! {
    #[test]
    fn every_packet_round_trips(raw in proptest::collection::vec(any::<u32>(), 64)) {
        for &id in PacketId::ALL {
            for p in Platform::ALL {
                if id.exists_on(p) {
                    check_one(id, p, &raw)?;
                }
            }
        }
    }
}

#[test]
fn every_packet_exists_somewhere_and_has_fields() {
    for &id in PacketId::ALL {
        assert!(
            Platform::ALL.iter().any(|&p| id.exists_on(p)),
            "{}",
            id.name()
        );
        assert!(!id.layout().fields.is_empty(), "{}", id.name());
    }
}
