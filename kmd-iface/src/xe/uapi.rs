//! xe uAPI (`drm/xe_drm.h`, Linux 6.12): structs, ioctl numbers, constants.
//!
//! Only ioctls present in the 6.12 header are defined (none from out-of-tree patches).

use crate::ioc::{ioctls, DRM_COMMAND_BASE};
use crate::layout::{uapi_consts, uapi_structs};

uapi_structs! { STRUCTS;
    /// Header of every xe extension; chained through `next_extension`.
    struct drm_xe_user_extension {
        next_extension: u64,
        name: u32,
        pad: u32,
    }
    /// `DRM_XE_EXEC_QUEUE_EXTENSION_SET_PROPERTY`.
    struct drm_xe_ext_set_property {
        base: drm_xe_user_extension,
        property: u32,
        pad: u32,
        value: u64,
        reserved: [u64; 2],
    }
    struct drm_xe_engine_class_instance {
        engine_class: u16,
        engine_instance: u16,
        gt_id: u16,
        pad: u16,
    }
    struct drm_xe_engine {
        instance: drm_xe_engine_class_instance,
        reserved: [u64; 3],
    }
    /// `DRM_XE_DEVICE_QUERY_ENGINES` reply header; `num_engines` entries follow.
    struct drm_xe_query_engines {
        num_engines: u32,
        pad: u32,
        engines: [drm_xe_engine; 0],
    }
    struct drm_xe_mem_region {
        mem_class: u16,
        instance: u16,
        min_page_size: u32,
        total_size: u64,
        used: u64,
        cpu_visible_size: u64,
        cpu_visible_used: u64,
        reserved: [u64; 6],
    }
    /// `DRM_XE_DEVICE_QUERY_MEM_REGIONS` reply header; `num_mem_regions` entries follow.
    struct drm_xe_query_mem_regions {
        num_mem_regions: u32,
        pad: u32,
        mem_regions: [drm_xe_mem_region; 0],
    }
    /// `DRM_XE_DEVICE_QUERY_CONFIG` reply header; `num_params` u64 values follow.
    struct drm_xe_query_config {
        num_params: u32,
        pad: u32,
        info: [u64; 0],
    }
    struct drm_xe_gt {
        r#type: u16,
        tile_id: u16,
        gt_id: u16,
        pad: [u16; 3],
        reference_clock: u32,
        near_mem_regions: u64,
        far_mem_regions: u64,
        ip_ver_major: u16,
        ip_ver_minor: u16,
        ip_ver_rev: u16,
        pad2: u16,
        reserved: [u64; 7],
    }
    /// `DRM_XE_DEVICE_QUERY_GT_LIST` reply header; `num_gt` entries follow.
    struct drm_xe_query_gt_list {
        num_gt: u32,
        pad: u32,
        gt_list: [drm_xe_gt; 0],
    }
    /// One record of the `DRM_XE_DEVICE_QUERY_GT_TOPOLOGY` reply; `num_bytes` mask bytes follow.
    struct drm_xe_query_topology_mask {
        gt_id: u16,
        r#type: u16,
        num_bytes: u32,
        mask: [u8; 0],
    }
    /// `DRM_XE_DEVICE_QUERY_ENGINE_CYCLES`: `eci` and `clockid` are inputs.
    struct drm_xe_query_engine_cycles {
        eci: drm_xe_engine_class_instance,
        clockid: i32,
        width: u32,
        engine_cycles: u64,
        cpu_timestamp: u64,
        cpu_delta: u64,
    }
    /// `DRM_XE_DEVICE_QUERY_UC_FW_VERSION`: `uc_type` is the input.
    struct drm_xe_query_uc_fw_version {
        uc_type: u16,
        pad: u16,
        branch_ver: u32,
        major_ver: u32,
        minor_ver: u32,
        patch_ver: u32,
        pad2: u32,
        reserved: u64,
    }
    /// `DRM_IOCTL_XE_DEVICE_QUERY`: `size` 0 asks for the size; `data` is the reply buffer.
    struct drm_xe_device_query {
        extensions: u64,
        query: u32,
        size: u32,
        data: u64,
        reserved: [u64; 2],
    }
    struct drm_xe_gem_create {
        extensions: u64,
        size: u64,
        /// Bit mask of memory-region instances the BO may live in.
        placement: u32,
        flags: u32,
        vm_id: u32,
        handle: u32,
        cpu_caching: u16,
        pad: [u16; 3],
        reserved: [u64; 2],
    }
    struct drm_xe_gem_mmap_offset {
        extensions: u64,
        handle: u32,
        flags: u32,
        offset: u64,
        reserved: [u64; 2],
    }
    struct drm_xe_vm_create {
        extensions: u64,
        flags: u32,
        vm_id: u32,
        reserved: [u64; 2],
    }
    struct drm_xe_vm_destroy {
        vm_id: u32,
        pad: u32,
        reserved: [u64; 2],
    }
    struct drm_xe_vm_bind_op {
        extensions: u64,
        obj: u32,
        pat_index: u16,
        pad: u16,
        /// C: `union { obj_offset; userptr; }` (the user address for `MAP_USERPTR`).
        obj_offset: u64,
        range: u64,
        addr: u64,
        op: u32,
        flags: u32,
        prefetch_mem_region_instance: u32,
        pad2: u32,
        reserved: [u64; 3],
    }
    /// `DRM_IOCTL_XE_VM_BIND`. C: `union { bind; vector_of_binds; }`: with `num_binds > 1` the
    /// first 8 bytes of `bind` are the address of an array of [`drm_xe_vm_bind_op`].
    struct drm_xe_vm_bind {
        extensions: u64,
        vm_id: u32,
        exec_queue_id: u32,
        pad: u32,
        num_binds: u32,
        bind: drm_xe_vm_bind_op,
        pad2: u32,
        num_syncs: u32,
        syncs: u64,
        reserved: [u64; 2],
    }
    /// `DRM_IOCTL_XE_EXEC_QUEUE_CREATE`: `instances` points to `width * num_placements` engines.
    struct drm_xe_exec_queue_create {
        extensions: u64,
        width: u16,
        num_placements: u16,
        vm_id: u32,
        flags: u32,
        exec_queue_id: u32,
        instances: u64,
        reserved: [u64; 2],
    }
    struct drm_xe_exec_queue_destroy {
        exec_queue_id: u32,
        pad: u32,
        reserved: [u64; 2],
    }
    struct drm_xe_exec_queue_get_property {
        extensions: u64,
        exec_queue_id: u32,
        property: u32,
        value: u64,
        reserved: [u64; 2],
    }
    /// A sync for VM_BIND/EXEC. C: `union { __u32 handle; __u64 addr; }`: the syncobj handle is
    /// the low 32 bits of `addr` (see [`drm_xe_sync::handle`]).
    struct drm_xe_sync {
        extensions: u64,
        r#type: u32,
        flags: u32,
        addr: u64,
        timeline_value: u64,
        reserved: [u64; 2],
    }
    /// `DRM_IOCTL_XE_EXEC`: `address` is the batch's GPU address (or of an array of them).
    struct drm_xe_exec {
        extensions: u64,
        exec_queue_id: u32,
        num_syncs: u32,
        syncs: u64,
        address: u64,
        num_batch_buffer: u16,
        pad: [u16; 3],
        reserved: [u64; 2],
    }
    struct drm_xe_wait_user_fence {
        extensions: u64,
        addr: u64,
        op: u16,
        flags: u16,
        pad: u32,
        value: u64,
        mask: u64,
        timeout: i64,
        exec_queue_id: u32,
        pad2: u32,
        reserved: [u64; 2],
    }
}

impl drm_xe_vm_bind {
    /// The `vector_of_binds` member of the C union (address of the op array).
    pub fn vector_of_binds(&self) -> u64 {
        self.bind.extensions
    }
    /// Sets `vector_of_binds`, clearing the rest of the union.
    pub fn set_vector_of_binds(&mut self, addr: u64) {
        self.bind = drm_xe_vm_bind_op {
            extensions: addr,
            ..Default::default()
        };
    }
}

impl drm_xe_sync {
    /// The `handle` member of the C union (syncobj types).
    pub fn handle(&self) -> u32 {
        // The union's u32 member overlays the u64's first 4 bytes: the low half on little-endian.
        zerocopy::FromBytes::read_from_prefix(zerocopy::IntoBytes::as_bytes(&self.addr))
            .map(|(h, _)| h)
            .unwrap_or(0)
    }
    /// Sets the `handle` member of the C union, clearing the rest of it.
    pub fn set_handle(&mut self, handle: u32) {
        let mut bytes = [0u8; 8];
        bytes[..4].copy_from_slice(&handle.to_ne_bytes());
        self.addr = u64::from_ne_bytes(bytes);
    }
}

ioctls! { IOCTLS;
    DRM_IOCTL_XE_DEVICE_QUERY = drm_iowr(DRM_COMMAND_BASE /* + 0x00 */, drm_xe_device_query);
    DRM_IOCTL_XE_GEM_CREATE = drm_iowr(DRM_COMMAND_BASE + 0x01, drm_xe_gem_create);
    DRM_IOCTL_XE_GEM_MMAP_OFFSET = drm_iowr(DRM_COMMAND_BASE + 0x02, drm_xe_gem_mmap_offset);
    DRM_IOCTL_XE_VM_CREATE = drm_iowr(DRM_COMMAND_BASE + 0x03, drm_xe_vm_create);
    DRM_IOCTL_XE_VM_DESTROY = drm_iow(DRM_COMMAND_BASE + 0x04, drm_xe_vm_destroy);
    DRM_IOCTL_XE_VM_BIND = drm_iow(DRM_COMMAND_BASE + 0x05, drm_xe_vm_bind);
    DRM_IOCTL_XE_EXEC_QUEUE_CREATE = drm_iowr(DRM_COMMAND_BASE + 0x06, drm_xe_exec_queue_create);
    DRM_IOCTL_XE_EXEC_QUEUE_DESTROY = drm_iow(DRM_COMMAND_BASE + 0x07, drm_xe_exec_queue_destroy);
    DRM_IOCTL_XE_EXEC_QUEUE_GET_PROPERTY = drm_iowr(DRM_COMMAND_BASE + 0x08, drm_xe_exec_queue_get_property);
    DRM_IOCTL_XE_EXEC = drm_iow(DRM_COMMAND_BASE + 0x09, drm_xe_exec);
    DRM_IOCTL_XE_WAIT_USER_FENCE = drm_iowr(DRM_COMMAND_BASE + 0x0a, drm_xe_wait_user_fence);
}

uapi_consts! { CONSTS;
    DRM_XE_ENGINE_CLASS_RENDER: u16 = 0;
    DRM_XE_ENGINE_CLASS_COPY: u16 = 1;
    DRM_XE_ENGINE_CLASS_VIDEO_DECODE: u16 = 2;
    DRM_XE_ENGINE_CLASS_VIDEO_ENHANCE: u16 = 3;
    DRM_XE_ENGINE_CLASS_COMPUTE: u16 = 4;
    DRM_XE_ENGINE_CLASS_VM_BIND: u16 = 5;
    DRM_XE_MEM_REGION_CLASS_SYSMEM: u16 = 0;
    DRM_XE_MEM_REGION_CLASS_VRAM: u16 = 1;
    DRM_XE_QUERY_CONFIG_REV_AND_DEVICE_ID: usize = 0;
    DRM_XE_QUERY_CONFIG_FLAGS: usize = 1;
    DRM_XE_QUERY_CONFIG_FLAG_HAS_VRAM: u64 = 1 << 0;
    DRM_XE_QUERY_CONFIG_MIN_ALIGNMENT: usize = 2;
    DRM_XE_QUERY_CONFIG_VA_BITS: usize = 3;
    DRM_XE_QUERY_CONFIG_MAX_EXEC_QUEUE_PRIORITY: usize = 4;
    DRM_XE_QUERY_GT_TYPE_MAIN: u16 = 0;
    DRM_XE_QUERY_GT_TYPE_MEDIA: u16 = 1;
    DRM_XE_TOPO_DSS_GEOMETRY: u16 = 1;
    DRM_XE_TOPO_DSS_COMPUTE: u16 = 2;
    DRM_XE_TOPO_L3_BANK: u16 = 3;
    DRM_XE_TOPO_EU_PER_DSS: u16 = 4;
    DRM_XE_TOPO_SIMD16_EU_PER_DSS: u16 = 5;
    XE_QUERY_UC_TYPE_GUC_SUBMISSION: u16 = 0;
    XE_QUERY_UC_TYPE_HUC: u16 = 1;
    DRM_XE_DEVICE_QUERY_ENGINES: u32 = 0;
    DRM_XE_DEVICE_QUERY_MEM_REGIONS: u32 = 1;
    DRM_XE_DEVICE_QUERY_CONFIG: u32 = 2;
    DRM_XE_DEVICE_QUERY_GT_LIST: u32 = 3;
    DRM_XE_DEVICE_QUERY_HWCONFIG: u32 = 4;
    DRM_XE_DEVICE_QUERY_GT_TOPOLOGY: u32 = 5;
    DRM_XE_DEVICE_QUERY_ENGINE_CYCLES: u32 = 6;
    DRM_XE_DEVICE_QUERY_UC_FW_VERSION: u32 = 7;
    DRM_XE_DEVICE_QUERY_OA_UNITS: u32 = 8;
    DRM_XE_GEM_CREATE_FLAG_DEFER_BACKING: u32 = 1 << 0;
    DRM_XE_GEM_CREATE_FLAG_SCANOUT: u32 = 1 << 1;
    DRM_XE_GEM_CREATE_FLAG_NEEDS_VISIBLE_VRAM: u32 = 1 << 2;
    DRM_XE_GEM_CPU_CACHING_WB: u16 = 1;
    DRM_XE_GEM_CPU_CACHING_WC: u16 = 2;
    DRM_XE_VM_CREATE_FLAG_SCRATCH_PAGE: u32 = 1 << 0;
    DRM_XE_VM_CREATE_FLAG_LR_MODE: u32 = 1 << 1;
    DRM_XE_VM_CREATE_FLAG_FAULT_MODE: u32 = 1 << 2;
    DRM_XE_VM_BIND_OP_MAP: u32 = 0x0;
    DRM_XE_VM_BIND_OP_UNMAP: u32 = 0x1;
    DRM_XE_VM_BIND_OP_MAP_USERPTR: u32 = 0x2;
    DRM_XE_VM_BIND_OP_UNMAP_ALL: u32 = 0x3;
    DRM_XE_VM_BIND_OP_PREFETCH: u32 = 0x4;
    DRM_XE_VM_BIND_FLAG_READONLY: u32 = 1 << 0;
    DRM_XE_VM_BIND_FLAG_IMMEDIATE: u32 = 1 << 1;
    DRM_XE_VM_BIND_FLAG_NULL: u32 = 1 << 2;
    DRM_XE_VM_BIND_FLAG_DUMPABLE: u32 = 1 << 3;
    DRM_XE_EXEC_QUEUE_EXTENSION_SET_PROPERTY: u32 = 0;
    DRM_XE_EXEC_QUEUE_SET_PROPERTY_PRIORITY: u32 = 0;
    DRM_XE_EXEC_QUEUE_SET_PROPERTY_TIMESLICE: u32 = 1;
    DRM_XE_EXEC_QUEUE_GET_PROPERTY_BAN: u32 = 0;
    DRM_XE_SYNC_TYPE_SYNCOBJ: u32 = 0x0;
    DRM_XE_SYNC_TYPE_TIMELINE_SYNCOBJ: u32 = 0x1;
    DRM_XE_SYNC_TYPE_USER_FENCE: u32 = 0x2;
    DRM_XE_SYNC_FLAG_SIGNAL: u32 = 1 << 0;
    DRM_XE_MAX_SYNCS: u32 = 1024;
    DRM_XE_UFENCE_WAIT_OP_EQ: u16 = 0x0;
    DRM_XE_UFENCE_WAIT_OP_NEQ: u16 = 0x1;
    DRM_XE_UFENCE_WAIT_OP_GT: u16 = 0x2;
    DRM_XE_UFENCE_WAIT_OP_GTE: u16 = 0x3;
    DRM_XE_UFENCE_WAIT_OP_LT: u16 = 0x4;
    DRM_XE_UFENCE_WAIT_OP_LTE: u16 = 0x5;
    DRM_XE_UFENCE_WAIT_FLAG_ABSTIME: u16 = 1 << 0;
}
