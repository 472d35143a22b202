//! How STATE_BASE_ADDRESS updates the base-address state: each Modify Enable says whether its
//! fields take the packet's values; with the enable clear they keep what the previous
//! STATE_BASE_ADDRESS set (the PRM's "enable changing the base address and memory object
//! control state", and the buffer-size enables). Every field name is genxml's.

use std::sync::OnceLock;

use super::state::StateBaseAddress;
use crate::codec::{begin_unpack, Packet};
use crate::error::Error;
use crate::layout::{read_bits, write_bits, Loc};
use platform::Platform;

/// Each Modify Enable and the fields it updates. The bindless sizes have no enable of their own:
/// they change with their base (NEO and IGT program them together).
pub const SBA_MODIFY_ENABLES: &[(&str, &[&str])] = &[
    (
        "General State Base Address Modify Enable",
        &["General State Base Address", "General State MOCS"],
    ),
    (
        "Surface State Base Address Modify Enable",
        &["Surface State Base Address", "Surface State MOCS"],
    ),
    (
        "Dynamic State Base Address Modify Enable",
        &["Dynamic State Base Address", "Dynamic State MOCS"],
    ),
    (
        "Indirect Object Base Address Modify Enable",
        &["Indirect Object Base Address", "Indirect Object MOCS"],
    ),
    (
        "Instruction Base Address Modify Enable",
        &["Instruction Base Address", "Instruction MOCS"],
    ),
    (
        "General State Buffer Size Modify Enable",
        &["General State Buffer Size"],
    ),
    (
        "Dynamic State Buffer Size Modify Enable",
        &["Dynamic State Buffer Size"],
    ),
    (
        "Indirect Object Buffer Size Modify Enable",
        &["Indirect Object Buffer Size"],
    ),
    (
        "Instruction Buffer size Modify Enable",
        &["Instruction Buffer Size"],
    ),
    (
        "Bindless Surface State Base Address Modify Enable",
        &[
            "Bindless Surface State Base Address",
            "Bindless Surface State MOCS",
            "Bindless Surface State Size",
        ],
    ),
    (
        "Bindless Sampler State Base Address Modify Enable",
        &[
            "Bindless Sampler State Base Address",
            "Bindless Sampler State MOCS",
            "Bindless Sampler State Buffer Size",
        ],
    ),
];

/// Fields no Modify Enable governs: every STATE_BASE_ADDRESS writes them.
pub const SBA_ALWAYS_WRITTEN: &[&str] = &["Stateless Data Port Access MOCS", "L1 Cache Control"];

/// Longest STATE_BASE_ADDRESS on any generation, in dwords.
const MAX_DWORDS: usize = 32;

impl StateBaseAddress {
    /// The base-address state after this packet executes on top of `prev` on `p`: every group
    /// whose Modify Enable is clear here keeps `prev`'s values, enable included (so a base set
    /// once stays set); groups with the enable set, and the always-written fields, take this
    /// packet's values.
    pub fn applied_over(&self, p: Platform, prev: &StateBaseAddress) -> Result<Self, Error> {
        let (mut old, mut new) = ([0u32; MAX_DWORDS], [0u32; MAX_DWORDS]);
        prev.pack(p, &mut old)?;
        let len = self.pack(p, &mut new)?;
        let l = Self::LAYOUT;
        let loc = |name: &str| l.field(name).and_then(|f| f.loc(p));
        for (enable, fields) in SBA_MODIFY_ENABLES {
            let Some(e) = loc(enable) else { continue };
            if read_bits(&new, e) != 0 {
                continue;
            }
            for at in std::iter::once(enable)
                .chain(fields.iter())
                .filter_map(|n| loc(n))
            {
                write_bits(&mut new, at, read_bits(&old, at));
            }
        }
        Self::unpack(p, &new[..len])
    }

    /// [`StateBaseAddress::applied_over`] on the packets' dwords: `new`, a whole packet of `p`
    /// (refused as [`Packet::unpack`] refuses it), executed on top of the state `prev` holds (a
    /// packet of `p` as this returned it; `None`: nothing set yet), as the dwords of the state
    /// it leaves. Every field reads back as `applied_over` gives it; bits of no field are
    /// `new`'s. For a command streamer that applies one per batch: `new` is unpacked once to
    /// be checked, nothing is packed, and the fields' places are looked up once per platform.
    pub fn apply_dwords(p: Platform, new: &[u32], prev: Option<&[u32]>) -> Result<Vec<u32>, Error> {
        Self::unpack(p, new)?;
        let body = begin_unpack(Self::LAYOUT, p, new)?;
        let mut out = body.to_vec();
        let Some(prev) = prev else {
            return Ok(out);
        };
        let prev = begin_unpack(Self::LAYOUT, p, prev)?;
        for (enable, fields) in modify_groups(p) {
            if read_bits(body, *enable) != 0 {
                continue;
            }
            for &at in std::iter::once(enable).chain(fields) {
                write_bits(&mut out, at, read_bits(prev, at));
            }
        }
        Ok(out)
    }
}

/// A modify-enable bit's place and the places of the fields it guards.
type ModifyGroup = (Loc, Vec<Loc>);

/// [`SBA_MODIFY_ENABLES`] on `p`: each enable's place and its fields' places (those `p` has).
fn modify_groups(p: Platform) -> &'static [ModifyGroup] {
    static GROUPS: OnceLock<Vec<Vec<ModifyGroup>>> = OnceLock::new();
    let all = GROUPS.get_or_init(|| {
        Platform::ALL
            .iter()
            .map(|&p| {
                let l = StateBaseAddress::LAYOUT;
                let loc = |name: &str| l.field(name).and_then(|f| f.loc(p));
                SBA_MODIFY_ENABLES
                    .iter()
                    .filter_map(|(enable, fields)| {
                        Some((loc(enable)?, fields.iter().filter_map(|n| loc(n)).collect()))
                    })
                    .collect()
            })
            .collect()
    });
    let i = Platform::ALL.iter().position(|&q| q == p).unwrap_or(0);
    all.get(i).map_or(&[], Vec::as_slice)
}
