//! Patch-token numbers and the data-parameter numbers of `PATCH_TOKEN_DATA_PARAMETER_BUFFER`
//! (facts from IGC's `patch_list.h`, interface version 1081, which Debian's ocloc 22.43 emits).

/// `SProgramBinaryHeader::Magic`: "CTNI" read as a little-endian u32.
pub const MAGIC_CL: u32 = 0x494E_5443;
/// `e_type` of ocloc's container (ET_OPENCL_EXECUTABLE).
pub const ET_OPENCL_EXECUTABLE: u16 = 0xff04;
/// Section type of the device binary inside the container (SHT_OPENCL_DEV_BINARY).
pub const SHT_OPENCL_DEV_BINARY: u32 = 0xff00_0005;
/// Section type of the debug data of `-g` builds (SHT_OPENCL_DEV_DEBUG), read by
/// `program::debug_lines`.
pub const SHT_OPENCL_DEV_DEBUG: u32 = 0xff00_0008;
/// Bytes of `SProgramBinaryHeader`.
pub const PROGRAM_HEADER_SIZE: usize = 28;
/// Bytes of `SKernelBinaryHeaderCommon`.
pub const KERNEL_HEADER_SIZE: usize = 40;
/// Bytes of `SPatchItemHeader` (Token, Size).
pub const ITEM_HEADER_SIZE: usize = 8;
/// `INVALID_INDEX` in the layouts.
pub const INVALID_INDEX: u32 = 0xFFFF_FFFF;

/// Kernel- and program-scope token numbers we decode, with the size of each struct's body (after
/// the 8-byte item header) that we read, so a short token is reported instead of misread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenDef {
    pub id: u32,
    pub name: &'static str,
    pub min_body: usize,
}

macro_rules! tokens {
    ($($konst:ident = $id:literal, $name:literal, $body:literal;)*) => {
        $(pub const $konst: u32 = $id;)*
        pub const TOKENS: &[TokenDef] = &[$(TokenDef { id: $id, name: $name, min_body: $body }),*];
    };
}

tokens! {
    SAMPLER_STATE_ARRAY = 5, "SAMPLER_STATE_ARRAY", 12;
    BINDING_TABLE_STATE = 8, "BINDING_TABLE_STATE", 12;
    ALLOCATE_SIP_SURFACE = 10, "ALLOCATE_SIP_SURFACE", 12;
    GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT = 11, "GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT", 20;
    IMAGE_MEMORY_OBJECT_KERNEL_ARGUMENT = 12, "IMAGE_MEMORY_OBJECT_KERNEL_ARGUMENT", 40;
    ALLOCATE_LOCAL_SURFACE = 15, "ALLOCATE_LOCAL_SURFACE", 8;
    SAMPLER_KERNEL_ARGUMENT = 16, "SAMPLER_KERNEL_ARGUMENT", 36;
    DATA_PARAMETER_BUFFER = 17, "DATA_PARAMETER_BUFFER", 32;
    MEDIA_VFE_STATE = 18, "MEDIA_VFE_STATE", 8;
    MEDIA_INTERFACE_DESCRIPTOR_LOAD = 19, "MEDIA_INTERFACE_DESCRIPTOR_LOAD", 4;
    INTERFACE_DESCRIPTOR_DATA = 21, "INTERFACE_DESCRIPTOR_DATA", 16;
    THREAD_PAYLOAD = 22, "THREAD_PAYLOAD", 80;
    EXECUTION_ENVIRONMENT = 23, "EXECUTION_ENVIRONMENT", 132;
    DATA_PARAMETER_STREAM = 25, "DATA_PARAMETER_STREAM", 4;
    KERNEL_ARGUMENT_INFO = 26, "KERNEL_ARGUMENT_INFO", 24;
    KERNEL_ATTRIBUTES_INFO = 27, "KERNEL_ATTRIBUTES_INFO", 4;
    STRING = 28, "STRING", 8;
    STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT = 30, "STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT", 28;
    STATELESS_CONSTANT_MEMORY_OBJECT_KERNEL_ARGUMENT = 31, "STATELESS_CONSTANT_MEMORY_OBJECT_KERNEL_ARGUMENT", 28;
    ALLOCATE_STATELESS_PRINTF_SURFACE = 33, "ALLOCATE_STATELESS_PRINTF_SURFACE", 16;
    ALLOCATE_STATELESS_EVENT_POOL_SURFACE = 36, "ALLOCATE_STATELESS_EVENT_POOL_SURFACE", 16;
    ALLOCATE_STATELESS_PRIVATE_MEMORY = 38, "ALLOCATE_STATELESS_PRIVATE_MEMORY", 20;
    ALLOCATE_GLOBAL_MEMORY_SURFACE_PROGRAM_BINARY_INFO = 41, "ALLOCATE_GLOBAL_MEMORY_SURFACE_PROGRAM_BINARY_INFO", 12;
    ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO = 42, "ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO", 8;
    ALLOCATE_STATELESS_GLOBAL_MEMORY_SURFACE_WITH_INITIALIZATION = 43, "ALLOCATE_STATELESS_GLOBAL_MEMORY_SURFACE_WITH_INITIALIZATION", 16;
    ALLOCATE_STATELESS_CONSTANT_MEMORY_SURFACE_WITH_INITIALIZATION = 44, "ALLOCATE_STATELESS_CONSTANT_MEMORY_SURFACE_WITH_INITIALIZATION", 16;
    ALLOCATE_STATELESS_DEFAULT_DEVICE_QUEUE_SURFACE = 45, "ALLOCATE_STATELESS_DEFAULT_DEVICE_QUEUE_SURFACE", 12;
    STATELESS_DEVICE_QUEUE_KERNEL_ARGUMENT = 46, "STATELESS_DEVICE_QUEUE_KERNEL_ARGUMENT", 28;
    GLOBAL_POINTER_PROGRAM_BINARY_INFO = 47, "GLOBAL_POINTER_PROGRAM_BINARY_INFO", 20;
    CONSTANT_POINTER_PROGRAM_BINARY_INFO = 48, "CONSTANT_POINTER_PROGRAM_BINARY_INFO", 20;
    PROGRAM_SYMBOL_TABLE = 53, "PROGRAM_SYMBOL_TABLE", 4;
    PROGRAM_RELOCATION_TABLE = 54, "PROGRAM_RELOCATION_TABLE", 4;
    MEDIA_VFE_STATE_SLOT1 = 55, "MEDIA_VFE_STATE_SLOT1", 8;
    ALLOCATE_SYNC_BUFFER = 56, "ALLOCATE_SYNC_BUFFER", 12;
}

/// The definition of token `id`, if we decode it.
pub fn def(id: u32) -> Option<&'static TokenDef> {
    TOKENS.iter().find(|t| t.id == id)
}

/// A human name for token `id` in error messages.
pub fn name(id: u32) -> String {
    def(id).map_or_else(
        || format!("patch token {id}"),
        |d| format!("patch token {id} ({})", d.name),
    )
}

/// `DATA_PARAMETER_TOKEN` numbers (the `Type` of a data-parameter token).
pub mod data {
    pub const KERNEL_ARGUMENT: u32 = 1;
    pub const LOCAL_WORK_SIZE: u32 = 2;
    pub const GLOBAL_WORK_SIZE: u32 = 3;
    pub const NUM_WORK_GROUPS: u32 = 4;
    pub const WORK_DIMENSIONS: u32 = 5;
    pub const SUM_OF_LOCAL_MEMORY_OBJECT_ARGUMENT_SIZES: u32 = 8;
    pub const IMAGE_WIDTH: u32 = 9;
    pub const IMAGE_HEIGHT: u32 = 10;
    pub const IMAGE_DEPTH: u32 = 11;
    pub const IMAGE_CHANNEL_DATA_TYPE: u32 = 12;
    pub const IMAGE_CHANNEL_ORDER: u32 = 13;
    pub const SAMPLER_ADDRESS_MODE: u32 = 14;
    pub const SAMPLER_NORMALIZED_COORDS: u32 = 15;
    pub const GLOBAL_WORK_OFFSET: u32 = 16;
    pub const IMAGE_ARRAY_SIZE: u32 = 18;
    pub const IMAGE_NUM_SAMPLES: u32 = 20;
    pub const SAMPLER_COORDINATE_SNAP_WA_REQUIRED: u32 = 21;
    pub const IMAGE_NUM_MIP_LEVELS: u32 = 27;
    pub const ENQUEUED_LOCAL_WORK_SIZE: u32 = 28;
    pub const MAX_WORKGROUP_SIZE: u32 = 29;
    pub const PREFERRED_WORKGROUP_MULTIPLE: u32 = 30;
    pub const SIMD_SIZE: u32 = 34;
    pub const BUFFER_OFFSET: u32 = 42;
    pub const BUFFER_STATEFUL: u32 = 43;
    pub const FLAT_IMAGE_BASEOFFSET: u32 = 44;
    pub const FLAT_IMAGE_WIDTH: u32 = 45;
    pub const FLAT_IMAGE_HEIGHT: u32 = 46;
    pub const FLAT_IMAGE_PITCH: u32 = 47;
    pub const IMPL_ARG_BUFFER: u32 = 49;
}
