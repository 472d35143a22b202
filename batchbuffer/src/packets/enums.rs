//! Named values of enum-typed fields (genxml `<value>` lists and top-level enums).

field_enum! {
    /// genxml values of AddressSpaceIndicator.
    AddressSpaceIndicator {
        Ggtt = 0 "GGTT",
        Ppgtt = 1 "PPGTT",
    }
}

field_enum! {
    /// genxml values of SecondLevelBatchBuffer.
    SecondLevelBatchBuffer {
        FirstLevelBatch = 0 "First level batch",
        SecondLevelBatch = 1 "Second level batch",
    }
}

field_enum! {
    /// genxml values of CompareOperation.
    CompareOperation {
        SadGreaterThanSdd = 0 "SAD_GREATER_THAN_SDD",
        SadGreaterThanOrEqualSdd = 1 "SAD_GREATER_THAN_OR_EQUAL_SDD",
        SadLessThanSdd = 2 "SAD_LESS_THAN_SDD",
        SadLessThanOrEqualSdd = 3 "SAD_LESS_THAN_OR_EQUAL_SDD",
        SadEqualSdd = 4 "SAD_EQUAL_SDD",
        SadNotEqualSdd = 5 "SAD_NOT_EQUAL_SDD",
    }
}

field_enum! {
    /// genxml values of WaitMode.
    WaitMode {
        PollingMode = 1 "Polling Mode",
        SignalMode = 0 "Signal Mode",
    }
}

field_enum! {
    /// genxml values of MemoryType.
    MemoryType {
        PerProcessGraphicsAddress = 0 "Per Process Graphics Address",
        GlobalGraphicsAddress = 1 "Global Graphics Address",
    }
}

field_enum! {
    /// genxml values of PostSyncOperation.
    PostSyncOperation {
        NoWrite = 0 "No Write",
        WriteImmediateData = 1 "Write Immediate Data",
        WritePsDepthCount = 2 "Write PS Depth Count",
        WriteTimestamp = 3 "Write Timestamp",
    }
}

field_enum! {
    /// genxml values of LriPostSyncOperation.
    LriPostSyncOperation {
        NoLriOperation = 0 "No LRI Operation",
        MmioWriteImmediateData = 1 "MMIO Write Immediate Data",
    }
}

field_enum! {
    /// genxml values of DestinationAddressType.
    DestinationAddressType {
        Ppgtt = 0 "PPGTT",
        Ggtt = 1 "GGTT",
    }
}

field_enum! {
    /// genxml values of TbimrForceBatchClosure.
    TbimrForceBatchClosure {
        NoBatchClosure = 0 "No Batch Closure",
        CloseBatch = 1 "Close Batch",
    }
}

field_enum! {
    /// genxml values of PipelineSelection.
    PipelineSelection {
        Pipeline3d = 0 "3D",
        Media = 1 "Media",
        Gpgpu = 2 "GPGPU",
    }
}

field_enum! {
    /// genxml values of L1CacheControl.
    L1CacheControl {
        Wbp = 0 "WBP",
        Uc = 1 "UC",
        Wb = 2 "WB",
        Wt = 3 "WT",
        Ws = 4 "WS",
    }
}

field_enum! {
    /// genxml values of ZPassAsyncComputeThreadLimit.
    ZPassAsyncComputeThreadLimit {
        Max60 = 0 "Max 60",
        Max64 = 1 "Max 64",
        Max56 = 2 "Max 56",
        Max48 = 3 "Max 48",
    }
}

field_enum! {
    /// genxml values of ForceNonCoherentDg2.
    ForceNonCoherentDg2 {
        ForceDisabled = 0 "Force Disabled",
        ForceCpuNonCoherent = 1 "Force CPU Non-Coherent",
        ForceGpuNonCoherent = 2 "Force GPU Non-Coherent",
    }
}

field_enum! {
    /// genxml values of PixelAsyncComputeThreadLimit.
    PixelAsyncComputeThreadLimit {
        Disabled = 0 "Disabled",
        Max2 = 1 "Max 2",
        Max8 = 2 "Max 8",
        Max16 = 3 "Max 16",
        Max24 = 4 "Max 24",
        Max32 = 5 "Max 32",
        Max40 = 6 "Max 40",
        Max48 = 7 "Max 48",
    }
}

field_enum! {
    /// genxml values of ResetGatewayTimer.
    ResetGatewayTimer {
        MaintainingTheExistingTimestampState = 0 "Maintaining the existing timestamp state",
        ResettingRelativeTimerAndLatchingTheGlobalTimestamp = 1 "Resetting relative timer and latching the global timestamp",
    }
}

field_enum! {
    /// genxml values of SliceDisable.
    SliceDisable {
        AllSubslicesEnabled = 0 "All Subslices Enabled",
        OnlySlice0Enabled = 1 "Only Slice 0 Enabled",
        OnlySlice0Subslice0Enabled = 3 "Only Slice 0 Subslice 0 Enabled",
    }
}

field_enum! {
    /// genxml values of ScoreboardType.
    ScoreboardType {
        StallingScoreboard = 0 "Stalling Scoreboard",
        NonStallingScoreboard = 1 "Non-Stalling Scoreboard",
    }
}

field_enum! {
    /// genxml values of DispatchLoadBalance.
    DispatchLoadBalance {
        ColorLsb = 1 "Color LSB",
        LeastLoaded = 0 "Least Loaded",
    }
}

field_enum! {
    /// genxml values of OverDispatchControl.
    OverDispatchControl {
        OverDispatchNone = 0 "Over Dispatch None",
        OverDispatchLow = 1 "Over Dispatch Low",
        OverDispatchNormal = 2 "Over Dispatch Normal",
        OverDispatchHigh = 3 "Over Dispatch High",
    }
}

field_enum! {
    /// genxml values of FloatingPointMode.
    FloatingPointMode {
        Ieee754 = 0 "IEEE-754",
        Alternate = 1 "Alternate",
    }
}

field_enum! {
    /// genxml values of ThreadPriority.
    ThreadPriority {
        NormalPriority = 0 "Normal Priority",
        HighPriority = 1 "High Priority",
    }
}

field_enum! {
    /// genxml values of DenormMode.
    DenormMode {
        Ftz = 0 "Ftz",
        Setbykernel = 1 "SetByKernel",
    }
}

field_enum! {
    /// genxml values of SamplerCount.
    SamplerCount {
        NoSamplersUsed = 0 "No samplers used",
        Between1And4SamplersUsed = 1 "Between 1 and 4 samplers used",
        Between5And8SamplersUsed = 2 "Between 5 and 8 samplers used",
        Between9And12SamplersUsed = 3 "Between 9 and 12 samplers used",
        Between13And16SamplersUsed = 4 "Between 13 and 16 samplers used",
    }
}

field_enum! {
    /// genxml values of SharedLocalMemorySize.
    SharedLocalMemorySize {
        Encodes0k = 0 "Encodes 0K",
        Encodes1k = 1 "Encodes 1K",
        Encodes2k = 2 "Encodes 2K",
        Encodes4k = 3 "Encodes 4K",
        Encodes8k = 4 "Encodes 8K",
        Encodes16k = 5 "Encodes 16K",
        Encodes32k = 6 "Encodes 32K",
        Encodes64k = 7 "Encodes 64K",
    }
}

field_enum! {
    /// genxml values of RoundingMode.
    RoundingMode {
        Rtne = 0 "RTNE",
        Ru = 1 "RU",
        Rd = 2 "RD",
        Rtz = 3 "RTZ",
    }
}

field_enum! {
    /// genxml values of ThreadGroupDispatchSize.
    ThreadGroupDispatchSize {
        TgSize8 = 0 "TG size 8",
        TgSize4 = 1 "TG size 4",
        TgSize2 = 2 "TG size 2",
        TgSize1 = 3 "TG size 1",
    }
}

field_enum! {
    /// genxml values of NumberOfBarriers.
    NumberOfBarriers {
        None = 0 "NONE",
        B1 = 1 "B1",
        B2 = 2 "B2",
        B4 = 3 "B4",
        B8 = 4 "B8",
        B16 = 5 "B16",
        B24 = 6 "B24",
        B32 = 7 "B32",
    }
}

field_enum! {
    /// genxml values of SimdSize.
    SimdSize {
        Simd8 = 0 "SIMD8",
        Simd16 = 1 "SIMD16",
        Simd32 = 2 "SIMD32",
    }
}

field_enum! {
    /// genxml values of MessageSimd.
    MessageSimd {
        Simd8 = 0 "SIMD8",
        Simd16 = 1 "SIMD16",
        Simd32 = 2 "SIMD32",
    }
}

field_enum! {
    /// genxml values of TileLayout.
    TileLayout {
        Linear = 0 "Linear",
        Tiley32bpe = 1 "TileY 32bpe",
        Tiley64bpe = 2 "TileY 64bpe",
        Tiley128bpe = 3 "TileY 128bpe",
    }
}

field_enum! {
    /// genxml values of WalkOrder.
    WalkOrder {
        Walk012 = 0 "Walk 012",
        Walk021 = 1 "Walk 021",
        Walk102 = 2 "Walk 102",
        Walk120 = 3 "Walk 120",
        Walk201 = 4 "Walk 201",
        Walk210 = 5 "Walk 210",
    }
}

field_enum! {
    /// genxml values of EmitLocal.
    EmitLocal {
        EmitNone = 0 "Emit None",
        EmitX = 1 "Emit X",
        EmitXy = 3 "Emit XY",
        EmitXyz = 7 "Emit XYZ",
    }
}

field_enum! {
    /// genxml values of Operation.
    Operation {
        NoWrite = 0 "No Write",
        WriteImmediateData = 1 "Write Immediate Data",
        WriteTimestamp = 3 "Write Timestamp",
    }
}

field_enum! {
    /// genxml values of RenderCacheReadWriteMode.
    RenderCacheReadWriteMode {
        WriteOnlyCache = 0 "Write-Only Cache",
        ReadWriteCache = 1 "Read-Write Cache",
    }
}

field_enum! {
    /// genxml values of NumberOfMultisamples.
    NumberOfMultisamples {
        Multisamplecount1 = 0 "MULTISAMPLECOUNT_1",
        Multisamplecount2 = 1 "MULTISAMPLECOUNT_2",
        Multisamplecount4 = 2 "MULTISAMPLECOUNT_4",
        Multisamplecount8 = 3 "MULTISAMPLECOUNT_8",
        Multisamplecount16 = 4 "MULTISAMPLECOUNT_16",
    }
}

field_enum! {
    /// genxml values of CoherencyType.
    CoherencyType {
        GpuCoherent = 0 "GPU coherent",
        IaCoherent = 1 "IA coherent",
    }
}

field_enum! {
    /// genxml values of ShaderChannelSelect.
    ShaderChannelSelect {
        Zero = 0 "ZERO",
        One = 1 "ONE",
        Red = 4 "RED",
        Green = 5 "GREEN",
        Blue = 6 "BLUE",
        Alpha = 7 "ALPHA",
    }
}

field_enum! {
    /// genxml's top-level Atomic_OPCODE (MI_ATOMIC): 4-byte, 8-byte and 16-byte operations.
    AtomicOpcode {
        And = 0x01 "AND",
        Or = 0x02 "OR",
        Xor = 0x03 "XOR",
        Move = 0x04 "MOVE",
        Inc = 0x05 "INC",
        Dec = 0x06 "DEC",
        Add = 0x07 "ADD",
        Sub = 0x08 "SUB",
        Rsub = 0x09 "RSUB",
        Imax = 0x0a "IMAX",
        Imin = 0x0b "IMIN",
        Umax = 0x0c "UMAX",
        Umin = 0x0d "UMIN",
        CmpWr = 0x0e "CMP_WR",
        Predec = 0x0f "PREDEC",
        And8b = 0x21 "AND8B",
        Or8b = 0x22 "OR8B",
        Xor8b = 0x23 "XOR8B",
        Move8b = 0x24 "MOVE8B",
        Inc8b = 0x25 "INC8B",
        Dec8b = 0x26 "DEC8B",
        Add8b = 0x27 "ADD8B",
        Sub8b = 0x28 "SUB8B",
        Rsub8b = 0x29 "RSUB8B",
        Imax8b = 0x2a "IMAX8B",
        Imin8b = 0x2b "IMIN8B",
        Umax8b = 0x2c "UMAX8B",
        Umin8b = 0x2d "UMIN8B",
        CmpWr8b = 0x2e "CMP_WR8B",
        Predec8b = 0x2f "PREDEC8B",
        CmpWr16b = 0x4e "CMP_WR16B",
    }
}

field_enum! {
    /// genxml values of MI_ATOMIC's Data Size.
    AtomicDataSize {
        Dword = 0 "DWORD",
        Qword = 1 "QWORD",
        Octword = 2 "OCTWORD",
        Reserved = 3 "RESERVED",
    }
}

field_enum! {
    /// genxml values of MI_PREDICATE's Compare Operation.
    PredicateCompare {
        True = 0 "TRUE",
        False = 1 "FALSE",
        SrcsEqual = 2 "SRCS_EQUAL",
        DeltasEqual = 3 "DELTAS_EQUAL",
    }
}

field_enum! {
    /// genxml values of MI_PREDICATE's Combine Operation.
    PredicateCombine {
        Set = 0 "SET",
        And = 1 "AND",
        Or = 2 "OR",
        Xor = 3 "XOR",
    }
}

field_enum! {
    /// genxml values of MI_PREDICATE's Load Operation (1 is reserved).
    PredicateLoad {
        Keep = 0 "KEEP",
        Load = 2 "LOAD",
        Loadinv = 3 "LOADINV",
    }
}

field_enum! {
    /// genxml values of SAMPLER_STATE's Min/Mag Mode Filter (prefix MAPFILTER).
    MapFilter {
        Nearest = 0 "NEAREST",
        Linear = 1 "LINEAR",
        Anisotropic = 2 "ANISOTROPIC",
        Mono = 6 "MONO",
    }
}

field_enum! {
    /// genxml's Texture Coordinate Mode (prefix TCM), SAMPLER_STATE's TC\[XYZ\] Address Control
    /// Mode. MIRROR_101 is listed from Gen11 on.
    TextureCoordinateMode {
        Wrap = 0 "WRAP",
        Mirror = 1 "MIRROR",
        Clamp = 2 "CLAMP",
        Cube = 3 "CUBE",
        ClampBorder = 4 "CLAMP_BORDER",
        MirrorOnce = 5 "MIRROR_ONCE",
        HalfBorder = 6 "HALF_BORDER",
        Mirror101 = 7 "MIRROR_101",
    }
}

field_enum! {
    /// genxml values of the blitter's Color Depth (XY_BPP): bits per pixel.
    XyColorDepth {
        Bpp8 = 0 "8_BIT",
        Bpp16 = 1 "16_BIT",
        Bpp32 = 2 "32_BIT",
        Bpp64 = 3 "64_BIT",
        Bpp96 = 4 "96_BIT",
        Bpp128 = 5 "128_BIT",
    }
}

field_enum! {
    /// Surface Type of XY_BLOCK_COPY_BLT's source and destination (Xe-HPG genxml, prefix
    /// XY_SURFTYPE).
    XySurfaceType {
        OneD = 0 "1D",
        TwoD = 1 "2D",
        ThreeD = 2 "3D",
        Cube = 3 "CUBE",
    }
}

impl XyColorDepth {
    /// Bytes per pixel.
    pub fn bytes(self) -> usize {
        match self {
            XyColorDepth::Bpp8 => 1,
            XyColorDepth::Bpp16 => 2,
            XyColorDepth::Bpp32 => 4,
            XyColorDepth::Bpp64 => 8,
            XyColorDepth::Bpp96 => 12,
            XyColorDepth::Bpp128 => 16,
        }
    }
}

field_enum! {
    /// Colour depth of the legacy blitter's XY_SRC_COPY_BLT and XY_COLOR_BLT (BR13 bits
    /// 24-25; the kernel's `BLT_DEPTH_*` in `gt/intel_gpu_commands.h`).
    XyLegacyColorDepth {
        Bpp8 = 0 "8_BIT",
        Bpp16Rgb565 = 1 "16_BIT_565",
        Bpp16Argb1555 = 2 "16_BIT_1555",
        Bpp32 = 3 "32_BIT",
    }
}

impl XyLegacyColorDepth {
    /// Bytes per pixel.
    pub fn bytes(self) -> usize {
        match self {
            XyLegacyColorDepth::Bpp8 => 1,
            XyLegacyColorDepth::Bpp16Rgb565 | XyLegacyColorDepth::Bpp16Argb1555 => 2,
            XyLegacyColorDepth::Bpp32 => 4,
        }
    }
}

field_enum! {
    /// Colour depth of XY_FAST_COPY_BLT (dword 1 bits 24-26; IGT's
    /// `XY_FAST_COPY_COLOR_DEPTH_*` in `lib/intel_reg.h`, the kernel's `BLT_DEPTH_32`).
    XyFastCopyColorDepth {
        Bpp8 = 0 "8_BIT",
        Bpp16 = 1 "16_BIT",
        Bpp32 = 3 "32_BIT",
        Bpp64 = 4 "64_BIT",
        Bpp128 = 5 "128_BIT",
    }
}

impl XyFastCopyColorDepth {
    /// Bytes per pixel.
    pub fn bytes(self) -> usize {
        match self {
            XyFastCopyColorDepth::Bpp8 => 1,
            XyFastCopyColorDepth::Bpp16 => 2,
            XyFastCopyColorDepth::Bpp32 => 4,
            XyFastCopyColorDepth::Bpp64 => 8,
            XyFastCopyColorDepth::Bpp128 => 16,
        }
    }
}
