//! clEnqueueNDRangeKernel's rules: the queue and kernel go together, work_dim, the global,
//! offset and local sizes against 32 bits, the device's and the kernel's work-group limits,
//! reqd_work_group_size and -cl-uniform-work-group-size; the range a NULL local size runs
//! (which cl_khr_suggested_local_work_size answers with); and the command an enqueue makes.
//! The C ABI reads the application's three arrays and hands them over as slices.

use std::sync::Arc;

use opencl_sys::*;

use crate::core::device::Device;
use crate::core::handle::Handle;
use crate::core::kernel::Kernel;
use crate::core::queue::{Command, KernelRun, Queue, Work};
use crate::core::reason::why;

/// A kernel about to run on a queue, over `dims` dimensions.
pub struct Launch {
    pub queue: Arc<Handle<Queue>>,
    pub kernel: Arc<Handle<Kernel>>,
    pub dims: usize,
}

/// A global size and offset, each of three u32s (zero past the range's dimensions).
pub type Range32 = ([u32; 3], [u32; 3]);

/// What a local size must keep to: the device's CL_DEVICE_MAX_WORK_ITEM_SIZES (the same in
/// every dimension here), the kernel's CL_KERNEL_WORK_GROUP_SIZE on the device, whether the
/// program was built with -cl-uniform-work-group-size, and the kernel's reqd_work_group_size.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub item: usize,
    pub group: usize,
    pub uniform: bool,
    pub required: Option<[u32; 3]>,
}

/// work_dim as a number of dimensions: 1, 2 or 3, else CL_INVALID_WORK_DIMENSION.
pub fn dims(work_dim: cl_uint) -> Result<usize, cl_int> {
    if !(1..=3).contains(&work_dim) {
        return Err(why(CL_INVALID_WORK_DIMENSION, || {
            format!("work_dim is {work_dim}, not 1, 2 or 3")
        }));
    }
    Ok(work_dim as usize)
}

/// `given` (1 to 3 sizes) then zeros; `err` when one does not fit in a u32 (the walker's
/// sizes are 32-bit).
pub fn fit(given: &[usize], err: cl_int) -> Result<[usize; 3], cl_int> {
    if given.len() > 3 || given.iter().any(|&x| x > u32::MAX as usize) {
        return Err(why(err, || format!("{given:?} has a size above 2^32 - 1")));
    }
    let mut v = [0; 3];
    v[..given.len()].copy_from_slice(given);
    Ok(v)
}

/// [`fit`] of an array the application may give as NULL (None).
fn fit_given(given: Option<&[usize]>, err: cl_int) -> Result<Option<[usize; 3]>, cl_int> {
    given.map(|g| fit(g, err)).transpose()
}

/// CL_INVALID_GLOBAL_OFFSET when `offset` + `global` passes 2^32 - 1 in a dimension.
pub fn offset_fits(offset: &[usize], global: &[usize]) -> Result<(), cl_int> {
    if offset
        .iter()
        .zip(global)
        .any(|(o, g)| o.checked_add(*g).is_none_or(|e| e > u32::MAX as usize))
    {
        return Err(CL_INVALID_GLOBAL_OFFSET);
    }
    Ok(())
}

/// The application's local size `l` for global size `global` against `limits`
/// (clEnqueueNDRangeKernel, OpenCL 3.0): CL_INVALID_WORK_ITEM_SIZE for a zero or one above
/// the device's per-dimension maximum; CL_INVALID_WORK_GROUP_SIZE above the kernel's
/// work-group size, for a global size not a multiple of it in a program built with
/// -cl-uniform-work-group-size, and for one other than the kernel's reqd_work_group_size.
pub fn check_local(global: &[usize], l: &[usize], limits: &Limits) -> Result<(), cl_int> {
    if l.contains(&0) || l.iter().any(|&x| x > limits.item) {
        return Err(why(CL_INVALID_WORK_ITEM_SIZE, || {
            format!(
                "local size {l:?} has a zero or one above the device's {} work-items per dimension",
                limits.item
            )
        }));
    }
    let total: usize = l.iter().product();
    if total > limits.group {
        return Err(why(CL_INVALID_WORK_GROUP_SIZE, || {
            format!(
                "local size {l:?} is {total} work-items, above the kernel's \
                 CL_KERNEL_WORK_GROUP_SIZE {}",
                limits.group
            )
        }));
    }
    if limits.uniform && global.iter().zip(l).any(|(g, l)| g % l != 0) {
        return Err(why(CL_INVALID_WORK_GROUP_SIZE, || {
            format!(
                "the program was built with -cl-uniform-work-group-size and global size \
                 {global:?} is not a multiple of local size {l:?}"
            )
        }));
    }
    if let Some(r) = limits.required {
        let mut padded = [1u32; 3];
        for (d, v) in l.iter().enumerate() {
            padded[d] = *v as u32;
        }
        if padded != r {
            return Err(why(CL_INVALID_WORK_GROUP_SIZE, || {
                format!(
                    "local size {l:?} differs from the kernel's reqd_work_group_size({}, {}, {})",
                    r[0], r[1], r[2]
                )
            }));
        }
    }
    Ok(())
}

/// Sizes checked by [`fit`] as u32s.
fn u32s(v: &[usize]) -> [u32; 3] {
    let mut out = [0u32; 3];
    for (o, &x) in out.iter_mut().zip(v) {
        *o = x as u32;
    }
    out
}

impl Launch {
    /// The launch of `kernel` on `queue`, checked in clEnqueueNDRangeKernel's order: one
    /// context, the kernel built for the queue's device, `work_dim` 1 to 3.
    pub fn new(
        queue: Arc<Handle<Queue>>,
        kernel: Arc<Handle<Kernel>>,
        work_dim: cl_uint,
    ) -> Result<Launch, cl_int> {
        if !Arc::ptr_eq(&queue.obj.context, &kernel.obj.program.obj.context) {
            return Err(why(CL_INVALID_CONTEXT, || {
                "the queue and the kernel's program belong to different contexts".into()
            }));
        }
        kernel.obj.on(&queue.obj.device)?;
        Ok(Launch {
            dims: dims(work_dim)?,
            queue,
            kernel,
        })
    }

    fn device(&self) -> &Device {
        &self.queue.obj.device.obj
    }

    /// What the application's local size must keep to on this queue's device.
    pub fn limits(&self) -> Limits {
        let k = &self.kernel.obj;
        let uniform = k
            .program
            .obj
            .device_index(&self.queue.obj.device)
            .and_then(|d| k.uniform_groups.get(d))
            .is_some_and(|&u| u);
        Limits {
            item: self.device().max_work_group(),
            group: k.max_group(self.device()),
            uniform,
            required: k.described().and_then(|d| d.required_work_group_size),
        }
    }

    /// The range clEnqueueNDRangeKernel runs: `local`, or for None the one umd picks for the
    /// kernel's SIMD width within the kernel's maximum (CL_KERNEL_WORK_GROUP_SIZE; its
    /// required work-group size if it has one), at `offset`. clGetKernelSuggestedLocalWorkSizeKHR
    /// answers with this range's local size, so its suggestion is what an enqueue with a NULL
    /// local size runs. Each slice holds the launch's `dims` sizes.
    fn range(
        &self,
        global: &[u32],
        local: Option<&[u32]>,
        offset: &[u32],
    ) -> Result<umd::ndrange::NdRange, cl_int> {
        let k = &self.kernel.obj;
        let uk = k.on(&self.queue.obj.device)?;
        let required = k.described().and_then(|d| d.required_work_group_size);
        let limit = u32::try_from(k.max_group(self.device())).unwrap_or(u32::MAX);
        umd::ndrange::NdRange::new_within(global, local, uk.simd, required, limit)
            .map_err(|_| CL_INVALID_WORK_GROUP_SIZE)?
            .with_offset(offset)
            .map_err(|_| CL_INVALID_GLOBAL_OFFSET)
    }

    /// clEnqueueNDRangeKernel's command for the application's global size, offset and local
    /// size (None where it gave NULL; else the launch's `dims` sizes each). A NULL or zero
    /// global size runs nothing (OpenCL 2.1+); the command still completes its event.
    pub fn command(
        &self,
        global: Option<&[usize]>,
        offset: Option<&[usize]>,
        local: Option<&[usize]>,
    ) -> Result<Command, cl_int> {
        let (q, k, dims) = (&self.queue, &self.kernel, self.dims);
        let global = fit_given(global, CL_INVALID_GLOBAL_WORK_SIZE)?.unwrap_or([0; 3]);
        let global = &global[..dims];
        let offset = fit_given(offset, CL_INVALID_GLOBAL_OFFSET)?;
        let local = fit_given(local, CL_INVALID_WORK_ITEM_SIZE)?;
        let local = local.as_ref().map(|l| &l[..dims]);
        let offset = offset.as_ref().map(|o| &o[..dims]);
        if let Some(o) = offset {
            offset_fits(o, global)?;
        }
        if let Some(l) = local {
            check_local(global, l, &self.limits())?;
        }
        let (args, mems) = k.obj.enqueued_args()?;
        let resident = k.obj.usm_resident(
            &q.obj.context.obj.usm,
            &q.obj.device,
            &crate::core::usm::user(q),
        )?;
        if mems
            .iter()
            .any(|m| !Arc::ptr_eq(&m.obj.device, &q.obj.device))
        {
            return Err(why(CL_INVALID_OPERATION, || {
                "a buffer argument lives on another device than the queue's".into()
            }));
        }
        let work = if global.contains(&0) {
            Work::Nothing
        } else {
            let (g32, o32) = (u32s(global), offset.map_or([0; 3], u32s));
            let l32 = local.map(u32s);
            Work::Kernel(KernelRun {
                kernel: k.clone(),
                range: self.range(&g32[..dims], l32.as_ref().map(|l| &l[..dims]), &o32[..dims])?,
                args,
                mems,
                resident,
            })
        };
        // A GPU fault or hang fails the event and reaches the context's callback.
        Ok(Command::new(q, CL_COMMAND_NDRANGE_KERNEL, false, work))
    }

    /// clGetKernelSuggestedLocalWorkSizeKHR's checks of the global size and offset (None
    /// where the application gave NULL), those clEnqueueNDRangeKernel makes, except that a
    /// NULL or zero global size is CL_INVALID_GLOBAL_WORK_SIZE: there is nothing to suggest
    /// for.
    pub fn suggest_range(
        &self,
        global: Option<&[usize]>,
        offset: Option<&[usize]>,
    ) -> Result<Range32, cl_int> {
        let global =
            fit_given(global, CL_INVALID_GLOBAL_WORK_SIZE)?.ok_or(CL_INVALID_GLOBAL_WORK_SIZE)?;
        if global[..self.dims].contains(&0) {
            return Err(CL_INVALID_GLOBAL_WORK_SIZE);
        }
        let offset = fit_given(offset, CL_INVALID_GLOBAL_OFFSET)?.unwrap_or([0; 3]);
        offset_fits(&offset, &global)?;
        Ok((u32s(&global), u32s(&offset)))
    }

    /// The local size an enqueue over `range` ([`Launch::suggest_range`]) with a NULL local
    /// size runs (its first `dims` sizes count), once the kernel's arguments are all set.
    pub fn suggested_local(&self, (g32, o32): Range32) -> Result<[u32; 3], cl_int> {
        self.kernel.obj.enqueued_args()?;
        let dims = self.dims;
        Ok(self.range(&g32[..dims], None, &o32[..dims])?.local)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: Limits = Limits {
        item: 1024,
        group: 512,
        uniform: false,
        required: None,
    };

    #[test]
    fn work_dim_is_one_to_three() {
        assert_eq!(dims(0), Err(CL_INVALID_WORK_DIMENSION));
        assert_eq!(dims(4), Err(CL_INVALID_WORK_DIMENSION));
        assert_eq!(dims(1), Ok(1));
        assert_eq!(dims(3), Ok(3));
    }

    #[test]
    fn sizes_above_32_bits_take_the_error_of_their_array() {
        let big = u32::MAX as usize + 1;
        assert_eq!(
            fit(&[4, big], CL_INVALID_GLOBAL_WORK_SIZE),
            Err(CL_INVALID_GLOBAL_WORK_SIZE)
        );
        assert_eq!(
            fit(&[big], CL_INVALID_WORK_ITEM_SIZE),
            Err(CL_INVALID_WORK_ITEM_SIZE)
        );
        assert_eq!(fit(&[4, 2], CL_INVALID_GLOBAL_OFFSET), Ok([4, 2, 0]));
    }

    #[test]
    fn an_offset_must_keep_the_range_within_32_bits() {
        let max = u32::MAX as usize;
        assert_eq!(offset_fits(&[1], &[max]), Err(CL_INVALID_GLOBAL_OFFSET));
        assert_eq!(
            offset_fits(&[0, usize::MAX], &[1, 1]),
            Err(CL_INVALID_GLOBAL_OFFSET)
        );
        assert_eq!(offset_fits(&[1], &[max - 1]), Ok(()));
    }

    #[test]
    fn a_zero_or_too_wide_local_dimension_is_an_invalid_work_item_size() {
        assert_eq!(
            check_local(&[64, 4], &[8, 0], &NONE),
            Err(CL_INVALID_WORK_ITEM_SIZE)
        );
        assert_eq!(
            check_local(&[4096], &[2048], &NONE),
            Err(CL_INVALID_WORK_ITEM_SIZE)
        );
    }

    #[test]
    fn more_work_items_than_the_kernel_takes_is_an_invalid_work_group_size() {
        // Each dimension within the device's 1024, the product above the kernel's 512.
        assert_eq!(
            check_local(&[64, 64], &[32, 32], &NONE),
            Err(CL_INVALID_WORK_GROUP_SIZE)
        );
        assert_eq!(check_local(&[64, 64], &[32, 16], &NONE), Ok(()));
    }

    #[test]
    fn groups_may_be_partial_unless_the_program_asks_for_uniform_ones() {
        assert_eq!(check_local(&[100], &[16], &NONE), Ok(()));
        let uniform = Limits {
            uniform: true,
            ..NONE
        };
        assert_eq!(
            check_local(&[100], &[16], &uniform),
            Err(CL_INVALID_WORK_GROUP_SIZE)
        );
        assert_eq!(check_local(&[96], &[16], &uniform), Ok(()));
    }

    #[test]
    fn a_required_work_group_size_takes_only_itself() {
        let fixed = Limits {
            required: Some([16, 1, 1]),
            group: 16,
            ..NONE
        };
        assert_eq!(
            check_local(&[64], &[8], &fixed),
            Err(CL_INVALID_WORK_GROUP_SIZE)
        );
        assert_eq!(check_local(&[64], &[16], &fixed), Ok(()));
        // The unused dimensions count as 1.
        assert_eq!(check_local(&[64, 4], &[16, 1], &fixed), Ok(()));
        let square = Limits {
            required: Some([4, 4, 1]),
            group: 16,
            ..NONE
        };
        assert_eq!(
            check_local(&[16, 16], &[16, 1], &square),
            Err(CL_INVALID_WORK_GROUP_SIZE)
        );
    }
}
