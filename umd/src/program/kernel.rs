//! The typed description of one kernel, the same whichever ocloc format it came from.

/// A place in the cross-thread data: `size` bytes at byte `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot {
    pub offset: u32,
    pub size: u32,
}

/// Which address space a pointer argument points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    Global,
    Constant,
}

/// Image dimensionality (patch tokens' `IMAGE_MEMORY_OBJECT_TYPE`, zeinfo's `image_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageType {
    Buffer,
    Image1D,
    Image1DArray,
    Image2D,
    Image2DArray,
    Image3D,
    Cube,
    CubeArray,
    Image2DDepth,
    Image2DArrayDepth,
    Image2DMsaa,
    Image2DMsaaDepth,
    Image2DArrayMsaa,
    Image2DArrayMsaaDepth,
    Image2DMedia,
    Image2DMediaBlock,
    /// A type neither format's table names.
    Unknown,
}

/// Per-argument values the driver writes into cross-thread data for images and samplers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ArgParam {
    ImageWidth,
    ImageHeight,
    ImageDepth,
    ImageChannelDataType,
    ImageChannelOrder,
    ImageArraySize,
    ImageNumSamples,
    ImageNumMipLevels,
    FlatImageBaseOffset,
    FlatImageWidth,
    FlatImageHeight,
    FlatImagePitch,
    SamplerAddressMode,
    SamplerNormalizedCoords,
    SamplerSnapWa,
}

/// One piece of a by-value argument: `size` bytes from byte `source_offset` of the argument
/// go to cross-thread `offset` (structs may be split).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ValuePiece {
    pub offset: u32,
    pub size: u32,
    pub source_offset: u32,
}

/// What a kernel argument is and where the driver puts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgKind {
    /// A scalar, vector or struct passed by value.
    Value { pieces: Vec<ValuePiece> },
    /// A `global` or `constant` pointer.
    Buffer {
        space: AddressSpace,
        /// Where the 64-bit (or 32-bit) GPU address goes, when the kernel addresses it statelessly.
        stateless: Option<Slot>,
        /// Binding-table index of its surface state, when the kernel accesses it statefully.
        bti: Option<u32>,
        /// Where the buffer's offset from its surface base goes (stateful with offsets).
        buffer_offset: Option<Slot>,
    },
    /// A `local` pointer: the driver allocates SLM and writes the offset into `slm_offset`.
    Local { slm_offset: Slot, alignment: u32 },
    /// An image object.
    Image {
        image_type: ImageType,
        writable: bool,
        bti: Option<u32>,
        params: Vec<(ArgParam, Slot)>,
    },
    /// A sampler: its index in the sampler state table.
    Sampler {
        index: u32,
        params: Vec<(ArgParam, Slot)>,
    },
}

/// One explicit kernel argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelArg {
    pub index: u32,
    pub kind: ArgKind,
}

/// Values the driver supplies that are not kernel arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ImplicitKind {
    GlobalOffset,
    LocalSize,
    GlobalSize,
    NumGroups,
    WorkDim,
    EnqueuedLocalSize,
    /// Base address of the stateless private-memory buffer.
    PrivateBase,
    PrintfBuffer,
    /// Base of the program's constant data (`.data.const`).
    ConstantBase,
    /// Base of the program's global data (`.data.global`).
    GlobalBase,
    SyncBuffer,
    ImplicitArgBuffer,
    MaxWorkGroupSize,
    PreferredWorkGroupMultiple,
    SimdSize,
}

/// One implicit value: element `dim` (0 for scalars) of `kind`, `size` bytes at `offset`.
/// Three-component values are always listed one 4-byte element per dimension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Implicit {
    pub kind: ImplicitKind,
    pub dim: u8,
    pub offset: u32,
    pub size: u32,
}

/// The per-thread part of the payload (what each hardware thread gets besides cross-thread data).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerThreadPayload {
    /// Local IDs are delivered for dimensions `0..local_id_dims`.
    pub local_id_dims: u8,
    /// Local IDs are packed (one 2-byte ID per lane per dimension, no GRF padding).
    pub packed: bool,
    /// Bytes of local IDs per dimension (each dimension padded to whole 32-byte GRFs unless packed).
    pub bytes_per_dim: u32,
    /// Bytes of per-thread data each thread is given.
    pub size: u32,
    /// The payload starts with a 32-byte header GRF.
    pub header: bool,
    /// The hardware generates local IDs (no per-thread data is loaded).
    pub hw_generated_local_ids: bool,
    /// The first GRF of cross-thread data is passed as the walker's inline data (Xe-HPG).
    pub pass_inline_data: bool,
    /// Byte offset into the ISA where execution starts when the per-thread data is already
    /// loaded (the kernel's prologue that loads it is skipped).
    pub offset_to_skip_per_thread_data_load: u32,
    /// Byte offset into the ISA that skips the prologue setting FFID/GP (patch tokens only).
    pub offset_to_skip_set_ffid_gp: u32,
    /// Patch tokens: the thread gets one unused per-thread GRF though it reads no local IDs.
    pub unused_grf: bool,
    /// The order work items are laid over threads and lanes, dimensions fastest first
    /// (zebin `work_group_walk_order_dimensions`; 0, 1, 2 when absent).
    pub walk_order: [u8; 3],
    /// The kernel requires `walk_order` (user attribute `intel_reqd_workgroup_walk_order`).
    pub walk_order_required: bool,
}

impl Default for PerThreadPayload {
    fn default() -> Self {
        PerThreadPayload {
            local_id_dims: 0,
            packed: false,
            bytes_per_dim: 0,
            size: 0,
            header: false,
            hw_generated_local_ids: false,
            pass_inline_data: false,
            offset_to_skip_per_thread_data_load: 0,
            offset_to_skip_set_ffid_gp: 0,
            unused_grf: false,
            walk_order: [0, 1, 2],
            walk_order_required: false,
        }
    }
}

/// One entry of the binding table: BTI `index` points to the surface state at `ssh_offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BindingTableEntry {
    pub index: u32,
    pub ssh_offset: u32,
}

/// Kernel-argument metadata (`-cl-kernel-arg-info` style strings).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ArgInfo {
    pub index: u32,
    pub name: String,
    pub type_name: String,
    pub address_qualifier: String,
    pub access_qualifier: String,
    pub type_qualifiers: String,
}

/// Scratch and private memory a kernel needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemoryNeeds {
    /// Per-thread scratch space of slot 0 (spill/fill and stack), in bytes.
    pub scratch: u32,
    /// Per-thread scratch space of slot 1, in bytes.
    pub scratch_slot1: u32,
    /// Stateless private memory, in bytes.
    pub private: u32,
    /// `private` is per SIMT lane (true) or per hardware thread (false).
    pub private_is_simt: bool,
}

/// How a relocation in a kernel's ISA is to be patched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelocKind {
    /// Full 64-bit address.
    Address64,
    /// Low 32 bits of the address.
    Address32Lo,
    /// High 32 bits of the address.
    Address32Hi,
    /// Offset of the per-thread payload.
    PerThreadPayloadOffset,
    /// A type this parser does not know.
    Other(u32),
}

impl RelocKind {
    /// The kind of relocation type `r_type`, numbered alike in zebin (`R_ZE_*`) and in patch
    /// tokens' relocation tables (vISA's `GenRelocType`).
    pub fn from_type(r_type: u32) -> Self {
        match r_type {
            1 => Self::Address64,
            2 => Self::Address32Lo,
            3 => Self::Address32Hi,
            4 => Self::PerThreadPayloadOffset,
            other => Self::Other(other),
        }
    }
}

/// A place in the ISA that must be patched with a symbol's address: the base of `segment`
/// plus `symbol_offset` plus `addend`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IsaRelocation {
    pub offset: u64,
    pub kind: RelocKind,
    pub symbol: String,
    /// The program data segment the symbol lives in (None: not a data symbol).
    pub segment: Option<crate::program::Segment>,
    /// The symbol's offset in its segment (`st_value`).
    pub symbol_offset: u64,
    pub addend: i64,
    /// The program defines `symbol` (false: an external symbol nothing in the program
    /// defines, which no loader can resolve).
    pub defined: bool,
}

/// Symbols a runtime gives values, not a program: binaries leave them undefined (NEO's linker,
/// `linker.h`, names them). oneDNN's generated (nGEN) kernels carry the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuntimeSymbol {
    /// `__INTEL_PATCH_CROSS_THREAD_OFFSET_OFF_R0`: how far past the indirect data r0 points at
    /// the cross-thread data begins, i.e. the size of the implicit-argument block a runtime
    /// puts first for kernels that need one (stack calls; NEO patches the size then, and leaves
    /// the compiled value otherwise). This driver puts no such block (it refuses kernels that
    /// need the implicit-argument buffer), so the compiled value stays.
    CrossThreadOffsetOffR0,
}

impl RuntimeSymbol {
    pub fn named(symbol: &str) -> Option<Self> {
        match symbol {
            "__INTEL_PATCH_CROSS_THREAD_OFFSET_OFF_R0" => Some(Self::CrossThreadOffsetOffR0),
            _ => None,
        }
    }
}

impl IsaRelocation {
    /// The runtime symbol this relocation is against, if it is one.
    pub fn runtime_symbol(&self) -> Option<RuntimeSymbol> {
        RuntimeSymbol::named(&self.symbol).filter(|_| !self.defined)
    }
}

impl std::fmt::Display for IsaRelocation {
    /// How a loader names an unresolvable relocation (NEO's words, with the offset in hex).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "external symbol `{}` at ISA offset {:#x}",
            self.symbol, self.offset
        )
    }
}

/// One kernel from an ocloc binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel {
    pub name: String,
    /// The kernel heap: ISA as ocloc stores it (with its trailing prefetch padding).
    pub isa: Vec<u8>,
    /// ISA length without the padding.
    pub isa_unpadded_size: u32,
    /// SIMD width the kernel was compiled for (8, 16 or 32): its subgroup size.
    pub simd_size: u32,
    /// `intel_reqd_sub_group_size`, or 0 when the source did not require one.
    pub required_subgroup_size: u32,
    /// `reqd_work_group_size`, when given.
    pub required_work_group_size: Option<[u32; 3]>,
    /// The kernel's attributes as the compiler lists them, space-separated
    /// (`vec_type_hint(uint4) reqd_work_group_size(8,1,1) work_group_size_hint(4,1,1)`);
    /// empty when it has none. What OpenCL's CL_KERNEL_ATTRIBUTES returns.
    pub attributes: String,
    /// GRF registers per thread, when the binary says.
    pub grf_count: Option<u32>,
    /// Number of named barriers the kernel uses (0: none; patch tokens only say 0 or 1).
    pub barrier_count: u32,
    /// Inline SLM (`local` variables declared in the kernel), in bytes.
    pub slm_size: u32,
    pub memory: MemoryNeeds,
    pub args: Vec<KernelArg>,
    /// Implicit values, sorted by (kind, offset).
    pub implicit: Vec<Implicit>,
    /// Bytes of cross-thread data the kernel reads.
    pub cross_thread_size: u32,
    pub per_thread: PerThreadPayload,
    pub binding_table: Vec<BindingTableEntry>,
    /// Initial surface state heap (patch tokens ship one; zebin leaves it to the driver).
    pub surface_state_heap: Vec<u8>,
    /// Initial dynamic state heap (sampler states).
    pub dynamic_state_heap: Vec<u8>,
    /// Where the sampler states are in `dynamic_state_heap` and how many (patch tokens'
    /// SAMPLER_STATE_ARRAY: byte offset, count); None for kernels that do not sample.
    pub sampler_array: Option<(u32, u32)>,
    pub arg_info: Vec<ArgInfo>,
    /// Relocations of the ISA (zebin; empty for patch tokens).
    pub isa_relocations: Vec<IsaRelocation>,
    /// Driver-allocated memory the kernel may reach through a binding-table surface (patch
    /// tokens name the surface-state-heap offsets of the program's constant and global data and
    /// of private memory; zebin kernels address them statelessly, so it is empty there).
    pub driver_surfaces: Vec<DriverSurface>,
    /// printf's format strings and string arguments by index (patch tokens' STRING tokens;
    /// zebin keeps them in the program's string segment, so it is empty there).
    pub printf_strings: Vec<(u32, Vec<u8>)>,
    /// The source line of each ISA byte offset, where the binary has debug info (`-g`
    /// patch-token builds; [`super::debug_lines`]); empty otherwise.
    pub source_lines: super::SourceLines,
}

impl Kernel {
    /// The relocations against symbols nothing in the program defines and no runtime gives:
    /// calls to functions that were declared but never given a body, which the kernel cannot
    /// run without.
    pub fn unresolved(&self) -> impl Iterator<Item = &IsaRelocation> {
        self.isa_relocations
            .iter()
            .filter(|r| !r.defined && r.runtime_symbol().is_none())
    }
}

/// Which driver allocation a [`DriverSurface`] covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DriverSurfaceKind {
    /// The program's `constant` data.
    Constant,
    /// The program's `global` variables.
    Global,
    /// Private memory (all threads' slices).
    Private,
    /// The dispatch's printf buffer.
    Printf,
}

/// A binding-table surface over a driver allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DriverSurface {
    pub kind: DriverSurfaceKind,
    /// Offset of its RENDER_SURFACE_STATE in the surface state heap; the binding-table entry
    /// pointing there is the surface's BTI.
    pub ssh_offset: u32,
}

impl Kernel {
    /// The argument with source index `index`.
    pub fn arg(&self, index: u32) -> Option<&KernelArg> {
        self.args.iter().find(|a| a.index == index)
    }

    /// Offsets of `kind`, one per (dimension, occurrence).
    pub fn implicit_of(&self, kind: ImplicitKind) -> impl Iterator<Item = &Implicit> {
        self.implicit.iter().filter(move |i| i.kind == kind)
    }

    /// True when the kernel uses a work-group barrier.
    pub fn has_barriers(&self) -> bool {
        self.barrier_count > 0
    }
}

/// Sorts by-value pieces and joins neighbours that are contiguous on both sides, so one copy
/// is described one way whichever format split it.
pub(crate) fn normalize_pieces(pieces: &mut Vec<ValuePiece>) {
    pieces.sort();
    let mut out: Vec<ValuePiece> = Vec::with_capacity(pieces.len());
    for p in pieces.drain(..) {
        match out.last_mut() {
            Some(l)
                if l.offset.checked_add(l.size) == Some(p.offset)
                    && l.source_offset.checked_add(l.size) == Some(p.source_offset)
                    && l.size.checked_add(p.size).is_some() =>
            {
                l.size += p.size
            }
            _ => out.push(p),
        }
    }
    *pieces = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_join_only_when_contiguous_on_both_sides() {
        let p = |offset, size, source_offset| ValuePiece {
            offset,
            size,
            source_offset,
        };
        let mut v = vec![p(8, 4, 4), p(0, 4, 0), p(4, 4, 8), p(12, 4, 0)];
        normalize_pieces(&mut v);
        assert_eq!(v, vec![p(0, 4, 0), p(4, 4, 8), p(8, 4, 4), p(12, 4, 0)]);
        let mut v = vec![p(0, 4, 0), p(4, 8, 4), p(12, 4, 12)];
        normalize_pieces(&mut v);
        assert_eq!(v, vec![p(0, 16, 0)]);
        // Sizes that would overflow stay apart instead of wrapping.
        let mut v = vec![
            p(0, u32::MAX - 1, 0),
            p(u32::MAX - 1, 1, u32::MAX - 1),
            p(u32::MAX, 5, u32::MAX),
        ];
        normalize_pieces(&mut v);
        assert_eq!(v.len(), 2);
    }
}
