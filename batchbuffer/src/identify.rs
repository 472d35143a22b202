//! Naming the command at a header dword, and the registry of every packet this crate defines.

use crate::codec::{announced_len, Packet};
use crate::error::{Error, IdentifyError};
use crate::layout::Layout;
use crate::packets::*;
use platform::Platform;
use std::sync::OnceLock;

macro_rules! registry {
    ($($id:ident),+ $(,)?) => {
        /// Every packet and memory struct this crate defines.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum PacketId { $(
            #[doc = concat!("[`", stringify!($id), "`]")]
            $id
        ),+ }

        impl PacketId {
            /// All of them, commands first.
            pub const ALL: &'static [PacketId] = &[$(PacketId::$id),+];

            /// The packet's layout.
            pub fn layout(self) -> &'static Layout {
                match self { $(PacketId::$id => <$id as Packet>::LAYOUT),+ }
            }

            /// Unpacks from `dw` and packs the result into `out`: the generic round trip that
            /// tests and tools use without naming the Rust type.
            pub fn repack(self, p: Platform, dw: &[u32], out: &mut [u32]) -> Result<usize, Error> {
                match self { $(PacketId::$id => $id::unpack(p, dw)?.pack(p, out)),+ }
            }
        }
    };
}

registry!(
    MiNoop,
    MiBatchBufferEnd,
    MiBatchBufferStart,
    MiLoadRegisterImm,
    MiLoadRegisterReg,
    MiLoadRegisterMem,
    MiStoreRegisterMem,
    MiStoreDataImm,
    MiSemaphoreWait,
    MiArbCheck,
    MiAtomic,
    MiPredicate,
    MiFlushDw,
    XyFastColorBlt,
    XyBlockCopyBlt,
    XySrcCopyBlt,
    XyColorBlt,
    XyFastCopyBlt,
    PipeControl,
    PipelineSelect,
    StateBaseAddress,
    StateComputeMode,
    BindingTablePoolAlloc,
    StateSip,
    MediaVfeState,
    CfeState,
    MediaCurbeLoad,
    MediaInterfaceDescriptorLoad,
    GpgpuWalker,
    MediaStateFlush,
    ComputeWalker,
    InterfaceDescriptorData,
    ComputeWalkerBody,
    PostsyncData,
    RenderSurfaceState,
    BindingTableState,
    SamplerState,
);

impl PacketId {
    /// genxml's name, e.g. `PIPE_CONTROL`.
    pub fn name(self) -> &'static str {
        self.layout().name
    }

    /// True when the packet exists on `p`.
    pub fn exists_on(self, p: Platform) -> bool {
        self.layout().len_on(p).is_some()
    }

    /// True for commands (as opposed to memory structs).
    pub fn is_command(self) -> bool {
        self.layout().is_command()
    }

    /// Every command defined on `p`.
    pub fn commands(p: Platform) -> impl Iterator<Item = PacketId> {
        Self::ALL
            .iter()
            .copied()
            .filter(move |id| id.is_command() && id.exists_on(p))
    }
}

/// A command recognised at a header: which one, and how many dwords it spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identified {
    /// The command.
    pub packet: PacketId,
    /// Its length in dwords, header included, as the header announces it.
    pub len: usize,
}

/// Every command on `p` with its header's (mask, value), in [`PacketId::ALL`] order: derived
/// from the layouts once per process, as walking every layout's fields for every dword made
/// decoding a long batch of unknown headers slow.
fn header_table(p: Platform) -> &'static [(PacketId, u32, u32)] {
    static TABLE: OnceLock<[Vec<(PacketId, u32, u32)>; 4]> = OnceLock::new();
    let tables = TABLE.get_or_init(|| {
        Platform::ALL.map(|q| {
            PacketId::commands(q)
                .map(|id| {
                    let (mask, value) = id.layout().header_match(q);
                    (id, mask, value)
                })
                .collect()
        })
    });
    // Platform::ALL lists the platforms in the order of their discriminants.
    &tables[p as usize]
}

/// Names the command whose header is `dw[0]` and checks that its announced length fits in `dw`.
pub fn identify(p: Platform, dw: &[u32]) -> Result<Identified, IdentifyError> {
    let header = *dw.first().ok_or(IdentifyError::Empty)?;
    let packet = header_table(p)
        .iter()
        .find(|&&(_, mask, value)| header & mask == value)
        .map(|&(id, _, _)| id)
        .ok_or(IdentifyError::UnknownOpcode {
            header,
            platform: p,
        })?;
    let len =
        announced_len(packet.layout(), p, header).map_err(|_| IdentifyError::UnknownOpcode {
            header,
            platform: p,
        })?;
    if len > dw.len() {
        return Err(IdentifyError::Truncated {
            packet: packet.name(),
            need: len,
            have: dw.len(),
        });
    }
    Ok(Identified { packet, len })
}
