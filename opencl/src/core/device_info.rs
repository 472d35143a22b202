//! Every clGetDeviceInfo query of a device.

use opencl_sys::*;

use crate::core::device::*;
use crate::core::device_uuid::{device_uuid, driver_uuid, pci_bus_info, LUID, NODE_MASK};
use crate::core::identity::{version, DRIVER, VENDOR};
use crate::core::info::Info;
use crate::core::platform;
use crate::core::queue_family;

impl Device {
    pub fn info(&self, param: cl_device_info) -> Result<Info, cl_int> {
        let i = self.umd.info();
        let fp64 = self.umd.platform().has_fp64();
        let double_cfg = if fp64 {
            CL_FP_FMA
                | CL_FP_ROUND_TO_NEAREST
                | CL_FP_ROUND_TO_ZERO
                | CL_FP_ROUND_TO_INF
                | CL_FP_INF_NAN
                | CL_FP_DENORM
        } else {
            0
        };
        let exts = self.extensions();
        let img = self.image_limits();
        Ok(match param {
            CL_DEVICE_TYPE => Info::Ulong(CL_DEVICE_TYPE_GPU),
            CL_DEVICE_VENDOR_ID => Info::Uint(0x8086),
            CL_DEVICE_MAX_COMPUTE_UNITS => Info::Uint(i.eu_count),
            CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => Info::Uint(3),
            CL_DEVICE_MAX_WORK_ITEM_SIZES => Info::Sizes(vec![self.max_work_group(); 3]),
            CL_DEVICE_MAX_WORK_GROUP_SIZE => Info::Size(self.max_work_group()),
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR => {
                Info::Uint(16)
            }
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT | CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT => {
                Info::Uint(8)
            }
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT | CL_DEVICE_NATIVE_VECTOR_WIDTH_INT => {
                Info::Uint(4)
            }
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG | CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG => {
                Info::Uint(1)
            }
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT | CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => {
                Info::Uint(1)
            }
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => {
                Info::Uint(fp64 as u32)
            }
            // cl_khr_fp16: NEO reports 8 for both on every platform.
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => {
                Info::Uint(8)
            }
            // What the kernel publishes (RP0 unless lowered); 0 without it, as NEO reports.
            CL_DEVICE_MAX_CLOCK_FREQUENCY => Info::Uint(self.umd.max_clock_mhz().unwrap_or(0)),
            CL_DEVICE_ADDRESS_BITS => Info::Uint(64),
            CL_DEVICE_MAX_MEM_ALLOC_SIZE => Info::Ulong(self.max_alloc()),
            CL_DEVICE_IMAGE_SUPPORT => Info::Bool(self.image_support()),
            CL_DEVICE_MAX_READ_IMAGE_ARGS => Info::Uint(img.read_args),
            CL_DEVICE_MAX_WRITE_IMAGE_ARGS => Info::Uint(img.write_args),
            CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS => Info::Uint(img.read_write_args),
            CL_DEVICE_MAX_SAMPLERS => Info::Uint(img.samplers),
            // Images from buffers (cl_khr_image2d_from_buffer): 0 without images, as OpenCL
            // 3.0 requires of a device without them.
            CL_DEVICE_IMAGE_PITCH_ALIGNMENT => Info::Uint(if self.image_support() {
                crate::core::image_from_buffer::PITCH_ALIGNMENT
            } else {
                0
            }),
            CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT => Info::Uint(if self.image_support() {
                crate::core::image_from_buffer::BASE_ADDRESS_ALIGNMENT
            } else {
                0
            }),
            // cl_intel_planar_yuv, reported where images are.
            CL_DEVICE_PLANAR_YUV_MAX_WIDTH_INTEL if self.facts.images => {
                Info::Size(crate::core::facts::PLANAR_YUV_MAX_WIDTH as usize)
            }
            CL_DEVICE_PLANAR_YUV_MAX_HEIGHT_INTEL if self.facts.images => {
                Info::Size(self.facts.planar_yuv_max_height as usize)
            }
            CL_DEVICE_IMAGE2D_MAX_WIDTH => Info::Size(img.width_2d),
            CL_DEVICE_IMAGE2D_MAX_HEIGHT => Info::Size(img.height_2d),
            CL_DEVICE_IMAGE3D_MAX_WIDTH => Info::Size(img.width_3d),
            CL_DEVICE_IMAGE3D_MAX_HEIGHT => Info::Size(img.height_3d),
            CL_DEVICE_IMAGE3D_MAX_DEPTH => Info::Size(img.depth_3d),
            CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => Info::Size(img.buffer_size),
            CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => Info::Size(img.array_size),
            CL_DEVICE_MAX_PARAMETER_SIZE => Info::Size(MAX_PARAMETER_SIZE),
            // Bits; buffers start on the VA heap's page granule, far above this.
            CL_DEVICE_MEM_BASE_ADDR_ALIGN => Info::Uint(1024),
            CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => Info::Uint(128),
            CL_DEVICE_SINGLE_FP_CONFIG => Info::Ulong(SINGLE_FP_CONFIG),
            CL_DEVICE_DOUBLE_FP_CONFIG => Info::Ulong(double_cfg),
            CL_DEVICE_HALF_FP_CONFIG => Info::Ulong(HALF_FP_CONFIG),
            CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => Info::Uint(CL_READ_WRITE_CACHE),
            CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => {
                Info::Uint(crate::core::memory::CACHELINE as u32)
            }
            CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => Info::Ulong(
                self.facts
                    .l3_bytes
                    .or_else(|| self.umd.l3_bytes_from_hwconfig())
                    .unwrap_or(0),
            ),
            CL_DEVICE_GLOBAL_MEM_SIZE => Info::Ulong(self.global_mem()),
            CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => Info::Ulong(64 << 10),
            CL_DEVICE_MAX_CONSTANT_ARGS => Info::Uint(8),
            CL_DEVICE_LOCAL_MEM_TYPE => Info::Uint(CL_LOCAL),
            CL_DEVICE_LOCAL_MEM_SIZE => Info::Ulong(LOCAL_MEM_BYTES),
            CL_DEVICE_ERROR_CORRECTION_SUPPORT => Info::Bool(false),
            CL_DEVICE_HOST_UNIFIED_MEMORY => {
                Info::Bool(!sim::device_info::DeviceInfo::get(i.platform).has_local_memory)
            }
            // A kernel's START and END come from the GPU's timestamp counter: one tick.
            CL_DEVICE_PROFILING_TIMER_RESOLUTION => Info::Size(
                self.clock()
                    .map_or(1, |c| c.resolution_ns().max(1) as usize),
            ),
            CL_DEVICE_ENDIAN_LITTLE => Info::Bool(true),
            CL_DEVICE_AVAILABLE => Info::Bool(true),
            CL_DEVICE_COMPILER_AVAILABLE => Info::Bool(crate::compiler::available()),
            // clLinkProgram runs ocloc's linker, in the same library as the compiler.
            CL_DEVICE_LINKER_AVAILABLE => Info::Bool(crate::compiler::available()),
            CL_DEVICE_EXECUTION_CAPABILITIES => Info::Ulong(CL_EXEC_KERNEL),
            CL_DEVICE_QUEUE_ON_HOST_PROPERTIES => Info::Ulong(queue_family::HOST_QUEUE_PROPERTIES),
            CL_DEVICE_QUEUE_FAMILY_PROPERTIES_INTEL => {
                Info::Bytes(queue_family::as_bytes(&queue_family::families(self)))
            }
            CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES => Info::Ulong(0),
            CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE
            | CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE
            | CL_DEVICE_MAX_ON_DEVICE_QUEUES
            | CL_DEVICE_MAX_ON_DEVICE_EVENTS
            | CL_DEVICE_MAX_PIPE_ARGS
            | CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS
            | CL_DEVICE_PIPE_MAX_PACKET_SIZE => Info::Uint(0),
            // A cache line, as Intel's runtime prefers (NEO 22.43 `initializeCaps`:
            // `MemoryConstants::cacheLineSize` for all three; NEO on a real A770 shows 64).
            CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT
            | CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
            | CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT => {
                Info::Uint(crate::core::memory::CACHELINE as u32)
            }
            CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE => Info::Size(MAX_GLOBAL_VARIABLE_SIZE),
            CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE => Info::Size(self.max_alloc() as usize),
            CL_DEVICE_SVM_CAPABILITIES => Info::Ulong(0),
            // cl_intel_unified_shared_memory. Shared allocations live on one device's VM, so
            // other devices do not reach them (NEO reports cross-device access on dg2), and
            // plain system memory is not reachable (as NEO reports).
            CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL => Info::Ulong(self.facts.usm_host),
            CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL
            | CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL => {
                Info::Ulong(crate::core::facts::USM_DEVICE_AND_SHARED)
            }
            CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL
            | CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL => Info::Ulong(0),
            CL_DEVICE_PLATFORM => Info::Ptr(platform::get().raw()),
            CL_DEVICE_NAME => Info::Str(self.name()),
            CL_DEVICE_VENDOR => Info::Str(VENDOR.into()),
            CL_DRIVER_VERSION => Info::Str(env!("CARGO_PKG_VERSION").into()),
            CL_DEVICE_PROFILE => Info::Str("FULL_PROFILE".into()),
            CL_DEVICE_VERSION => Info::Str(format!("OpenCL 3.0 {DRIVER}")),
            CL_DEVICE_NUMERIC_VERSION => Info::Uint(version(3, 0, 0)),
            CL_DEVICE_OPENCL_C_VERSION => Info::Str("OpenCL C 1.2 ".into()),
            CL_DEVICE_OPENCL_C_ALL_VERSIONS => Info::NameVersions(
                [(1, 0), (1, 1), (1, 2), (3, 0)]
                    .iter()
                    .map(|&(a, b)| ("OpenCL C".to_string(), version(a, b, 0)))
                    .collect(),
            ),
            CL_DEVICE_OPENCL_C_FEATURES => Info::NameVersions(
                self.c_features()
                    .into_iter()
                    .map(|(n, v)| (n.to_string(), v))
                    .collect(),
            ),
            CL_DEVICE_EXTENSIONS => {
                Info::Str(exts.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(" "))
            }
            CL_DEVICE_EXTENSIONS_WITH_VERSION => {
                Info::NameVersions(exts.into_iter().map(|(n, v)| (n.to_string(), v)).collect())
            }
            // cl_khr_spir: SPIR 1.2 binaries, LLVM bitcode ocloc compiles (`-llvm_input`).
            CL_DEVICE_SPIR_VERSIONS => Info::Str("1.2".into()),
            CL_DEVICE_IL_VERSION => Info::Str(
                SPIRV_VERSIONS
                    .iter()
                    .map(|(major, minor)| format!("SPIR-V_{major}.{minor}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            CL_DEVICE_ILS_WITH_VERSION => Info::NameVersions(
                SPIRV_VERSIONS
                    .iter()
                    .map(|(major, minor)| ("SPIR-V".into(), version(*major, *minor, 0)))
                    .collect(),
            ),
            CL_DEVICE_BUILT_IN_KERNELS => Info::Str(String::new()),
            CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION => Info::NameVersions(Vec::new()),
            CL_DEVICE_PRINTF_BUFFER_SIZE => Info::Size(umd::printf::BUFFER_BYTES as usize),
            CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => Info::Bool(true),
            CL_DEVICE_PARENT_DEVICE => Info::Ptr(std::ptr::null_mut()),
            CL_DEVICE_PARTITION_MAX_SUB_DEVICES => Info::Uint(0),
            CL_DEVICE_PARTITION_PROPERTIES => Info::Sizes(vec![0]),
            CL_DEVICE_PARTITION_AFFINITY_DOMAIN => Info::Ulong(0),
            CL_DEVICE_PARTITION_TYPE => Info::Sizes(Vec::new()),
            CL_DEVICE_REFERENCE_COUNT => Info::Uint(1),
            CL_DEVICE_MAX_NUM_SUB_GROUPS => Info::Uint(self.max_sub_groups() as u32),
            CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS => {
                Info::Bool(self.facts.independent_forward_progress())
            }
            CL_DEVICE_SUB_GROUP_SIZES_INTEL => Info::Sizes(i.sub_group_sizes().to_vec()),
            CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES => Info::Ulong(ATOMIC_MEMORY_CAPABILITIES),
            CL_DEVICE_ATOMIC_FENCE_CAPABILITIES => Info::Ulong(ATOMIC_FENCE_CAPABILITIES),
            CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT => Info::Bool(true),
            CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT => Info::Bool(
                PORTABLE_FEATURES.contains(&"__opencl_c_work_group_collective_functions"),
            ),
            CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT => {
                Info::Bool(PORTABLE_FEATURES.contains(&"__opencl_c_generic_address_space"))
            }
            CL_DEVICE_PIPE_SUPPORT => Info::Bool(false),
            CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES => Info::Ulong(0),
            CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => {
                Info::Size(self.facts.preferred_work_group_multiple())
            }
            CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED => Info::Str("v0000-01-01-00".into()),
            // cl_khr_device_uuid (`core::device_uuid`).
            CL_DEVICE_UUID_KHR => Info::Bytes(device_uuid(i.device_id, self.index).to_vec()),
            CL_DRIVER_UUID_KHR => Info::Bytes(driver_uuid(env!("CARGO_PKG_VERSION")).to_vec()),
            CL_DEVICE_LUID_VALID_KHR => Info::Bool(false),
            CL_DEVICE_LUID_KHR => Info::Bytes(LUID.to_vec()),
            CL_DEVICE_NODE_MASK_KHR => Info::Uint(NODE_MASK),
            // cl_khr_pci_bus_info: not a query of a device without the extension.
            CL_DEVICE_PCI_BUS_INFO_KHR => {
                Info::Bytes(pci_bus_info(self.pci_address().ok_or(CL_INVALID_VALUE)?))
            }
            // cl_intel_device_attribute_query, from what the kernel driver reports (PCI id,
            // topology, local memory) and the platform's facts, as NEO answers.
            CL_DEVICE_IP_VERSION_INTEL => Info::Uint(crate::core::facts::ip_version(
                i.platform,
                self.umd.has_local_memory(),
            )),
            CL_DEVICE_ID_INTEL => Info::Uint(u32::from(i.device_id)),
            CL_DEVICE_NUM_SLICES_INTEL => Info::Uint(i.slice_count),
            // Enabled subslices over enabled slices, as NEO divides them.
            CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL => {
                Info::Uint(i.subslice_count.checked_div(i.slice_count).unwrap_or(0))
            }
            // The largest subslice (the fused-off EUs of a part still count).
            CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL => Info::Uint(i.topology.max_eus_per_subslice),
            CL_DEVICE_NUM_THREADS_PER_EU_INTEL => Info::Uint(i.threads_per_eu()),
            CL_DEVICE_FEATURE_CAPABILITIES_INTEL => {
                Info::Ulong(crate::core::facts::feature_capabilities(i.platform))
            }
            _ => return Err(crate::core::reason::unknown_query("device", param)),
        })
    }
}
