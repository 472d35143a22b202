//! Naming the command at a header dword, and the registry of every packet this crate defines.

use crate::codec::{announced_len, Packet};
use crate::error::{Error, IdentifyError};
use crate::layout::Layout;
use crate::packets::*;
use platform::Platform;

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

/// Names the command whose header is `dw[0]` and checks that its announced length fits in `dw`.
pub fn identify(p: Platform, dw: &[u32]) -> Result<Identified, IdentifyError> {
    let header = *dw.first().ok_or(IdentifyError::Empty)?;
    let packet = PacketId::commands(p)
        .find(|id| {
            let (mask, value) = id.layout().header_match(p);
            header & mask == value
        })
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
