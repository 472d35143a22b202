//! Kernels the driver can dispatch: from ocloc binaries (either format, parsed by
//! [`crate::program`]), from IGA-syntax assembly, and from raw ISA bytes.
//!
//! # The raw-kernel argument ABI
//!
//! Kernels from assembly (`.asm`) or raw bytes (`.krn`) carry no description, so the driver
//! hands them their inputs in one fixed layout:
//!
//! - **Entry point**: byte 0 of the ISA (Instruction Base Address + 0).
//! - **Dispatch width**: the `simd` given when loading (8, 16 or 32).
//! - **Cross-thread data** (the same for every thread, delivered in the GRFs after r0 on
//!   Gen9–Gen12LP; from the indirect payload on Xe-HPG), little-endian:
//!
//!   | bytes  | contents                                                         |
//!   |--------|------------------------------------------------------------------|
//!   | 0–11   | global size x, y, z (u32 each)                                   |
//!   | 12–23  | local size x, y, z of the work-group being run (u32; smaller for the partial last group) |
//!   | 24–35  | number of work-groups x, y, z (u32)                              |
//!   | 36–47  | global offset x, y, z (u32; 0 unless the range has an offset)    |
//!   | 48–51  | work dimension (1–3)                                             |
//!   | 52–63  | enqueued (uniform) local size x, y, z (u32)                      |
//!   | 64+8·i | argument i in an 8-byte slot: buffers and images as their 64-bit GPU address, scalars zero-extended, `local` arguments as their byte offset in shared local memory (each 16-byte aligned, in argument order) |
//!
//! - **Binding table**: argument i is bound at BTI i (buffers as RAW buffer surfaces, images as
//!   linear 2D surfaces, scalars as null surfaces), so both stateless (A64) and stateful
//!   (BTI) accesses work.
//! - **Per-thread data**: local IDs x, y and z, written by the driver after the cross-thread
//!   data: per thread, one block per dimension of one u16 per lane, each block padded to whole
//!   32-byte GRFs (SIMD8/16: 1 GRF, SIMD32: 2 GRFs).
//! - **Work-group ID**: in r0 as the hardware delivers it (r0.1 x, r0.6 y, r0.7 z).

use platform::Platform;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::program::{self, ArgKind, ProgramError};

/// Where a kernel's argument description comes from.
#[derive(Debug, Clone)]
pub enum Description {
    /// An ocloc binary's kernel, with its full argument and payload description, and its
    /// program's data segments.
    Ocloc(Box<program::Kernel>, Arc<crate::segments::ProgramData>),
    /// A raw kernel: the fixed ABI of the module docs.
    Raw,
}

/// A kernel ready to dispatch. Its platform, ISA and description are fixed when it is made
/// (and a binary's description checked then, by [`crate::limits::check_kernel`]), so a
/// dispatch neither checks them again nor compares the ISA with its uploaded copy.
#[derive(Debug, Clone)]
pub struct Kernel {
    pub name: String,
    pub(crate) platform: Platform,
    pub(crate) isa: Vec<u8>,
    /// Dispatch width (its subgroup size).
    pub simd: u32,
    pub(crate) description: Description,
    /// Its copies on devices (shared by clones).
    pub(crate) residence: crate::resident::Residence,
}

/// What kind of value an argument takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgSlot {
    Buffer,
    Image,
    /// A by-value argument of this many bytes.
    Value(u32),
    Local,
    Sampler,
}

impl std::fmt::Display for ArgSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgSlot::Buffer => write!(f, "a buffer"),
            ArgSlot::Image => write!(f, "an image"),
            ArgSlot::Value(n) => write!(f, "a value of {n} bytes"),
            ArgSlot::Local => write!(f, "a local pointer"),
            ArgSlot::Sampler => write!(f, "a sampler"),
        }
    }
}

/// Checks a SIMD width.
fn check_simd(simd: u32) -> Result<u32> {
    match simd {
        8 | 16 | 32 => Ok(simd),
        other => Err(Error::Argument(format!(
            "SIMD{other} is not a dispatch width (8, 16 or 32)"
        ))),
    }
}

impl Kernel {
    /// The platform it was built for.
    pub fn platform(&self) -> Platform {
        self.platform
    }

    /// GRF registers per thread it is dispatched with: 128, or 256 (Xe-HPG's Large GRF Mode)
    /// for a binary whose kernel was compiled for them ([`crate::limits::dispatch_grf_regs`],
    /// checked when the kernel was made). Raw kernels get 128.
    pub fn grf_regs(&self) -> u32 {
        match &self.description {
            Description::Ocloc(k, _) => {
                crate::limits::dispatch_grf_regs(k.grf_count, self.platform)
                    .unwrap_or(platform::GRF_REGS)
            }
            Description::Raw => platform::GRF_REGS,
        }
    }

    /// Its ISA as loaded (before relocation for program data).
    pub fn isa(&self) -> &[u8] {
        &self.isa
    }

    /// Its argument and payload description.
    pub fn description(&self) -> &Description {
        &self.description
    }

    /// The kernel `name` (default: the only one) of an ocloc binary. `platform` is used when
    /// the binary does not name its target.
    pub fn from_ocloc(
        file: &[u8],
        name: Option<&str>,
        platform: Option<Platform>,
    ) -> std::result::Result<Kernel, LoadError> {
        Self::from_program(&program::parse(file)?, name, platform)
    }

    /// The kernel `name` (default: the only one) of a parsed ocloc binary: parse a binary
    /// once with [`program::parse`] and take each of its kernels from it.
    pub fn from_program(
        prog: &program::Program,
        name: Option<&str>,
        platform: Option<Platform>,
    ) -> std::result::Result<Kernel, LoadError> {
        Self::from_shared(prog, crate::segments::ProgramData::of(prog), name, platform)
    }

    /// As [`Kernel::from_program`], with the program's data shared with the other kernels made
    /// with the same `data` (from [`crate::segments::ProgramData::of`] of `prog`): they see one
    /// copy of each program-scope variable per device.
    pub fn from_shared(
        prog: &program::Program,
        data: Arc<crate::segments::ProgramData>,
        name: Option<&str>,
        platform: Option<Platform>,
    ) -> std::result::Result<Kernel, LoadError> {
        let names: Vec<&str> = prog.kernels.iter().map(|k| k.name.as_str()).collect();
        let k = match name {
            Some(n) => prog
                .kernel(n)
                .ok_or_else(|| LoadError::UnknownKernel(n.into(), names.join(", ")))?,
            None => match prog.kernels.as_slice() {
                [one] => one,
                _ => return Err(LoadError::WhichKernel(names.join(", "))),
            },
        };
        let platform = match (prog.platform, platform) {
            (Some(p), Some(q)) if p != q => {
                return Err(LoadError::Other(Error::Argument(format!(
                    "the binary was compiled for {p}, not {q}"
                ))))
            }
            (Some(p), _) | (None, Some(p)) => p,
            (None, None) => {
                return Err(LoadError::Other(Error::Argument(
                    "the binary does not name its platform: pass --platform".into(),
                )))
            }
        };
        crate::limits::check_kernel(k, platform)?;
        Ok(Kernel {
            name: k.name.clone(),
            platform,
            isa: k.isa.clone(),
            simd: check_simd(k.simd_size)?,
            description: Description::Ocloc(Box::new(k.clone()), data),
            residence: Default::default(),
        })
    }

    /// A kernel from IGA-syntax assembly, with the raw-kernel ABI.
    pub fn from_asm(platform: Platform, text: &str, simd: u32, name: &str) -> Result<Kernel> {
        let isa = isa_encoder::assemble(platform, text)
            .map_err(|e| Error::Argument(format!("assembly: {e}")))?;
        Self::from_raw(platform, isa, simd, name)
    }

    /// A kernel from raw ISA bytes, with the raw-kernel ABI.
    pub fn from_raw(platform: Platform, isa: Vec<u8>, simd: u32, name: &str) -> Result<Kernel> {
        if isa.is_empty() || !isa.len().is_multiple_of(8) {
            return Err(Error::Argument(format!(
                "a raw kernel is a non-empty sequence of 8- or 16-byte instructions, not {} bytes",
                isa.len()
            )));
        }
        Ok(Kernel {
            name: name.into(),
            platform,
            isa,
            simd: check_simd(simd)?,
            description: Description::Raw,
            residence: Default::default(),
        })
    }

    /// The argument kinds, in order, when the kernel describes them (`None` for raw kernels,
    /// which take any number of arguments).
    pub fn signature(&self) -> Option<Vec<ArgSlot>> {
        let Description::Ocloc(k, _) = &self.description else {
            return None;
        };
        let n = k.args.iter().map(|a| a.index + 1).max().unwrap_or(0);
        let mut out = vec![ArgSlot::Value(0); n as usize];
        for a in &k.args {
            out[a.index as usize] = match &a.kind {
                ArgKind::Buffer { .. } => ArgSlot::Buffer,
                ArgKind::Image { .. } => ArgSlot::Image,
                ArgKind::Value { pieces } => ArgSlot::Value(
                    pieces
                        .iter()
                        .map(|p| p.source_offset + p.size)
                        .max()
                        .unwrap_or(0),
                ),
                ArgKind::Local { .. } => ArgSlot::Local,
                ArgKind::Sampler { .. } => ArgSlot::Sampler,
            };
        }
        Some(out)
    }

    /// CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL (0 for raw kernels, which require nothing).
    pub fn compile_sub_group_size(&self) -> usize {
        match &self.description {
            Description::Ocloc(k, _) => k.compile_sub_group_size(),
            Description::Raw => 0,
        }
    }

    /// CL_KERNEL_SPILL_MEM_SIZE_INTEL.
    pub fn spill_mem_size(&self) -> u64 {
        match &self.description {
            Description::Ocloc(k, _) => k.spill_mem_size(),
            Description::Raw => 0,
        }
    }

    /// CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE.
    pub fn max_sub_group_size_for_ndrange(&self, local: &[usize]) -> Result<usize> {
        self.as_program()
            .max_sub_group_size_for_ndrange(local)
            .map_err(|e| Error::NdRange(e.to_string()))
    }

    /// CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE.
    pub fn sub_group_count_for_ndrange(&self, local: &[usize]) -> Result<usize> {
        self.as_program()
            .sub_group_count_for_ndrange(local)
            .map_err(|e| Error::NdRange(e.to_string()))
    }

    /// The program view the queries run on (a raw kernel is a kernel of its SIMD width and
    /// nothing else).
    fn as_program(&self) -> std::borrow::Cow<'_, program::Kernel> {
        match &self.description {
            Description::Ocloc(k, _) => std::borrow::Cow::Borrowed(k),
            Description::Raw => std::borrow::Cow::Owned(program::Kernel {
                name: self.name.clone(),
                isa: Vec::new(),
                isa_unpadded_size: 0,
                simd_size: self.simd,
                required_subgroup_size: 0,
                required_work_group_size: None,
                attributes: String::new(),
                grf_count: None,
                barrier_count: 0,
                slm_size: 0,
                memory: Default::default(),
                args: Vec::new(),
                implicit: Vec::new(),
                cross_thread_size: 0,
                per_thread: Default::default(),
                binding_table: Vec::new(),
                surface_state_heap: Vec::new(),
                dynamic_state_heap: Vec::new(),
                sampler_array: None,
                arg_info: Vec::new(),
                isa_relocations: Vec::new(),
                driver_surfaces: Vec::new(),
                printf_strings: Vec::new(),
                source_lines: Default::default(),
            }),
        }
    }
}

/// Why a kernel could not be loaded from an ocloc binary.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("malformed binary: {0}")]
    Malformed(#[from] ProgramError),
    #[error("no kernel `{0}` in the binary (it has: {1})")]
    UnknownKernel(String, String),
    #[error("the binary has several kernels ({0}): pick one with --kernel")]
    WhichKernel(String),
    #[error(transparent)]
    Other(#[from] Error),
}
