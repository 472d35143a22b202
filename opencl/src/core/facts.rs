//! Per-platform facts the OpenCL device queries report that no lower crate holds (fp64 is
//! `platform::Platform::has_fp64`).

use platform::Platform;

/// Whether kernels may write 3D images (`__opencl_c_3d_image_writes`, cl_khr_3d_image_writes):
/// `write_image*` to a 3D image is a typed surface write like any other (umd's
/// `images_typed_sim` writes 3D images; `tests/python/images.py` from OpenCL).
pub const IMAGE_3D_WRITES: bool = true;

/// What one platform's hardware has.
#[derive(Debug, Clone, Copy)]
pub struct Facts {
    /// L3 cache bytes of the reference part where no kernel interface tells them (the parts
    /// without a GuC hardware-configuration table; Intel's runtime keeps the same numbers in
    /// its device tables: NEO 22.43 `hw_info_skl.cpp` 1x3x8 768 KiB, `hw_info_icllp.cpp` 1x8x8
    /// 3 MiB, `hw_info_tgllp.cpp` 1x6x16 3840 KiB). None where the table gives them
    /// (`umd::Device::l3_bytes_from_hwconfig`). The maximum clock is never here: the kernel
    /// publishes it (`umd::Device::max_clock_mhz`).
    pub l3_bytes: Option<u64>,
    /// Whether the EUs run their threads in fused pairs sharing one instruction stream
    /// (Gen12LP and Xe-HPG; NEO's `fusedEuEnabled`), which decides two queries
    /// ([`Facts::independent_forward_progress`], [`Facts::preferred_work_group_multiple`]).
    pub fused_eu: bool,
    /// Whether the device reports images (`CL_DEVICE_IMAGE_SUPPORT`): kernels' typed
    /// `read_image*`/`write_image*` and sampler reads run there (umd's `images_typed_sim` and
    /// `images_sampler_sim`, this crate's `tests/python/images.py`).
    pub images: bool,
    /// CL_DEVICE_IP_VERSION_INTEL's major and minor (cl_intel_device_attribute_query leaves the
    /// meaning to the implementation, newer devices higher). Intel's runtime's numbers (NEO
    /// 22.43, `ClHwHelperHw::getDeviceIpVersion` per core: Gen9 9.0, Gen11 11.0, Gen12LP 12.0,
    /// Xe-HPG 12.7), so applications' version checks written against NEO hold; the revision
    /// byte is 1 on a discrete device, 0 on an integrated one, as there
    /// (`ClHwHelper::makeDeviceRevision`).
    pub ip_version: (u16, u8),
    /// Whether the device reports cl_intel_subgroup_local_block_io (sub-group block reads and
    /// writes on `local` pointers, OWord block messages on the SLM surface). Intel's runtime
    /// names it in its Gen11, Gen12LP and Xe-HPG core helpers' extension lists and not in
    /// Gen9's (NEO 22.43 `HwHelperHw::getExtensions`), and OpenVINO's GPU plugin compiles its
    /// kernels' SLM block paths when a device lists it, so the list follows NEO's.
    pub local_block_io: bool,
    /// Whether the device reports cl_intel_dot_accumulate: the macro under which kernels (oneDNN's
    /// among them) use the compiler's `__builtin_IB_dp4a_*`, the EU's `dp4a`. Gen12LP has the
    /// instruction too, but Intel's runtime (22.43, `isDotAccumulateSupported`) lists the
    /// extension on Xe-HPG only, and applications choose their kernels by the list.
    pub dot_accumulate: bool,
    /// Whether the device reports cl_intel_bfloat16_conversions (float <-> bfloat16 `mov`s with
    /// the `:bf` type, Xe-HPG's; NEO lists it there only).
    pub bfloat16_conversions: bool,
    /// CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL: what kernels may do to host allocations. NEO
    /// 22.43 reports access and atomic access on the integrated parts, access alone on dg2,
    /// whose kernels reach host memory over PCIe (measured with clinfo under the simulator
    /// shim).
    pub usm_host: u64,
    /// CL_DEVICE_PLANAR_YUV_MAX_HEIGHT_INTEL (cl_intel_planar_yuv): NEO 22.43's
    /// `getPlanarYuvMaxHeight`, 16352 up to Gen12LP and 16128 on Xe-HPG, so that an application
    /// sizing NV12 images by it gets the same ones; within what umd's NV12 surfaces describe
    /// (the UV plane starts at row `height`, which the 14-bit Y Offset for U or UV Plane
    /// holds up to [`umd::image::MAX_NV12_HEIGHT`]). The
    /// width is 16384 on all four ([`PLANAR_YUV_MAX_WIDTH`]).
    pub planar_yuv_max_height: u32,
    /// Whether buffers could be kept compressed on this device (Xe-HPG's flat CCS), which is
    /// when Intel's runtime tells cl_intel_driver_diagnostics listeners, as a neutral hint per
    /// buffer, whether each one is (NEO `Buffer::provideCompressionHint`, gated by
    /// `compressedBuffersSupported`: dg2 at a production stepping). This driver never
    /// compresses buffers, so there it says "not compressed".
    pub compressible_buffers: bool,
}

/// CL_DEVICE_PLANAR_YUV_MAX_WIDTH_INTEL: a 2D surface's width (NEO reports the same).
pub const PLANAR_YUV_MAX_WIDTH: u32 = umd::image::MAX_2D_SIZE;

/// CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL and CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
/// access and atomic access on every part, as NEO reports. Neither concurrent bit: the host
/// and the device do not work on one allocation at the same time by contract here.
pub const USM_DEVICE_AND_SHARED: u64 = opencl_sys::CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL
    | opencl_sys::CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL;

pub fn facts(p: Platform) -> Facts {
    match p {
        Platform::Skl => Facts {
            l3_bytes: Some(768 << 10),
            fused_eu: false,
            images: true,
            ip_version: (9, 0),
            local_block_io: false,
            dot_accumulate: false,
            bfloat16_conversions: false,
            usm_host: USM_DEVICE_AND_SHARED,
            planar_yuv_max_height: 16352,
            compressible_buffers: false,
        },
        Platform::Icllp => Facts {
            l3_bytes: Some(3 << 20),
            fused_eu: false,
            images: true,
            ip_version: (11, 0),
            local_block_io: true,
            dot_accumulate: false,
            bfloat16_conversions: false,
            usm_host: USM_DEVICE_AND_SHARED,
            planar_yuv_max_height: 16352,
            compressible_buffers: false,
        },
        Platform::Tgllp => Facts {
            l3_bytes: Some(3840 << 10),
            fused_eu: true,
            images: true,
            ip_version: (12, 0),
            local_block_io: true,
            dot_accumulate: false,
            bfloat16_conversions: false,
            usm_host: USM_DEVICE_AND_SHARED,
            planar_yuv_max_height: 16352,
            compressible_buffers: false,
        },
        Platform::Dg2 => Facts {
            l3_bytes: None,
            fused_eu: true,
            images: true,
            ip_version: (12, 7),
            local_block_io: true,
            dot_accumulate: true,
            bfloat16_conversions: true,
            usm_host: opencl_sys::CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL,
            planar_yuv_max_height: 16128,
            compressible_buffers: true,
        },
    }
}

impl Facts {
    /// Whether sub-groups of a work-group make independent forward progress
    /// (`CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS`): a sub-group spinning on a value
    /// another sub-group of its work-group will store does not stop that one from running. The
    /// OpenCL 3.0 API specification requires it of every device reporting cl_khr_subgroups, so
    /// it also decides that extension (OpenCL 3.0 core sub-groups do not need it). Intel's
    /// runtime (NEO) takes it from each platform's capability table
    /// (`supportsIndependentForwardProgress`): true for Gen9 and Gen11, whose EUs each run their
    /// own threads; false where EUs are fused, where a spinning thread can hold its partner.
    /// `opencl/tests/neo_subgroup_facts.rs` checks the value against NEO's on skl and tgllp.
    pub fn independent_forward_progress(&self) -> bool {
        !self.fused_eu
    }

    /// CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: the widest sub-group (SIMD32), twice that
    /// where EUs are fused (a fused pair dispatches together), as Intel's runtime reports it
    /// (NEO 22.43 `ClDevice::initializeCaps`: `maximalSimdSize * 2` when
    /// `isFusedEuDispatchEnabled`) and as NEO on a real Arc A750 shows it (64).
    pub fn preferred_work_group_multiple(&self) -> usize {
        let widest = umd::device::SUB_GROUP_SIZES
            .iter()
            .copied()
            .max()
            .unwrap_or(32);
        if self.fused_eu {
            2 * widest
        } else {
            widest
        }
    }
}

/// CL_DEVICE_IP_VERSION_INTEL: `major << 16 | minor << 8 | revision` (NEO's
/// `makeDeviceIpVersion`), the revision 1 for a discrete device.
pub fn ip_version(p: Platform, discrete: bool) -> u32 {
    let (major, minor) = facts(p).ip_version;
    u32::from(major) << 16 | u32::from(minor) << 8 | u32::from(discrete)
}

/// CL_DEVICE_FEATURE_CAPABILITIES_INTEL: DP4A where the EU has the `dp4a` instruction (Gen12
/// on), DPAS where it has `dpas` (Xe-HPG's systolic array, which the simulator runs bit-exactly:
/// sim-eu `dpas.rs`); both from `isa_encoder`'s opcode table. Applications take DPAS as "use
/// XMX kernels" (OpenVINO's GPU plugin then runs oneDNN's generated kernels, with 256-register
/// threads: Large GRF Mode).
pub fn feature_capabilities(p: Platform) -> u64 {
    use isa_encoder::model::opcode::Opcode;
    let mut caps = 0;
    if Opcode::Dp4a.number(p).is_some() {
        caps |= opencl_sys::CL_DEVICE_FEATURE_FLAG_DP4A_INTEL;
    }
    if Opcode::Dpas.number(p).is_some() {
        caps |= opencl_sys::CL_DEVICE_FEATURE_FLAG_DPAS_INTEL;
    }
    caps
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NEO's answers (22.43, `ClHwHelperHw` per core): none on Gen9/Gen11, DP4A on Gen12LP,
    /// DPAS and DP4A on Xe-HPG; IP versions 9.0.0,
    /// 11.0.0, 12.0.0 and 12.7.1 (discrete DG2).
    #[test]
    fn feature_flags_and_ip_versions_are_neos() {
        use opencl_sys::CL_DEVICE_FEATURE_FLAG_DP4A_INTEL as DP4A;
        assert_eq!(feature_capabilities(Platform::Skl), 0);
        assert_eq!(feature_capabilities(Platform::Icllp), 0);
        assert_eq!(feature_capabilities(Platform::Tgllp), DP4A);
        assert_eq!(
            feature_capabilities(Platform::Dg2),
            DP4A | opencl_sys::CL_DEVICE_FEATURE_FLAG_DPAS_INTEL
        );
        assert_eq!(ip_version(Platform::Skl, false), 0x0009_0000);
        assert_eq!(ip_version(Platform::Icllp, false), 0x000b_0000);
        assert_eq!(ip_version(Platform::Tgllp, false), 0x000c_0000);
        assert_eq!(ip_version(Platform::Dg2, true), 0x000c_0701);
    }
}
