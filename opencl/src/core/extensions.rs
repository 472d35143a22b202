//! The extension table: every extension the platform and its devices report, its version, and
//! which devices have it. `clGetPlatformInfo`, `clGetDeviceInfo`, the compiler's `-cl-ext`
//! list and the README's table ("Extensions and features per platform", checked by a test
//! below) all come from here. Only what this runtime implements is listed.

use opencl_sys::{cl_version, make_version};
use platform::Platform;

use crate::core::facts::{facts, IMAGE_3D_WRITES};

/// Which devices report an extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// The platform (`CL_PLATFORM_EXTENSIONS`) and every device: cl_khr_icd, which Intel's
    /// runtime lists in both, so an application finds it where it looks.
    PlatformAndDevices,
    /// Every device.
    Always,
    /// Devices whose sub-groups make independent forward progress
    /// (`facts::Facts::independent_forward_progress`).
    ForwardProgress,
    /// Devices with images (`facts::Facts::images`).
    Images,
    /// Devices with images whose kernels may write 3D images.
    Image3dWrites,
    /// Devices computing in f64 (`Platform::has_fp64`).
    Fp64,
    /// Devices whose kernel driver presents their PCI address (in sysfs).
    PciAddress,
    /// Devices with sub-group block IO on `local` memory (`facts::Facts::local_block_io`).
    LocalBlockIo,
    /// `facts::Facts::dot_accumulate`.
    DotAccumulate,
    /// `facts::Facts::bfloat16_conversions`.
    Bfloat16Conversions,
    /// Devices whose EUs have a SIMD8 systolic array (`dpas`; `Platform::systolic_channels`).
    Systolic,
    /// Those whose EUs are also fused in pairs, which `dpasw` splits the work across.
    SystolicSplit,
    /// Devices of these platforms: an API-only extension the runtime does the same way
    /// everywhere, listed where NEO 22.43 lists it.
    On(&'static [Platform]),
}

impl Needs {
    fn holds(self, p: Platform, has_pci_address: bool) -> bool {
        let f = facts(p);
        match self {
            Needs::PlatformAndDevices => true,
            Needs::Always => true,
            Needs::ForwardProgress => f.independent_forward_progress(),
            Needs::Images => f.images,
            Needs::Image3dWrites => f.images && IMAGE_3D_WRITES,
            Needs::Fp64 => p.has_fp64(),
            Needs::PciAddress => has_pci_address,
            Needs::LocalBlockIo => f.local_block_io,
            Needs::DotAccumulate => f.dot_accumulate,
            Needs::Bfloat16Conversions => f.bfloat16_conversions,
            Needs::Systolic => p.systolic_channels() == Some(8),
            Needs::SystolicSplit => p.systolic_channels() == Some(8) && f.fused_eu,
            Needs::On(platforms) => platforms.contains(&p),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Extension {
    pub name: &'static str,
    /// Major, minor, patch (`CL_*_EXTENSIONS_WITH_VERSION`).
    pub version: (u32, u32, u32),
    pub needs: Needs,
}

impl Extension {
    pub fn version(&self) -> cl_version {
        let (a, b, c) = self.version;
        make_version(a, b, c)
    }
}

const fn ext(name: &'static str, needs: Needs) -> Extension {
    Extension {
        name,
        version: (1, 0, 0),
        needs,
    }
}

/// Every extension, in the order the queries list them.
pub const EXTENSIONS: &[Extension] = &[
    ext("cl_khr_icd", Needs::PlatformAndDevices),
    // OpenCL 1.1 made these four core; a device with the features still reports their names
    // (OpenCL 3.0 extension specification, "cl_khr_*_int32_*_atomics"). IGC compiles the
    // atom_* built-ins to the data port's atomic messages.
    ext("cl_khr_global_int32_base_atomics", Needs::Always),
    ext("cl_khr_global_int32_extended_atomics", Needs::Always),
    ext("cl_khr_local_int32_base_atomics", Needs::Always),
    ext("cl_khr_local_int32_extended_atomics", Needs::Always),
    // 64-bit atomics: IGC sends A64 atomics with QWord data on global memory and builds the
    // local ones from a 32-bit compare-and-swap lock; NEO reports both on all four.
    ext("cl_khr_int64_base_atomics", Needs::Always),
    ext("cl_khr_int64_extended_atomics", Needs::Always),
    ext("cl_khr_byte_addressable_store", Needs::Always),
    ext("cl_khr_il_program", Needs::Always),
    // SPIR-V modules using SPV_KHR_no_integer_wrap_decoration, which ocloc takes
    // (`tests/python/no_integer_wrap.py`).
    ext("cl_khr_spirv_no_integer_wrap_decoration", Needs::Always),
    ext("cl_khr_create_command_queue", Needs::Always),
    ext("cl_intel_subgroups", Needs::Always),
    ext("cl_intel_subgroups_char", Needs::Always),
    ext("cl_intel_subgroups_short", Needs::Always),
    ext("cl_intel_required_subgroup_size", Needs::Always),
    ext("cl_intel_spirv_subgroups", Needs::Always),
    // Every Gen9-Xe-HPG EU computes in HF (IEEE binary16); NEO reports it on all four.
    ext("cl_khr_fp16", Needs::Always),
    ext("cl_khr_subgroup_extended_types", Needs::Always),
    ext("cl_khr_subgroup_non_uniform_vote", Needs::Always),
    ext("cl_khr_subgroup_ballot", Needs::Always),
    ext("cl_khr_subgroup_non_uniform_arithmetic", Needs::Always),
    ext("cl_khr_subgroup_shuffle", Needs::Always),
    ext("cl_khr_subgroup_shuffle_relative", Needs::Always),
    ext("cl_khr_subgroup_clustered_reduce", Needs::Always),
    // The OpenCL 3.0 API specification requires independent forward progress of a device
    // reporting cl_khr_subgroups (core sub-groups do not need it).
    ext("cl_khr_subgroups", Needs::ForwardProgress),
    ext("cl_khr_3d_image_writes", Needs::Image3dWrites),
    ext("cl_khr_image2d_from_buffer", Needs::Images),
    // CL_DEPTH images in UNORM_INT16 and FLOAT (umd's R16_UNORM and R32_FLOAT surfaces), 2D and
    // 2D arrays, read and written by kernels as image2d_depth_t / image2d_array_depth_t
    // (`tests/python/depth_images.py`, also run through NEO, which lists it on all four).
    ext("cl_khr_depth_images", Needs::Images),
    // Mip-mapped images: umd's mip chains (levels placed as the PRM's surface layout), host
    // commands on one level, sampler LOD reads (explicit and from gradients, nearest or
    // linear between levels, clamped to the sampler's LOD range) and typed writes to a level
    // (`tests/python/mipmaps.py`, also run through NEO, which lists both on all four).
    ext("cl_khr_mipmap_image", Needs::Images),
    ext("cl_khr_mipmap_image_writes", Needs::Images),
    ext("cl_khr_fp64", Needs::Fp64),
    // Device and driver UUIDs (`core::device_uuid`); the device's from the PCI ids its kernel
    // driver reports, laid out as NEO lays it out.
    ext("cl_khr_device_uuid", Needs::Always),
    // The PCI address sysfs gives for the render node (`kmd_iface::pci_address`).
    ext("cl_khr_pci_bus_info", Needs::PciAddress),
    // IP version, PCI device id and topology as the kernel driver reports it, NEO's way.
    ext("cl_intel_device_attribute_query", Needs::Always),
    // clGetKernelSuggestedLocalWorkSizeKHR: the local size clEnqueueNDRangeKernel picks.
    ext("cl_khr_suggested_local_work_size", Needs::Always),
    // Queue hints: a low priority lowers the queue's kernel-driver context, as NEO does; the
    // throttle hint is validated and kept (neither kernel driver has a knob for it).
    ext("cl_khr_priority_hints", Needs::Always),
    ext("cl_khr_throttle_hints", Needs::Always),
    // ulong sub-group block reads and writes on buffers and images, which ocloc compiles to
    // the same block messages as the narrower types (`tests/python/subgroups_long.py`).
    ext("cl_intel_subgroups_long", Needs::Always),
    // Not cl_intel_split_work_group_barrier, which NEO lists on all four: Debian's IGC
    // declares `intel_work_group_barrier_arrive`/`_wait` under its macro but has no body for
    // them, so a kernel calling them keeps calls to undefined functions and its build fails
    // ("unresolved external symbol _Z31intel_work_group_barrier_arrivej" under NEO;
    // `tests/python/split_barrier.py`, which turns red once a compiler builds them). Its
    // SPIR-V form (SPV_INTEL_split_barrier) does build, and runs right (the same test).
    // Sub-group reads and writes of a 2D image region of a given width and height: ocloc
    // compiles them to the media block messages the simulator executes
    // (`tests/python/media_block_io.py`).
    ext("cl_intel_media_block_io", Needs::Images),
    // The same as SPIR-V instructions (OpSubgroupImageMediaBlock{Read,Write}INTEL), which
    // ocloc takes in IL programs (`tests/python/media_block_io.py` given ocloc).
    ext("cl_intel_spirv_media_block_io", Needs::Images),
    // Packed 4:2:2 YUV images (YUYV, UYVY, YVYU, VYUY in UNORM_INT8; read-only 2D, even
    // widths): umd's YCRCB surfaces, which the simulated sampler reads as (V, Y, U, 1.0)
    // (`tests/python/packed_yuv.py`, also run through NEO, which lists it on all four).
    ext("cl_intel_packed_yuv", Needs::Images),
    // NV12 images (UNORM_INT8, 2D, host no-access): umd's two-plane PLANAR_420_8 surfaces, read
    // by the simulated sampler as (V, Y, U, 1.0), and their Y and UV planes as R and RG images
    // (`tests/python/planar_yuv.py`, also run through NEO, which lists it on all four).
    ext("cl_intel_planar_yuv", Needs::Images),
    // The sub-group block reads and writes on `local` pointers: ocloc compiles them to OWord
    // block messages on the SLM surface (`tests/python/local_block_io.py`).
    ext("cl_intel_subgroup_local_block_io", Needs::LocalBlockIo),
    // `__builtin_IB_dp4a_*` under the macro (`tests/python/dot_accumulate.py`).
    ext("cl_intel_dot_accumulate", Needs::DotAccumulate),
    // `intel_convert_bfloat16*_as_ushort*` and back (`tests/python/bfloat16_conversions.py`).
    ext("cl_intel_bfloat16_conversions", Needs::Bfloat16Conversions),
    // `intel_sub_group_*_matrix_mad_k*`: `dpas`, and the `_split_` forms: `dpasw` across a
    // fused EU pair. Debian's compiler declares them only when the extension is named in a
    // `-cl-ext=-all,+…` list, as this runtime and NEO name extensions
    // (`tests/python/matrix_mad.py`, umd's `dpas_sim`).
    ext(
        "cl_intel_subgroup_matrix_multiply_accumulate",
        Needs::Systolic,
    ),
    ext(
        "cl_intel_subgroup_split_matrix_multiply_accumulate",
        Needs::SystolicSplit,
    ),
    // Host, device and shared allocations reached through plain pointers (`core::usm`), as
    // NEO reports it on all four.
    ext("cl_intel_unified_shared_memory", Needs::Always),
    // One command-queue family, the engine umd runs kernels on (`core::queue_family`).
    ext("cl_intel_command_queue_families", Needs::Always),
    // clCreateBufferWithPropertiesINTEL, which NEO lists on dg2 only.
    ext(
        "cl_intel_create_buffer_with_properties",
        Needs::On(&[Platform::Dg2]),
    ),
    // Buffers in host memory (`core::memory::create_buffer`).
    ext("cl_intel_mem_force_host_memory", Needs::Always),
    // Hints for buffers through the context callback (`core::context::hint`).
    ext("cl_intel_driver_diagnostics", Needs::Always),
    // Accelerator objects (`core::accelerator`): created, queried, retained and released as
    // NEO 22.43 does on all four. Not cl_intel_motion_estimation, which NEO lists on skl and
    // icllp: its built-in kernels run the media sampler's VME engine, which neither umd nor
    // the simulator has.
    ext("cl_intel_accelerator", Needs::Always),
    // Not cl_intel_sharing_format_query, which NEO lists on all four beside
    // cl_intel_va_api_media_sharing: each of its functions exists only with the sharing
    // extension it queries (GL, VA-API, DX9, D3D10/11) and takes a context made for that
    // sharing; this runtime shares with none of them, so it would have no function
    // (`tests/python/sharing_format_query.py`).
    // SPIR 1.2 binaries through clCreateProgramWithBinary and clBuildProgram (`Input::Spir` in
    // core/build.rs).
    ext("cl_khr_spir", Needs::Always),
];

/// The platform's extensions.
pub fn of_platform() -> impl Iterator<Item = &'static Extension> {
    EXTENSIONS
        .iter()
        .filter(|e| e.needs == Needs::PlatformAndDevices)
}

/// The extensions a device of platform `p` reports (a fused-off part or a render node of `p`
/// reports the same), `has_pci_address` when sysfs gives its PCI address.
pub fn of_device(p: Platform, has_pci_address: bool) -> impl Iterator<Item = &'static Extension> {
    EXTENSIONS
        .iter()
        .filter(move |e| e.needs.holds(p, has_pci_address))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    const README: &str = include_str!("../../../README.md");
    const COLUMNS: [Platform; 4] = [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
    ];

    /// The README's extension table: per platform, the extensions marked ✓.
    fn readme_table() -> Vec<BTreeSet<String>> {
        let section = README
            .split("## Extensions and features per platform")
            .nth(1)
            .expect("the README has the section");
        let table = section
            .split("| extension |")
            .nth(1)
            .expect("the section has the extension table");
        let mut per = vec![BTreeSet::new(); COLUMNS.len()];
        for row in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
            let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
            // "a, b (why)": the names before any parenthesis.
            let names = cells[0].split('(').next().unwrap_or("");
            for (col, mark) in cells[1..].iter().enumerate() {
                if *mark == "✓" {
                    per[col].extend(names.split(',').map(|n| n.trim().to_string()));
                }
            }
        }
        per
    }

    #[test]
    fn the_readme_lists_what_each_device_reports() {
        let readme = readme_table();
        for (col, p) in COLUMNS.iter().enumerate() {
            // Every simulated device has a PCI address in its sysfs tree.
            let ours: BTreeSet<String> = of_device(*p, true).map(|e| e.name.to_string()).collect();
            assert_eq!(
                readme[col], ours,
                "{p}: README table vs the extension table"
            );
        }
    }

    #[test]
    fn the_readme_names_what_the_platform_reports() {
        let sentence = README
            .split("The platform itself reports ")
            .nth(1)
            .and_then(|s| s.split('.').next())
            .expect("the README says what the platform reports");
        let readme: BTreeSet<&str> = sentence.split('`').skip(1).step_by(2).collect();
        let ours: BTreeSet<&str> = of_platform().map(|e| e.name).collect();
        assert_eq!(readme, ours);
    }
}
