//! i915 uAPI (`drm/i915_drm.h`, Linux 6.12) for compute: structs, ioctl numbers, constants.
//!
//! Pointer-typed C fields (`int __user *value`, `__u64 *_ptr`) are `u64` process addresses; the
//! crate only builds for 64-bit targets, where C pointers are 8 bytes.

use crate::ioc::{ioctls, DRM_COMMAND_BASE};
use crate::layout::{uapi_consts, uapi_structs};

uapi_structs! { STRUCTS;
    /// Header of every i915 extension struct; chained through `next_extension`.
    struct i915_user_extension {
        next_extension: u64,
        name: u32,
        flags: u32,
        rsvd: [u32; 4],
    }
    struct i915_engine_class_instance {
        engine_class: u16,
        engine_instance: u16,
    }
    /// `DRM_IOCTL_I915_GETPARAM`: `value` points to an `int` the kernel fills in.
    struct drm_i915_getparam [rust_only(pad0)] {
        param: i32,
        pad0: u32,
        value: u64,
    }
    struct drm_i915_gem_create {
        size: u64,
        handle: u32,
        pad: u32,
    }
    struct drm_i915_gem_create_ext {
        size: u64,
        handle: u32,
        flags: u32,
        extensions: u64,
    }
    struct drm_i915_gem_memory_class_instance {
        memory_class: u16,
        memory_instance: u16,
    }
    /// `I915_GEM_CREATE_EXT_MEMORY_REGIONS`: `regions` points to `num_regions`
    /// [`drm_i915_gem_memory_class_instance`], in order of preference.
    struct drm_i915_gem_create_ext_memory_regions {
        base: i915_user_extension,
        pad: u32,
        num_regions: u32,
        regions: u64,
    }
    struct drm_i915_gem_create_ext_set_pat {
        base: i915_user_extension,
        pat_index: u32,
        rsvd: u32,
    }
    /// `DRM_IOCTL_I915_GEM_MMAP` (legacy CPU mmap): the kernel maps `size` bytes at `offset`
    /// of the object into the caller and returns the address in `addr_ptr`.
    struct drm_i915_gem_mmap {
        handle: u32,
        pad: u32,
        offset: u64,
        size: u64,
        addr_ptr: u64,
        flags: u64,
    }
    struct drm_i915_gem_mmap_offset {
        handle: u32,
        pad: u32,
        offset: u64,
        flags: u64,
        extensions: u64,
    }
    /// `DRM_IOCTL_I915_GEM_PREAD`: copies `size` bytes at `offset` of the object to `data_ptr`.
    struct drm_i915_gem_pread {
        handle: u32,
        pad: u32,
        offset: u64,
        size: u64,
        data_ptr: u64,
    }
    /// `DRM_IOCTL_I915_GEM_PWRITE`: copies `size` bytes from `data_ptr` to `offset` of the object.
    struct drm_i915_gem_pwrite {
        handle: u32,
        pad: u32,
        offset: u64,
        size: u64,
        data_ptr: u64,
    }
    /// `DRM_IOCTL_I915_GEM_SW_FINISH`.
    struct drm_i915_gem_sw_finish {
        handle: u32,
    }
    /// `DRM_IOCTL_I915_GEM_{SET,GET}_CACHING`: `caching` is an `I915_CACHING_*` mode.
    struct drm_i915_gem_caching {
        handle: u32,
        caching: u32,
    }
    struct drm_i915_gem_set_domain {
        handle: u32,
        read_domains: u32,
        write_domain: u32,
    }
    struct drm_i915_gem_vm_control {
        extensions: u64,
        flags: u32,
        vm_id: u32,
    }
    struct drm_i915_gem_context_create_ext {
        ctx_id: u32,
        flags: u32,
        extensions: u64,
    }
    /// `DRM_IOCTL_I915_GEM_CONTEXT_{GET,SET}PARAM`; `value` is the value or, for array params
    /// such as ENGINES, the address of `size` bytes.
    struct drm_i915_gem_context_param {
        ctx_id: u32,
        size: u32,
        param: u64,
        value: u64,
    }
    /// `I915_CONTEXT_CREATE_EXT_SETPARAM`.
    struct drm_i915_gem_context_create_ext_setparam {
        base: i915_user_extension,
        param: drm_i915_gem_context_param,
    }
    /// Header of the `I915_CONTEXT_PARAM_ENGINES` value (C: `__attribute__((packed))`, which
    /// changes nothing here but the alignment); the engine map follows it.
    struct i915_context_param_engines {
        extensions: u64,
        engines: [i915_engine_class_instance; 0],
    }
    struct drm_i915_gem_context_destroy {
        ctx_id: u32,
        pad: u32,
    }
    /// One buffer of an execbuf. With `EXEC_OBJECT_PINNED`, `offset` is the softpin GPU address.
    struct drm_i915_gem_exec_object2 {
        handle: u32,
        relocation_count: u32,
        relocs_ptr: u64,
        alignment: u64,
        offset: u64,
        flags: u64,
        /// C: `union { rsvd1; pad_to_size; }`.
        pad_to_size: u64,
        rsvd2: u64,
    }
    /// One relocation of an execbuf object (refused after TGL-LP): the GPU address of
    /// `target_handle` plus `delta` is written at `offset` of the object.
    struct drm_i915_gem_relocation_entry {
        target_handle: u32,
        delta: u32,
        offset: u64,
        presumed_offset: u64,
        read_domains: u32,
        write_domain: u32,
    }
    /// An entry of the `I915_EXEC_FENCE_ARRAY` array (syncobj handle + WAIT/SIGNAL).
    struct drm_i915_gem_exec_fence {
        handle: u32,
        flags: u32,
    }
    /// `DRM_IOCTL_I915_GEM_EXECBUFFER2[_WR]`. `rsvd1` holds the context id; `rsvd2` the in-fence
    /// fd (low 32 bits) and, with `_WR` and `I915_EXEC_FENCE_OUT`, the out-fence fd (high 32).
    struct drm_i915_gem_execbuffer2 {
        buffers_ptr: u64,
        buffer_count: u32,
        batch_start_offset: u32,
        batch_len: u32,
        DR1: u32,
        DR4: u32,
        num_cliprects: u32,
        cliprects_ptr: u64,
        flags: u64,
        rsvd1: u64,
        rsvd2: u64,
    }
    struct drm_i915_gem_wait {
        bo_handle: u32,
        flags: u32,
        timeout_ns: i64,
    }
    struct drm_i915_gem_busy {
        handle: u32,
        busy: u32,
    }
    struct drm_i915_reg_read {
        offset: u64,
        val: u64,
    }
    /// `I915_CONTEXT_PARAM_SSEU`'s value: one engine's slice/subslice/EU configuration.
    struct drm_i915_gem_context_param_sseu {
        engine: i915_engine_class_instance,
        flags: u32,
        slice_mask: u64,
        subslice_mask: u64,
        min_eus_per_subslice: u16,
        max_eus_per_subslice: u16,
        rsvd: u32,
    }
    struct drm_i915_reset_stats {
        ctx_id: u32,
        flags: u32,
        reset_count: u32,
        batch_active: u32,
        batch_pending: u32,
        pad: u32,
    }
    struct drm_i915_gem_userptr {
        user_ptr: u64,
        user_size: u64,
        flags: u32,
        handle: u32,
    }
    /// `DRM_IOCTL_I915_QUERY`: `items_ptr` points to `num_items` [`drm_i915_query_item`].
    struct drm_i915_query {
        num_items: u32,
        flags: u32,
        items_ptr: u64,
    }
    /// One query. `length` 0 asks for the size; the kernel writes a negative errno on failure.
    struct drm_i915_query_item {
        query_id: u64,
        length: i32,
        flags: u32,
        data_ptr: u64,
    }
    /// `DRM_I915_QUERY_TOPOLOGY_INFO` reply header; the masks follow at `data`.
    struct drm_i915_query_topology_info {
        flags: u16,
        max_slices: u16,
        max_subslices: u16,
        max_eus_per_subslice: u16,
        subslice_offset: u16,
        subslice_stride: u16,
        eu_offset: u16,
        eu_stride: u16,
        data: [u8; 0],
    }
    struct drm_i915_engine_info {
        engine: i915_engine_class_instance,
        rsvd0: u32,
        flags: u64,
        capabilities: u64,
        logical_instance: u16,
        rsvd1: [u16; 3],
        rsvd2: [u64; 3],
    }
    /// `DRM_I915_QUERY_ENGINE_INFO` reply header; `num_engines` entries follow.
    struct drm_i915_query_engine_info {
        num_engines: u32,
        rsvd: [u32; 3],
        engines: [drm_i915_engine_info; 0],
    }
    struct drm_i915_memory_region_info [rust_only(rsvd1_rest)] {
        region: drm_i915_gem_memory_class_instance,
        rsvd0: u32,
        probed_size: u64,
        unallocated_size: u64,
        /// C: first member of `union { __u64 rsvd1[8]; struct { ... }; }`.
        probed_cpu_visible_size: u64,
        unallocated_cpu_visible_size: u64,
        /// The rest of that union's `rsvd1[8]`.
        rsvd1_rest: [u64; 6],
    }
    /// `DRM_I915_QUERY_GUC_SUBMISSION_VERSION` reply.
    struct drm_i915_query_guc_submission_version {
        branch: u32,
        major: u32,
        minor: u32,
        patch: u32,
    }
    /// `DRM_I915_QUERY_MEMORY_REGIONS` reply header; `num_regions` entries follow.
    struct drm_i915_query_memory_regions {
        num_regions: u32,
        rsvd: [u32; 3],
        regions: [drm_i915_memory_region_info; 0],
    }
}

ioctls! { IOCTLS;
    DRM_IOCTL_I915_GETPARAM = drm_iowr(DRM_COMMAND_BASE + 0x06, drm_i915_getparam);
    DRM_IOCTL_I915_GEM_BUSY = drm_iowr(DRM_COMMAND_BASE + 0x17, drm_i915_gem_busy);
    DRM_IOCTL_I915_GEM_CREATE = drm_iowr(DRM_COMMAND_BASE + 0x1b, drm_i915_gem_create);
    DRM_IOCTL_I915_GEM_PREAD = drm_iow(DRM_COMMAND_BASE + 0x1c, drm_i915_gem_pread);
    DRM_IOCTL_I915_GEM_PWRITE = drm_iow(DRM_COMMAND_BASE + 0x1d, drm_i915_gem_pwrite);
    DRM_IOCTL_I915_GEM_SET_DOMAIN = drm_iow(DRM_COMMAND_BASE + 0x1f, drm_i915_gem_set_domain);
    DRM_IOCTL_I915_GEM_SW_FINISH = drm_iow(DRM_COMMAND_BASE + 0x20, drm_i915_gem_sw_finish);
    DRM_IOCTL_I915_GEM_SET_CACHING = drm_iow(DRM_COMMAND_BASE + 0x2f, drm_i915_gem_caching);
    DRM_IOCTL_I915_GEM_GET_CACHING = drm_iowr(DRM_COMMAND_BASE + 0x30, drm_i915_gem_caching);
    DRM_IOCTL_I915_GEM_MMAP = drm_iowr(DRM_COMMAND_BASE + 0x1e, drm_i915_gem_mmap);
    DRM_IOCTL_I915_GEM_MMAP_OFFSET = drm_iowr(DRM_COMMAND_BASE + 0x24, drm_i915_gem_mmap_offset);
    DRM_IOCTL_I915_GEM_EXECBUFFER2 = drm_iow(DRM_COMMAND_BASE + 0x29, drm_i915_gem_execbuffer2);
    DRM_IOCTL_I915_GEM_EXECBUFFER2_WR = drm_iowr(DRM_COMMAND_BASE + 0x29, drm_i915_gem_execbuffer2);
    DRM_IOCTL_I915_GEM_WAIT = drm_iowr(DRM_COMMAND_BASE + 0x2c, drm_i915_gem_wait);
    DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT = drm_iowr(DRM_COMMAND_BASE + 0x2d, drm_i915_gem_context_create_ext);
    DRM_IOCTL_I915_GEM_CONTEXT_DESTROY = drm_iow(DRM_COMMAND_BASE + 0x2e, drm_i915_gem_context_destroy);
    DRM_IOCTL_I915_REG_READ = drm_iowr(DRM_COMMAND_BASE + 0x31, drm_i915_reg_read);
    DRM_IOCTL_I915_GET_RESET_STATS = drm_iowr(DRM_COMMAND_BASE + 0x32, drm_i915_reset_stats);
    DRM_IOCTL_I915_GEM_USERPTR = drm_iowr(DRM_COMMAND_BASE + 0x33, drm_i915_gem_userptr);
    DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM = drm_iowr(DRM_COMMAND_BASE + 0x34, drm_i915_gem_context_param);
    DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM = drm_iowr(DRM_COMMAND_BASE + 0x35, drm_i915_gem_context_param);
    DRM_IOCTL_I915_QUERY = drm_iowr(DRM_COMMAND_BASE + 0x39, drm_i915_query);
    DRM_IOCTL_I915_GEM_VM_CREATE = drm_iowr(DRM_COMMAND_BASE + 0x3a, drm_i915_gem_vm_control);
    DRM_IOCTL_I915_GEM_VM_DESTROY = drm_iow(DRM_COMMAND_BASE + 0x3b, drm_i915_gem_vm_control);
    DRM_IOCTL_I915_GEM_CREATE_EXT = drm_iowr(DRM_COMMAND_BASE + 0x3c, drm_i915_gem_create_ext);
}

uapi_consts! { CONSTS;
    // GETPARAM parameters.
    I915_PARAM_CHIPSET_ID: i32 = 4;
    I915_PARAM_HAS_BLT: i32 = 11;
    I915_PARAM_HAS_ALIASING_PPGTT: i32 = 18;
    I915_PARAM_HAS_EXEC_NO_RELOC: i32 = 25;
    I915_PARAM_HAS_EXEC_HANDLE_LUT: i32 = 26;
    I915_PARAM_MMAP_VERSION: i32 = 30;
    I915_PARAM_REVISION: i32 = 32;
    I915_PARAM_SUBSLICE_TOTAL: i32 = 33;
    I915_PARAM_EU_TOTAL: i32 = 34;
    I915_PARAM_HAS_EXEC_SOFTPIN: i32 = 37;
    I915_PARAM_HAS_POOLED_EU: i32 = 38;
    I915_PARAM_MIN_EU_IN_POOL: i32 = 39;
    I915_PARAM_MMAP_GTT_VERSION: i32 = 40;
    I915_PARAM_HAS_SCHEDULER: i32 = 41;
    I915_PARAM_HAS_EXEC_FENCE: i32 = 44;
    I915_PARAM_HAS_EXEC_CAPTURE: i32 = 45;
    I915_PARAM_SLICE_MASK: i32 = 46;
    I915_PARAM_SUBSLICE_MASK: i32 = 47;
    I915_PARAM_HAS_EXEC_BATCH_FIRST: i32 = 48;
    I915_PARAM_HAS_EXEC_FENCE_ARRAY: i32 = 49;
    I915_PARAM_HAS_CONTEXT_ISOLATION: i32 = 50;
    I915_PARAM_CS_TIMESTAMP_FREQUENCY: i32 = 51;
    I915_PARAM_HAS_EXEC_TIMELINE_FENCES: i32 = 55;
    I915_PARAM_HAS_USERPTR_PROBE: i32 = 56;
    // Engine classes (enum drm_i915_gem_engine_class).
    I915_ENGINE_CLASS_RENDER: u16 = 0;
    I915_ENGINE_CLASS_COPY: u16 = 1;
    I915_ENGINE_CLASS_VIDEO: u16 = 2;
    I915_ENGINE_CLASS_VIDEO_ENHANCE: u16 = 3;
    I915_ENGINE_CLASS_COMPUTE: u16 = 4;
    I915_ENGINE_CLASS_INVALID_NONE: i32 = -1;
    // Memory classes (enum drm_i915_gem_memory_class).
    I915_MEMORY_CLASS_SYSTEM: u16 = 0;
    I915_MEMORY_CLASS_DEVICE: u16 = 1;
    // GEM_CREATE_EXT.
    I915_GEM_CREATE_EXT_MEMORY_REGIONS: u32 = 0;
    I915_GEM_CREATE_EXT_PROTECTED_CONTENT: u32 = 1;
    I915_GEM_CREATE_EXT_SET_PAT: u32 = 2;
    I915_GEM_CREATE_EXT_FLAG_NEEDS_CPU_ACCESS: u32 = 1 << 0;
    // GEM_MMAP flags.
    I915_MMAP_WC: u64 = 0x1;
    // GEM_MMAP_OFFSET flags.
    I915_MMAP_OFFSET_GTT: u64 = 0;
    I915_MMAP_OFFSET_WC: u64 = 1;
    I915_MMAP_OFFSET_WB: u64 = 2;
    I915_MMAP_OFFSET_UC: u64 = 3;
    I915_MMAP_OFFSET_FIXED: u64 = 4;
    // Domains.
    I915_GEM_DOMAIN_CPU: u32 = 0x0000_0001;
    I915_CACHING_NONE: u32 = 0;
    I915_CACHING_CACHED: u32 = 1;
    I915_CACHING_DISPLAY: u32 = 2;
    I915_GEM_DOMAIN_RENDER: u32 = 0x0000_0002;
    I915_GEM_DOMAIN_SAMPLER: u32 = 0x0000_0004;
    I915_GEM_DOMAIN_COMMAND: u32 = 0x0000_0008;
    I915_GEM_DOMAIN_INSTRUCTION: u32 = 0x0000_0010;
    I915_GEM_DOMAIN_VERTEX: u32 = 0x0000_0020;
    I915_GEM_DOMAIN_GTT: u32 = 0x0000_0040;
    I915_GEM_DOMAIN_WC: u32 = 0x0000_0080;
    // Contexts.
    I915_CONTEXT_CREATE_FLAGS_USE_EXTENSIONS: u32 = 1 << 0;
    I915_CONTEXT_CREATE_FLAGS_SINGLE_TIMELINE: u32 = 1 << 1;
    I915_CONTEXT_CREATE_EXT_SETPARAM: u32 = 0;
    I915_CONTEXT_PARAM_GTT_SIZE: u64 = 0x3;
    I915_CONTEXT_PARAM_BANNABLE: u64 = 0x5;
    I915_CONTEXT_PARAM_PRIORITY: u64 = 0x6;
    I915_CONTEXT_PARAM_SSEU: u64 = 0x7;
    I915_CONTEXT_PARAM_RECOVERABLE: u64 = 0x8;
    I915_CONTEXT_PARAM_VM: u64 = 0x9;
    I915_CONTEXT_PARAM_ENGINES: u64 = 0xa;
    I915_CONTEXT_PARAM_PERSISTENCE: u64 = 0xb;
    I915_CONTEXT_SSEU_FLAG_ENGINE_INDEX: u32 = 1 << 0;
    // Exec objects.
    EXEC_OBJECT_NEEDS_FENCE: u64 = 1 << 0;
    EXEC_OBJECT_NEEDS_GTT: u64 = 1 << 1;
    EXEC_OBJECT_WRITE: u64 = 1 << 2;
    EXEC_OBJECT_SUPPORTS_48B_ADDRESS: u64 = 1 << 3;
    EXEC_OBJECT_PINNED: u64 = 1 << 4;
    EXEC_OBJECT_PAD_TO_SIZE: u64 = 1 << 5;
    EXEC_OBJECT_ASYNC: u64 = 1 << 6;
    EXEC_OBJECT_CAPTURE: u64 = 1 << 7;
    // Execbuf flags.
    I915_EXEC_RING_MASK: u64 = 0x3f;
    I915_EXEC_DEFAULT: u64 = 0;
    I915_EXEC_RENDER: u64 = 1;
    I915_EXEC_BLT: u64 = 3;
    I915_EXEC_NO_RELOC: u64 = 1 << 11;
    I915_EXEC_HANDLE_LUT: u64 = 1 << 12;
    I915_EXEC_FENCE_IN: u64 = 1 << 16;
    I915_EXEC_FENCE_OUT: u64 = 1 << 17;
    I915_EXEC_BATCH_FIRST: u64 = 1 << 18;
    I915_EXEC_FENCE_ARRAY: u64 = 1 << 19;
    I915_EXEC_FENCE_SUBMIT: u64 = 1 << 20;
    I915_EXEC_USE_EXTENSIONS: u64 = 1 << 21;
    I915_EXEC_CONTEXT_ID_MASK: u64 = 0xffff_ffff;
    I915_EXEC_FENCE_WAIT: u32 = 1 << 0;
    I915_EXEC_FENCE_SIGNAL: u32 = 1 << 1;
    // Userptr.
    I915_USERPTR_READ_ONLY: u32 = 0x1;
    I915_USERPTR_PROBE: u32 = 0x2;
    I915_USERPTR_UNSYNCHRONIZED: u32 = 0x8000_0000;
    // REG_READ.
    I915_REG_READ_8B_WA: u64 = 1 << 0;
    // Queries.
    DRM_I915_QUERY_TOPOLOGY_INFO: u64 = 1;
    DRM_I915_QUERY_ENGINE_INFO: u64 = 2;
    DRM_I915_QUERY_PERF_CONFIG: u64 = 3;
    DRM_I915_QUERY_MEMORY_REGIONS: u64 = 4;
    DRM_I915_QUERY_HWCONFIG_BLOB: u64 = 5;
    DRM_I915_QUERY_GEOMETRY_SUBSLICES: u64 = 6;
    DRM_I915_QUERY_GUC_SUBMISSION_VERSION: u64 = 7;
    I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE: u64 = 1 << 0;
}
