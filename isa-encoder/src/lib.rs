//! The EU instruction set of Gen9, Gen11, Gen12LP and Xe-HPG: an instruction model, native and
//! compacted binary codecs per platform, and an IGA-syntax assembler/disassembler.

/// Compaction: 64-bit compacted forms <-> 128-bit native forms, bit to bit, per platform tables.
pub mod compact;
/// Send-message descriptors: what a send's SFID/descriptor/extended descriptor mean, and builders.
pub mod sendmsg;
