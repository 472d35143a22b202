//! What the kernel queries answer (clGetKernelInfo, clGetKernelArgInfo,
//! clGetKernelWorkGroupInfo, clGetKernelSubGroupInfo), from the kernel, its binary's
//! description and the device. The C arguments (pointers, sizes) are read in `api/kernel.rs`.

use std::sync::Arc;

use opencl_sys::*;

use crate::core::device::Device;
use crate::core::handle::Handle;
use crate::core::info::Info;
use crate::core::kernel::{Arg, Kernel};

/// CL_KERNEL_ARG_ADDRESS_QUALIFIER of a qualifier as the compiler's metadata spells it; a
/// by-value argument has none and is private (OpenCL 3.0, clGetKernelArgInfo).
pub fn address_qualifier(word: &str) -> cl_kernel_arg_address_qualifier {
    match word {
        "__global" | "global" => CL_KERNEL_ARG_ADDRESS_GLOBAL,
        "__local" | "local" => CL_KERNEL_ARG_ADDRESS_LOCAL,
        "__constant" | "constant" => CL_KERNEL_ARG_ADDRESS_CONSTANT,
        _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
    }
}

/// CL_KERNEL_ARG_ACCESS_QUALIFIER: only images (and pipes) have one; others answer NONE.
pub fn access_qualifier(word: &str) -> cl_kernel_arg_access_qualifier {
    match word {
        "__read_only" | "read_only" => CL_KERNEL_ARG_ACCESS_READ_ONLY,
        "__write_only" | "write_only" => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
        "__read_write" | "read_write" => CL_KERNEL_ARG_ACCESS_READ_WRITE,
        _ => CL_KERNEL_ARG_ACCESS_NONE,
    }
}

/// CL_KERNEL_ARG_TYPE_QUALIFIER: the bit field of the space-separated words.
pub fn type_qualifiers(words: &str) -> cl_kernel_arg_type_qualifier {
    [
        ("const", CL_KERNEL_ARG_TYPE_CONST),
        ("restrict", CL_KERNEL_ARG_TYPE_RESTRICT),
        ("volatile", CL_KERNEL_ARG_TYPE_VOLATILE),
        ("pipe", CL_KERNEL_ARG_TYPE_PIPE),
    ]
    .into_iter()
    .filter(|(w, _)| words.split_whitespace().any(|x| x == *w))
    .fold(0, |v, (_, bit)| v | bit)
}

/// CL_KERNEL_ARG_TYPE_NAME: patch tokens store "type;size", zebin the type alone.
pub fn type_name(metadata: &str) -> &str {
    metadata.split(';').next().unwrap_or_default()
}

/// The local size CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT answers in `dims` dimensions:
/// `count` sub-groups of `simd` lanes along x, or all zeros when no local size of at most
/// `max_group` work-items gives that count (OpenCL 3.0, clGetKernelSubGroupInfo).
pub fn local_size_for_sub_group_count(
    count: usize,
    simd: usize,
    max_group: usize,
    dims: usize,
) -> Vec<usize> {
    let mut out = vec![0usize; dims.clamp(1, 3)];
    let local = count
        .checked_mul(simd)
        .filter(|&l| count > 0 && l <= max_group);
    if let Some(l) = local {
        out[0] = l;
        out[1..].fill(1);
    }
    out
}

/// The input of a clGetKernelSubGroupInfo query, as read from the application's bytes.
pub enum SubGroupInput {
    /// A local size of 1 to 3 dimensions.
    LocalSize(Vec<usize>),
    /// A sub-group count (CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT).
    Count(usize),
    /// None or bytes of the wrong size.
    Invalid,
}

impl Kernel {
    /// clGetKernelInfo.
    pub fn info(k: &Arc<Handle<Kernel>>, param: cl_kernel_info) -> Result<Info, cl_int> {
        Ok(match param {
            CL_KERNEL_FUNCTION_NAME => Info::Str(k.obj.name.clone()),
            CL_KERNEL_NUM_ARGS => Info::Uint(k.obj.signature.len() as u32),
            CL_KERNEL_REFERENCE_COUNT => Info::Uint(k.ref_count()),
            CL_KERNEL_CONTEXT => Info::Ptr(k.obj.program.obj.context.raw()),
            CL_KERNEL_PROGRAM => Info::Ptr(k.obj.program.raw()),
            CL_KERNEL_ATTRIBUTES => Info::Str(k.obj.attributes()),
            _ => return Err(crate::core::reason::unknown_query("kernel", param)),
        })
    }

    /// clGetKernelArgInfo: CL_KERNEL_ARG_INFO_NOT_AVAILABLE unless the program was built
    /// with `-cl-kernel-arg-info` and the binary describes the argument.
    pub fn arg_info(&self, index: cl_uint, param: cl_kernel_arg_info) -> Result<Info, cl_int> {
        if index as usize >= self.signature.len() {
            return Err(CL_INVALID_ARG_INDEX);
        }
        if !self.arg_info {
            return Err(crate::core::reason::why(
                CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                || {
                    "the program was not built from source with -cl-kernel-arg-info (a program \
                 from a binary carries no argument information)"
                        .into()
                },
            ));
        }
        let a = self
            .described()
            .and_then(|d| d.arg_info.iter().find(|a| a.index == index))
            .ok_or(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)?;
        Ok(match param {
            CL_KERNEL_ARG_ADDRESS_QUALIFIER => Info::Uint(address_qualifier(&a.address_qualifier)),
            CL_KERNEL_ARG_ACCESS_QUALIFIER => Info::Uint(access_qualifier(&a.access_qualifier)),
            CL_KERNEL_ARG_TYPE_NAME => Info::Str(type_name(&a.type_name).to_string()),
            // A cl_bitfield (64 bits) in the specification; opencl-sys types it 32-bit.
            CL_KERNEL_ARG_TYPE_QUALIFIER => {
                Info::Ulong(u64::from(type_qualifiers(&a.type_qualifiers)))
            }
            CL_KERNEL_ARG_NAME => Info::Str(a.name.clone()),
            _ => return Err(crate::core::reason::unknown_query("kernel argument", param)),
        })
    }

    /// CL_KERNEL_LOCAL_MEM_SIZE: the kernel's own SLM plus the `local` arguments set so far.
    pub fn local_mem_size(&self) -> u64 {
        let args: u64 = self
            .args
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|a| match a {
                Some(Arg::Local(n)) => *n as u64,
                _ => 0,
            })
            .sum();
        self.described().map_or(0, |x| x.slm_size as u64) + args
    }

    /// CL_KERNEL_PRIVATE_MEM_SIZE: private and scratch bytes per work-item (the binary gives
    /// them per hardware thread unless private memory is SIMT-laid).
    pub fn private_mem_size(&self) -> u64 {
        self.described().map_or(0, |x| {
            let m = x.memory;
            let lanes = x.simd_size.max(1);
            let per_item = if m.private_is_simt {
                m.private
            } else {
                m.private / lanes
            };
            (per_item + m.scratch / lanes) as u64
        })
    }

    /// clGetKernelWorkGroupInfo on `d`.
    pub fn work_group_info(
        &self,
        d: &Arc<Handle<Device>>,
        param: cl_kernel_work_group_info,
    ) -> Result<Info, cl_int> {
        let uk = self.on(d)?;
        Ok(match param {
            CL_KERNEL_WORK_GROUP_SIZE => Info::Size(self.max_group(&d.obj)),
            CL_KERNEL_COMPILE_WORK_GROUP_SIZE => Info::Sizes(
                self.described()
                    .and_then(|x| x.required_work_group_size)
                    .map_or([0; 3], |r| r.map(|v| v as usize))
                    .to_vec(),
            ),
            CL_KERNEL_LOCAL_MEM_SIZE => Info::Ulong(self.local_mem_size()),
            CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => Info::Size(uk.simd as usize),
            CL_KERNEL_PRIVATE_MEM_SIZE => Info::Ulong(self.private_mem_size()),
            CL_KERNEL_SPILL_MEM_SIZE_INTEL => Info::Ulong(uk.spill_mem_size()),
            // CL_KERNEL_GLOBAL_WORK_SIZE is only for custom devices and built-in kernels.
            _ => {
                return Err(crate::core::reason::unknown_query(
                    "kernel work-group",
                    param,
                ))
            }
        })
    }

    /// clGetKernelSubGroupInfo on `d`; `dims` is how many size_t the answer's buffer holds
    /// (CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT answers in that many dimensions).
    pub fn sub_group_info(
        &self,
        d: &Arc<Handle<Device>>,
        param: cl_kernel_sub_group_info,
        input: SubGroupInput,
        dims: usize,
    ) -> Result<Info, cl_int> {
        let uk = self.on(d)?;
        let simd = uk.simd as usize;
        let local = || match &input {
            SubGroupInput::LocalSize(l) => Ok(l.as_slice()),
            _ => Err(CL_INVALID_VALUE),
        };
        Ok(match param {
            CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE => Info::Size(
                uk.max_sub_group_size_for_ndrange(local()?)
                    .map_err(|_| CL_INVALID_VALUE)?,
            ),
            CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => Info::Size(
                uk.sub_group_count_for_ndrange(local()?)
                    .map_err(|_| CL_INVALID_VALUE)?,
            ),
            CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
                let SubGroupInput::Count(count) = input else {
                    return Err(CL_INVALID_VALUE);
                };
                Info::Sizes(local_size_for_sub_group_count(
                    count,
                    simd,
                    self.max_group(&d.obj),
                    dims,
                ))
            }
            CL_KERNEL_MAX_NUM_SUB_GROUPS => Info::Size(self.max_group(&d.obj).div_ceil(simd)),
            // No attribute requires a number of sub-groups in OpenCL C for this compiler.
            CL_KERNEL_COMPILE_NUM_SUB_GROUPS => Info::Size(0),
            CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL => Info::Size(uk.compile_sub_group_size()),
            _ => {
                return Err(crate::core::reason::unknown_query(
                    "kernel sub-group",
                    param,
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // OpenCL 3.0, clGetKernelArgInfo: the qualifiers' values.
    #[test]
    fn qualifiers_map_to_the_spec_values() {
        assert_eq!(address_qualifier("__global"), CL_KERNEL_ARG_ADDRESS_GLOBAL);
        assert_eq!(address_qualifier("local"), CL_KERNEL_ARG_ADDRESS_LOCAL);
        assert_eq!(
            address_qualifier("__constant"),
            CL_KERNEL_ARG_ADDRESS_CONSTANT
        );
        assert_eq!(
            address_qualifier("__private"),
            CL_KERNEL_ARG_ADDRESS_PRIVATE
        );
        assert_eq!(address_qualifier(""), CL_KERNEL_ARG_ADDRESS_PRIVATE);
        assert_eq!(
            access_qualifier("__read_only"),
            CL_KERNEL_ARG_ACCESS_READ_ONLY
        );
        assert_eq!(
            access_qualifier("write_only"),
            CL_KERNEL_ARG_ACCESS_WRITE_ONLY
        );
        assert_eq!(
            access_qualifier("read_write"),
            CL_KERNEL_ARG_ACCESS_READ_WRITE
        );
        assert_eq!(access_qualifier("NONE"), CL_KERNEL_ARG_ACCESS_NONE);
        assert_eq!(
            type_qualifiers("const volatile"),
            CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_VOLATILE
        );
        // A word inside another (a type named `constant_t`) is not a qualifier.
        assert_eq!(
            type_qualifiers("constx restrict"),
            CL_KERNEL_ARG_TYPE_RESTRICT
        );
        assert_eq!(type_qualifiers(""), CL_KERNEL_ARG_TYPE_NONE);
        assert_eq!(type_name("float4*;8"), "float4*");
        assert_eq!(type_name("int"), "int");
    }

    // clGetKernelSubGroupInfo: "If no work-group size can accommodate the requested number
    // of sub-groups, 0 will be returned in each element of the return array."
    #[test]
    fn local_size_for_a_sub_group_count() {
        assert_eq!(
            local_size_for_sub_group_count(4, 16, 256, 3),
            vec![64, 1, 1]
        );
        assert_eq!(local_size_for_sub_group_count(4, 16, 256, 1), vec![64]);
        assert_eq!(local_size_for_sub_group_count(17, 16, 256, 2), vec![0, 0]);
        assert_eq!(local_size_for_sub_group_count(0, 16, 256, 3), vec![0, 0, 0]);
        assert_eq!(
            local_size_for_sub_group_count(usize::MAX, 16, 256, 3),
            vec![0, 0, 0]
        );
        assert_eq!(local_size_for_sub_group_count(2, 8, 256, 7), vec![16, 1, 1]);
    }
}
