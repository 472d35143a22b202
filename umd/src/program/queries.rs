//! The kernel queries that depend only on the compiled kernel (cl_intel_required_subgroup_size,
//! cl_khr_subgroups).
//!
//! A kernel's subgroups are its SIMD lanes: a work-group's work-items, linearized with x fastest,
//! are dealt out to hardware threads of `simd_size` lanes each, so every subgroup has
//! `simd_size` work-items except the last of a work-group, which holds the remainder.

use thiserror::Error;

use super::kernel::Kernel;

/// A local work size the queries cannot answer for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum QueryError {
    #[error("a local work size has 1 to 3 dimensions, not {0}")]
    Dimensions(usize),
    #[error("local work size {0:?} has a zero dimension")]
    ZeroDimension(Vec<usize>),
    #[error("local work size {0:?} overflows")]
    Overflow(Vec<usize>),
}

fn work_items(local: &[usize]) -> Result<usize, QueryError> {
    if local.is_empty() || local.len() > 3 {
        return Err(QueryError::Dimensions(local.len()));
    }
    if local.contains(&0) {
        return Err(QueryError::ZeroDimension(local.to_vec()));
    }
    local
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| QueryError::Overflow(local.to_vec()))
}

impl Kernel {
    /// CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL: the `intel_reqd_sub_group_size` the kernel was
    /// compiled with, 0 when it did not require one.
    pub fn compile_sub_group_size(&self) -> usize {
        self.required_subgroup_size as usize
    }

    /// CL_KERNEL_SPILL_MEM_SIZE_INTEL: per-thread scratch space for spills (0: no spilling).
    pub fn spill_mem_size(&self) -> u64 {
        self.memory.scratch as u64
    }

    /// CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE for `local` work size: the SIMD width. Only the
    /// last subgroup of a work-group can be smaller, and cl_intel_required_subgroup_size
    /// guarantees `get_max_sub_group_size()` is the required size even when the work-group
    /// size is not a multiple of it.
    pub fn max_sub_group_size_for_ndrange(&self, local: &[usize]) -> Result<usize, QueryError> {
        work_items(local)?;
        Ok(self.simd_size as usize)
    }

    /// CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE for `local` work size: subgroups per work-group.
    pub fn sub_group_count_for_ndrange(&self, local: &[usize]) -> Result<usize, QueryError> {
        Ok(work_items(local)?.div_ceil(self.simd_size.max(1) as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{MemoryNeeds, PerThreadPayload};

    fn kernel(simd: u32, required: u32, scratch: u32) -> Kernel {
        Kernel {
            name: "k".into(),
            isa: Vec::new(),
            isa_unpadded_size: 0,
            simd_size: simd,
            required_subgroup_size: required,
            required_work_group_size: None,
            attributes: String::new(),
            grf_count: None,
            barrier_count: 0,
            slm_size: 0,
            memory: MemoryNeeds {
                scratch,
                ..MemoryNeeds::default()
            },
            args: Vec::new(),
            implicit: Vec::new(),
            cross_thread_size: 0,
            per_thread: PerThreadPayload::default(),
            binding_table: Vec::new(),
            surface_state_heap: Vec::new(),
            dynamic_state_heap: Vec::new(),
            sampler_array: None,
            arg_info: Vec::new(),
            isa_relocations: Vec::new(),
            driver_surfaces: Vec::new(),
            printf_strings: Vec::new(),
            source_lines: Default::default(),
        }
    }

    #[test]
    fn counts_round_up_partial_subgroups() {
        let k = kernel(16, 16, 0);
        assert_eq!(k.sub_group_count_for_ndrange(&[16]), Ok(1));
        assert_eq!(k.sub_group_count_for_ndrange(&[17]), Ok(2));
        assert_eq!(k.sub_group_count_for_ndrange(&[5, 5]), Ok(2));
        assert_eq!(k.sub_group_count_for_ndrange(&[7, 5, 3]), Ok(7));
        assert_eq!(k.max_sub_group_size_for_ndrange(&[5]), Ok(16));
        assert_eq!(k.compile_sub_group_size(), 16);
        assert_eq!(kernel(8, 0, 0).compile_sub_group_size(), 0);
        assert_eq!(kernel(8, 0, 1024).spill_mem_size(), 1024);
    }
}
