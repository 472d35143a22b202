//! Which engine class executes which command: the command streamer refuses a command its
//! engine does not run.

use batchbuffer::PacketId;
use platform::Platform;

use crate::device_info::EngineClass;

/// Whether an engine of `class` on `p` executes `packet`. MI commands run everywhere except
/// MI_FLUSH_DW, which genxml gives to the blitter (and, from Xe-HPG on, the compute engine);
/// blitter commands run only on the copy engine, and pipeline state and walkers only on the
/// render and compute engines.
pub(crate) fn engine_runs(p: Platform, class: EngineClass, packet: PacketId) -> bool {
    let blitter = matches!(
        packet,
        PacketId::XyBlockCopyBlt
            | PacketId::XyFastColorBlt
            | PacketId::XySrcCopyBlt
            | PacketId::XyColorBlt
            | PacketId::XyFastCopyBlt
    );
    let mi = packet.name().starts_with("MI_");
    match (class, packet) {
        (EngineClass::Copy, _) => mi || blitter,
        (EngineClass::Compute, PacketId::MiFlushDw) => p >= Platform::Dg2,
        (_, PacketId::MiFlushDw) => false,
        _ => !blitter,
    }
}
