//! Devices: what each one has and the limits it reports (its queries are [`super::device_info`]).

use opencl_sys::*;

use crate::core::extensions;
pub use crate::core::facts::IMAGE_3D_WRITES;
use crate::core::facts::{facts, Facts};
use crate::core::handle::{ClObject, Kind};
use crate::core::identity::version;

/// Shared local memory per work-group (the 64 KiB every Gen9–Xe-HPG walker can encode).
pub const LOCAL_MEM_BYTES: u64 = 64 << 10;

/// CL_DEVICE_HALF_FP_CONFIG (cl_khr_fp16): what NEO reports on every platform. The EU's HF
/// math takes the rounding mode from cr0 (all four IEEE modes), keeps HF denormals when cr0's
/// HF denorm bit is set (IGC sets it) and has a fused mad.
pub const HALF_FP_CONFIG: cl_device_fp_config = CL_FP_ROUND_TO_NEAREST
    | CL_FP_ROUND_TO_ZERO
    | CL_FP_ROUND_TO_INF
    | CL_FP_INF_NAN
    | CL_FP_DENORM
    | CL_FP_FMA;

/// CL_DEVICE_SINGLE_FP_CONFIG: NEO's default flags (22.43 `initializeCaps`, every platform;
/// NEO on a real Arc A750 shows them) and correctly rounded divide and sqrt, which NEO
/// reports only with 64-bit math (not on icllp) and this runtime everywhere. The EU's float math takes the rounding mode from cr0 (all four IEEE modes:
/// sim-eu's `rounding.rs`), keeps denormals, and its `mad` is fused (one rounding);
/// correctly rounded divide and sqrt under -cl-fp32-correctly-rounded-divide-sqrt on every
/// platform (`umd --test integration ieee_div_sqrt_sim::`, `--test pyopencl` cr_divide.py).
pub const SINGLE_FP_CONFIG: cl_device_fp_config =
    HALF_FP_CONFIG | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;

/// Whether kernels may take `read_write` images (`__opencl_c_read_write_images`). IGC
/// compiles their reads to sampler loads (`ld_lz`) and their writes to typed surface writes
/// of the same binding-table entry, and `atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, ...)` to
/// a data-port fence and a sampler cache flush, on every platform (ocloc 22.43, skl to dg2);
/// the simulator runs all of them (`tests/python/rw_images.py` on every simulated device).
pub const READ_WRITE_IMAGES: bool = true;

/// OpenCL C 3.0 features every device has, as NEO reports them for devices with OpenCL 2.1
/// features: IGC compiles `work_group_*` collectives to shared local memory and barriers,
/// generic pointers to a tagged address that each access tests for local memory, and
/// program-scope `global` variables to a surface the program's kernels share (umd's
/// `segments`). Checked on every simulated device by `tests/python/c3_features.py`.
pub const PORTABLE_FEATURES: [&str; 3] = [
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_generic_address_space",
    "__opencl_c_program_scope_global_variables",
];

/// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: NEO's value (64 KiB) for devices with program-scope
/// globals; the preferred total is CL_DEVICE_MAX_MEM_ALLOC_SIZE, as NEO reports.
pub const MAX_GLOBAL_VARIABLE_SIZE: usize = 64 << 10;

/// CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, the same on every platform: what NEO reports for
/// devices with OpenCL 2.1 features (`ocl21FeaturesEnabled`), which IGC compiles for all of them.
/// IGC brackets a device-scope seq_cst atomic with data-port fences (ocloc + iga64: HDC
/// "synchronized global fence" on skl, `fence.ugm`/`fence.tgm` on dg2), which the simulator
/// models over one coherent memory. All-devices scope on memory that is not SVM (none is
/// offered) behaves as device scope (OpenCL C 3.0, "Memory Scope"). Checked against CPU
/// references on every simulated device by `tests/python/atomics.py`.
pub const ATOMIC_MEMORY_CAPABILITIES: cl_device_atomic_capabilities = CL_DEVICE_ATOMIC_ORDER_RELAXED
    | CL_DEVICE_ATOMIC_ORDER_ACQ_REL
    | CL_DEVICE_ATOMIC_ORDER_SEQ_CST
    | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP
    | CL_DEVICE_ATOMIC_SCOPE_DEVICE
    | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;

/// CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: the memory capabilities and work-item scope, which
/// only fences take.
pub const ATOMIC_FENCE_CAPABILITIES: cl_device_atomic_capabilities =
    ATOMIC_MEMORY_CAPABILITIES | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;

/// The OpenCL C 3.0 feature macro each atomic memory capability stands for.
pub const ATOMIC_FEATURES: [(cl_device_atomic_capabilities, &str); 4] = [
    (
        CL_DEVICE_ATOMIC_ORDER_ACQ_REL,
        "__opencl_c_atomic_order_acq_rel",
    ),
    (
        CL_DEVICE_ATOMIC_ORDER_SEQ_CST,
        "__opencl_c_atomic_order_seq_cst",
    ),
    (
        CL_DEVICE_ATOMIC_SCOPE_DEVICE,
        "__opencl_c_atomic_scope_device",
    ),
    (
        CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES,
        "__opencl_c_atomic_scope_all_devices",
    ),
];

/// The SPIR-V versions the device reports (CL_DEVICE_IL_VERSION), as NEO of Debian's release
/// does: those whose whole core Debian's IGC compiles.
pub const SPIRV_VERSIONS: [(u32, u32); 3] = [(1, 0), (1, 1), (1, 2)];

/// The SPIR-V versions clBuildProgram hands to the compiler: the reported ones and 1.3 and 1.4,
/// which ocloc itself writes (`-spv_only` makes a 1.4 module of any kernel with signed
/// arithmetic, for its NoSignedWrap decorations) and NEO builds although it reports 1.2. Not
/// reported because Debian's IGC does not take all of 1.4's core: OpCopyLogical, OpPtrEqual,
/// OpPtrNotEqual, OpPtrDiff and OpDecorateString fail the build ("IGC SPIRV Consumer does not
/// support the following opcode"; CTS test_spirv_new `spirv14_*`). 1.5 and newer are refused
/// before IGC sees them: it ends NEO's process on such a module.
pub const SPIRV_ACCEPTED: [(u32, u32); 5] = [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4)];

/// The image limits of an image-capable device (OpenCL 3.0, table "List of supported param_names
/// by clGetDeviceInfo"; each at least the specification's minimum for a device with images).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImageLimits {
    pub read_args: u32,
    pub write_args: u32,
    pub read_write_args: u32,
    pub samplers: u32,
    pub width_2d: usize,
    pub height_2d: usize,
    pub width_3d: usize,
    pub height_3d: usize,
    pub depth_3d: usize,
    pub array_size: usize,
    pub buffer_size: usize,
}

pub const READ_IMAGE_ARGS: u32 = 128;
pub const WRITE_IMAGE_ARGS: u32 = 64;
pub const READ_WRITE_IMAGE_ARGS: u32 = 64;
// A kernel may take read-only and write-only images at their limits at once, each in its own
// binding-table entry. Read-write images at their limit fit as well; all three kinds at
// their limits at once (256) would not fit the 240 entries, but no kernel takes that many:
// CL_DEVICE_MAX_PARAMETER_SIZE (1024 bytes, 8 per image) bounds a kernel to 128 images.
const _: () = assert!(
    (READ_IMAGE_ARGS + WRITE_IMAGE_ARGS) as usize
        <= batchbuffer::builder::MAX_BINDING_TABLE_ENTRIES
        && READ_WRITE_IMAGE_ARGS as usize <= batchbuffer::builder::MAX_BINDING_TABLE_ENTRIES
        && MAX_PARAMETER_SIZE / 8 <= batchbuffer::builder::MAX_BINDING_TABLE_ENTRIES
);

/// CL_DEVICE_MAX_PARAMETER_SIZE: OpenCL 3.0's minimum.
pub const MAX_PARAMETER_SIZE: usize = 1024;

/// Elements of an image1d_buffer (CL_DEVICE_IMAGE_MAX_BUFFER_SIZE): what one SURFTYPE_BUFFER
/// surface addresses (umd's limit, 2^27), above the specification's minimum of 65536.
pub const IMAGE_MAX_BUFFER_ELEMENTS: usize = umd::image::MAX_BUFFER_ELEMENTS as usize;
const _: () = assert!(IMAGE_MAX_BUFFER_ELEMENTS >= 65536);

impl ImageLimits {
    /// The limits on `p`. Sizes: the largest value RENDER_SURFACE_STATE's Width, Height and
    /// Depth fields hold (each stores the size minus one; field widths from genxml through
    /// batchbuffer), Depth also counting array layers. Arguments: an image takes one
    /// binding-table entry of the 240 a dispatch has (batchbuffer's
    /// `MAX_BINDING_TABLE_ENTRIES`); the specification's minimums (128 read, 64 write) fit in
    /// it together, and are what is reported. Samplers: the interface descriptor's sampler table holds 16 (batchbuffer's
    /// `MAX_SAMPLERS`).
    pub fn of(p: ::platform::Platform) -> ImageLimits {
        use batchbuffer::{Packet, RenderSurfaceState};
        let field_max = |name: &str| -> usize {
            RenderSurfaceState::LAYOUT
                .field(name)
                .and_then(|f| f.loc(p))
                .map_or(0, |l| 1usize << l.width())
        };
        let (width, height, depth) = (field_max("Width"), field_max("Height"), field_max("Depth"));
        let read_write_args = if READ_WRITE_IMAGES {
            READ_WRITE_IMAGE_ARGS
        } else {
            0
        };
        ImageLimits {
            read_args: READ_IMAGE_ARGS,
            write_args: WRITE_IMAGE_ARGS,
            read_write_args,
            samplers: batchbuffer::builder::MAX_SAMPLERS,
            width_2d: width,
            height_2d: height,
            width_3d: width,
            height_3d: height,
            depth_3d: depth,
            array_size: depth,
            buffer_size: IMAGE_MAX_BUFFER_ELEMENTS,
        }
    }
}

pub struct Device {
    pub umd: umd::device::Device,
    pub facts: Facts,
    /// The device's place among the platform's devices (in CL_DEVICE_UUID_KHR).
    pub index: u32,
    /// Where the device sits on the PCI bus, read from sysfs on first use (the simulator's
    /// sysfs tree is written only when someone reads it).
    pci: std::sync::OnceLock<Option<kmd_iface::pci_address::PciAddress>>,
    /// The GPU/host clock correlation every timestamp of the device is converted with,
    /// taken on first use (None if the device's counter could not be read).
    clock: std::sync::OnceLock<Option<umd::device::GpuClock>>,
}

impl ClObject for Device {
    const KIND: Kind = Kind::Device;
    const INVALID: cl_int = CL_INVALID_DEVICE;
}

impl Device {
    pub fn new(umd: umd::device::Device, index: u32) -> Device {
        let facts = facts(umd.platform());
        Device {
            umd,
            facts,
            index,
            pci: std::sync::OnceLock::new(),
            clock: std::sync::OnceLock::new(),
        }
    }

    /// The device timer's correlation: profiling times and clGetDeviceAndHostTimer place the
    /// GPU's timestamps on CLOCK_MONOTONIC with it.
    pub fn clock(&self) -> Option<umd::device::GpuClock> {
        *self.clock.get_or_init(|| self.umd.gpu_clock().ok())
    }

    /// The device's PCI address as its kernel driver presents it (cl_khr_pci_bus_info); None
    /// where sysfs does not say, and then the device does not report the extension.
    pub fn pci_address(&self) -> Option<kmd_iface::pci_address::PciAddress> {
        *self.pci.get_or_init(|| self.umd.pci_address())
    }

    /// CL_DEVICE_IMAGE_SUPPORT: the platform's fact (`facts::Facts::images`).
    pub fn image_support(&self) -> bool {
        self.facts.images
    }

    /// The image limits this device reports: all zero without image support.
    pub fn image_limits(&self) -> ImageLimits {
        if self.image_support() {
            ImageLimits::of(self.umd.platform())
        } else {
            ImageLimits::default()
        }
    }

    /// What the device is called, in Intel's convention (NEO: the product name and the PCI
    /// device id, `Intel(R) Graphics [0x56a0]` for a part without a product name), followed
    /// on a simulated device by which one it is: `… [0x9a49] (sim:tgllp, i915, simulated)`.
    pub fn name(&self) -> String {
        let i = self.umd.info();
        let product = format!("Intel(R) Graphics [{:#06x}]", i.device_id);
        if i.simulated {
            format!("{product} ({}, {}, simulated)", i.name, i.kmd.name())
        } else {
            product
        }
    }

    /// The device extensions, each with its version ([`crate::core::extensions`]).
    pub fn extensions(&self) -> Vec<(&'static str, u32)> {
        let has_pci = self.pci_address().is_some();
        extensions::of_device(self.umd.platform(), has_pci)
            .map(|e| (e.name, e.version()))
            .collect()
    }

    /// OpenCL C 3.0 optional features this device has.
    pub fn c_features(&self) -> Vec<(&'static str, u32)> {
        let mut v = vec![
            ("__opencl_c_int64", version(3, 0, 0)),
            ("__opencl_c_subgroups", version(3, 0, 0)),
            ("__opencl_c_fp16", version(3, 0, 0)),
        ];
        v.extend(PORTABLE_FEATURES.iter().map(|n| (*n, version(3, 0, 0))));
        if self.umd.platform().has_fp64() {
            v.push(("__opencl_c_fp64", version(3, 0, 0)));
        }
        for (cap, name) in ATOMIC_FEATURES {
            if ATOMIC_MEMORY_CAPABILITIES & cap != 0 {
                v.push((name, version(3, 0, 0)));
            }
        }
        if self.image_support() {
            v.push(("__opencl_c_images", version(3, 0, 0)));
            if IMAGE_3D_WRITES {
                v.push(("__opencl_c_3d_image_writes", version(3, 0, 0)));
            }
            if READ_WRITE_IMAGES {
                v.push(("__opencl_c_read_write_images", version(3, 0, 0)));
            }
        }
        v
    }

    /// The `-cl-ext` option that tells the compiler exactly what this device has, as NEO's
    /// internal options do: every extension, and for OpenCL C 3.0 every feature. Without it
    /// ocloc defines the macros of everything IGC can compile (generic address space,
    /// program-scope globals, ...), which the device does not report. Features go only to
    /// OpenCL C 3.0 builds: in 1.2 mode `__opencl_c_read_write_images` would make ocloc's
    /// opencl-c.h declare `read_write` image built-ins that OpenCL C 1.2 rejects.
    pub fn compiler_extensions(&self, opencl_c_3: bool) -> String {
        let mut names: Vec<&str> = self.extensions().iter().map(|(n, _)| *n).collect();
        if opencl_c_3 {
            names.extend(self.c_features().iter().map(|(n, _)| *n));
        }
        let mut s = String::from("-cl-ext=-all");
        for n in names {
            s.push_str(",+");
            s.push_str(n);
        }
        s
    }

    pub fn global_mem(&self) -> u64 {
        sim::device_info::DeviceInfo::get(self.umd.platform()).region_size
    }

    pub fn max_alloc(&self) -> u64 {
        (self.global_mem() / 4).max(128 << 20)
    }

    pub fn max_sub_groups(&self) -> usize {
        let min_simd = self
            .umd
            .info()
            .sub_group_sizes()
            .iter()
            .min()
            .copied()
            .unwrap_or(8);
        self.max_work_group() / min_simd
    }

    /// CL_DEVICE_MAX_WORK_GROUP_SIZE: umd's, from the device's topology.
    pub fn max_work_group(&self) -> usize {
        self.umd.info().max_work_group_size() as usize
    }
}
