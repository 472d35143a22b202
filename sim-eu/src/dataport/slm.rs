//! How the data port turns a shared-local-memory offset into a byte of the group's SLM.
//!
//! IGC gives every `local` pointer it may compare with null (a `local` argument or a
//! kernel-scope `local` array whose address escapes plain loads and stores, e.g. into
//! `vloadn`/`vstoren`) the tag `0x10000000` in its high nibble, so that SLM offset 0 stays
//! distinguishable from the null pointer, and sends the tagged offset to the data port as is
//! (`IGC/Compiler/Optimizer/OpenCLPasses/PrivateMemory/PrivateMemoryToSLM.hpp`,
//! `VALID_LOCAL_HIGH_BITS` and `LOW_BITS_MASK`; used by `LocalBuffers/InlineLocalsResolution.cpp`
//! since IGC's first release). IGC's vector compiler states the same contract
//! (`IGC/VectorCompiler/include/GenX.h`, `SlmNullProtection` and `SlmNullProtectionMask =
//! 0xf0000000`): the hardware never allocates SLM that far, so the tag is not part of the
//! address. A group allocates at most 64 KiB of SLM on every simulated generation (genxml
//! INTERFACE_DESCRIPTOR_DATA, Shared Local Memory Size, largest encoding "64K"). Debian's
//! ocloc (IGC 1.0.12504) sends tagged offsets in HDC byte scattered, untyped and atomic
//! messages to binding-table index 0xFE on Gen9–Gen12LP and in LSC `*.slm` messages on Xe-HPG
//! (`umd/tests/local_memory_sim.rs` checks both). Mesa keeps its tag out of the offset (nir.h,
//! `nir_address_format_62bit_generic`: a shared pointer is a 32-bit offset, the address space
//! in the top bits of the 64-bit value), so only IGC relies on this.
//!
//! The bits below the tag are the address. What the hardware does with an offset past the
//! group's allocation is not specified ("Out-of-bound SLM accesses have undefined behavior",
//! IGC's `documentation/visa/3_execution_model.md`), so the simulator reports such an access as
//! a fault instead of guessing a wrap-around.

use platform::Platform;

/// Low bits of a 32-bit SLM offset that address the SLM, per platform (ordered like
/// [`Platform`]): IGC tags bits 31:28 on Gen9, Gen11, Gen12LP and Xe-HPG alike.
const ADDRESS_BITS: [u32; 4] = [28, 28, 28, 28];

/// The SLM byte offset `offset` (as a message carries it) addresses on `p`.
pub(crate) fn address(p: Platform, offset: u32) -> u32 {
    offset & ((1u32 << ADDRESS_BITS[p as usize]) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn igc_null_tag_is_not_an_address_bit() {
        // The tag IGC ORs into SLM pointers (VALID_LOCAL_HIGH_BITS) plus a byte offset.
        for p in Platform::ALL {
            assert_eq!(address(p, 0x1000_0000 + 0x35), 0x35, "{p}");
            assert_eq!(address(p, 0x0000_ffff), 0xffff, "{p}");
        }
    }
}
