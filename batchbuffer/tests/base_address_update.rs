//! STATE_BASE_ADDRESS's Modify Enables: a field group whose enable is clear keeps the previous
//! packet's values; the table covers every field of the packet on every generation.

use batchbuffer::*;
use platform::Platform;

#[test]
fn table_covers_every_field_once() {
    let l = StateBaseAddress::LAYOUT;
    for p in Platform::ALL {
        let mut seen: Vec<&str> = SBA_ALWAYS_WRITTEN.to_vec();
        for (enable, fields) in SBA_MODIFY_ENABLES {
            seen.push(enable);
            seen.extend(fields.iter());
        }
        for name in &seen {
            assert!(
                l.field(name).is_some(),
                "{name} is not a STATE_BASE_ADDRESS field"
            );
            assert_eq!(
                seen.iter().filter(|n| *n == name).count(),
                1,
                "{name} twice"
            );
        }
        for f in l.fields {
            let header = matches!(f.kind, Kind::Const(_) | Kind::Length(_));
            if f.loc(p).is_some() && !header {
                assert!(seen.contains(&f.name), "{} on {p}: in no group", f.name);
            }
        }
    }
}

fn all_set() -> StateBaseAddress {
    StateBaseAddress {
        general_state_base_address_modify_enable: true,
        general_state_base_address: 0x1_0000,
        general_state_mocs: 2,
        surface_state_base_address_modify_enable: true,
        surface_state_base_address: 0x2_0000,
        dynamic_state_base_address_modify_enable: true,
        dynamic_state_base_address: 0x3_0000,
        indirect_object_base_address_modify_enable: true,
        indirect_object_base_address: 0x4_0000,
        instruction_base_address_modify_enable: true,
        instruction_base_address: 0x5_0000,
        instruction_mocs: 3,
        general_state_buffer_size_modify_enable: true,
        general_state_buffer_size: 0xFFFFF,
        dynamic_state_buffer_size_modify_enable: true,
        dynamic_state_buffer_size: 16,
        indirect_object_buffer_size_modify_enable: true,
        indirect_object_buffer_size: 17,
        instruction_buffer_size_modify_enable: true,
        instruction_buffer_size: 18,
        bindless_surface_state_base_address_modify_enable: true,
        bindless_surface_state_base_address: 0x6_0000,
        bindless_surface_state_size: 5,
        stateless_data_port_access_mocs: 4,
        ..Default::default()
    }
}

#[test]
fn clear_enables_keep_the_previous_values() {
    for p in Platform::ALL {
        let prev = all_set();
        // Only the surface base and the dynamic buffer size change.
        let next = StateBaseAddress {
            surface_state_base_address_modify_enable: true,
            surface_state_base_address: 0x7_0000,
            dynamic_state_buffer_size_modify_enable: true,
            dynamic_state_buffer_size: 99,
            // Ignored: their enable is clear.
            instruction_base_address: 0xdead_0000,
            general_state_mocs: 6,
            ..Default::default()
        };
        let got = next.applied_over(p, &prev).unwrap();
        let want = StateBaseAddress {
            surface_state_base_address: 0x7_0000,
            dynamic_state_buffer_size: 99,
            // Always written, and this packet has 0 there.
            stateless_data_port_access_mocs: 0,
            ..prev
        };
        assert_eq!(got, want, "{p}");
    }
}

#[test]
fn set_enables_overwrite_even_with_zero() {
    let p = Platform::Tgllp;
    let next = StateBaseAddress {
        instruction_base_address_modify_enable: true,
        bindless_surface_state_base_address_modify_enable: true,
        ..Default::default()
    };
    let got = next.applied_over(p, &all_set()).unwrap();
    assert_eq!(got.instruction_base_address, 0);
    assert_eq!(got.instruction_mocs, 0);
    assert_eq!(got.bindless_surface_state_size, 0);
    assert!(got.instruction_base_address_modify_enable);
    assert_eq!(got.general_state_base_address, 0x1_0000);
    // From a reset state (nothing set), a clear enable leaves the field at zero.
    let fresh = all_set()
        .applied_over(p, &StateBaseAddress::default())
        .unwrap();
    assert_eq!(fresh, all_set());
}

/// A packet of `p` with a valid header and length and `words` for the rest.
fn packet_with(p: Platform, words: &[u32]) -> Vec<u32> {
    let mut dw = vec![0u32; 32];
    let n = StateBaseAddress::default().pack(p, &mut dw).unwrap();
    dw.truncate(n);
    for (d, w) in dw.iter_mut().skip(1).zip(words) {
        *d = *w;
    }
    dw
}

proptest::proptest! {
    /// On the dwords, without unpacking: every field as `applied_over` gives it.
    #[test]
    fn applied_on_dwords_reads_back_as_applied_over(
        new in proptest::collection::vec(proptest::num::u32::ANY, 31),
        prev in proptest::collection::vec(proptest::num::u32::ANY, 31),
    ) {
        for p in Platform::ALL {
            let new = packet_with(p, &new);
            // A state recorded before is a packet that unpacks.
            let Ok(prev_state) = StateBaseAddress::unpack(p, &packet_with(p, &prev)) else {
                continue;
            };
            let prev = packet_with(p, &[]);
            let mut prev = prev;
            prev_state.pack(p, &mut prev).unwrap();
            let want = StateBaseAddress::unpack(p, &new)
                .and_then(|n| n.applied_over(p, &prev_state));
            let got = StateBaseAddress::apply_dwords(p, &new, Some(&prev))
                .and_then(|d| StateBaseAddress::unpack(p, &d));
            proptest::prop_assert_eq!(got, want);
            let first = StateBaseAddress::apply_dwords(p, &new, None);
            let want = StateBaseAddress::unpack(p, &new).map(|_| new.clone());
            proptest::prop_assert_eq!(first, want);
        }
    }
}

#[test]
fn applied_on_dwords_checks_the_packets() {
    let p = Platform::Tgllp;
    let good = packet_with(p, &[]);
    let short = &good[..4];
    assert!(StateBaseAddress::apply_dwords(p, short, None).is_err());
    assert!(StateBaseAddress::apply_dwords(p, short, Some(&good)).is_err());
    let mut header = good.clone();
    header[0] ^= 1 << 29;
    assert!(StateBaseAddress::apply_dwords(p, &header, Some(&good)).is_err());
}
