//! The patch-token binary's structure as stored: headers, heaps and tokens, without meaning.

use super::tokens::{self, ITEM_HEADER_SIZE, KERNEL_HEADER_SIZE, MAGIC_CL, PROGRAM_HEADER_SIZE};
use crate::program::bytes::Bytes;
use crate::program::error::{invalid, Result};

/// `SProgramBinaryHeader`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgramHeader {
    pub magic: u32,
    pub version: u32,
    /// GFXCORE_FAMILY of the target.
    pub device: u32,
    pub gpu_pointer_size: u32,
    pub number_of_kernels: u32,
    pub stepping_id: u32,
    pub patch_list_size: u32,
}

/// `SKernelBinaryHeaderCommon`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelHeader {
    pub check_sum: u32,
    pub shader_hash_code: u64,
    pub kernel_name_size: u32,
    pub patch_list_size: u32,
    pub kernel_heap_size: u32,
    pub general_state_heap_size: u32,
    pub dynamic_state_heap_size: u32,
    pub surface_state_heap_size: u32,
    pub kernel_unpadded_size: u32,
}

/// One token as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawToken<'a> {
    pub id: u32,
    /// `SPatchItemHeader::Size` (header included).
    pub size: u32,
    /// File offset of the token's header.
    pub offset: usize,
    /// The `size - 8` bytes after the header.
    pub body: &'a [u8],
    /// Data stored after the token but owned by it (program-scope surface initializers).
    pub trailing: &'a [u8],
}

impl RawToken<'_> {
    /// Little-endian u32 field number `i` of the body, or an error naming the token.
    pub(crate) fn field(&self, i: usize) -> Result<u32> {
        Bytes::new(self.body, self.offset + ITEM_HEADER_SIZE)
            .u32_at(i * 4, &|| tokens::name(self.id))
    }

    /// Little-endian u64 at byte `off` of the body.
    pub(crate) fn field64_at(&self, off: usize) -> Result<u64> {
        Bytes::new(self.body, self.offset + ITEM_HEADER_SIZE).u64_at(off, &|| tokens::name(self.id))
    }
}

/// One kernel's section of the binary.
#[derive(Debug, Clone)]
pub struct RawKernel<'a> {
    pub header: KernelHeader,
    pub offset: usize,
    pub name: String,
    pub kernel_heap: &'a [u8],
    pub general_state_heap: &'a [u8],
    pub dynamic_state_heap: &'a [u8],
    pub surface_state_heap: &'a [u8],
    pub tokens: Vec<RawToken<'a>>,
}

/// A whole patch-token program.
#[derive(Debug, Clone)]
pub struct RawProgram<'a> {
    pub header: ProgramHeader,
    pub tokens: Vec<RawToken<'a>>,
    pub kernels: Vec<RawKernel<'a>>,
}

/// Splits a patch-token program (starting with `SProgramBinaryHeader`) into its parts.
/// `base` is the file offset of `data`, used in errors.
pub fn parse(data: &[u8], base: usize) -> Result<RawProgram<'_>> {
    let bin = Bytes::new(data, base);
    let what = || "program binary header".to_string();
    let h = bin.slice(0, PROGRAM_HEADER_SIZE, &what)?;
    let f = |i: usize| h.u32_at(i * 4, &what);
    let header = ProgramHeader {
        magic: f(0)?,
        version: f(1)?,
        device: f(2)?,
        gpu_pointer_size: f(3)?,
        number_of_kernels: f(4)?,
        stepping_id: f(5)?,
        patch_list_size: f(6)?,
    };
    if header.magic != MAGIC_CL {
        return Err(invalid(
            "program binary header",
            base,
            format!(
                "magic {:#010x}, expected {MAGIC_CL:#010x} (\"CTNI\")",
                header.magic
            ),
        ));
    }
    let list = bin.slice(
        PROGRAM_HEADER_SIZE,
        header.patch_list_size as usize,
        &|| "program-scope patch list".to_string(),
    )?;
    let tokens = parse_list(list, true, "program-scope patch list")?;
    let mut pos = PROGRAM_HEADER_SIZE + list.len();
    // Each kernel takes at least a header, so a count larger than the bytes left is a lie we
    // can catch before allocating.
    let max_kernels = (bin.len() - pos) / KERNEL_HEADER_SIZE;
    if header.number_of_kernels as usize > max_kernels {
        return Err(invalid(
            "program binary header",
            base + 16,
            format!(
                "NumberOfKernels {} but only {} bytes follow",
                header.number_of_kernels,
                bin.len() - pos
            ),
        ));
    }
    let mut kernels = Vec::with_capacity(header.number_of_kernels as usize);
    for k in 0..header.number_of_kernels as usize {
        let rest = bin.slice(pos, bin.len() - pos, &|| format!("kernel #{k}"))?;
        let (kernel, used) = parse_kernel(rest, k)?;
        kernels.push(kernel);
        pos += used;
    }
    Ok(RawProgram {
        header,
        tokens,
        kernels,
    })
}

fn parse_kernel(b: Bytes<'_>, k: usize) -> Result<(RawKernel<'_>, usize)> {
    let what = || format!("kernel #{k} binary header");
    let h = b.slice(0, KERNEL_HEADER_SIZE, &what)?;
    let f = |off: usize| h.u32_at(off, &what);
    let header = KernelHeader {
        check_sum: f(0)?,
        shader_hash_code: h.u64_at(4, &what)?,
        kernel_name_size: f(12)?,
        patch_list_size: f(16)?,
        kernel_heap_size: f(20)?,
        general_state_heap_size: f(24)?,
        dynamic_state_heap_size: f(28)?,
        surface_state_heap_size: f(32)?,
        kernel_unpadded_size: f(36)?,
    };
    if header.kernel_unpadded_size > header.kernel_heap_size {
        return Err(invalid(
            what(),
            b.base,
            format!(
                "KernelUnpaddedSize {} exceeds KernelHeapSize {}",
                header.kernel_unpadded_size, header.kernel_heap_size
            ),
        ));
    }
    let mut pos = KERNEL_HEADER_SIZE;
    let mut take = |len: u32, part: &str| -> Result<Bytes<'_>> {
        let s = b.slice(pos, len as usize, &|| format!("kernel #{k} {part}"))?;
        pos += len as usize;
        Ok(s)
    };
    let name = take(header.kernel_name_size, "name")?;
    let kernel_heap = take(header.kernel_heap_size, "kernel heap")?;
    let gsh = take(header.general_state_heap_size, "general state heap")?;
    let dsh = take(header.dynamic_state_heap_size, "dynamic state heap")?;
    let ssh = take(header.surface_state_heap_size, "surface state heap")?;
    let list = take(header.patch_list_size, "patch list")?;
    let name = crate::program::bytes::c_string(name.data);
    let tokens = parse_list(list, false, &format!("patch list of kernel `{name}`"))?;
    Ok((
        RawKernel {
            header,
            offset: b.base,
            name,
            kernel_heap: kernel_heap.data,
            general_state_heap: gsh.data,
            dynamic_state_heap: dsh.data,
            surface_state_heap: ssh.data,
            tokens,
        },
        pos,
    ))
}

/// Splits a patch list into tokens. Program-scope surface tokens own the inline data after them.
fn parse_list<'a>(list: Bytes<'a>, program_scope: bool, what: &str) -> Result<Vec<RawToken<'a>>> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos < list.len() {
        let head = list.slice(pos, ITEM_HEADER_SIZE, &|| format!("token header in {what}"))?;
        let id = head.u32_at(0, &|| what.to_string())?;
        let size = head.u32_at(4, &|| what.to_string())?;
        if (size as usize) < ITEM_HEADER_SIZE {
            return Err(invalid(
                tokens::name(id),
                head.base,
                format!("Size {size} is smaller than the 8-byte token header"),
            ));
        }
        let whole = list.slice(pos, size as usize, &|| {
            format!("{} in {what}", tokens::name(id))
        })?;
        let body = &whole.data[ITEM_HEADER_SIZE..];
        let mut token = RawToken {
            id,
            size,
            offset: whole.base,
            body,
            trailing: &[],
        };
        if let Some(def) = tokens::def(id) {
            if body.len() < def.min_body {
                return Err(invalid(
                    tokens::name(id),
                    whole.base,
                    format!(
                        "Size {size} is too small: the structure needs {}",
                        def.min_body + ITEM_HEADER_SIZE
                    ),
                ));
            }
        }
        pos += size as usize;
        let inline_size_field = match id {
            tokens::ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO if program_scope => {
                Some(1)
            }
            tokens::ALLOCATE_GLOBAL_MEMORY_SURFACE_PROGRAM_BINARY_INFO if program_scope => Some(2),
            _ => None,
        };
        if let Some(field) = inline_size_field {
            let len = token.field(field)?;
            let data = list.slice(pos, len as usize, &|| {
                format!("inline data of {}", tokens::name(id))
            })?;
            token.trailing = data.data;
            pos += len as usize;
        }
        out.push(token);
    }
    Ok(out)
}
