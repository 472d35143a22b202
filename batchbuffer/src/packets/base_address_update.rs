//! How STATE_BASE_ADDRESS updates the base-address state: each Modify Enable says whether its
//! fields take the packet's values; with the enable clear they keep what the previous
//! STATE_BASE_ADDRESS set (the PRM's "enable changing the base address and memory object
//! control state", and the buffer-size enables). Every field name is genxml's.

use super::state::StateBaseAddress;
use crate::codec::Packet;
use crate::error::Error;
use crate::layout::{read_bits, write_bits};
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
}
